"""The window's first page (what the desk is for, the sample packs, starting a passport) and
the first-run bar above the right side that asks for the person's name.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLineEdit, QVBoxLayout, QWidget
from taskpack.app.desk import Desk, display_name
from taskpack.app.paths import ACTOR_ENV
from taskpack.ui import tones
from taskpack.ui.composer.welcome import sender_half
from taskpack.ui.i18n import tr
from taskpack.ui.widgets import button, heading, plain
from taskpack.ui.window.incoming import sample_packs

#: set when the person chose "Not now" for their name (the first-run bar stays away)
NAME_ASKED_KEY = "name_asked"


class WelcomePage(QWidget):
    """Shown while nothing is chosen; on an empty desk it offers the sample packs."""

    open_requested = Signal()
    samples_requested = Signal()
    new_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(40, 40, 40, 40)
        lay.addWidget(heading(tr("Work handed to you by file lands here"), 1))
        lay.addWidget(
            plain(
                tr(
                    "Drag a .taskpack or .taskpack.json file onto this window, or open one. You will see "
                    "what is proven and what is not, the checks to do first and the questions to answer "
                    "— before anything is stored. Nothing in a pack is ever run."
                )
            )
        )
        self.samples_note = plain(
            tr(
                "Your desk is empty. The sample packs show a handoff with sealed facts and required "
                "checks, a Chinese-language handoff, and a receipt."
            ),
            muted=True,
        )
        lay.addWidget(self.samples_note)
        buttons = QHBoxLayout()
        buttons.addWidget(button(tr("Open a pack…"), self.open_requested.emit, primary=True))
        self.samples_button = button(tr("Open the sample packs"), self.samples_requested.emit)
        buttons.addWidget(self.samples_button)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        lay.addWidget(sender_half(self.new_requested.emit))
        lay.addStretch(1)

    def update_samples(self, desk_empty: bool) -> None:
        self.samples_note.setVisible(desk_empty)
        self.samples_button.setVisible(bool(sample_packs()))  # cached: no disk here


class NameBar(QFrame):
    """First run: who is this? The name signs answers, checks and the packs sent."""

    saved = Signal(str)  # the name now signing (""; the person chose "Not now")

    def __init__(self, desk: Desk) -> None:
        super().__init__()
        self.desk = desk
        self.setObjectName("namebar")
        self.setStyleSheet(
            f"#namebar {{ background: {tones.wash('info')}; border: 1px solid {tones.edge('info')};"
            " border-radius: 3px; }"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        self.question = plain(
            tr(
                "What is your name? It signs your answers, the checks you make and the packs you send "
                "(this machine, {machine}, is added to it). You can change it in Settings."
            ).format(machine=desk.machine)
        )
        lay.addWidget(self.question)
        line = QHBoxLayout()
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(tr("e.g. Wei Zhang"))
        self.edit.setAccessibleName(tr("Your name"))
        self.edit.returnPressed.connect(self.save)
        line.addWidget(self.edit, 1)
        self.save_button = button(tr("Use this name"), self.save, primary=True)
        line.addWidget(self.save_button)
        self.later_button = button(tr("Not now"), lambda: self.save(later=True))
        line.addWidget(self.later_button)
        lay.addLayout(line)
        self.setVisible(self.wanted())

    def wanted(self) -> bool:
        """The name is not known, and the person did not say "Not now"."""
        settings = self.desk.settings
        return (
            not settings.actor
            and not os.environ.get(ACTOR_ENV, "").strip()
            and not settings.other.get(NAME_ASKED_KEY)
        )

    def save(self, *, later: bool = False) -> None:
        """Keep the name typed (or, with `later`, stop asking)."""
        if later:
            self.desk.settings.other[NAME_ASKED_KEY] = True
            name = ""
        else:
            typed = display_name(self.edit.text(), self.desk.machine)
            if typed is None:
                self.edit.setFocus()
                return
            name = typed
            self.desk.settings.actor = name
            self.desk.actor = name
        self.saved.emit(name)
