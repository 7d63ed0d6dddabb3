"""The asks form: each ask's what / why / accept, an answer field, and its status.

`accept` is shown as what the answer is judged against (spec §4.3): the person writes an
answer that meets it. Answers are saved one ask at a time; Export receipt sends them home.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from taskpack.core.model import Ask

from .i18n import tr
from .widgets import Banner, LinkedText, badge, plain

STATUS_KIND = {"open": "warn", "answered": "ok", "dropped": "info"}


def status_label(status: str) -> str:
    return {"open": tr("open"), "answered": tr("answered"), "dropped": tr("dropped")}.get(status, status)


class AskCard(QFrame):
    save_requested = Signal(str, str, str)  # ask id, answer, status

    def __init__(self, ask: Ask, *, highlight: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ask = ask
        self.ask_id = ask.id or ""
        self.setObjectName("ask")
        border = "#1b6b3a" if highlight else "#c9ccd1"
        self.setStyleSheet(f"#ask {{ border: 1px solid {border}; border-radius: 4px; }}")
        grid = QGridLayout(self)
        grid.setColumnStretch(1, 1)
        status = ask.status or "open"
        top = QHBoxLayout()
        top.addWidget(plain(f"{self.ask_id}" + (f" · {tr('to')} {ask.to}" if ask.to else ""),
                            bold=True, selectable=False))  # fmt: skip
        self.status_badge = badge(status_label(status), STATUS_KIND.get(status, "info"))
        top.addWidget(self.status_badge)
        if highlight:
            top.addWidget(badge(tr("answered by the receipt"), "ok"))
        top.addStretch(1)
        grid.addLayout(top, 0, 0, 1, 2)
        n = 1
        for label, value in ((tr("Question"), ask.what or ""), (tr("Why"), ask.why or "")):
            if value:
                grid.addWidget(plain(label, bold=True, selectable=False), n, 0, Qt.AlignmentFlag.AlignTop)
                grid.addWidget(LinkedText(value), n, 1)
                n += 1
        grid.addWidget(plain(tr("Judged against"), bold=True, selectable=False), n, 0, Qt.AlignmentFlag.AlignTop)
        accept = LinkedText(ask.accept or tr("(no accept given: this ask cannot be judged)"))
        accept.setStyleSheet("background: #fdf6e3; padding: 3px;")
        grid.addWidget(accept, n, 1)
        n += 1
        grid.addWidget(plain(tr("Answer"), bold=True, selectable=False), n, 0, Qt.AlignmentFlag.AlignTop)
        self.answer_edit = QPlainTextEdit()
        self.answer_edit.setPlaceholderText(tr("Write an answer that meets the text above."))
        answer = ask.answer
        self.answer_edit.setPlainText("" if answer is None else answer if isinstance(answer, str) else str(answer))
        self.answer_edit.setFixedHeight(72)
        self.answer_edit.setTabChangesFocus(True)
        grid.addWidget(self.answer_edit, n, 1)
        n += 1
        if ask.answered_by or ask.answered_at:
            by = tr("Answered by {who} at {when}").format(
                who=ask.answered_by or "?", when=(ask.answered_at or "?").replace("T", " "))  # fmt: skip
            grid.addWidget(plain(by, small=True, muted=True), n, 1)
            n += 1
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.drop_button = QPushButton(tr("Drop"))
        self.drop_button.setToolTip(tr("Mark the ask as dropped: it will not be answered."))
        self.drop_button.clicked.connect(lambda: self._save("dropped"))
        self.save_button = QPushButton(tr("Save answer"))
        self.save_button.clicked.connect(lambda: self._save("answered"))
        buttons.addWidget(self.drop_button)
        buttons.addWidget(self.save_button)
        grid.addLayout(buttons, n, 1)

    def _save(self, status: str) -> None:
        self.save_requested.emit(self.ask_id, self.answer_edit.toPlainText(), status)


class AsksForm(QWidget):
    save_requested = Signal(str, str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.banner = Banner()
        outer.addWidget(self.banner)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroll, 1)
        self.cards: dict[str, AskCard] = {}

    def show_asks(self, asks: list[Ask], *, highlight: set[str] | frozenset[str] = frozenset(),
                  note: str = "") -> None:  # fmt: skip
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(12, 8, 12, 8)
        self.cards = {}
        if not asks:
            lay.addWidget(plain(tr("No asks. A question for the next person is added from the Overview tab.")))
        for ask in asks:
            card = AskCard(ask, highlight=(ask.id or "") in highlight)
            card.save_requested.connect(self.save_requested)
            self.cards[card.ask_id] = card
            lay.addWidget(card)
        lay.addStretch(1)
        self.scroll.setWidget(body)
        if note:
            self.banner.show_message(note, "ok")
        else:
            self.banner.clear()

    def status_of(self, ask_id: str) -> str:
        card = self.cards.get(ask_id)
        return card.status_badge.text() if card else ""

    def labels(self) -> list[str]:
        return [lbl.text() for lbl in self.findChildren(QLabel)]
