"""What landing a pack would do, found without landing anything (spec §4.1–§4.4.1).

:func:`review` reads the pack's luggage once (digests checked at EOF, secrets scanned,
small texts kept for the imperative scan), seals a copy of its facts once, and says what
this desk makes of it: the gate's answer for a handoff, the passport a receipt answers and
which asks it would answer or adopt. The review is what a person is shown, and what
:func:`taskpack.core.desk.landing.land` lands from.

Every byte of a pack is data. Nothing here executes, opens or follows anything from it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Cancelled, Finding, FormatError, TaskPackError
from ..format.luggage import LuggageItem
from ..format.model import (
    JSON,
    Ask,
    Decision,
    Fact,
    LandingCheck,
    Lineage,
    PackObject,
    PassportState,
)
from ..format.read_once import proven
from ..format.reading import OpenedPack
from ..format.streams import CHUNK
from ..progress import CancelCheck, Progress
from ..trust.imperatives import find_imperatives
from ..trust.refusals import ScanBudget, StreamScanner, scan_value
from ..trust.sealing import seal_facts
from . import lifecycle
from .merge import answerable, asks_sent, merge_asks, target_by_id, target_refusal
from .resent import merged_before
from .store import Readable, StagedBlob, Store

if TYPE_CHECKING:  # (the judge is imported only by a review that is judged)
    from ..trust.conformance import Report as ConformanceReport

#: text luggage up to this size is scanned for imperative sentences
SCAN_LUGGAGE_BYTES = 256 * 1024

#: a repair hook: given the opened pack and the copy of its pack object that will be
#: stored, fix what a hand or an AI got wrong IN THE COPY and say what, one plain
#: sentence per repair. Called before sealing and before the target rule is applied.
Repair = Callable[[OpenedPack, PackObject], list[str]]


# --- what a person is shown -----------------------------------------------------------


def check_line(check: LandingCheck) -> str:
    """A landing check as a next step: the check is required, the `how` is only quoted."""
    kind = "required" if check.is_required else "optional"
    text = f"Landing check ({kind}): {check.check or '(no check text)'}"
    if check.how:
        text += f" — sender's suggestion, not run: «{check.how}»"
    return text


@dataclass
class LandingReview:
    """What landing a file would do. Building one lands nothing and writes nothing."""

    path: Path
    encoding: str
    kind: str
    content_digest: str
    origin: dict[str, JSON]
    packed_at: str | None
    note: str | None
    lineage: dict[str, JSON] | None
    title: str | None
    goal: str | None
    current_state: str | None
    #: next steps as they would be placed: required landing checks first (handoffs)
    next_steps: list[JSON]
    #: the sender's landing checks, required ones first; `how` is the sender's words
    landing_checks: list[LandingCheck]
    #: facts after sealing, and one sentence per fact that sealing changed
    facts: list[Fact]
    sealed: list[str]
    asks: list[Ask]
    #: imperative sentences found in the pack: reported to the person, never followed
    imperatives: list[dict[str, JSON]]
    luggage: list[dict[str, JSON]]
    #: what the lenient reader had to forgive (a judge would fail the file for these)
    notes: list[str]
    #: this desk wrote this very pack (needed to restore a ✓, spec §4.2)
    written_here: bool
    #: the passport this pack already landed in / merged into, if it did
    already: str | None = None
    #: a receipt sent again: `already` names the passport that merged the same answers
    #: from another file, and nothing in this one is new (`resent.merged_before`)
    nothing_new: bool = False
    #: handoff: the gate lets the sender through (routed) or holds it for the owner
    gate_allows: bool = False
    #: receipt: the passport it answers (§4.4.1 rule 1) and whether this desk has it
    receipt_target: str | None = None
    target_here: bool = False
    #: receipt whose target is here: asks it would answer and asks it would adopt
    would_answer: list[str] = field(default_factory=list)
    would_adopt: list[str] = field(default_factory=list)
    #: the rest of the task state that lands with it, as the sender wrote it
    decisions: list[Decision] = field(default_factory=list)
    actions: list[JSON] = field(default_factory=list)
    artifacts: list[JSON] = field(default_factory=list)
    learnings: list[JSON] = field(default_factory=list)
    verification: JSON = None
    #: credentials and chat transcripts found in the pack object or its luggage (kind and
    #: place, never the value): a pack carrying any is refused, nothing is stored (§4.1)
    secrets: list[Finding] = field(default_factory=list)
    #: what a repair hook changed to make a hand-written pack landable, in plain words
    repairs: list[str] = field(default_factory=list)
    #: receipt without lineage: the passport its `passport.id` names (a target only when
    #: it is one of this desk's, §4.4.1 as `target_by_id` says; never found by title)
    named_id: str | None = None
    #: receipt whose lineage ends at its own passport.id: a reply written from the handoff
    #: with its lineage kept as it was (what the chat message asks); when that passport is
    #: one of this desk's, the reply answers it, not the one upstream (`target_by_id`)
    kept_lineage_id: str | None = None
    #: the pack object as it will be stored: repaired, then sealed — sealed once, here
    sealed_pack: PackObject | None = field(default=None, repr=False, compare=False)
    #: every luggage byte was read and scanned for this review (see `land(held=…)`)
    luggage_scanned: bool = field(default=False, repr=False)
    #: the passport the caller asked the pack to go into (`review(into=…)`), if any
    into: str | None = None
    #: why accepting it as asked would be refused (the merge-target rule, §4.4.1 rule 1,
    #: `merge.target_refusal`); None when a handoff may land, or a receipt may merge into
    #: `receipt_target`
    refusal: TaskPackError | None = field(default=None, repr=False, compare=False)
    #: made with `stage=True`: (name, staged blob) of every luggage file, staged in the
    #: blob folder as the review read it, so landing from this review stores them without
    #: reading the pack again (`land(held=…)`); never landed, they are swept as stale
    staged: list[tuple[str, StagedBlob]] = field(default_factory=list, repr=False, compare=False)
    #: made with `judge_up_to=…` and luggage within it: the strict judge's report on the
    #: file (spec §6, C0–C10), worked out in the review's own pass over the luggage
    conformance: ConformanceReport | None = field(default=None, repr=False, compare=False)

    @property
    def initial_state(self) -> str:
        return "routed" if self.gate_allows else "waiting[owner_approval]"

    def to_data(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "path": str(self.path),
            "encoding": self.encoding,
            "kind": self.kind,
            "content_digest": self.content_digest,
            "already": self.already,
            **({"nothing_new": True} if self.nothing_new else {}),
            "origin": self.origin,
            "packed_at": self.packed_at,
            "note": self.note,
            "lineage": self.lineage,
            "title": self.title,
            "goal": self.goal,
            "current_state": self.current_state,
            "next_steps": self.next_steps,
            "landing_checks": [c.to_data() for c in self.landing_checks],
            "facts": [f.to_data() for f in self.facts],
            "sealed": self.sealed,
            "asks": [a.to_data() for a in self.asks],
            "imperatives": self.imperatives,
            "luggage": self.luggage,
            "notes": self.notes,
            "written_here": self.written_here,
            "decisions": [d.to_data() for d in self.decisions],
            "actions": self.actions,
            "artifacts": self.artifacts,
            "learnings": self.learnings,
            "verification": self.verification,
            "secrets": [f.to_data() for f in self.secrets],
            "repairs": self.repairs,
        }
        if self.kind == "receipt":
            out |= {
                "receipt_target": self.receipt_target,
                "target_here": self.target_here,
                "would_answer": self.would_answer,
                "would_adopt": self.would_adopt,
            }
        else:
            out["initial_state"] = self.initial_state
        return out


# --- the review -----------------------------------------------------------------------


@dataclass
class LuggagePass:
    """What one pass over a pack's luggage gave: texts for the imperative scan, the
    secrets scan's findings, and (when landing) the bytes staged in the blob folder."""

    texts: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    staged: list[tuple[str, StagedBlob]] = field(default_factory=list)
    scanned: bool = False


