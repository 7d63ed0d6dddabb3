"""The asks form: each ask's what / why / accept, an answer field, and its status.

`accept` is shown as what the answer is judged against (spec §4.3): the person writes an
answer that meets it. Nothing typed is lost: every keystroke is kept as a draft (in
memory at once, in the desk's drafts file shortly after), a draft survives moving to
another passport, a reload and a restart, and is shown as "not saved yet" until it is
saved. Enter saves a one-line answer (Shift+Enter starts a new line; Ctrl+Enter saves a
longer one); "Save all" saves every unsaved answer at once; exporting a receipt saves
what is on screen first. Many asks are shown a page at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import Ask, AskPages, Desk, open_count
from taskpack.ui import tones
from taskpack.ui.i18n import tr, trn
from taskpack.ui.pack_items import recipient_words
from taskpack.ui.paging import add_paged
from taskpack.ui.widgets import Banner, LinkedText, badge, plain
from taskpack.ui.words import local_time, number, one_line

STATUS_KIND = {"open": "warn", "answered": "ok", "dropped": "info"}
#: an answer field grows with its text up to this many lines, then scrolls
ANSWER_LINES = 6


class DraftStore(Protocol):
    def set(self, passport_id: str, ask_id: str, text: str) -> None: ...


def open_asks(asks: Sequence[Ask]) -> Sequence[Ask]:
    """The open ones of `asks` (pages stay pages: no ask is built to find them)."""
    if isinstance(asks, AskPages):
        return asks.select(flag != 0 for flag in asks.open_flags)
    return [a for a in asks if (a.status or "open") == "open"]


def status_label(status: str) -> str:
    return {"open": tr("open"), "answered": tr("answered"), "dropped": tr("dropped")}.get(
        status, one_line(status, 40)
    )


def stored_answer(ask: Ask) -> str:
    answer = ask.answer
    return "" if answer is None else answer if isinstance(answer, str) else str(answer)


class AnswerEdit(QPlainTextEdit):
    """An answer field: Enter saves a one-line answer, Shift+Enter adds a line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            if mods & Qt.KeyboardModifier.ControlModifier or (
                not mods & Qt.KeyboardModifier.ShiftModifier and "\n" not in self.toPlainText()
            ):
                self.submitted.emit()
                return
        super().keyPressEvent(event)


