"""The sender's half of the empty desk: start your own work and hand it off."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget
from taskpack.ui.i18n import tr
from taskpack.ui.widgets import button, heading, plain


def sender_half(new_passport: Callable[[], None]) -> QWidget:
    """A heading, one paragraph and "New passport…", beside the receiver's half."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 24, 0, 0)
    lay.addWidget(heading(tr("Start your own work and hand it off"), 1))
    lay.addWidget(
        plain(
            tr(
                "Write down what you are doing: the goal, what is true and where, the questions "
                "you need answered, the checks the next person does first, and the files. Then "
                "send it as a handoff: a file, a chat message or an email."
            )
        )
    )
    line = QHBoxLayout()
    start = button(tr("New passport…"), new_passport)
    start.setAccessibleName(tr("New passport…"))
    line.addWidget(start)
    line.addStretch(1)
    lay.addLayout(line)
    return box
