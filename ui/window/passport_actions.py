"""The passport page and what a person does to a stored passport: read it, move it, take
it on, return a result, restore or check a fact, answer asks, add to it, export it. Every
change runs off the GUI thread (`ops.change`); the view reloads when the desk says it
committed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWidget
from taskpack.app.desk import Desk, lifecycle, visible
from taskpack.ui import dialogs, ops
from taskpack.ui.export import Exporter, unanswered_after
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import CancelCheck, JobRunner, Progress
from taskpack.ui.models import state_label
from taskpack.ui.ops import Detail
from taskpack.ui.pack_items import evidence_words
from taskpack.ui.passport_view import PassportView
from taskpack.ui.window.drop_paste import folders_sentence, local_paths, split_dropped
from taskpack.ui.window.incoming import save_luggage
from taskpack.ui.window.side import Side, passport_of


class PassportPart(QObject):
    """The passport page (`view`) and its buttons."""

    shown = Signal(str)  # the passport id now on the page (its row is made current)
    packs_dropped = Signal(object)  # [Path]: pack files dropped on the page open as packs

    view: PassportView  # built by `build_view` (again when the language changes)

    def __init__(
        self, desk: Desk, jobs: JobRunner, exporter: Exporter, side: Side, window: QWidget
    ) -> None:
        super().__init__(window)
        self.desk = desk
        self.jobs = jobs
        self.exporter = exporter
        self.side = side
        self._window = window  # the parent of the dialogs it opens
        self.detail: Detail | None = None
        self._highlight: dict[str, tuple[set[str], str]] = {}
        self._load_seq = 0
        self._wanted_tab: int | None = None
        self._pending_note = ""

    def build_view(self) -> PassportView:
        self.view = pv = PassportView()
        pv.move_requested.connect(self.move_current)
        pv.take_on_requested.connect(self.take_on_current)
        pv.result_requested.connect(self.return_result)
        pv.export_requested.connect(self.export_current)
        pv.restore_requested.connect(self.restore_fact)
        pv.check_fact_requested.connect(self.check_fact_here)
        pv.check_landing_requested.connect(self.check_landing_here)
        pv.save_answers_requested.connect(self.save_answers)
        pv.asks.draft_store = self.desk.drafts  # every keystroke is kept (app/drafts.py)
        pv.answer_requested.connect(self.answer_ask)
        pv.add_requested.connect(self.add_to_current)
        pv.save_luggage_requested.connect(self.save_stored_luggage)
        pv.setAcceptDrops(True)  # files dropped on the page are attached to the passport
        pv.installEventFilter(self)
        return pv

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.view or not isinstance(event, QDropEvent):
            return super().eventFilter(watched, event)
        dropped = local_paths(event.mimeData()) if self.current_passport_id() else []
        if not dropped:
            event.ignore()
        elif event.type() == QEvent.Type.Drop:
            event.acceptProposedAction()
            pid = self.current_passport_id()  # opening a pack shows it instead
            packs, files = split_dropped(dropped)
            if packs:
                self.packs_dropped.emit(packs)
            self.attach(files, into=pid)
        else:  # entering, moving over it
            event.acceptProposedAction()
        return True

    def attach(self, paths: list[Path], *, into: str | None = None) -> None:
        """Attach files to the passport `into` (the one shown), as the composer does; a
        folder is refused with a sentence (its files may be chosen)."""
        pid = into or self.current_passport_id()
        if pid is None or not paths:
            return
        folders = [p for p in paths if p.is_dir()]
        files = [p for p in paths if not p.is_dir()]
        if folders:
            self.side.info(folders_sentence(folders), "warn")
        if not files:
            return
        note = (
            tr("Attached {name}.").format(name=files[0].name)
            if len(files) == 1
            else tr("Attached {n} files.").format(n=len(files))
        )
        self._desk_call(
            tr("Attaching…"), pid, "attach", pid, files, done_note="" if folders else note
        )

    def highlight(self, passport_id: str, answered: set[str], note: str) -> None:
        """Mark the asks a merged receipt answered (and say so) when `passport_id` shows."""
        self._highlight[passport_id] = (answered, note)

    # -- a passport ------------------------------------------------------------

    def load(
        self, passport_id: str, *, note: str = "", tab: int | None = None, keep_tab: bool = False
    ) -> None:
        """Read a passport in the background and show it; the latest request wins."""
        self._load_seq += 1
        seq = self._load_seq
        if tab is not None or not keep_tab:
            self._wanted_tab = tab or 0
        if note:
            self._pending_note = note
        if not keep_tab and self.side.shown_page() is not self.view:
            self.side.show_loading()

        def done(detail: Detail) -> None:
            if seq != self._load_seq or self.side.current() != passport_id:
                return  # a newer request (or another selection) replaced this one
            self.detail = detail
            answered, merged_note = self._highlight.get(passport_id, (set(), ""))
            view = self.view
            scroll = view.scroll_positions() if self._wanted_tab is None else None
            current_tab = view.tabs.currentIndex()
            view.show_detail(detail, answered=answered, note=merged_note)
            self.side.schedule_tab_order()
            view.tabs.setCurrentIndex(current_tab if self._wanted_tab is None else self._wanted_tab)
            if scroll is not None:
                view.restore_scroll_positions(scroll)
            self._wanted_tab = None
            if not (keep_tab and self.side.composing()):
                self.side.show_page(view)  # (a change made in the composer keeps it)
            self.shown.emit(passport_id)
            if self._pending_note:
                self.side.info(self._pending_note, "ok")
                self._pending_note = ""

        desk = self.desk
        self.jobs.run(
            lambda p, c: detail_with_drafts(desk, passport_id, p, c),
            title=tr("Reading {id}…").format(id=passport_id),
            on_done=done,
            on_error=self.side.error,
            show_progress=False,
        )

    def current_passport_id(self) -> str | None:
        """The id of the passport the right side shows (None: an incoming file, or nothing)."""
        return passport_of(self.side.current())

    def _desk_call(
        self,
        title: str,
        pid: str,
        how: ops.How,
        /,
        *args: object,
        done_note: str = "",
        **kwargs: object,
    ) -> None:
        """A change to passport `pid` (``Desk.<how>(*args, **kwargs)``), off the GUI thread;
        the view reloads when it commits. A large passport is changed in a helper process
        (`ops.change`), so saving an answer among 100,000 asks never stalls the window."""

        def done(_result: object) -> None:
            if done_note:
                self.side.info(done_note, "ok")

        desk = self.desk
        self.jobs.run(
            lambda p, c: ops.change(desk, pid, how, args, kwargs, p, c),
            title=title,
            on_done=done,
            on_error=self.side.error,
            show_progress=False,
        )

    def move_current(self, state: str, waiting_on: str | None) -> None:
        pid = self.current_passport_id()
        if pid is None:
            return
        if state in ("rejected", "cancelled") and not dialogs.confirm(
            self._window,
            tr("End this task?"),
            tr("Moving to {state} ends the task; nothing moves it on afterwards.").format(
                state=state_label(state)
            ),
            ok=tr("End the task"),
        ):
            return
        self._desk_call(
            tr("Moving…"),
            pid,
            "move",
            pid,
            state,
            waiting_on,
            done_note=tr("Moved to {state}.").format(state=state_label(state, waiting_on)),
        )

    def take_on_current(self) -> None:
        pid = self.current_passport_id()
        if pid is None:
            return
        self._desk_call(
            tr("Taking it on…"),
            pid,
            ops.take_on_now,
            pid,
            done_note=tr("You took this on: it is {state}.").format(state=state_label("working")),
        )

    def return_result(self) -> None:
        pid = self.current_passport_id()
        if pid is None:
            return
        values = dialogs.ask_form(
            self._window,
            tr("Return a result"),
            [
                ("summary", tr("What was done"), "text", None),
                (
                    "kind",
                    tr("Evidence kind"),
                    "choice",
                    [evidence_words(k) for k in lifecycle.EVIDENCE_KINDS],
                ),
                ("evidence", tr("Evidence"), "line", None),
                ("url", tr("Link (optional)"), "line", None),
            ],
            tr("A result needs evidence; the task moves to verifying."),
        )
        if not values:
            return
        evidence: dict[str, str] = {
            "kind": lifecycle.EVIDENCE_KINDS[chosen(values, "kind")],
            "summary": str(values["evidence"]) or str(values["summary"])[:500],
        }
        if values.get("url"):
            evidence["url"] = str(values["url"])
        self._desk_call(
            tr("Returning the result…"),
            pid,
            "return_result",
            pid,
            str(values["summary"]),
            [evidence],
            provenance="owner_instruction",
            done_note=tr("Result returned; the evidence is being verified."),
        )

    def restore_fact(self, fact_no: int) -> None:
        pid = self.current_passport_id()
        if pid is None or self.detail is None:
            return
        fact = (self.detail.local.passport.facts or [])[fact_no - 1]
        if not dialogs.confirm(
            self._window,
            tr("Restore the ✓?"),
            tr(
                "Restore the ✓ of this fact?\n\n“{claim}”\n\nThis desk verified it on this machine "
                "({machine}) and sealed it when it packed it: its own records say so, not the pack. "
                "Make sure it is still true here. The history will record that you restored it."
            ).format(claim=visible(fact.claim or "", multiline=True), machine=self.desk.machine),
            ok=tr("Restore ✓"),
        ):
            return
        self._desk_call(
            tr("Restoring…"),
            pid,
            "restore",
            pid,
            fact_no,
            done_note=tr("The ✓ was restored and recorded in the history."),
        )

    def check_fact_here(self, fact_no: int) -> None:
        """The person says they checked a sealed fact on this machine: new evidence."""
        pid = self.current_passport_id()
        if pid is None or self.detail is None:
            return
        fact = (self.detail.local.passport.facts or [])[fact_no - 1]
        if not dialogs.confirm(
            self._window,
            tr("Did you check this here?"),
            tr(
                "Record that you checked this yourself, on this machine ({machine})?\n\n“{claim}”\n\n"
                "It becomes a fact verified here, by {who}, and the history records it. Say so only "
                "if you did the check."
            ).format(
                claim=visible(fact.claim or "", multiline=True),
                machine=self.desk.machine,
                who=self.desk.actor,
            ),
            ok=tr("I checked it"),
        ):
            return
        self._desk_call(
            tr("Recording…"),
            pid,
            "check_fact_here",
            pid,
            fact_no,
            done_note=tr("Recorded: you checked it on {machine}.").format(
                machine=self.desk.machine
            ),
        )

    def check_landing_here(self, check_id: str) -> None:
        """The person says they did a required landing check on this machine."""
        pid = self.current_passport_id()
        if pid is None or self.detail is None:
            return
        check = next((c for c in self.detail.local.landing_checks or [] if c.id == check_id), None)
        if check is None:
            return
        if not dialogs.confirm(
            self._window,
            tr("Did you check this here?"),
            tr(
                "Record that you did this check yourself, on this machine ({machine})?\n\n“{claim}”\n\n"
                "It becomes a fact verified here, by {who}, and the history records it. Say so only "
                "if you did the check."
            ).format(
                claim=visible(check.check or "", multiline=True),
                machine=self.desk.machine,
                who=self.desk.actor,
            ),
            ok=tr("I checked it"),
        ):
            return
        self._desk_call(
            tr("Recording…"),
            pid,
            "check_landing_here",
            pid,
            check_id,
            done_note=tr("Recorded: you checked it on {machine}.").format(
                machine=self.desk.machine
            ),
        )

    def save_answers(self, answers: dict[str, str]) -> None:
        pid = self.current_passport_id()
        if pid is None or not answers:
            return
        self._desk_call(
            tr("Saving…"),
            pid,
            "answer_all",
            pid,
            dict(answers),
            done_note=trn(
                "Saved %n answers. Export a receipt to send the answers home.", len(answers)
            ),
        )

    def answer_ask(self, ask_id: str, answer: str, status: str) -> None:
        pid = self.current_passport_id()
        if pid is None:
            return
        note = (
            tr("Saved the answer to {ask}. Export a receipt to send the answers home.")
            if status == "answered"
            else tr("Dropped {ask}.")
        ).format(ask=ask_id)
        self._desk_call(
            tr("Saving…"), pid, "answer", pid, ask_id, answer, status=status, done_note=note
        )

    def add_to_current(self, what: str) -> None:
        pid = self.current_passport_id()
        if pid is None:
            return
        scopes = [
            tr("machine — paths, versions, what runs here"),
            tr("universal — agreements, requirements"),
            tr("organisation — conventions inside one organisation"),
        ]
        forms: dict[str, tuple[str, list[dialogs.Field], str]] = {
            "ask": (
                tr("Add an ask"),
                [
                    ("what", tr("Question"), "text", None),
                    ("why", tr("Why you ask"), "line", None),
                    ("accept", tr("What counts as an answer"), "line", None),
                ],
                tr("An ask needs “what counts as an answer”: the reply is judged against it."),
            ),
            "check": (
                tr("Add a landing check"),
                [
                    ("check", tr("What to check"), "line", None),
                    ("how", tr("How (your suggestion)"), "line", None),
                    ("required", tr("Required"), "check", ["yes"]),
                ],
                tr(
                    "The receiver does required checks first. Your “how” is shown to them as your suggestion."
                ),
            ),
            "fact": (
                tr("Add a fact"),
                [
                    ("claim", tr("Claim"), "text", None),
                    ("scope", tr("Scope"), "choice", scopes),
                    ("verified", tr("Verified here"), "check", None),
                ],
                tr("A machine fact is sealed unproven when it leaves this machine."),
            ),
            "step": (tr("Add a next step"), [("step", tr("Next step"), "line", None)], ""),
        }
        title, fields, explain = forms[what]
        v = dialogs.ask_form(self._window, title, fields, explain)
        if not v:
            return
        # only the chosen form's fields exist in `v`: build that one call, no other
        if what == "ask":
            self._desk_call(
                title,
                pid,
                "add_ask",
                pid,
                str(v["what"]),
                str(v["accept"]),
                why=str(v["why"]) or None,
            )
        elif what == "check":
            self._desk_call(
                title,
                pid,
                "add_check",
                pid,
                str(v["check"]),
                how=str(v["how"]) or None,
                required=bool(v["required"]),
            )
        elif what == "fact":
            scope = ("machine", "universal", "org")[chosen(v, "scope")]
            self._desk_call(
                title,
                pid,
                "add_fact",
                pid,
                str(v["claim"]),
                verified=bool(v["verified"]),
                scope=scope,
            )
        else:
            self._desk_call(title, pid, "add_next", pid, str(v["step"]))

    def save_stored_luggage(self, name: str, size: int) -> None:
        pid = self.current_passport_id()
        if pid is not None:
            desk = self.desk
            save_luggage(
                self._window,
                self.jobs,
                self.side,
                name,
                lambda out, p, c: ops.save_stored_luggage(desk, pid, name, size, out, p, c),
            )

    # -- export (ui/export.py) -------------------------------------------------

    def export_current(self, kind: str, mode: str) -> None:
        pid = self.current_passport_id()
        if pid is None or self.detail is None:
            return
        title = self.detail.local.passport.title or pid
        luggage = sum(i.size for i in self.detail.luggage)
        # a receipt goes out with what is on screen: answers typed and not saved are saved first
        typed = self.view.asks.unsaved() if kind == "receipt" else None
        self.exporter.export(
            pid,
            title,
            luggage,
            kind,
            mode,
            typed,
            to=self.view.recipient(),
            unanswered=unanswered_after(self.detail.local.asks or [], typed or {}),
        )


def detail_with_drafts(
    desk: Desk, passport_id: str, progress: Progress, cancelled: CancelCheck
) -> Detail:
    """The passport's detail, with the drafts this window holds: a large passport is read
    by a helper process, whose drafts come from the file (up to a write delay behind what
    was typed)."""
    detail = ops.load_detail(desk, passport_id, progress, cancelled)
    detail.drafts = desk.drafts.of(passport_id)
    return detail


def chosen(values: dict[str, object], key: str) -> int:
    """The index of the option chosen in the form's "choice" field `key`."""
    index = values[key]
    return index if isinstance(index, int) else int(str(index))
