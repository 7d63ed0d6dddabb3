"""The window's slow actions, as plain functions over the desk (no Qt here).

Each takes ``progress(done, total)`` and ``cancelled()`` as its last two arguments so
`jobs.JobRunner` can run it on a worker thread. Anything from a pack is read as data.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO, Protocol, cast

from taskpack.app import isolated
from taskpack.app.desk import (
    CHUNK,
    Ask,
    ChangeReport,
    Desk,
    Fact,
    HistoryEntry,
    LandingOutcome,
    LandingReview,
    LocalPassport,
    MergeOutcome,
    MoveOption,
    PackOutcome,
    PackWritten,
    StoredLuggage,
    origin_label,
    standing,
)

# "Take this on" (the passport view offers it when there is a path; see Desk.take_on)
from taskpack.app.desk import TAKE_ON_WHY as TAKE_ON_WHY
from taskpack.app.desk import take_on_path as take_on_path
from taskpack.core.errors import Cancelled, FormatError, TaskPackError
from taskpack.core.files import atomic_write
from taskpack.core.progress import CancelCheck, Progress
from taskpack.ui import as_pages


class JudgedCheck(Protocol):
    """One check of the strict judge's report, as the window reads it."""

    @property
    def id(self) -> str: ...
    @property
    def requirement(self) -> str: ...
    @property
    def ok(self) -> bool | None: ...
    @property
    def reasons(self) -> Sequence[str]: ...


class JudgeReport(Protocol):
    """What the window reads of the judge's report (`Desk.judge`; core's class stays
    behind the desk)."""

    @property
    def checks(self) -> Sequence[JudgedCheck]: ...


#: luggage up to this total is judged (C0–C10) as part of the review; larger packs on request
JUDGE_AUTOMATICALLY_BYTES = 64 << 20


# --- review -----------------------------------------------------------------------------


@dataclass
class Reviewed:
    """A landing review, plus the strict judge's findings when the pack was judged."""

    review: LandingReview
    failed_checks: list[tuple[str, str, list[str]]] | None = None  # (id, requirement, reasons)
    luggage_bytes: int = 0
    #: this desk's machine: how each fact stands is said for it
    machine: str = ""
    #: a receipt whose passport is here: its title, and its asks the receipt leaves open
    target_title: str = ""
    still_open: list[Ask] = field(default_factory=list)
    #: made in a helper process (a large pack): the whole review, pickled — never unpickled
    #: in the window's process; landing hands it back to a helper. `review` is then the
    #: review to show, its asks as pages (`core.pages.AskPages`) and no sealed pack.
    review_pickle: bytes | None = None
    #: how many facts are not proven on `machine`, counted where the review was made
    #: (None: count them from `review.facts`, which are then all here)
    unproven: int | None = None

    @property
    def judged(self) -> bool:
        return self.failed_checks is not None


def review(desk: Desk, path: Path, progress: Progress, cancelled: CancelCheck) -> Reviewed:
    """The landing review of `path`; a large pack is reviewed in a helper process (see
    `app.isolated`), so the window's GUI thread never waits on its interpreter lock. The
    file is opened once: the helper reads the descriptor opened here."""
    with isolated.opened(path) as f:
        if f is not None and isolated.pack_is_large(f):
            progress(0, 0)
            return isolated.call(
                desk,
                _review_handed,
                path,
                # a Handed is unpickled in the helper as its descriptor (Handed.__reduce__)
                cast("int | None", isolated.handed(f)),
                progress=progress,
                cancel=cancelled,
            )
        return _review(desk, path, progress, cancelled, source=f)


def _review_handed(
    desk: Desk, path: Path, fd: int | None, progress: Progress, cancelled: CancelCheck
) -> Reviewed:
    """`review_elsewhere` of the file the window opened (`fd`: its descriptor), or of
    `path` when it could not be handed over."""
    with contextlib.nullcontext() if fd is None else os.fdopen(fd, "rb") as f:
        return review_elsewhere(desk, path, progress, cancelled, source=f)


def review_elsewhere(
    desk: Desk,
    path: Path,
    progress: Progress,
    cancelled: CancelCheck,
    *,
    source: BinaryIO | None = None,
) -> Reviewed:
    """Run in a helper process: the review, compact to send back (`Reviewed.review_pickle`).

    The judge's findings come from the review's own pass over the luggage (the file is
    read once); the pack as read is let go before the review is made compact."""
    out = _review(desk, path, progress, cancelled, source=source)
    out.unproven = unproven_facts(out.review.facts, out.machine)
    full = as_pages.held_form(out.review)
    out.review_pickle = pickle.dumps(full, protocol=pickle.HIGHEST_PROTOCOL)
    out.review = replace(full, sealed_pack=None, facts=as_pages.facts_as_pages(full.facts))
    out.still_open = as_pages.asks_as_pages(out.still_open, every=False)
    del full
    gc.collect()  # (the helper runs with the collector off: what a reading left in cycles goes now)
    return out


