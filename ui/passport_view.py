"""One passport: where it stands, what to do next, and the actions the lifecycle allows.

The header offers only the moves the state table allows from the current state (plus
Export). Tabs: Overview (required checks first, facts with Restore ✓, next steps,
decisions, the result, what the sender wrote), Asks (the form), Luggage, History.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)
from taskpack.app.desk import (
    LandingCheck,
    StoredLuggage,
    answer_sources,
    is_checked_here,
    lifecycle,
    open_count,
    visible,
)
from taskpack.ui import tones
from taskpack.ui.asks_form import AsksForm
from taskpack.ui.flow_layout import FlowLayout
from taskpack.ui.history_view import HistoryTimeline
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import human_size
from taskpack.ui.journey import JourneyChain, hops
from taskpack.ui.models import state_label, why_label
from taskpack.ui.move_words import EXPORT_MODES, export_label, move_label
from taskpack.ui.next_step import (
    ANSWER,
    CHECK,
    EVIDENCE_HOLDS,
    HANDOFF,
    OPEN_RECEIPT,
    RECEIPT,
    RESULT,
    SIGN_OFF,
    TAKE_ON,
    first_unchecked,
    next_step,
)
from taskpack.ui.ops import Detail, sender_of, take_on_path
from taskpack.ui.pack_items import (
    check_widget,
    evidence_words,
    imperative_block,
    item_text,
    label_text,
    labels_text,
)
from taskpack.ui.paging import add_paged
from taskpack.ui.passport_facts import FactsMixin
from taskpack.ui.step_text import step_text
from taskpack.ui.widgets import (
    Banner,
    LinkedText,
    QuotedBlock,
    Section,
    badge,
    button,
    clear_layout,
    heading,
    layout_widgets,
    plain,
    row,
    unwrapped,
)
from taskpack.ui.words import counted, local_time, one_line


class PassportView(FactsMixin):
    # also restore_requested, check_fact_requested (FactsMixin)
    move_requested = Signal(str, object)  # state, waiting_on
    take_on_requested = Signal()
    open_requested = Signal()  # "Open a receipt…": the window's File → Open
    result_requested = Signal()
    export_requested = Signal(str, str)  # kind, mode
    check_landing_requested = Signal(str)  # landing check id: "I checked this here"
    answer_requested = Signal(str, str, str)
    save_answers_requested = Signal(object)  # {ask id: answer}
    add_requested = Signal(str)  # "fact" | "ask" | "check" | "step"
    save_luggage_requested = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detail: Detail | None = None
        self.journey: JourneyChain | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 10, 12, 6)
        self.header = QVBoxLayout()
        outer.addLayout(self.header)
        self.actions_bar = FlowLayout()  # wraps: the window stays usable at 800×600
        outer.addLayout(self.actions_bar)
        self.banner = Banner()
        outer.addWidget(self.banner)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs, 1)
        self.overview = QScrollArea()
        self.overview.setAccessibleName(tr("Overview"))
        self.overview.setWidgetResizable(True)
        self.overview.setFrameShape(QFrame.Shape.NoFrame)
        self.asks = AsksForm()
        self.asks.save_requested.connect(self.answer_requested)
        self.asks.save_all_requested.connect(self.save_answers_requested)
        self.luggage = QWidget()
        self.luggage_lay = QVBoxLayout(self.luggage)
        self.history = HistoryTimeline()
        self.history.setAccessibleName(tr("History"))
        self.tabs.addTab(self.overview, tr("Overview"))
        self.tabs.addTab(self.asks, tr("Asks"))
        self.tabs.addTab(self.luggage, tr("Attached files"))
        self.tabs.addTab(self.history, tr("History"))
        self.move_buttons: dict[str, QPushButton] = {}
        self.restore_buttons: dict[int, QPushButton] = {}
        self.check_buttons: dict[int, QPushButton] = {}
        self.landing_check_buttons: dict[str, QPushButton] = {}
        self.restore_reasons: dict[int, str] = {}
        self.export_button = QToolButton()
        self.export_button.setText(tr("Export"))
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.export_menu = QMenu(self.export_button)
        self.export_button.setMenu(self.export_menu)
        self.export_actions: dict[tuple[str, str], QAction] = {}
        # who the pack is for: kept in the outbox ledger with it (shown in History)
        self.export_to = QLineEdit()
        self.export_to.setPlaceholderText(tr("For whom? (optional, kept in your outbox)"))
        self.export_to.setClearButtonEnabled(True)
        self._export_to_action = QWidgetAction(self)  # not the menu's: clear() would delete it
        recipient = QWidget()
        line = QHBoxLayout(recipient)
        line.setContentsMargins(8, 4, 8, 4)
        to_label = QLabel(tr("For whom:"))
        to_label.setBuddy(self.export_to)
        line.addWidget(to_label)
        line.addWidget(self.export_to, 1)
        self._export_to_action.setDefaultWidget(recipient)

    def recipient(self) -> str | None:
        """Who the next export is for, as typed in the Export menu (None when empty)."""
        return self.export_to.text().strip() or None

    # -- filling --

    def show_detail(
        self, detail: Detail, *, answered: set[str] | frozenset[str] = frozenset(), note: str = ""
    ) -> None:
        self.detail = detail
        lp = detail.local
        self._fill_header(detail)
        self._fill_actions(detail)
        self._fill_overview(detail)
        asks = lp.asks or []  # a large passport's asks are pages (core.pages): never listed whole
        # the merge's outcome is said once, in the window's banner; here the asks it
        # answered are highlighted
        self.asks.show_asks(
            asks,
            highlight=answered,
            passport_id=lp.id,
            drafts=detail.drafts,
            editable=lp.state not in lifecycle.TERMINAL,  # a task that ended takes no answers
            came=answer_sources(detail.history, lp.version).of,  # whose each answer is
        )
        open_asks = open_count(asks)
        self.tabs.setTabText(1, counted("Asks (%n open)", open_asks) if open_asks else tr("Asks"))
        self._fill_luggage(detail)
        self._fill_history(detail)

    def _fill_header(self, detail: Detail) -> None:
        clear_layout(self.header)
        lp = detail.local
        kind = "ok" if lp.state == "completed" else "warn" if lp.state == "waiting" else "info"
        self.header.addWidget(
            row(
                badge(state_label(lp.state, lp.waiting_on), kind),
                unwrapped(plain(f"{lp.id} · v{lp.version}", small=True, muted=True)),
            )
        )
        self.header.addWidget(heading(one_line(lp.passport.title or lp.id, 300), 1))
        self._fill_next_step(detail)
        sender = sender_of(lp)
        if sender:
            self.header.addWidget(
                plain(tr("Handed to you by {sender}").format(sender=one_line(sender)), muted=True)
            )
        chain = (lp.lineage.chain if lp.lineage else None) or []
        if chain:
            shown = " → ".join(one_line(c, 60) for c in chain[-8:])
            self.header.addWidget(
                plain(
                    tr("Handed on: {chain}").format(
                        chain=("… → " if len(chain) > 8 else "") + shown
                    ),
                    small=True,
                    muted=True,
                )
            )

    def _fill_next_step(self, detail: Detail) -> None:
        """One sentence under the title: what this desk waits for, and the button that
        moves it on."""
        step = next_step(detail)
        self.next_label = plain(step.sentence)
        self.next_label.setObjectName("nextstep")
        self.next_button = QPushButton(step.button)
        self.next_button.setVisible(bool(step.action))
        self.next_button.clicked.connect(lambda _c=False, a=step.action: self._next_action(a))
        line = QFrame()
        line.setObjectName("nextline")
        line.setStyleSheet(f"#nextline {{ background: {tones.wash('info')}; border-radius: 3px; }}")
        lay = QHBoxLayout(line)
        lay.setContentsMargins(8, 4, 4, 4)
        lay.addWidget(self.next_label, 1)  # the sentence takes the width, the button its size
        lay.addWidget(self.next_button, 0, Qt.AlignmentFlag.AlignVCenter)
        line.setVisible(bool(step.sentence))
        self.header.addWidget(line)

    def _next_action(self, action: str) -> None:
        detail = self.detail
        if detail is None:
            return
        if action == TAKE_ON:
            self.take_on_requested.emit()
        elif action == ANSWER:
            self.tabs.setCurrentIndex(1)
            self.asks.focus_first_open()
        elif action == CHECK:
            check = first_unchecked(detail.local.landing_checks or [], detail.machine)
            self.tabs.setCurrentIndex(0)
            found = self.landing_check_buttons.get(check.id or "") if check else None
            if found is not None:
                self.overview.ensureWidgetVisible(found)
                found.setFocus(Qt.FocusReason.OtherFocusReason)
        elif action in (RECEIPT, HANDOFF):
            # the Export menu, opened at its button (popup: the window keeps running)
            self.export_menu.popup(
                self.export_button.mapToGlobal(QPoint(0, self.export_button.height()))
            )
        elif action == OPEN_RECEIPT:
            self.open_requested.emit()
        elif action == RESULT:
            self.result_requested.emit()
        elif action in (EVIDENCE_HOLDS, SIGN_OFF):
            done = next((o for o in detail.moves if o.state == "completed"), None)
            if done is not None:
                self.move_requested.emit(done.state, done.waiting_on)

    def _fill_actions(self, detail: Detail) -> None:
        keep = self.actions_bar.indexOf(self.export_button)
        if keep >= 0:
            self.actions_bar.takeAt(keep)  # the Export button is reused, not deleted
        clear_layout(self.actions_bar)
        self.move_buttons = {}
        lp = detail.local
        if len(take_on_path(lp.state, lp.waiting_on)) > 1:  # you own it and you do it: one click
            b = QPushButton(tr("Take this on"))
            b.setToolTip(
                tr(
                    "Approve it, accept it and start work in one go. Each step is checked "
                    "and recorded in the history."
                )
            )
            b.setDefault(True)
            b.clicked.connect(lambda _c=False: self.take_on_requested.emit())
            self.move_buttons["take_on"] = b
            self.actions_bar.addWidget(b)
        for opt in detail.moves:
            label = move_label(lp.state, lp.waiting_on, opt)
            b = QPushButton(label)
            b.setToolTip(
                tr("Moves it to “{state}”: {why}.").format(
                    state=state_label(opt.state, opt.waiting_on), why=why_label(opt.why)
                )
            )
            if opt.state == "verifying":
                b.clicked.connect(lambda _c=False: self.result_requested.emit())
            else:
                b.clicked.connect(
                    lambda _c=False, o=opt: self.move_requested.emit(o.state, o.waiting_on)
                )
            self.move_buttons[opt.label] = b
            self.actions_bar.addWidget(b)
        self._fill_export_menu(detail)
        self.actions_bar.add_right(self.export_button)
        self.export_button.show()

    def _fill_export_menu(self, detail: Detail) -> None:
        menu = self.export_menu
        menu.clear()
        self.export_actions = {}
        received = detail.local.received is not None
        if self.export_to.property("passport") != detail.local.id:  # keep what was typed
            self.export_to.setProperty("passport", detail.local.id)
            self.export_to.setText(visible(sender_of(detail.local)) if received else "")
        menu.addAction(self._export_to_action)
        kinds = ("receipt", "handoff") if received else ("handoff", "receipt")
        for n, kind in enumerate(kinds):
            if n:
                menu.addSeparator()
            menu.addSection(
                tr("Receipt — answers go home")
                if kind == "receipt"
                else tr("Handoff — work goes on")
            )
            for mode in EXPORT_MODES:
                action = menu.addAction(export_label(kind, mode))
                action.triggered.connect(
                    lambda _c=False, k=kind, m=mode: self.export_requested.emit(k, m)
                )
                self.export_actions[(kind, mode)] = action

    def _fill_overview(self, detail: Detail) -> None:
        lp = detail.local
        state = lp.passport
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 8, 4, 8)
        merged = [
            (e.at, str((e.detail or {}).get("from") or ""))
            for e in detail.history
            if e.event == "merged"
        ]
        mailed = {  # each file's last email: one that never opened did not carry it
            str(e.detail.get("file")): str(e.detail.get("how"))
            for e in detail.history
            if e.event == "mailed"
        }
        unsent = frozenset(f for f, how in mailed.items() if how == "not_opened")
        landed_by = next((e.who or "" for e in detail.history if e.event == "landed"), "")
        nodes = hops(  # who handed it to whom
            lp, detail.machine, detail.sent, merged, unsent, landed_by=landed_by
        )
        self.journey = JourneyChain(nodes) if len(nodes) > 1 else None
        if self.journey is not None:
            lay.addWidget(plain(tr("Its journey"), bold=True))
            lay.addWidget(self.journey)
        if state.goal:
            lay.addWidget(plain(tr("Goal"), bold=True))
            lay.addWidget(LinkedText(state.goal, title=tr("Goal")))
        if state.current_state:
            lay.addWidget(plain(tr("Where it stands"), bold=True))
            lay.addWidget(LinkedText(state.current_state, title=tr("Where it stands")))
        received = lp.received
        if received and received.note:
            lay.addWidget(QuotedBlock(received.note, tr("The sender's note"), links=True))
        self._checks(lay, lp.landing_checks or [], detail.machine or "")
        self._facts(lay, detail)
        self._steps(lay, detail)
        if state.decisions:
            sec = Section(tr("Decisions"))
            add_paged(
                sec.add,
                list(state.decisions),
                lambda d: LinkedText(
                    f"• {d.what or ''}"
                    + (" — " + tr("because {why}").format(why=d.why) if d.why else ""),
                    title=tr("Decision"),
                ),
                parent_layout=sec.lay,
            )
            lay.addWidget(sec)
        for title, items in (
            (tr("What was done"), state.actions),
            (tr("Artifacts"), state.artifacts),
            (tr("Learnings"), state.learnings),
        ):
            shown = [t for t in (item_text(i) for i in items or []) if t.strip()]
            if shown:
                sec = Section(title)

                def bullet(t: str, title: str = title) -> QWidget:
                    return LinkedText("• " + t, title=title)

                add_paged(sec.add, shown, bullet, parent_layout=sec.lay)
                lay.addWidget(sec)
        if isinstance(lp.result, dict):
            sec = Section(tr("Returned result"))
            sec.add(LinkedText(str(lp.result.get("summary") or ""), title=tr("Returned result")))
            evidence = [ev for ev in lp.result.get("evidence") or [] if isinstance(ev, dict)]

            def evidence_line(ev: dict[str, object]) -> QWidget:
                return LinkedText(
                    f"• {evidence_words(ev.get('kind'))}: {ev.get('summary') or ''}"
                    + (f" {ev.get('url')}" if ev.get("url") else "")
                )

            add_paged(sec.add, evidence, evidence_line, parent_layout=sec.lay)
            lay.addWidget(sec)
        imperatives = (received.imperatives if received else None) or []
        if imperatives:
            sec = Section(
                tr("Instructions found in the pack"),
                tr(
                    "The sender wrote this; nothing was done. Text in a pack is data, never a command."
                ),
            )
            add_paged(
                sec.add,
                imperatives,
                imperative_block,
                parent_layout=sec.lay,
            )
            lay.addWidget(sec)
        outgoing = lp.checks_to_send or []
        sec = Section(
            tr("For the next person"),
            tr("Questions and checks that travel with the next handoff from here."),
        )
        add_paged(sec.add, outgoing, check_widget, parent_layout=sec.lay)
        adds = QWidget()  # the four buttons wrap: nothing hangs off a narrow window's side
        flow = FlowLayout(adds)
        for label, what in (
            (tr("Add ask…"), "ask"),
            (tr("Add landing check…"), "check"),
            (tr("Add fact…"), "fact"),
            (tr("Add next step…"), "step"),
        ):
            flow.addWidget(button(label, partial(self.add_requested.emit, what)))
        sec.add(adds)
        lay.addWidget(sec)
        lay.addStretch(1)
        self.overview.setWidget(body)

    def _checks(self, lay: QVBoxLayout, checks: list[LandingCheck], machine: str) -> None:
        self.landing_check_buttons = {}
        if not checks:
            return
        ordered = sorted(checks, key=lambda c: not c.is_required)
        sec = Section(
            tr("Do these first"),
            tr(
                "Required checks go before the sender's next steps. How to do them is the sender's "
                "suggestion, shown as written and never run by this app. When you have done one "
                "here, say so: “I checked this here”."
            ),
        )

        def one(check: LandingCheck) -> QWidget:
            done = ""
            if is_checked_here(check, machine):
                done = tr("Checked here by {who} on {when}.").format(
                    who=one_line(check.checked_by or "?"), when=local_time(check.checked_at)
                )
                return check_widget(check, done=done)
            if check.checked_on:  # on a team desk: done on another machine, not on this one
                done = tr(
                    "Checked on {machine} by {who} on {when}; not yet on this machine."
                ).format(
                    machine=one_line(check.checked_on),
                    who=one_line(check.checked_by or "?"),
                    when=local_time(check.checked_at),
                )
            b = None
            if check.is_required and check.id:
                b = QPushButton(tr("I checked this here"))
                b.setToolTip(
                    tr(
                        "You did this check yourself, on this machine. It is recorded as a fact "
                        "verified here, by you, with a history entry."
                    )
                )
                b.clicked.connect(lambda _c=False, k=check.id: self.check_landing_requested.emit(k))
                self.landing_check_buttons[check.id] = b
            return check_widget(check, extra=b, done=done, done_here=False)

        add_paged(sec.add, ordered, one, parent_layout=sec.lay)
        lay.addWidget(sec)

    def _steps(self, lay: QVBoxLayout, detail: Detail) -> None:
        steps = detail.local.passport.next_steps or []
        if not steps:
            return
        sec = Section(tr("Next steps"))
        checks = detail.local.landing_checks or []
        add_paged(
            sec.add,
            list(enumerate(steps, 1)),
            lambda s: LinkedText(f"{s[0]}. {step_text(s[1], checks)}", title=tr("Next step")),
            parent_layout=sec.lay,
        )
        lay.addWidget(sec)

    def _fill_luggage(self, detail: Detail) -> None:
        clear_layout(self.luggage_lay)
        if not detail.luggage:
            self.luggage_lay.addWidget(plain(tr("No attached files.")))

        def one(item: StoredLuggage) -> QWidget:
            save = QPushButton(tr("Save As…"))
            save.clicked.connect(
                lambda _c=False, n=item.name, s=item.size: self.save_luggage_requested.emit(n, s)
            )
            return row(plain(one_line(item.name)), plain(human_size(item.size), muted=True), save)

        add_paged(
            self.luggage_lay.addWidget, list(detail.luggage), one, parent_layout=self.luggage_lay
        )
        self.luggage_lay.addStretch(1)

    def _fill_history(self, detail: Detail) -> None:
        self.history.show_history(detail)

    def actions_text(self) -> str:
        items = layout_widgets(self.actions_bar)
        return "\n".join(w.text() for w in items if isinstance(w, QLabel | QPushButton))

    def scroll_positions(self) -> tuple[int, int]:
        return (
            self.overview.verticalScrollBar().value(),
            self.asks.scroll_area.verticalScrollBar().value(),
        )

    def restore_scroll_positions(self, positions: tuple[int, int]) -> None:
        overview, asks = positions

        # the new contents are laid out on the next pass; restore after it
        def restore() -> None:
            self.overview.verticalScrollBar().setValue(overview)
            self.asks.scroll_area.verticalScrollBar().setValue(asks)

        QTimer.singleShot(0, self, restore)

    def history_events(self) -> list[str]:
        items = (self.history.topLevelItem(i) for i in range(self.history.topLevelItemCount()))
        return [item.text(1) for item in items if item is not None]

    def header_text(self) -> str:
        """What the header reads: the state, the id and version, the title, the sender."""
        return "\n".join(
            label_text(w) if isinstance(w, QLabel) else labels_text(w)
            for w in layout_widgets(self.header)
        )

    def overview_text(self) -> str:
        widget = self.overview.widget()
        return labels_text(widget) if widget else ""
