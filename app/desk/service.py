"""The Desk service: this machine's passports, behind one object every front end uses
(see the package docstring). Authoring and lifecycle moves are in `edits`, first contact
in `first_contact`."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from taskpack.app import paths
from taskpack.app.desk.composing import Composing
from taskpack.app.desk.edits import Edits
from taskpack.app.desk.first_contact import FirstContact
from taskpack.app.desk.landing import Landing
from taskpack.app.drafts import Drafts
from taskpack.app.settings import Settings
from taskpack.app.team.choose import open_store, store_url, where
from taskpack.core.desk import export, lifecycle, review
from taskpack.core.desk.answer_source import AnswerSources, answer_sources
from taskpack.core.desk.export import PackOutcome
from taskpack.core.desk.store import (
    HistoryEntry,
    PackWritten,
    PassportSummary,
    Store,
    StoredLuggage,
    utc_now,
)
from taskpack.core.errors import (
    FormatError,
    NotFound,
    TaskPackError,
    UsageError,
)
from taskpack.core.format.luggage import LuggageSource, luggage_from_paths
from taskpack.core.format.model import (
    JSON,
    Ask,
    LocalPassport,
)
from taskpack.core.format.reading import open_pack
from taskpack.core.format.zip_archive import SafeZip
from taskpack.core.progress import CancelCheck, Progress
from taskpack.core.trust.ask_lint import lint_accept

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
class ChangeReport:
    """What a desk in a helper process changed (see :meth:`Desk.recording`)."""

    #: (passport id, event) as subscribers are told
    changes: list[tuple[str, str]] = field(default_factory=list)
    #: (passport id, ask id) of the drafts the changes made obsolete
    drafts_done: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class MoveOption:
    """One move the table allows from where a task is now."""

    state: str
    waiting_on: str | None
    why: str

    @property
    def label(self) -> str:
        return lifecycle.describe(self.state, self.waiting_on)


class Desk(Landing, Edits, Composing, FirstContact):
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
        #: (store data version, history seq) last looked at. A shared store's change feed
        #: starts when first asked (a window, a poll; one-shot commands never wait for it)
        #: and counts from 0, plus 1 if another wrote since the store opened
        shared = getattr(self.store, "shared", False)
        self._seen_elsewhere = (
            0 if shared else self.store.data_version(),
            self.store.changed_since(0)[0],
        )
        #: answers typed but not saved yet (never packed); see app/drafts.py
        self.drafts = Drafts(self.home)
        self._report: ChangeReport | None = None

    @property
    def team_desk(self) -> str | None:
        """Where the shared store is (``DB on HOST:PORT``) on a team desk; None for the
        embedded desk of this machine. Never holds a password."""
        url = store_url(self.settings.store)
        return where(url) if url else None

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

    def on_changes_elsewhere(self, fn: Callable[[], None]) -> Callable[[], None] | None:
        """Call `fn()` (on another thread) soon after another process changed this desk,
        when the store can say so (a team desk: LISTEN/NOTIFY); then ask
        :meth:`changes_elsewhere`. Returns an unsubscribe, or None when the store cannot
        say (the embedded desk): then poll :meth:`changes_elsewhere`."""
        hook: Callable[[Callable[[], None]], Callable[[], None] | None] | None
        hook = getattr(self.store, "on_change", None)
        return hook(fn) if hook is not None else None

    def _notify(self, changes: Iterable[tuple[str, str]]) -> None:
        with self._sub_lock:
            subscribers = list(self._subscribers)
        for passport_id, event in changes:
            for fn in subscribers:
                try:
                    fn(passport_id, event)
                except Exception:  # a broken listener must not undo or hide a commit
                    log.exception("a desk subscriber failed on %s %s", passport_id, event)

    # -- reading -----------------------------------------------------------------------

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        """The passport; `pages=True` to show it (many asks as read-only pages, see Store.get)."""
        return self.store.get(passport_id, pages=pages)

    def get_version(self, passport_id: str, version: int) -> LocalPassport:
        return self.store.get_version(passport_id, version)

    def history(self, passport_id: str) -> list[HistoryEntry]:
        return self.store.history(passport_id)

    def answer_sources(self, passport_id: str, version: int | None = None) -> AnswerSources:
        """Which asks hold an answer that came in a pack (a receipt, or the handoff it
        landed from), as this desk's history says — never as the answer says."""
        return answer_sources(self.store.history(passport_id), version)

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

    @contextlib.contextmanager
    def recording(self) -> Iterator[ChangeReport]:
        """In a helper process working for another desk (`app.isolated`): what is changed
        inside is recorded in the report, to hand to that desk's :meth:`report_changes`.
        The drafts an answer makes obsolete are recorded, not cleared here: the drafts
        live in the other process (this one's copy would be stale)."""
        report = ChangeReport()
        self._report = report
        unsubscribe = self.subscribe(lambda pid, event: report.changes.append((pid, event)))
        try:
            yield report
        finally:
            unsubscribe()
            self._report = None

    def report_changes(
        self,
        changes: Iterable[tuple[str, str]],
        *,
        drafts_done: Iterable[tuple[str, str]] = (),
    ) -> None:
        """Changes a helper process made to this desk's store for it (`app.isolated`):
        subscribers are told, as if this desk had made them, and the drafts they made
        obsolete ((passport id, ask id), see :meth:`recording`) are cleared."""
        for passport_id, ask_id in drafts_done:
            self.drafts.clear(passport_id, ask_id)
        self._notify(changes)

    def _draft_done(self, passport_id: str, ask_id: str) -> None:
        if self._report is not None:
            self._report.drafts_done.append((passport_id, ask_id))
        else:
            self.drafts.clear(passport_id, ask_id)

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
            targets: list[str | None] = [
                w for w in lifecycle.WAITING_ON if move.to_waiting and w in move.to_waiting
            ]
            for target_waiting_on in targets or [None]:
                out.append(MoveOption(move.target, target_waiting_on, move.why))
        return out

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

    def note_mailed(self, passport_id: str, path: Path | str, *, how: str) -> None:
        """History: an email was opened with the pack at `path` for the person to send
        (`how`: ``attached`` by the mail program, or ``by_hand``: the file was shown to
        attach). The desk cannot know whether the email was sent; it says only this."""
        with self.store.write() as tx:
            tx.log(passport_id, "mailed", {"file": Path(path).name, "how": how})
            changes = list(tx.events)
        self._notify(changes)

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

    @staticmethod
    def plain_reason(path: Path | str, exc: FormatError) -> FormatError:
        """The reader's refusal of `path`, or — for a zip that holds no TaskPack — what the
        file is (its directory read through the reader's checked zip, never a bare one)."""
        with contextlib.suppress(OSError, TaskPackError), open(path, "rb") as f:
            names = SafeZip(f, os.fstat(f.fileno()).st_size).zf.namelist()
            if not any(n == "bagit.txt" or n.endswith("/bagit.txt") for n in names):
                return FormatError(
                    "it is an ordinary zip file, not a TaskPack",
                    hint="Ask the sender to export it from their desk as a .taskpack.",
                )
        return exc

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