class AskCard(QFrame):
    """One ask, compact so that a long list reads like a list: its id and status on one
    line, the question, what counts as an answer, then the answer field (two lines high,
    growing as it is written) with Save and Drop beside it."""

    save_requested = Signal(str, str, str)  # ask id, answer, status
    edited = Signal(str, str)  # ask id, text now on screen

    def __init__(
        self,
        ask: Ask,
        *,
        highlight: bool = False,
        draft: str | None = None,
        editable: bool = True,
        came: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """`came`: "receipt" or "handoff" when the answer came in a pack (the desk's
        history says so, `Desk.answer_sources`): the by-line says whose it is."""
        super().__init__(parent)
        self.ask = ask
        self.ask_id = ask.id or ""
        self.setObjectName("ask")
        border = tones.edge("ok") if highlight else tones.edge()
        self.setStyleSheet(f"#ask {{ border: 1px solid {border}; border-radius: 4px; }}")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 6)
        lay.setSpacing(3)
        status = ask.status or "open"
        top = QHBoxLayout()
        top.setSpacing(6)
        top.addWidget(
            plain(
                one_line(self.ask_id, 40) + (f" · {recipient_words(ask.to)}" if ask.to else ""),
                bold=True,
                selectable=False,
            ),
            1,  # the id and whom it is for take the line; the badges sit at its end
        )
        self.status_badge = badge(status_label(status), STATUS_KIND.get(status, "info"))
        top.addWidget(self.status_badge)
        if highlight:
            top.addWidget(badge(tr("answered by the receipt"), "ok"))
        self.draft_badge = badge(tr("not saved yet"), "warn")
        self.draft_badge.setToolTip(
            tr("You typed this and it is kept as a draft. Save it to answer the ask.")
        )
        top.addWidget(self.draft_badge)
        lay.addLayout(top)
        question = LinkedText(ask.what or tr("(no question)"), title=tr("Question"))
        question.setAccessibleName(tr("Question"))
        lay.addWidget(question)
        if (ask.why or "").strip():
            why = LinkedText(tr("Why: {why}").format(why=ask.why), title=tr("Why"))
            why.setStyleSheet(f"color: {tones.muted()};")
            lay.addWidget(why)
        accept_line = QHBoxLayout()
        accept_line.setSpacing(6)
        accept_label = plain(tr("What counts as an answer"), small=True, selectable=False)
        accept_label.setStyleSheet(f"color: {tones.muted()};")
        accept_label.setWordWrap(False)
        accept_line.addWidget(accept_label, 0, Qt.AlignmentFlag.AlignTop)
        accept = LinkedText(
            ask.accept or tr("(no accept given: this ask cannot be judged)"),
            title=tr("What counts as an answer"),
        )
        accept.setStyleSheet(f"background: {tones.wash('warn')}; padding: 1px 3px;")
        accept_line.addWidget(accept, 1)
        lay.addLayout(accept_line)
        if status == "open" and Desk.ask_warnings(ask):  # the ask lint packing warns with
            self.accept_warning = plain(
                tr(
                    "⚠ This accept is too short or vague to judge an answer "
                    "against: say what would count (a number and its unit, "
                    "yes or no with the reason, a date …)."
                ),
                small=True,
            )
            self.accept_warning.setStyleSheet(f"color: {tones.kind_colors('warn')[1]};")
            lay.addWidget(self.accept_warning)
        self.answer_edit = AnswerEdit()
        self.answer_edit.setAccessibleName(tr("Answer"))
        self.answer_edit.setPlaceholderText(
            tr(
                "Write an answer that meets the text above. Enter saves it; "
                "Shift+Enter starts a new line."
            )
        )
        self.saved_text = stored_answer(ask)
        self.answer_edit.setPlainText(self.saved_text if draft is None else draft)
        self.answer_edit.moveCursor(QTextCursor.MoveOperation.End)  # typing goes on where it ended
        self.answer_edit.setTabChangesFocus(True)
        self.answer_edit.textChanged.connect(self._changed)
        self.answer_edit.submitted.connect(lambda: self._save("answered"))
        self._fit_answer()
        # the buttons beside the field, one over the other: no line of their own
        self.drop_button = QPushButton(tr("Drop"))
        self.drop_button.setToolTip(tr("Mark the ask as dropped: it will not be answered."))
        self.drop_button.clicked.connect(lambda: self._save("dropped"))
        self.save_button = QPushButton(tr("Save answer"))
        self.save_button.clicked.connect(lambda: self._save("answered"))
        answer_line = QHBoxLayout()
        answer_line.setSpacing(6)
        answer_line.addWidget(self.answer_edit, 1)
        buttons = QVBoxLayout()
        buttons.setSpacing(2)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.drop_button)
        buttons.addStretch(1)
        answer_line.addLayout(buttons)
        lay.addLayout(answer_line)
        if came and (ask.answered_by or ask.answered_at or ask.answer is not None):
            who = one_line(ask.answered_by) if ask.answered_by else tr("someone")
            by = (
                tr("Answered by {who}, in a receipt")
                if came == "receipt"
                else tr("Answered by {who}, in the handoff")
            ).format(who=who)
            if ask.answered_at:
                by += f" · {local_time(ask.answered_at)}"
            lay.addWidget(plain(by, small=True, muted=True))
        elif ask.answered_by or ask.answered_at:
            if ask.answered_by and ask.answered_at:
                by = tr("Answered by {who} on {when}").format(
                    who=one_line(ask.answered_by), when=local_time(ask.answered_at)
                )
            elif ask.answered_by:
                by = tr("Answered by {who}").format(who=one_line(ask.answered_by))
            else:
                by = tr("Answered on {when}").format(when=local_time(ask.answered_at))
            lay.addWidget(plain(by, small=True, muted=True))
        if not editable:  # the task has ended: the answers are a record now
            self.answer_edit.setReadOnly(True)
            self.answer_edit.setPlaceholderText(tr("Not answered."))
            self.drop_button.hide()
            self.save_button.hide()
        self._update_draft_badge()

    def _fit_answer(self) -> None:
        """The answer field two lines high, growing with what is written (up to
        ANSWER_LINES lines; then it scrolls)."""
        lines = self.answer_edit.toPlainText().count("\n") + 1
        shown = min(max(lines, 2), ANSWER_LINES)
        fm = self.answer_edit.fontMetrics()
        margins = self.answer_edit.contentsMargins()
        frame = 2 * self.answer_edit.frameWidth() + margins.top() + margins.bottom()
        doc = self.answer_edit.document().documentMargin()
        self.answer_edit.setFixedHeight(int(shown * fm.lineSpacing() + 2 * doc + frame + 2))

    def unsaved(self) -> bool:
        text = self.answer_edit.toPlainText()
        return text != self.saved_text and bool(text.strip())

    def _changed(self) -> None:
        self._fit_answer()
        self._update_draft_badge()
        self.edited.emit(self.ask_id, self.answer_edit.toPlainText())

    def _update_draft_badge(self) -> None:
        self.draft_badge.setVisible(self.answer_edit.toPlainText() != self.saved_text)

    def _save(self, status: str) -> None:
        self.save_requested.emit(self.ask_id, self.answer_edit.toPlainText(), status)