def unproven_facts(facts: Sequence[Fact], machine: str | None) -> int:
    """How many of `facts` are not proven on `machine` (a ✓ does not cross machines)."""
    return sum(
        1
        for f in facts
        if standing(f, machine=machine or None).kind not in ("proven_here", "carried")
    )


def _review(
    desk: Desk,
    path: Path,
    progress: Progress,
    cancelled: CancelCheck,
    *,
    source: BinaryIO | None = None,
) -> Reviewed:
    """The review of `path`, read from `source` (the file, already open) when given."""
    progress(0, 0)
    try:
        # staged as it is read: Land then stores the luggage without reading the pack again;
        # judged in the same pass when its luggage is small enough to judge unasked
        rv = desk.review(
            path if source is None else source,
            name=None if source is None else str(path),
            stage=True,
            judge_up_to=JUDGE_AUTOMATICALLY_BYTES,
            progress=progress,
            cancel=cancelled,
        )
    except FormatError as exc:
        raise Desk.plain_reason(path, exc) from None
    if cancelled():
        raise Cancelled()
    report, rv.conformance = rv.conformance, None  # (the review is held, the report shown)
    total = sum(int(i.get("size") or 0) for i in rv.luggage)
    out = Reviewed(rv, luggage_bytes=total, machine=desk.machine)
    if rv.kind == "receipt" and rv.target_here and rv.receipt_target:
        with contextlib.suppress(TaskPackError):
            target = desk.get(rv.receipt_target)
            out.target_title = target.passport.title or ""
            answered = set(rv.would_answer)
            out.still_open = [
                a
                for a in target.asks or []
                if (a.status or "open") == "open" and a.id not in answered
            ]
    if report is not None:
        out.failed_checks = failed_checks(report)
    return out


def judge(
    path: Path, progress: Progress, cancelled: CancelCheck, *, desk: Desk | None = None
) -> list[tuple[str, str, list[str]]]:
    """The strict judge's failed checks (spec §6), for a person to read (a large pack
    is judged in a helper process when `desk` is given)."""
    if desk is not None and isolated.pack_is_large(path):
        return isolated.call(desk, _judge_elsewhere, path, progress=progress, cancel=cancelled)
    return _judge(path, progress, cancelled)


def _judge_elsewhere(
    desk: Desk, path: Path, progress: Progress, cancelled: CancelCheck
) -> list[tuple[str, str, list[str]]]:
    return _judge(path, progress, cancelled)


def _judge(
    path: Path, progress: Progress, cancelled: CancelCheck
) -> list[tuple[str, str, list[str]]]:
    return failed_checks(Desk.judge(path, progress=progress, cancel=cancelled))


def failed_checks(report: JudgeReport) -> list[tuple[str, str, list[str]]]:
    """The checks a judge's report fails, for a person to read: (id, requirement, reasons)."""
    return [(c.id, c.requirement, list(c.reasons)) for c in report.checks if not c.ok]


# --- landing and merging ----------------------------------------------------------------


def land(
    desk: Desk,
    path: Path,
    progress: Progress,
    cancelled: CancelCheck,
    *,
    held: Reviewed | None = None,
) -> LandingOutcome:
    """Land from the review the window holds (re-read if the file changed since). A review
    made in a helper process is landed in one, from the review it made."""
    return _accept(desk, "land", path, (), held, progress, cancelled)  # type: ignore[no-any-return]


def merge(
    desk: Desk,
    path: Path,
    into: str,
    progress: Progress,
    cancelled: CancelCheck,
    *,
    held: Reviewed | None = None,
) -> MergeOutcome:
    return _accept(desk, "merge_receipt", path, (into,), held, progress, cancelled)  # type: ignore[no-any-return]


