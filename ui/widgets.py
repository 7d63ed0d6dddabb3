"""Small building blocks that show pack text safely.

Pack text is untrusted (spec §4.5). It is shown in plain-text labels, or — where a web
address in it should be clickable — as HTML built here with every character escaped;
clicking an address asks the person first, showing the exact address. Nothing from a
pack is ever run: a sender's `how` is a quoted block with a Copy button, never a Run.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from . import dialogs, launch
from .i18n import tr

_URL = re.compile(r"\bhttps?://[^\s<>\"'«»“”]+", re.IGNORECASE)

COLORS = {
    "error": ("#fde8e8", "#9b1c1c"),
    "warn": ("#fdf6e3", "#7a5200"),
    "info": ("#e8f1fd", "#1c3f9b"),
    "ok": ("#e6f6ec", "#1b6b3a"),
}


def plain(text: str, *, bold: bool = False, small: bool = False, muted: bool = False,
          selectable: bool = True) -> QLabel:  # fmt: skip
    """A label that shows `text` as typed: no HTML, no links, wrapped."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    font = label.font()
    if bold:
        font.setBold(True)
    if small:
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 7.0))
    label.setFont(font)
    if muted:
        label.setStyleSheet("color: #5f6368;")
    return label


def escaped_html(text: str) -> str:
    """`text` as HTML: everything escaped; http(s) addresses become links to confirm."""
    out: list[str] = []
    pos = 0
    for m in _URL.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        url = m.group(0).rstrip(".,;:!?)")
        out.append(f'<a href="{html.escape(url, quote=True)}">{html.escape(url)}</a>')
        out.append(html.escape(m.group(0)[len(url) :]))
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out).replace("\n", "<br>")


class LinkedText(QLabel):
    """Pack text whose web addresses open only after the person confirms the address."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.raw = text
        if _URL.search(text):
            self.setTextFormat(Qt.TextFormat.RichText)
            self.setText(escaped_html(text))
            self.setOpenExternalLinks(False)
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            self.linkActivated.connect(self._ask_then_open)
        else:
            self.setTextFormat(Qt.TextFormat.PlainText)
            self.setText(text)
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWordWrap(True)

    def _ask_then_open(self, url: str) -> None:
        open_link(self, url)


def open_link(parent: QWidget, url: str) -> bool:
    """Open a web address from a pack only after the person confirms the exact address."""
    if not _URL.fullmatch(url):
        return False
    ok = dialogs.confirm(
        parent, tr("Open a link from the pack?"),
        tr("The pack contains this address. It was written by the sender; open it in your "
           "browser only if you trust it:\n\n{url}").format(url=url),
        ok=tr("Open this address"),
    )  # fmt: skip
    return bool(ok) and launch.open_url(QUrl(url))


class QuotedBlock(QFrame):
    """The sender's words (a `how`), shown as a quote with Copy — never a Run button."""

    copied = Signal(str)

    def __init__(self, text: str, caption: str, parent: QWidget | None = None, *,
                 links: bool = False) -> None:  # fmt: skip
        super().__init__(parent)
        self.text = text
        self.setObjectName("quoted")
        self.setStyleSheet(
            "#quoted { border-left: 4px solid #9aa0a6; background: #f4f5f7; border-radius: 2px; }"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        lay.setSpacing(2)
        top = QHBoxLayout()
        self.caption = plain(caption, small=True, muted=True, selectable=False)
        top.addWidget(self.caption, 1)
        self.copy_button = QToolButton()
        self.copy_button.setText(tr("Copy"))
        self.copy_button.setToolTip(tr("Copy the sender's text to the clipboard. Nothing is run."))
        self.copy_button.clicked.connect(self.copy)
        top.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(top)
        # a command stays plain text in a fixed font; prose (a note) may carry addresses
        self.body = LinkedText(text) if links else plain(text)
        if not links:
            self.body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.body)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)
        self.copy_button.setText(tr("Copied"))
        QTimer.singleShot(1500, self.copy_button, lambda: self.copy_button.setText(tr("Copy")))
        self.copied.emit(self.text)


class Banner(QFrame):
    """A one-sentence message over the content: errors, outcomes, hints."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        self.label = plain("")
        lay.addWidget(self.label, 1)
        self.actions_lay = QHBoxLayout()
        lay.addLayout(self.actions_lay)
        self.action_buttons: list[QPushButton] = []
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(tr("Dismiss"))
        self.close_button.clicked.connect(self.clear)
        lay.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.kind = ""
        self.hide()

    def show_message(self, text: str, kind: str = "info", *,
                     actions: Sequence[tuple[str, Callable[[], object]]] = ()) -> None:  # fmt: skip
        """Show `text`; `actions` are (label, callback) buttons beside it (what to do now)."""
        self._clear_actions()
        for label, callback in actions:
            b = QPushButton(label)
            b.clicked.connect(lambda _c=False, f=callback: f())
            self.actions_lay.addWidget(b)
            self.action_buttons.append(b)
        bg, fg = COLORS.get(kind, COLORS["info"])
        self.kind = kind
        self.setStyleSheet(f"#banner {{ background: {bg}; border: 1px solid {fg}; border-radius: 3px; }}"
                           f" #banner QLabel {{ color: {fg}; }}")  # fmt: skip
        self.label.setText(text)
        self.show()

    def text(self) -> str:
        """The message shown now ("" when there is none)."""
        return self.label.text() if self.kind else ""

    def clear(self) -> None:
        self.kind = ""
        self.label.setText("")
        self._clear_actions()
        self.hide()

    def _clear_actions(self) -> None:
        for b in self.action_buttons:
            b.hide()
            b.deleteLater()
        self.action_buttons = []


def badge(text: str, kind: str = "info") -> QLabel:
    bg, fg = COLORS.get(kind, COLORS["info"])
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setStyleSheet(
        f"background: {bg}; color: {fg}; border: 1px solid {fg}; border-radius: 8px; padding: 1px 8px;"
    )
    label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Maximum)
    return label


def heading(text: str, level: int = 2) -> QLabel:
    label = plain(text, bold=True, selectable=False)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * {1: 1.5, 2: 1.2, 3: 1.0}.get(level, 1.0))
    font.setWeight(QFont.Weight.DemiBold)
    label.setFont(font)
    return label


class Section(QWidget):
    """A titled group of rows: a heading, an optional explanation, then the rows."""

    def __init__(self, title: str, explain: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 8, 0, 4)
        self.lay.setSpacing(6)
        self.title = heading(title)
        self.lay.addWidget(self.title)
        if explain:
            self.lay.addWidget(plain(explain, small=True, muted=True, selectable=False))

    def add(self, widget: QWidget) -> QWidget:
        self.lay.addWidget(widget)
        return widget


def row(*widgets: QWidget | None, stretch_last: bool = False) -> QWidget:
    box = QWidget()
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        if w is not None:
            lay.addWidget(w)
    if not stretch_last:
        lay.addStretch(1)
    return box


def button(text: str, slot: Callable[[], object] | None = None, *, tip: str = "",
           primary: bool = False) -> QPushButton:  # fmt: skip
    b = QPushButton(text)
    if tip:
        b.setToolTip(tip)
    if slot is not None:
        b.clicked.connect(lambda _checked=False: slot())
    if primary:
        b.setDefault(True)
        b.setAutoDefault(True)
    return b


def clear_layout(layout: QVBoxLayout | QHBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        w = item.widget()
        if w is not None:
            w.hide()
            w.deleteLater()
        elif item.layout() is not None:
            clear_layout(item.layout())  # type: ignore[arg-type]