class AsksForm(QWidget):
    save_requested = Signal(str, str, str)
    save_all_requested = Signal(object)  # {ask id: answer}

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.banner = Banner()
        outer.addWidget(self.banner)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 4, 12, 0)
        # how far along the person is, and the asks still to do: the words beside the bar
        # (drawn over its fill they were hard to read), the bar itself text-less
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMinimumWidth(40)  # a narrow window shortens the bar, not the words
        self.progress.setMaximumWidth(120)
        self.progress.setFixedHeight(self.progress.fontMetrics().height() // 2 + 4)
        self.progress.setToolTip(tr("Asks answered or dropped; the others are still open."))
        self.progress_label = plain("", selectable=False)
        self.progress_label.setWordWrap(False)
        self.progress_label.setToolTip(self.progress.toolTip())
        self.progress_label.setBuddy(self.progress)
        bar.addWidget(self.progress, 1, Qt.AlignmentFlag.AlignVCenter)
        bar.addWidget(self.progress_label)
        self.open_only = QCheckBox(tr("Open only"))
        self.open_only.setToolTip(tr("Show only the asks that still need an answer."))
        self.open_only.toggled.connect(lambda _on: self._show_again())
        bar.addWidget(self.open_only)
        self.unsaved_label = plain("", small=True, muted=True)
        bar.addWidget(self.unsaved_label, 1)
        self.save_all_button = QPushButton(tr("Save all answers"))
        self.save_all_button.setToolTip(tr("Save every answer you typed and have not saved yet."))
        self.save_all_button.clicked.connect(self._save_all)
        bar.addWidget(self.save_all_button)
        outer.addLayout(bar)
        self.scroll_area = QScrollArea()
        self.scroll_area.setAccessibleName(tr("Asks"))
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroll_area, 1)
        self.cards: dict[str, AskCard] = {}
        self.editable = True
        self.passport_id = ""
        self.draft_store: DraftStore | None = None
        #: (passport id, ask id) → the text on screen, while it differs from the saved answer
        self._typed: dict[tuple[str, str], str] = {}
        self._asks: Sequence[Ask] = []
        self._came: Callable[[str | None], str | None] | None = None
        self._shown_with: tuple[set[str] | frozenset[str], str, dict[str, str] | None] = (
            frozenset(),
            "",
            None,
        )

    def show_asks(
        self,
        asks: Sequence[Ask],
        *,
        highlight: set[str] | frozenset[str] = frozenset(),
        note: str = "",
        passport_id: str = "",
        drafts: dict[str, str] | None = None,
        editable: bool = True,
        came: Callable[[str | None], str | None] | None = None,
    ) -> None:
        """`came(ask id)`: where an answer came from, when in a pack (see AskCard).
        Show `asks` (read only unless `editable`); an answer typed earlier (kept here, or in `drafts` from the desk's
        drafts file) is put back in its field, marked "not saved yet"."""
        if passport_id != self.passport_id:
            self.open_only.blockSignals(True)  # another passport: all its asks
            self.open_only.setChecked(False)
            self.open_only.blockSignals(False)
        self.passport_id = passport_id
        self._asks = asks  # may be pages (core.pages.AskPages): read a page at a time
        self._shown_with = (highlight, note, drafts)
        self._came = came
        self.editable = editable
        total, still_open = len(asks), open_count(asks)
        self.progress.setVisible(total > 1)
        self.progress_label.setVisible(total > 1)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(total - still_open)
        said = tr("{done} of {total} answered").format(
            done=number(total - still_open), total=number(total)
        )
        self.progress.setFormat(said)  # what a screen reader says of the bar
        self.progress.setAccessibleName(said)
        self.progress_label.setText(said)
        self.open_only.setVisible(total > 1 and 0 < still_open < total)
        shown = open_asks(asks) if self.open_only.isChecked() else asks
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(12, 8, 12, 8)
        self.cards = {}
        stored = drafts or {}
        for ask_id, text in stored.items():  # a draft on a page not shown yet still counts
            self._typed.setdefault((passport_id, ask_id), text)
        if not asks:
            lay.addWidget(
                plain(tr("No asks. A question for the next person is added from the Overview tab."))
            )

        def card(ask: Ask) -> QWidget:
            key = (passport_id, ask.id or "")
            draft = self._typed.get(key, stored.get(ask.id or ""))
            if draft is not None and draft == stored_answer(ask):
                draft = None  # saved since: nothing pending
                self._typed.pop(key, None)
            c = AskCard(
                ask,
                highlight=(ask.id or "") in highlight,
                draft=draft,
                editable=editable,
                came=came(ask.id) if came else None,
            )
            c.save_requested.connect(self.save_requested)
            c.edited.connect(self._edited)
            self.cards[c.ask_id] = c
            return c

        add_paged(lay.addWidget, shown, card, parent_layout=lay)
        lay.addStretch(1)
        self.scroll_area.setWidget(body)
        if note:
            self.banner.show_message(note, "ok")
        else:
            self.banner.clear()
        self._update_unsaved()

    def _show_again(self) -> None:
        """Show the same asks again (the "Open only" box changed)."""
        highlight, note, drafts = self._shown_with
        self.show_asks(
            self._asks,
            highlight=highlight,
            note=note,
            passport_id=self.passport_id,
            drafts=drafts,
            came=self._came,
            editable=self.editable,
        )

    def _edited(self, ask_id: str, text: str) -> None:
        card = self.cards.get(ask_id)
        key = (self.passport_id, ask_id)
        if card is not None and text == card.saved_text:
            self._typed.pop(key, None)
        else:
            self._typed[key] = text
        if self.draft_store is not None and self.passport_id:
            self.draft_store.set(
                self.passport_id, ask_id, "" if card and text == card.saved_text else text
            )
        self._update_unsaved()

    def unsaved(self) -> dict[str, str]:
        """Answers typed on screen (or kept as drafts) and not saved: ask id → text."""
        out: dict[str, str] = {}
        for (pid, ask_id), text in self._typed.items():
            if pid != self.passport_id or not text.strip():
                continue
            saved = self._saved_answer(ask_id)
            if saved is not None and text != saved:
                out[ask_id] = text
        for ask_id, card in self.cards.items():
            if card.unsaved():
                out[ask_id] = card.answer_edit.toPlainText()
        return out

    def _saved_answer(self, ask_id: str) -> str | None:
        """The stored answer of the shown ask `ask_id` (None: no such ask shown)."""
        card = self.cards.get(ask_id)
        if card is not None:
            return card.saved_text
        if isinstance(self._asks, AskPages):
            at = self._asks.index_of(ask_id)
            return None if at is None else stored_answer(self._asks[at])
        return next(
            (stored_answer(a) for a in reversed(self._asks) if (a.id or "") == ask_id), None
        )

    def _update_unsaved(self) -> None:
        n = len(self.unsaved())
        self.unsaved_label.setText(trn("%n answer is not saved yet.", n) if n else "")
        self.unsaved_label.setVisible(bool(n))  # (when hidden, the bar has its room)
        # while the strip says an answer is not saved, the button that saves it is there
        self.save_all_button.setVisible(self.editable and (open_count(self._asks) > 1 or n > 0))
        self.save_all_button.setEnabled(n > 0)
        self.save_all_button.setText(
            trn("Save all answers (%n)", n) if n else tr("Save all answers")
        )

    def _save_all(self) -> None:
        pending = self.unsaved()
        if pending:
            self.save_all_requested.emit(pending)

    def focus_first_open(self) -> None:
        """Put the cursor in the first open ask's answer field, and show it."""
        card = next((c for c in self.cards.values() if (c.ask.status or "open") == "open"), None)
        if card is not None:
            card.answer_edit.setFocus()
            self.scroll_area.ensureWidgetVisible(card)

    def status_of(self, ask_id: str) -> str:
        card = self.cards.get(ask_id)
        return card.status_badge.text() if card else ""

    def labels(self) -> list[str]:
        return [lbl.text() for lbl in self.findChildren(QLabel) if not lbl.isHidden()]
