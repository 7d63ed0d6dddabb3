"""The desk: one service object over the store that the CLI, the GUI and A2A all use.

    desk = Desk.open()                       # home, machine and actor from env/settings
    desk = Desk(home, machine="laptop-ana")  # or explicitly (tests, the A2A endpoint)
    unsubscribe = desk.subscribe(lambda passport_id, event: ...)

Every method that changes a passport commits one transaction (one or more new
versions, each with a history entry) and then calls the subscribers with
``(passport_id, event)`` for each change, in the caller's thread, after the commit —
so a subscriber always reads what it is told about. Events: ``created``, ``fact``,
``decision``, ``next_step``, ``checkpoint``, ``ask``, ``check``, ``answer``,
``luggage``, ``packed``, ``landed``, ``merged``, ``restored``, ``checked``, ``moved``,
``result``.
A GUI must hop to its own thread inside the callback; a failing subscriber is logged
and never breaks the change.

Errors are `taskpack.core.errors` classes (its docstring draws them all): NotFound,
VersionConflict, InvalidMove (``invalid_state``), RestoreRefused, MergeRefused, Refused
(the chokepoint), LandingRefused (a secret in an incoming pack), PackError.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from taskpack.app import paths
from taskpack.app.drafts import Drafts
from taskpack.app.settings import Settings
from taskpack.app.team.choose import open_store
from taskpack.core.desk import accept, authoring, chat_message, export, lifecycle, restore, review
from taskpack.core.desk.accept import LandingOutcome, MergeOutcome
from taskpack.core.desk.export import PackOutcome
from taskpack.core.desk.identity import sender_label
from taskpack.core.desk.review import LandingReview
from taskpack.core.desk.store import (
    HistoryEntry,
    PackWritten,
    PassportSummary,
    Store,
    StoredLuggage,
    utc_now,
)
from taskpack.core.errors import (
    Finding,
    FormatError,
    InvalidMove,
    LandingRefused,
    NotFound,
    PackError,
    UsageError,
)
from taskpack.core.files import write_bytes_atomically
from taskpack.core.format import ids, pack_in_text
from taskpack.core.format.luggage import LuggageSource, luggage_from_paths
from taskpack.core.format.model import (
    JSON,
    SCOPES,
    Ask,
    Decision,
    Fact,
    LandingCheck,
    LocalPassport,
    PackObject,
    PassportState,
)
from taskpack.core.format.reading import OpenedPack, PackSource, open_pack
from taskpack.core.progress import CancelCheck, Progress
from taskpack.core.trust import repairs
from taskpack.core.trust.ask_lint import lint_accept
from taskpack.core.trust.refusals import LuggageScan, scan_value

if TYPE_CHECKING:
    from taskpack.core.trust.conformance import Report as ConformanceReport

log = logging.getLogger(__name__)

Subscriber = Callable[[str, str], None]

#: fields of the passport state a checkpoint may not set: they belong to the store
_STORE_FIELDS = ("id", "version", "created_at", "updated_at")


def harness_name() -> str:
    try:
        return f"taskpack-desk/{metadata.version('taskpack-desk')}"
    except metadata.PackageNotFoundError:  # pragma: no cover - a bare checkout
        return "taskpack-desk"


@dataclass
class PastedPack:
    """A pack read out of text (or a file that already was one), kept as a pack file."""

    path: Path
    #: what reading it out of the text put up with (empty for a pack file as written)
    notes: list[str]
    #: the kind it declares, when known without opening it again
    kind: str | None
    #: the line of the text where it starts
    line: int


@dataclass(frozen=True)
class MoveOption:
    """One move the table allows from where a task is now."""

    state: str
    waiting_on: str | None
    why: str

    @property
    def label(self) -> str:
        return lifecycle.describe(self.state, self.waiting_on)


class Desk:
    """This machine's passports. Thread-safe; share one per process."""

    def __init__(
        self,
        home: Path,
        machine: str,
        *,
        actor: str | None = None,
        settings: Settings | None = None,
        harness: str | None = None,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        if not machine or not machine.strip():
            raise UsageError("this desk needs a machine name", hint="Set TASKPACK_MACHINE.")
        self.home = Path(home)
        self.settings = settings if settings is not None else Settings.load(self.home)
        self.machine = machine.strip()
        self.actor = actor or self.settings.actor or "unknown"
        self.harness = harness or harness_name()
        self.store: Store = open_store(
            self.home,
            settings_store=self.settings.store,
            who=f"{self.actor}@{self.machine}",
            clock=clock,
        )
        #: how hand-written packs are repaired on landing (None: they land as read); each
        #: repair is listed in the review, the outcome and the passport's history
        self.repair: review.Repair | None = self._repair
        self._subscribers: list[Subscriber] = []
        self._sub_lock = threading.Lock()
        self._seen_elsewhere = (self.store.data_version(), self.store.changed_since(0)[0])
        #: answers typed but not saved yet (never packed); see app/drafts.py
        self.drafts = Drafts(self.home)

    @classmethod
    def open(cls, home: Path | None = None) -> Desk:
        """The desk this user and machine would use: env vars, then settings, then the OS."""
        where = home or paths.home()
        settings = Settings.load(where)
        return cls(
            where, paths.machine_name(settings), actor=paths.actor_name(settings), settings=settings
        )

    def close(self) -> None:
        self.drafts.flush()
        self.store.close()

    def housekeep(self) -> list[str]:
        """Sweep what crashes left behind and take the daily backup when due (cheap when
        nothing is due). Never raises: housekeeping must not fail a person's command."""
        try:
            return self.store.housekeep()
        except Exception as exc:  # a full disk, a read-only home: the desk still works
            log.warning("housekeeping skipped: %s", exc)
            return []

    def __enter__(self) -> Desk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- change notifications -----------------------------------------------------------

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call `fn(passport_id, event)` after each committed change; returns an unsubscribe."""
        with self._sub_lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._sub_lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)

        return unsubscribe

    def changes_elsewhere(self) -> list[str]:
        """Passports another process (the CLI, an agent's MCP server, another window) changed
        since the last call; [] at once when nobody else wrote. Cheap enough to poll."""
        version, seq = self._seen_elsewhere
        now = self.store.data_version()
        if now == version:
            return []
        newest, ids = self.store.changed_since(seq)
        self._seen_elsewhere = (now, newest)
        return ids

    def on_changes_elsewhere(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Call `fn()` (on another thread) soon after another process changed this desk,
        when the store can say so (a team desk: LISTEN/NOTIFY); then ask
        :meth:`changes_elsewhere`. Returns an unsubscribe; a no-op on the embedded desk,
        where the window polls."""
        hook = getattr(self.store, "on_change", None)
        return hook(fn) if hook is not None else (lambda: None)

    def _notify(self, changes: Iterable[tuple[str, str]]) -> None:
        with self._sub_lock:
            subscribers = list(self._subscribers)
        for passport_id, event in changes:
            for fn in subscribers:
                try:
                    fn(passport_id, event)
                except Exception:  # a broken listener must not undo or hide a commit
                    log.exception("a desk subscriber failed on %s %s", passport_id, event)

    def _edit(
        self,
        passport_id: str,
        event: str,
        change: Callable[[LocalPassport], dict[str, JSON] | None],
        *,
        expected_version: int | None = None,
    ) -> LocalPassport:
        with self.store.write() as tx:
            lp = tx.get(passport_id)
            detail = change(lp)
            tx.save(lp, event=event, detail=detail, expected_version=expected_version)
            events = list(tx.events)
        self._notify(events)
        return lp

    # -- reading -----------------------------------------------------------------------

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        """The passport; `pages=True` to show it (many asks as read-only pages, see Store.get)."""
        return self.store.get(passport_id, pages=pages)

    def get_version(self, passport_id: str, version: int) -> LocalPassport:
        return self.store.get_version(passport_id, version)

    def history(self, passport_id: str) -> list[HistoryEntry]:
        return self.store.history(passport_id)

    def landed_as(self, content_digest: str) -> str | None:
        """The passport a pack with this content digest landed or merged into, if any."""
        found = self.store.landing(content_digest)
        return None if found is None else found.passport_id

    def wrote(self, content_digest: str) -> PackWritten | None:
        """The outbox entry when this desk wrote a pack with this content digest, else None."""
        return self.store.pack_written(content_digest)

    def passport_size(self, passport_id: str) -> int:
        """Bytes of JSON the passport is stored as (a cheap read: nothing is parsed)."""
        return self.store.size_of(passport_id)

    def sent_by(self, passport_id: str) -> dict[str, JSON]:
        """The origin (actor, machine, …) of the pack the passport landed from; {} when
        it was made here. Does not read the passport's asks."""
        return self.store.received_origin(passport_id)

    def announce(self, changes: Iterable[tuple[str, str]]) -> None:
        """Tell this desk's subscribers about changes made to its store by a helper
        process working for it (`app.isolated`), as if this desk had made them."""
        self._notify(changes)

    def luggage(self, passport_id: str) -> list[StoredLuggage]:
        self.store.require(passport_id)  # NotFound for an unknown id
        return self.store.luggage(passport_id)

    def open_luggage(self, passport_id: str, name: str) -> BinaryIO:
        """The bytes of one luggage file. The name is looked up, never used as a path."""
        for item in self.luggage(passport_id):
            if item.name == name:
                return self.store.open_blob(item.sha256, name=item.name, size=item.size)
        raise NotFound(f"passport {passport_id} has no luggage named {name!r}")

    @staticmethod
    @contextlib.contextmanager
    def open_pack_luggage(path: Path | str, name: str) -> Iterator[tuple[BinaryIO, int]]:
        """One luggage file of a pack that has not landed, with its size; its digest is
        checked as it is read (IntegrityError at the end if the bytes do not agree)."""
        with open_pack(path) as opened:
            try:
                item = opened.item(name)
            except KeyError:
                raise NotFound(f"the pack has no luggage named {name!r}") from None
            with opened.open_luggage(item) as src:
                yield cast(BinaryIO, src), max(item.size, 0)

    def allowed_moves(self, passport_id: str) -> list[MoveOption]:
        state, waiting_on = self.store.state_of(passport_id)
        out: list[MoveOption] = []
        for move in lifecycle.allowed_moves(state, waiting_on):
            targets = [w for w in lifecycle.WAITING_ON if move.to_waiting and w in move.to_waiting]
            for waiting_on in targets or [None]:
                out.append(MoveOption(move.target, waiting_on, move.why))
        return out

    # -- authoring ---------------------------------------------------------------------

    def new(self, title: str, goal: str, *, current_state: str | None = None) -> LocalPassport:
        """A passport made here. It starts `working`: it is the owner's own work, already
        taken on — there is no gate to pass and nobody to accept it from."""
        if not title.strip() or not goal.strip():
            raise UsageError("a passport needs a title and a goal")
        state = PassportState(
            id=None,
            title=title.strip(),
            goal=goal.strip(),
            version=1,
            machine_id=self.machine,
            harness=self.harness,
            created_at=None,
            updated_at=None,
            current_state=current_state or "",
            facts=[],
            decisions=[],
            actions=[],
            artifacts=[],
            verification=None,
            next_steps=[],
            learnings=[],
        )
        lp = LocalPassport(passport=state, asks=[], landing_checks=[], lineage=None)
        lp.state, lp.waiting_on = lifecycle.START_MADE_HERE, None
        with self.store.write() as tx:
            pid = ids.new_id()
            while tx.exists(pid):  # pragma: no cover - one in 8.5e11
                pid = ids.new_id()
            state.id = pid
            tx.insert(lp, event="created", detail={"title": state.title})
            events = list(tx.events)
        self._notify(events)
        return lp

    def add_fact(
        self,
        passport_id: str,
        claim: str,
        *,
        scope: str = "machine",
        verified: bool = False,
        source: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Record a fact. A fact with no scope is machine-scoped (§4.2): say `universal` or
        `org` only when someone else could check it without this machine."""
        if not claim.strip():
            raise UsageError("a fact needs a claim")
        if scope not in SCOPES:
            raise UsageError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
        fact = Fact(claim=claim.strip(), scope=scope, verified=verified)
        if verified:
            fact.verified_by = self.actor
            if getattr(self.store, "shared", False):  # a team desk: say which machine proved it
                fact.verified_on = self.machine
        if source:
            fact.source = source

        def change(lp: LocalPassport) -> dict[str, JSON]:
            lp.passport.facts = [*(lp.passport.facts or []), fact]
            return {"fact": len(lp.passport.facts), "scope": scope, "verified": verified}

        return self._edit(passport_id, "fact", change, expected_version=expected_version)

    def decide(
        self, passport_id: str, what: str, why: str, *, expected_version: int | None = None
    ) -> LocalPassport:
        if not what.strip():
            raise UsageError("a decision needs a what")

        def change(lp: LocalPassport) -> dict[str, JSON]:
            lp.passport.decisions = [
                *(lp.passport.decisions or []),
                Decision(what=what.strip(), why=why.strip()),
            ]
            return {"decision": len(lp.passport.decisions)}

        return self._edit(passport_id, "decision", change, expected_version=expected_version)

    def add_next(
        self, passport_id: str, step: str, *, expected_version: int | None = None
    ) -> LocalPassport:
        if not step.strip():
            raise UsageError("a next step needs some text")

        def change(lp: LocalPassport) -> dict[str, JSON]:
            lp.passport.next_steps = [*(lp.passport.next_steps or []), step.strip()]
            return {"next_step": len(lp.passport.next_steps)}

        return self._edit(passport_id, "next_step", change, expected_version=expected_version)

    def checkpoint(
        self, passport_id: str, state: dict[str, JSON], *, expected_version: int
    ) -> LocalPassport:
        """Replace the task state with what an agent saved (its keys replace ours).

        `state` is a passport state object, or a whole passport as `taskpack open --json`
        prints it (then its ``passport`` is used). `id`, `version`, `created_at` and
        `updated_at` belong to the store and are ignored — except that a different `id`
        is refused. `expected_version` is required: a checkpoint from an agent that read
        an older version would silently undo someone else's change.
        """
        if isinstance(state.get("passport"), dict):
            state = state["passport"]
        given = PassportState.from_data(state, where="checkpoint")
        if given.id is not None and given.id != passport_id:
            raise UsageError(f"the checkpoint is for passport {given.id}, not {passport_id}")

        def change(lp: LocalPassport) -> dict[str, JSON]:
            merged = lp.passport.to_data()
            changed = [
                k
                for k, v in given.to_data().items()
                if k not in _STORE_FIELDS and merged.get(k) != v
            ]
            for key in changed:
                merged[key] = state[key]
            before = {f.claim for f in lp.passport.facts or []}
            lp.passport = PassportState.from_data(merged, where="checkpoint")
            if getattr(self.store, "shared", False):  # a team desk: new ✓ name this machine
                for f in lp.passport.facts or []:
                    new_proof = f.verified and f.effective_scope == "machine"
                    if new_proof and not f.verified_on and f.claim not in before:
                        f.verified_on = self.machine
            return {"changed": changed}

        return self._edit(passport_id, "checkpoint", change, expected_version=expected_version)

    def add_ask(
        self,
        passport_id: str,
        what: str,
        accept: str,
        *,
        why: str | None = None,
        to: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """A question for whoever receives the next handoff. `accept` says what would count
        as an answer; without it the reply could only be negotiated, so it is required."""
        if not what.strip():
            raise UsageError("an ask needs a question (what)")
        if not accept.strip():
            raise UsageError(
                "an ask needs accept: what would count as an answer (spec §4.3)",
                hint="Add --accept, e.g. --accept 'a number in euros'.",
            )

        def change(lp: LocalPassport) -> dict[str, JSON]:
            asks = list(lp.asks or [])
            ask = Ask(
                id=authoring.next_ask_id(asks),
                to=to or "peer",
                what=what.strip(),
                why=(why or "").strip(),
                accept=accept.strip(),
                status="open",
                answer=None,
            )
            lp.asks = [*asks, ask]
            return {"ask": ask.id}

        return self._edit(passport_id, "ask", change, expected_version=expected_version)

    def add_check(
        self,
        passport_id: str,
        check: str,
        *,
        how: str | None = None,
        required: bool = True,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """A landing check for the receiver of the next pack (spec §4.4)."""
        if not check.strip():
            raise UsageError("a landing check needs the check itself")

        def change(lp: LocalPassport) -> dict[str, JSON]:
            current = list(lp.checks_to_send or [])
            new = LandingCheck(
                id=authoring.next_check_id(current),
                check=check.strip(),
                how=(how or "").strip(),
                required=required,
            )
            lp.checks_to_send = [*current, new]
            return {"check": new.id, "required": required}

        return self._edit(passport_id, "check", change, expected_version=expected_version)

    def answer(
        self,
        passport_id: str,
        ask_id: str,
        answer: str,
        *,
        status: str = "answered",
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Answer an ask (or drop it with ``status="dropped"``); goes home in a receipt."""
        if status not in ("answered", "dropped", "open"):
            raise UsageError(f"an ask's status is answered, dropped or open, not {status!r}")
        if status == "answered" and not answer.strip():
            raise UsageError("an answer needs some text", hint="Or drop the ask with --drop.")

        def change(lp: LocalPassport) -> dict[str, JSON]:
            for ask in lp.asks or []:
                if ask.id == ask_id:
                    ask.answer = answer if answer or status != "dropped" else None
                    ask.status = status
                    ask.answered_by = sender_label(self.actor, self.machine)
                    ask.answered_at = self.store.clock()
                    return {"ask": ask_id, "status": status}
            known = ", ".join(a.id or "?" for a in lp.asks or []) or "none"
            raise NotFound(f"passport {passport_id} has no ask {ask_id!r} (asks: {known})")

        lp = self._edit(passport_id, "answer", change, expected_version=expected_version)
        self.drafts.clear(passport_id, ask_id)  # saved: the draft has done its job
        return lp

    def answer_all(self, passport_id: str, answers: dict[str, str]) -> LocalPassport:
        """Save several answers in one transaction (the window's "Save all", and the
        answers on screen when a receipt is exported). Empty answers are skipped."""
        answers = {k: v for k, v in answers.items() if v.strip()}

        def change(lp: LocalPassport) -> dict[str, JSON]:
            known = {a.id: a for a in lp.asks or []}
            missing = [k for k in answers if k not in known]
            if missing:
                raise NotFound(f"passport {passport_id} has no ask {missing[0]!r}")
            for ask_id, text in answers.items():
                ask = known[ask_id]
                ask.answer, ask.status = text, "answered"
                ask.answered_by = sender_label(self.actor, self.machine)
                ask.answered_at = self.store.clock()
            return {"answered": list(answers)}

        lp = self.get(passport_id) if not answers else self._edit(passport_id, "answer", change)
        for ask_id in answers:
            self.drafts.clear(passport_id, ask_id)
        return lp

    def attach(
        self, passport_id: str, files: Sequence[Path | str], *, skipped: list[str] | None = None
    ) -> list[StoredLuggage]:
        """Keep files as the passport's luggage (they travel with every later pack).

        Symlinks and special files inside a folder are left out; each is added to `skipped`."""
        sources = luggage_from_paths(files, skipped=skipped)
        self.store.get(passport_id)
        stored = []
        for src in sources:
            with src.open() as f:
                sha, size = self.store.put_blob(f)
            stored.append((src.name, sha, size))
        with self.store.write() as tx:
            for name, sha, size in stored:
                tx.add_luggage(passport_id, name, sha, size)
            tx.log(passport_id, "luggage", {"added": [n for n, _, _ in stored]})
            events = list(tx.events)
        self._notify(events)
        return self.store.luggage(passport_id)

    # -- packing and landing -----------------------------------------------------------

    def pack(
        self,
        passport_id: str,
        out: Path | str,
        *,
        kind: str = "handoff",
        files: Sequence[Path | str] = (),
        note: str | None = None,
        actor: str | None = None,
        encoding: str | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        to: str | None = None,
        via: str | None = None,
    ) -> PackOutcome:
        """Write a handoff or receipt through the chokepoint (refusals, sealing).

        The outbox ledger records it: `to` is who it is for (as the packer says), `via`
        the front end that asked (``cli``, ``window``, ``a2a``, ``mcp``)."""
        left_out: list[str] = []
        extra: list[LuggageSource] = luggage_from_paths(files, skipped=left_out) if files else []
        outcome = export.export_passport(
            self.store,
            passport_id,
            Path(out),
            kind=kind,
            machine=self.machine,
            actor=actor or self.actor,
            harness=self.harness,
            note=note,
            files=extra,
            encoding=encoding,
            progress=progress,
            cancel=cancel,
            to=to,
            via=via,
        )
        outcome.warnings[:0] = [f"left out of the luggage: {why}" for why in left_out]
        self._notify(outcome.changes)
        return outcome

    def outbox(
        self, *, passport_id: str | None = None, limit: int | None = None
    ) -> list[PackWritten]:
        """The outbox ledger: every pack this desk wrote, newest first."""
        if passport_id is not None:
            self.store.require(passport_id)  # NotFound for an unknown id
        return self.store.outbox(passport_id=passport_id, limit=limit)

    def sent(self, seq: int) -> PackWritten:
        """One outbox entry by its number."""
        return self.store.sent(seq)

    @staticmethod
    def ask_warnings(ask: Ask) -> list[str]:
        """Why an ask's `accept` is too short or vague to judge an answer against ([] if fine)."""
        return lint_accept(ask.accept, ask.what)

    @staticmethod
    def judge(
        path: Path | str,
        *,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> ConformanceReport:
        """The strict judge's C0–C10 report on a file (spec §6); lands nothing."""
        from taskpack.core.trust.conformance import judge

        return judge(path, progress=progress, cancel=cancel)

    def review(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> LandingReview:
        """What landing `path` would do; lands nothing, runs nothing. Reads every luggage
        byte once (digests checked, secrets scanned: `review.secrets`). Hold on to it and
        give it to :meth:`accept` as `review=` to land from it. `path` may be a binary
        stream of the file (`name` is then how it is called)."""
        with open_pack(path, name=name) as opened:
            return review.review(
                self.store,
                opened,
                machine=self.machine,
                allow=self.settings.gate_allow,
                repair=self.repair,
                progress=progress,
                cancel=cancel,
            )

    def accept(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        into: str | None = None,
        expect: str | None = None,
        review: LandingReview | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> LandingOutcome | MergeOutcome:
        """THE way a pack comes in (window, CLI, watcher, A2A): a handoff lands as a new
        passport, a receipt merges into the passport it answers (`into`, when given, must
        be that one). `expect="handoff"` refuses a receipt with the way to merge it.

        `review` is one this desk made of the same file (:meth:`review`): it is trusted
        only while the file's content digest still matches, else the file is re-read.
        A pack carrying a credential or a chat transcript is refused (LandingRefused)
        before anything is stored. `progress(done, total)` follows the luggage bytes;
        `cancel()` → Cancelled, nothing lands. `path` may be a binary stream of the file
        (received bytes need not be written to disk first); `name` is how the history
        calls it.
        """
        with open_pack(path, name=name, defer_model=review is not None) as opened:
            outcome = accept.accept(
                self.store,
                opened,
                machine=self.machine,
                allow=self.settings.gate_allow,
                into=into,
                expect=expect,
                held=review,
                repair=self.repair,
                progress=progress,
                cancel=cancel,
            )
        self._notify(outcome.changes)
        return outcome

    def land(
        self,
        path: Path | str,
        *,
        review: LandingReview | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> LandingOutcome:
        """:meth:`accept` for a handoff: a new passport (the same pack twice: the same one)."""
        outcome = self.accept(
            path, expect="handoff", review=review, progress=progress, cancel=cancel
        )
        return cast(LandingOutcome, outcome)  # accept lets only a handoff through

    def merge_receipt(
        self,
        path: Path | str,
        into: str,
        *,
        review: LandingReview | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> MergeOutcome:
        """:meth:`accept` for a receipt, into the passport that asked (spec §4.4.1)."""
        outcome = self.accept(
            path, into=into, expect="receipt", review=review, progress=progress, cancel=cancel
        )
        return cast(MergeOutcome, outcome)  # accept lets only a receipt through

    # -- first contact: chat text in, chat text out ---------------------------------------

    def inbox(self) -> Path:
        """Where packs read out of pasted or piped text are kept as files."""
        folder = self.home / "inbox"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def pack_from_text(self, text: str) -> PastedPack:
        """Find the one pack in `text` (a chat or email reply) and keep it as a file.

        The file lands in :meth:`inbox` named by its content, so the same reply pasted
        twice is the same file (and lands once). Review, land or merge it like any other
        pack file; `notes` says what reading it out of the text put up with. Raises a
        one-line PackError when the text holds no pack or more than one.
        """
        return self._keep(pack_in_text.find_pack_in_text(text))

    def pack_from_file(self, path: Path | str) -> PastedPack:
        """`path` itself when it already is a pack file; else the pack found in its text
        (`core.reply.find_pack_in_file`), kept in the inbox like a pasted reply."""
        found = pack_in_text.find_pack_in_file(path)
        if found is None:
            return PastedPack(path=Path(path), notes=[], kind=None, line=1)
        return self._keep(found)

    def _repair(self, opened: OpenedPack, pack: PackObject) -> list[str]:
        """`core.repair` at this desk's clock: what a hand or an AI got wrong, put right."""
        return repairs.repair_on_landing(opened, pack, now=self.store.clock)

    def _keep(self, found: pack_in_text.FoundPack) -> PastedPack:
        digest = hashlib.sha256(found.flat_bytes).hexdigest()
        out = self.inbox() / f"reply-{digest[:16]}.taskpack.json"
        if not (out.is_file() and out.read_bytes() == found.flat_bytes):
            write_bytes_atomically(out, found.flat_bytes)
        try:  # a pack this reader refuses (an unknown version, a bad attachment) is not kept,
            # nor one carrying a credential or a transcript (named, never shown; §4.1)
            with open_pack(out) as opened:
                secrets = _secrets_in(opened)
            if secrets:
                raise LandingRefused(secrets)
        except (PackError, LandingRefused):
            out.unlink(missing_ok=True)
            raise
        return PastedPack(path=out, notes=list(found.notes), kind=found.kind, line=found.line)

    def chat_message(self, path: Path | str, *, language: str | None = None) -> str:
        """The message for a chat or an email that goes with the pack at `path` (see
        `core.chat`): who asks what, what counts as an answer, the required checks, how to
        reply; the flat pack inline when it is small enough, else "attach the file"."""
        p = Path(path)
        with open_pack(p) as opened:
            pack, encoding = opened.pack, opened.encoding
        size = p.stat().st_size
        flat_text = None
        if encoding == "flat" and size <= chat_message.INLINE_LIMIT:
            flat_text = p.read_text(encoding="utf-8")
        lang = language or self.settings.language or os.environ.get("LANG")
        return chat_message.chat_message(
            pack, file_name=p.name, file_size=size, flat_text=flat_text, language=lang
        )

    def can_restore(
        self, passport_id: str, fact_no: int, *, passport: LocalPassport | None = None
    ) -> tuple[bool, str]:
        """May this sealed fact get its ✓ back here? `passport`: the passport as just read
        with :meth:`get` (saves reading it again)."""
        return restore.restore_check(
            self.store, passport_id, fact_no, machine=self.machine, passport=passport
        )

    def can_restore_all(
        self, passport_id: str, *, passport: LocalPassport | None = None
    ) -> dict[int, tuple[bool, str]]:
        """:meth:`can_restore` for each sealed fact, by fact number (the packs read once)."""
        return restore.restore_checks(
            self.store, passport_id, machine=self.machine, passport=passport
        )

    def restore(self, passport_id: str, fact_no: int) -> LocalPassport:
        """Give fact `fact_no` (1-based) its ✓ back — call only on the person's explicit
        choice. Refused (RestoreRefused, with the reason) unless §4.2 allows it here."""
        lp, events = restore.restore_fact(self.store, passport_id, fact_no, machine=self.machine)
        self._notify(events)
        return lp

    def check_fact_here(self, passport_id: str, fact_no: int) -> LocalPassport:
        """The person checked fact `fact_no` (1-based) on this machine: call only on their
        explicit choice. Unlike :meth:`restore` this is new evidence, not the sender's word:
        the fact becomes machine-scoped, verified on this machine by this desk's person."""

        def change(lp: LocalPassport) -> dict[str, JSON]:
            facts = lp.passport.facts or []
            if not 1 <= fact_no <= len(facts):
                raise NotFound(f"passport {passport_id} has no fact {fact_no}")
            fact = facts[fact_no - 1]
            before = fact.verified_on
            _verified_here(fact, self.machine, self.actor)
            return {
                "fact": fact_no,
                "claim": fact.claim,
                "machine": self.machine,
                "by": self.actor,
                "was_verified_on": before,
            }

        return self._edit(passport_id, "checked", change)

    def check_landing_here(self, passport_id: str, check_id: str) -> LocalPassport:
        """The person did landing check `check_id` on this machine (their explicit choice):
        the check is marked done and a fact verified here records it."""

        def change(lp: LocalPassport) -> dict[str, JSON]:
            checks = lp.landing_checks or []
            check = next((c for c in checks if c.id == check_id), None)
            if check is None:
                known = ", ".join(c.id or "?" for c in checks) or "none"
                raise NotFound(
                    f"passport {passport_id} has no landing check {check_id!r} (checks: {known})"
                )
            at = self.store.clock()
            check.checked_on, check.checked_by, check.checked_at = self.machine, self.actor, at
            fact = Fact(
                claim=f"Checked on this machine: {check.check or check_id}", scope="machine"
            )
            _verified_here(fact, self.machine, self.actor)
            fact.landing_check = check_id
            lp.passport.facts = [*(lp.passport.facts or []), fact]
            return {
                "check": check_id,
                "claim": check.check,
                "fact": len(lp.passport.facts),
                "machine": self.machine,
                "by": self.actor,
            }

        return self._edit(passport_id, "checked", change)

    # -- lifecycle ---------------------------------------------------------------------

    def move(
        self,
        passport_id: str,
        state: str,
        waiting_on: str | None = None,
        *,
        why: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Move the task; a move the table does not list raises InvalidMove, changing nothing.

        Beyond the table: a task reaches `verifying` only with a returned result (use
        :meth:`return_result`), and `completed` only with one attached.
        """

        def change(lp: LocalPassport) -> dict[str, JSON]:
            move = lifecycle.check_move(lp.state, lp.waiting_on, state, waiting_on)
            if state == "verifying" or (state == "completed" and lp.result is None):
                raise InvalidMove(
                    f"invalid_state: a task moves to {state} only with a returned result",
                    hint=f"Return one with `taskpack result {passport_id} --summary … --evidence …`.",
                )
            before = lifecycle.describe(lp.state, lp.waiting_on)
            lp.state, lp.waiting_on = state, waiting_on
            return {
                "from": before,
                "to": lifecycle.describe(state, waiting_on),
                "why": why or move.why,
                "move": move.why,
            }

        return self._edit(passport_id, "moved", change, expected_version=expected_version)

    def return_result(
        self,
        passport_id: str,
        summary: str,
        evidence: Sequence[dict[str, JSON]],
        *,
        provenance: str = "agent_generated",
        returned_by: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Attach a result and move working → verifying; its shape is checked first."""
        result: dict[str, JSON] = {
            "summary": summary,
            "evidence": [dict(e) for e in evidence],
            "provenance": provenance,
            "returned_by": returned_by
            or f"{lifecycle.slug(self.actor)}/{lifecycle.slug(self.machine)}",
            "returned_at": self.store.clock(),
        }
        lifecycle.check_result(result)

        def change(lp: LocalPassport) -> dict[str, JSON]:
            move = lifecycle.check_move(lp.state, lp.waiting_on, "verifying")
            lp.result = result
            lp.state, lp.waiting_on = "verifying", None
            return {
                "from": "working",
                "to": "verifying",
                "move": move.why,
                "evidence": len(result["evidence"]),
            }

        return self._edit(passport_id, "result", change, expected_version=expected_version)

    # -- listing -------------------------------------------------------------------------

    def passports(
        self,
        *,
        state: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        taken_by: str | None = None,
    ) -> list[PassportSummary]:
        """Passports, most recently changed first; `taken_by` (a name, or name@machine):
        those that person took on (a team desk records who)."""
        if state is not None and state not in lifecycle.STATES:
            raise UsageError(
                f"{state!r} is not a task state", hint=f"Use one of: {', '.join(lifecycle.STATES)}."
            )
        if taken_by is None:
            return self.store.summaries(state=state, limit=limit, offset=offset)
        return self.store.summaries(state=state, limit=limit, offset=offset, taken_by=taken_by)


def _verified_here(fact: Fact, machine: str, actor: str) -> None:
    fact.scope = "machine"
    fact.verified = True
    fact.needs_reverify = False
    fact.verified_on = machine
    fact.verified_by = actor


def is_checked_here(check: LandingCheck) -> bool:
    """A landing check the person marked done on this desk (see Desk.check_landing_here)."""
    return bool(check.checked_on)


def _secrets_in(opened: OpenedPack) -> list[Finding]:
    """Credentials and transcripts in a pasted pack: its object, then its attachments."""
    found = [f for f in scan_value(opened.data) if f.rule in ("credential", "transcript")]
    scan = LuggageScan()
    try:
        opened.stream_luggage(lambda item, chunk: scan.feed(item.name, chunk))
        found += scan.finish()
    finally:
        scan.close()
    return found


def load_json_file(path: Path | str, *, what: str) -> dict[str, JSON]:
    """A JSON object from a file a person named, or one sentence saying what is wrong."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"{p} is not valid JSON (line {exc.lineno})", hint="Fix the file and try again."
        ) from None
    except UnicodeDecodeError:
        raise FormatError(
            f"{p} is not UTF-8 text", hint="Save it as UTF-8 and try again."
        ) from None
    if not isinstance(data, dict):
        raise FormatError(
            f"{p} must hold a JSON object ({what})", hint="Fix the file and try again."
        )
    return data


# what the window needs of the store's records, so `ui/` talks to the desk alone
__all__ = [
    "Desk",
    "HistoryEntry",
    "LandingOutcome",
    "LandingReview",
    "MergeOutcome",
    "MoveOption",
    "PackOutcome",
    "PackWritten",
    "PassportSummary",
    "PastedPack",
    "StoredLuggage",
    "utc_now",
]