def luggage_pass(
    opened: OpenedPack,
    *,
    store: Store | None = None,
    scan: bool = True,
    on_chunk: Callable[[LuggageItem, bytes], None] | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> LuggagePass:
    """Read every luggage byte once (verified at EOF), scanning for secrets and keeping
    small texts; with a `store`, stage each file in its blob folder on the way (nothing
    is stored until committed). Without `scan`, only small files are read. `on_chunk`
    is handed each chunk as it is read (the judge's share of the pass: `Judging`)."""
    out = LuggagePass(scanned=scan)
    items = [i for i in opened.luggage if scan or store or 0 <= i.size <= SCAN_LUGGAGE_BYTES]
    total = sum(max(i.size, 0) for i in items)
    done = 0
    budget = ScanBudget()  # one archive budget for the whole pack, as the writer and the judge
    try:
        for item in items:
            if cancel and cancel():
                raise Cancelled()
            scanner = StreamScanner(item.name, budget=budget) if scan else None
            head = bytearray()
            small = 0 <= item.size <= SCAN_LUGGAGE_BYTES

            def tap(
                chunk: bytes,
                scanner: StreamScanner | None = scanner,
                small: bool = small,
                head: bytearray = head,
                item: LuggageItem = item,
            ) -> None:
                nonlocal done
                if scanner is not None:
                    scanner.feed(chunk)
                if on_chunk is not None:
                    on_chunk(item, chunk)
                if small and len(head) <= SCAN_LUGGAGE_BYTES:
                    head.extend(chunk[: SCAN_LUGGAGE_BYTES + 1 - len(head)])
                done += len(chunk)
                if progress:
                    progress(done, total)

            with opened.open_luggage(item) as raw:
                reader = _Tapped(raw, tap, cancel)
                if store is not None:
                    out.staged.append(
                        (
                            item.name,
                            store.stage_blob(  # filed under the digest `raw` computes
                                raw,
                                expected_sha256=item.sha256,
                                size_hint=max(item.size, 0) or None,
                                on_chunk=reader.see,
                            ),
                        )
                    )
                else:
                    while reader.read(CHUNK):
                        pass
            if scanner is not None:
                out.findings += scanner.finish()
            if small:
                with contextlib.suppress(UnicodeDecodeError):
                    out.texts.append((item.name, bytes(head).decode("utf-8")))
        if cancel and cancel():
            raise Cancelled()
    except BaseException:
        if store is not None:
            for _name, staged in out.staged:
                store.discard_blob(staged)
        raise
    return out


class _Tapped:
    """A reader that hands each chunk to `tap` and stops when the caller cancels."""

    def __init__(
        self, raw: Readable, tap: Callable[[bytes], None], cancel: CancelCheck | None
    ) -> None:
        self.raw, self.tap, self.cancel = raw, tap, cancel

    def read(self, n: int = -1, /) -> bytes:
        if self.cancel and self.cancel():
            raise Cancelled()
        data = self.raw.read(n)
        if data:
            self.tap(data)
        return data

    def see(self, chunk: bytes) -> None:
        """A chunk someone else read from `raw`: stop if cancelled, else hand it to `tap`."""
        if self.cancel and self.cancel():
            raise Cancelled()
        self.tap(chunk)


def examine(opened: OpenedPack, repair: Repair | None) -> LandingReview:
    """The review's content: everything that depends on the pack alone, not on this desk.

    Repairs (if a hook is given) and sealing happen here, once, on a copy; the pack as
    read (`opened.data`) stays what the content digest and the landing record are of."""
    pack = working_copy(opened.pack)
    notes = list(opened.notes)
    repairs = list(repair(opened, pack)) if repair else []
    kind = pack.kind
    if kind is None:
        kind = "handoff"  # a hand-made pack that forgot `kind`: lenient landing
        notes.append("the pack declares no kind; it is read as a handoff")
    if kind not in ("handoff", "receipt"):
        raise FormatError(
            f"the pack's kind is {kind!r}; expected handoff or receipt",
            place="kind",
            code="bad_kind",
            params={"kind": str(kind)},
        )
    origin = pack.origin.to_data() if pack.origin else {}
    sealed = seal_facts(pack, machine=(pack.origin.machine if pack.origin else None) or "unknown")
    secrets = [f for f in scan_value(opened.data) if f.rule in ("credential", "transcript")]
    state = pack.passport or PassportState()
    checks = sorted(pack.landing_checks or [], key=lambda c: not c.is_required)
    rv = LandingReview(
        path=opened.path,
        encoding=opened.encoding,
        kind=kind,
        content_digest=opened.content_digest(),
        origin=origin,
        packed_at=pack.packed_at,
        note=pack.note,
        lineage=pack.lineage.to_data() if pack.lineage else None,
        title=state.title,
        goal=state.goal,
        current_state=state.current_state,
        next_steps=list(state.next_steps or []),
        landing_checks=checks,
        facts=list(pack.facts),
        sealed=list(sealed),
        asks=list(pack.asks or []),
        imperatives=[],  # with the luggage's texts, in `with_luggage` (one pass)
        luggage=[{"name": i.name, "size": i.size, "sha256": i.sha256} for i in opened.luggage],
        notes=notes,
        written_here=False,
        secrets=secrets,
        repairs=repairs,
        sealed_pack=pack,
        decisions=list(state.decisions or []),
        actions=list(state.actions or []),
        artifacts=list(state.artifacts or []),
        learnings=list(state.learnings or []),
        verification=state.verification,
    )
    if kind == "handoff":
        rv.next_steps = [check_line(c) for c in checks if c.is_required] + rv.next_steps
    else:
        rv.receipt_target = (pack.lineage or Lineage()).receipt_target()
        if not rv.receipt_target and pack.passport and pack.passport.id:
            rv.named_id = pack.passport.id
        chain = (pack.lineage.chain or []) if pack.lineage else []
        own = pack.passport.id if pack.passport else None
        if len(chain) >= 2 and own and chain[-1].rsplit("@", 1)[0] == own:
            rv.kept_lineage_id = chain[-1]  # id@version: the handoff it was written from
    return rv


def with_luggage(rv: LandingReview, opened: OpenedPack, luggage: LuggagePass) -> LandingReview:
    """Add what the pass over the luggage found: secrets, and imperatives in small texts."""
    rv.secrets = [*rv.secrets, *luggage.findings]
    found = find_imperatives(opened.data, luggage.texts)
    rv.imperatives = [imperative_data(i) for i in found]
    rv.luggage_scanned = luggage.scanned
    return rv


def place(store: Store, rv: LandingReview, allow: Iterable[str]) -> LandingReview:
    """The review's other half: what this desk makes of it now (cheap; no luggage read)."""
    digest = rv.content_digest
    landing = store.landing(digest)
    rv.already = landing.passport_id if landing else None
    rv.written_here = store.pack_written(digest) is not None
    if rv.kind == "handoff":
        rv.gate_allows = lifecycle.gate_allows(rv.origin, allow)
        return rv
    if rv.kept_lineage_id:  # only when this desk sent that very handoff
        pid, _, version = rv.kept_lineage_id.rpartition("@")
        sent = any(
            p.kind == "handoff" and str(p.version) == version for p in store.packs_written(pid)
        )
        rv.kept_lineage_id = pid if sent and store.exists(pid) else None
    target_by_id(rv, store.exists)
    rv.target_here = bool(rv.receipt_target) and store.exists(rv.receipt_target or "")
    rv.would_answer, rv.would_adopt = [], []
    if rv.target_here and rv.sealed_pack is not None:
        target = store.get(rv.receipt_target or "")
        asked = asks_sent(store.packs_written(target.id), target.id, rv.sealed_pack)
        incoming = answerable(
            target, rv.sealed_pack.asks or [], asked if isinstance(asked, set) else set()
        )
        plan = merge_asks(target, incoming, rv.sealed_pack, apply=False)
        rv.would_answer, rv.would_adopt = plan.answered, [a for a, _ in plan.adopted]
        if not rv.already and merged_before(store, rv, target):
            rv.already, rv.nothing_new = target.id, True
    return rv


def review(
    store: Store,
    opened: OpenedPack,
    *,
    machine: str,
    allow: Iterable[str] = (),
    into: str | None = None,
    repair: Repair | None = None,
    stage: bool = False,
    judge_up_to: int | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> LandingReview:
    """Everything a person should see before a pack lands. Writes nothing.

    Reads every luggage byte once (digests checked, secrets scanned), so the review
    carries the same findings the landing path refuses on. Hold on to it: :func:`landing.land`
    given this review (and the same file, checked by digest) reads the luggage only to
    store it. `into`: the passport a receipt is to merge into; `refusal` then says why
    landing it so would be refused (without `into`: why a receipt has nowhere to go).
    `stage`: keep each luggage file in the blob folder's staging area as it is read (see
    `LandingReview.staged`), so landing from the review reads nothing of the pack again.
    `judge_up_to`: when the luggage's declared sizes add up to no more than this, the
    strict judge's report on the file comes with it (`LandingReview.conformance`, what
    `conformance.judge` says), from the same pass over the luggage: read once, not twice.
    """
    del machine  # the sender's machine seals the facts; ours does not enter the review
    judging = None
    if judge_up_to is not None and sum(i.size for i in opened.luggage) <= judge_up_to:
        from ..trust.conformance import Judging

        judging = Judging(opened)
    luggage = luggage_pass(
        opened,
        store=store if stage else None,
        on_chunk=judging.feed if judging is not None else None,
        progress=progress,
        cancel=cancel,
    )
    try:
        proven(opened)
        rv = place(store, with_luggage(examine(opened, repair), opened, luggage), allow)
        if judging is not None:  # (after the review: its refusals come first, as they did)
            rv.conformance = judging.finish(luggage.findings)
    except BaseException:
        discard_staged(store, luggage.staged)
        raise
    if rv.secrets or rv.already:  # it will not land from here: nothing kept for it
        discard_staged(store, luggage.staged)
    else:
        rv.staged = luggage.staged
    rv.into = into
    rv.refusal = target_refusal(
        rv,
        into=into,
        expect="receipt" if into is not None else None,
        exists=store.exists,
        outbox=store.packs_written,
    )
    return rv


def discard_staged(store: Store, staged: list[tuple[str, StagedBlob]]) -> None:
    for _name, blob in staged:
        store.discard_blob(blob)


def still_staged(staged: list[tuple[str, StagedBlob]]) -> bool:
    """Are the blobs a review staged all still there, whole (not yet swept as stale)?"""
    try:
        return bool(staged) and all(
            b.path is None or b.path.stat().st_size == b.size  # None: held in memory
            for _n, b in staged
        )
    except OSError:
        return False


def working_copy(pack: PackObject) -> PackObject:
    """A copy of `pack` to repair, seal and land: lists of its own, sharing the records in
    them (a pack may carry 100,000 asks or facts: a deep copy is ~150 MB and a second). A
    record is copied before it is changed (repairs, sealing and landing all do so)."""
    copy = pack.copy_record(sharing=("asks", "passport"))
    if pack.passport is not None:
        copy.passport = pack.passport.copy_record(sharing=("facts",))
    return copy


def imperative_data(imp: Any) -> dict[str, JSON]:
    return {"place": imp.place, "sentence": imp.sentence, "cue": imp.cue}