def _accept(
    desk: Desk,
    how: str,
    path: Path,
    args: tuple[Any, ...],
    held: Reviewed | None,
    progress: Progress,
    cancelled: CancelCheck,
) -> Any:
    """``desk.<how>(path, *args)`` from the review held: here, reading the file from the
    one descriptor that also told it is not large; or in a helper process, for a review
    made in one or a large pack."""
    if held is None or held.review_pickle is None:
        with isolated.opened(path) as f:
            if f is None or not isolated.pack_is_large(f):
                return getattr(desk, how)(
                    path if f is None else f,
                    *args,
                    name=None if f is None else str(path),
                    review=held.review if held else None,
                    progress=progress,
                    cancel=cancelled,
                )
    outcome = isolated.call(
        desk,
        _accept_elsewhere,
        how,
        path,
        args,
        held.review_pickle if held else None,
        progress=progress,
        cancel=cancelled,
    )
    desk.report_changes(outcome.changes)
    return outcome


def _accept_elsewhere(
    desk: Desk,
    how: str,
    path: Path,
    args: tuple[Any, ...],
    review_pickle: bytes | None,
    progress: Progress,
    cancelled: CancelCheck,
) -> Any:
    review = pickle.loads(review_pickle) if review_pickle is not None else None
    outcome = getattr(desk, how)(path, *args, review=review, progress=progress, cancel=cancelled)
    return as_pages.compact_outcome(outcome)


# --- a change to one passport ------------------------------------------------------------

#: a change names a `Desk` method, or a function of this module called as ``fn(desk, *args)``
How = str | Callable[..., Any]


def change(
    desk: Desk,
    passport_id: str,
    how: How,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    progress: Progress,
    cancelled: CancelCheck,
) -> None:
    """Make a change to the passport `passport_id` (answer an ask, move it, add a fact…).

    A large passport (its stored JSON over `isolated.LARGE_BYTES`: ~2,000 asks) is changed
    in a helper process: reading, changing and storing 100,000 asks holds an interpreter
    lock for seconds, and here that lock is the GUI thread's. This desk's subscribers are
    told what changed, and the answers' drafts (which only this process holds) are cleared
    here, as the change would have cleared them."""
    if desk.passport_size(passport_id) > isolated.LARGE_BYTES:
        report: ChangeReport = isolated.call(
            desk, _change_elsewhere, how, args, kwargs, progress=progress, cancel=cancelled
        )
        desk.report_changes(report.changes, drafts_done=report.drafts_done)
        return
    _call(desk, how, args, kwargs)


def _call(desk: Desk, how: How, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return (
        getattr(desk, how)(*args, **kwargs) if isinstance(how, str) else how(desk, *args, **kwargs)
    )


def _change_elsewhere(
    desk: Desk,
    how: How,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    progress: Progress,
    cancelled: CancelCheck,
) -> ChangeReport:
    with desk.recording() as report:
        _call(desk, how, args, kwargs)
    return report


def take_on_now(desk: Desk, passport_id: str) -> LocalPassport:
    """ "Take this on", as a change (`change(desk, pid, take_on_now, (pid,), {}, …)`): the
    desk's one-transaction move (`Desk.take_on`)."""
    return desk.take_on(passport_id)


# --- packing ----------------------------------------------------------------------------


def export(
    desk: Desk,
    passport_id: str,
    out: Path,
    kind: str,
    note: str | None,
    progress: Progress,
    cancelled: CancelCheck,
    to: str | None = None,
) -> PackOutcome:
    """Pack the passport into `out`; a large passport is packed in a helper process."""
    if desk.passport_size(passport_id) > isolated.LARGE_BYTES:
        outcome: PackOutcome = isolated.call(
            desk, _export, passport_id, out, kind, note, to, progress=progress, cancel=cancelled
        )
        desk.report_changes(outcome.changes)
        return outcome
    return _export(desk, passport_id, out, kind, note, to, progress, cancelled)


def _export(
    desk: Desk,
    passport_id: str,
    out: Path,
    kind: str,
    note: str | None,
    to: str | None,
    progress: Progress,
    cancelled: CancelCheck,
) -> PackOutcome:
    return desk.pack(
        passport_id,
        out,
        kind=kind,
        note=note,
        progress=progress,
        cancel=cancelled,
        to=to,
        via="window",
    )


def outbox(desk: Desk) -> Path:
    """Where packs made for Copy/Email wait (they must exist as files to be attached)."""
    folder = desk.home / "outbox"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- luggage ----------------------------------------------------------------------------


def _copy_atomically(
    src: BinaryIO, out: Path, total: int, progress: Progress, cancelled: CancelCheck
) -> Path:
    out = Path(out)
    done = 0
    with atomic_write(out) as f:
        while True:
            if cancelled():
                raise Cancelled()
            chunk = src.read(CHUNK)
            if not chunk:
                break
            f.write(chunk)
            done += len(chunk)
            progress(done, total)
    return out


def save_pack_luggage(
    pack_path: Path, name: str, out: Path, progress: Progress, cancelled: CancelCheck
) -> Path:
    """Save one luggage file of a pack that has not landed; its digest is checked."""
    with Desk.open_pack_luggage(pack_path, name) as (src, size):
        return _copy_atomically(src, out, size, progress, cancelled)


def save_stored_luggage(
    desk: Desk,
    passport_id: str,
    name: str,
    size: int,
    out: Path,
    progress: Progress,
    cancelled: CancelCheck,
) -> Path:
    with desk.open_luggage(passport_id, name) as src:
        return _copy_atomically(src, out, size, progress, cancelled)


# --- what the detail view shows ---------------------------------------------------------


@dataclass
class Detail:
    #: the passport as this desk keeps it (its task state is `local.passport`)
    local: LocalPassport
    history: list[HistoryEntry]
    luggage: list[StoredLuggage]
    moves: list[MoveOption]
    #: fact number (1-based) → (may restore, reason) for each sealed fact
    restore: dict[int, tuple[bool, str]] = field(default_factory=dict)
    #: this desk's machine, and answers typed but not saved yet (ask id → text)
    machine: str = ""
    drafts: dict[str, str] = field(default_factory=dict)
    #: the outbox ledger's entries for this passport, oldest first (shown in History)
    sent: list[PackWritten] = field(default_factory=list)
    #: this desk's person (History names who did what: person and machine)
    actor: str = ""


def is_sealed(fact: Fact) -> bool:
    return bool(fact.needs_reverify) and not fact.verified


def load_detail(desk: Desk, passport_id: str, progress: Progress, cancelled: CancelCheck) -> Detail:
    """What the passport view shows; a large passport is read in a helper process and
    comes back with its asks as pages."""
    if desk.passport_size(passport_id) > isolated.LARGE_BYTES:
        return isolated.call(
            desk, _detail_elsewhere, passport_id, progress=progress, cancel=cancelled
        )
    return _load_detail(desk, passport_id, progress, cancelled)


def _detail_elsewhere(
    desk: Desk, passport_id: str, progress: Progress, cancelled: CancelCheck
) -> Detail:
    detail = _load_detail(desk, passport_id, progress, cancelled, pages=True)
    detail.local = as_pages.compact_passport(detail.local)
    return detail


def _load_detail(
    desk: Desk, passport_id: str, progress: Progress, cancelled: CancelCheck, *, pages: bool = False
) -> Detail:
    lp = desk.get(passport_id, pages=pages)
    detail = Detail(
        lp,
        desk.history(passport_id),
        desk.luggage(passport_id),
        desk.allowed_moves(passport_id),
        machine=desk.machine,
        drafts=desk.drafts.of(passport_id),
        actor=desk.actor,
    )
    detail.restore = desk.can_restore_all(passport_id, passport=lp)
    detail.sent = list(reversed(desk.outbox(passport_id=passport_id)))
    return detail


def compact_sender(origin: dict[str, Any]) -> str:
    """``actor@machine`` from a pack's origin (either alone when the other is missing)."""
    return origin_label(origin)


def sender_of(lp: LocalPassport) -> str:
    origin = lp.received.origin if lp.received else None
    return compact_sender(origin.to_data() if origin else {})


@dataclass(frozen=True)
class PassportRow:
    id: str
    title: str
    state: str
    waiting_on: str | None
    sender: str
    open_asks: int
    updated_at: str
    came_from: str
    #: answers typed and not saved yet (kept across restarts, app/drafts.py)
    drafts: int = 0


def load_rows(
    desk: Desk, senders: dict[tuple[str, int], str], progress: Progress, cancelled: CancelCheck
) -> list[PassportRow]:
    """Every passport as a list row. `senders` caches (id, version) → sender across calls."""
    rows = []
    for s in desk.passports():
        if cancelled():
            raise Cancelled()
        sender = ""
        if s.came_from != "here":
            key = (s.id, s.version)
            if key not in senders:
                with contextlib.suppress(TaskPackError):  # a large passport is not parsed for it
                    senders[key] = compact_sender(desk.sent_by(s.id))
            sender = senders.get(key, "")
        rows.append(
            PassportRow(
                s.id,
                s.title or s.id,
                s.state,
                s.waiting_on,
                sender,
                s.open_asks,
                s.updated_at,
                s.came_from,
                sum(1 for text in desk.drafts.of(s.id).values() if text.strip()),
            )
        )
    return rows
