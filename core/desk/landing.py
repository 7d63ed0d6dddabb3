"""How passports leave this desk and arrive at it (spec §3, §3.1, §4.2–§4.4.1).

* :func:`export_passport` — make a pack from a stored passport through the one writing
  chokepoint (`chokepoint.make_pack`: refusals, sealing), extend its kept lineage, remember
  the pack's digest, and put a passport that now waits on its asks into ``waiting[human]``.
* :func:`review` — everything landing would do, without landing anything.
* :func:`land_handoff` — a handoff becomes a NEW local passport: a fresh id, the sender's
  lineage kept, facts sealed, luggage stored by content, required landing checks placed
  ahead of the sender's next steps, every `how` kept as the sender's quoted suggestion and
  never run, imperative sentences listed. Idempotent on the pack's content digest.
* :func:`merge_receipt` — a receipt comes home into the ONE passport it answers (§4.4.1).
* :func:`restore_fact` — give a sealed fact its ✓ back, only where §4.2 allows it.

Every byte of a pack is data. Nothing here executes, opens or follows anything from it.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from ..errors import (
    AlreadyLanded,
    Cancelled,
    Finding,
    FormatError,
    LandingRefused,
    MergeRefused,
    NotFound,
    RestoreRefused,
    TaskPackError,
    UsageError,
)
from ..format import ids
from ..format.luggage import LuggageSource
from ..format.model import (
    BAG_SPEC,
    JSON,
    Ask,
    Decision,
    Fact,
    LandingCheck,
    Lineage,
    LocalPassport,
    PackObject,
    PassportState,
    Received,
)
from ..format.reading import OpenedPack
from ..format.record_pages import AskPages, ask_ids, compact
from ..format.streams import CHUNK, VerifyingReader
from ..progress import CancelCheck, Progress
from ..trust.ask_lint import lint_accept
from ..trust.imperatives import find_imperatives
from ..trust.pack_writer import make_pack
from ..trust.refusals import ScanBudget, StreamScanner, scan_value
from ..trust.repairs import has_answer
from ..trust.sealing import can_restore, restore, seal_facts
from . import lifecycle
from .identity import sender_label
from .store import Readable, StagedBlob, Store, Tx

#: text luggage up to this size is scanned for imperative sentences
SCAN_LUGGAGE_BYTES = 256 * 1024


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
    #: the pack object as it will be stored: repaired, then sealed — sealed once, here
    sealed_pack: PackObject | None = field(default=None, repr=False, compare=False)
    #: every luggage byte was read and scanned for this review (see `accept(held=…)`)
    luggage_scanned: bool = field(default=False, repr=False)

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


@dataclass
class Accepted:
    """What :func:`accept` did: a handoff landed or a receipt merged (or, `already`, it
    had before and nothing changed). `repairs` and `warnings` are plain sentences."""

    passport: LocalPassport
    already: bool
    review: LandingReview
    changes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.passport.id

    @property
    def kind(self) -> str:
        return self.review.kind

    @property
    def repairs(self) -> list[str]:
        return self.review.repairs

    @property
    def warnings(self) -> list[str]:
        """What the lenient reader forgave and what sealing changed, for the person."""
        return [*self.review.notes, *self.review.sealed]


@dataclass
class LandingOutcome(Accepted):
    """A handoff landed as a new passport."""


@dataclass
class MergeOutcome(Accepted):
    """A receipt merged into the passport that asked."""

    answered: list[str] = field(default_factory=list)
    #: (id in the receipt, id given here) for asks adopted as open questions
    adopted: list[tuple[str, str]] = field(default_factory=list)
    facts_added: int = 0
    #: the receipt's landing checks: reported, never adopted (§4.4.1 rule 5)
    sender_checks: list[LandingCheck] = field(default_factory=list)
    moved_to: str | None = None


@dataclass
class PackOutcome:
    path: Path
    encoding: str
    size: int
    content_digest: str
    kind: str
    passport_id: str
    version: int
    lineage: dict[str, JSON]
    asks_sent: list[str]
    sealed: list[str]
    warnings: list[str]
    moved_to: str | None = None
    changes: list[tuple[str, str]] = field(default_factory=list)


# --- packing --------------------------------------------------------------------------


def extended_lineage(lp: LocalPassport) -> Lineage:
    """The lineage a pack from `lp` carries: the kept chain, then `lp` at its version (§3.1)."""
    me = ids.chain_entry(lp.id, lp.version)
    kept = lp.lineage
    chain = list(kept.chain or []) if kept else []
    root = kept.root_id if kept and kept.root_id else None
    if not chain and not root:
        return Lineage(root_id=lp.id, from_version=lp.version, chain=[me])
    return Lineage(root_id=root or lp.id, from_version=lp.version, chain=[*chain, me])


def asks_for_pack(lp: LocalPassport, kind: str, sent_downstream: Iterable[str]) -> list[Ask]:
    """Which asks travel.

    A handoff carries the open asks (ours, and unanswered ones we were given). A receipt
    carries every ask except those this passport itself sent downstream in a handoff
    (they are our own business) — unless they came to us in the handoff we landed, in
    which case they go back answered or not.
    """
    asks = lp.asks or []
    inbound = set((lp.received.asks if lp.received else None) or [])
    sent = set(sent_downstream)
    if isinstance(asks, AskPages):  # (many asks: chosen from their texts, none built)
        if kind == "handoff":
            return asks.select(flag == 1 for flag in asks.open_flags)  # type: ignore[return-value]
        return asks.select((i or None) in inbound or (i or None) not in sent for i in asks.ids)  # type: ignore[return-value]
    # the records themselves: a pack object is built from their data, never from them
    if kind == "handoff":
        return [a for a in asks if (a.status or "open") == "open"]
    return [a for a in asks if a.id in inbound or a.id not in sent]


def build_pack_object(
    lp: LocalPassport,
    *,
    kind: str,
    asks: Sequence[Ask],
    machine: str,
    actor: str,
    harness: str,
    note: str | None,
    packed_at: str,
) -> PackObject:
    """The pack object (spec §3), keys in the reference order; nothing sealed yet."""
    if kind not in ("handoff", "receipt"):
        raise UsageError(f"a pack is a handoff or a receipt, not {kind!r}")
    lineage = extended_lineage(lp)
    checks = [c.copy_record() for c in lp.checks_to_send or []]
    data: dict[str, JSON] = {
        "spec": BAG_SPEC,
        "kind": kind,
        "packed_at": packed_at,
        "origin": {"actor": actor, "machine": machine, "harness": harness},
        "lineage": lineage.to_data(),
        "note": note or "",
        "passport": lp.passport.to_data(),
        "asks": [] if isinstance(asks, AskPages) else [a.to_data() for a in asks],
        "landing_checks": [c.to_data() for c in checks],
    }
    pack = PackObject.from_data(data, where="pack")
    if isinstance(asks, AskPages):
        pack.asks = asks  # type: ignore[assignment]  # pages: validated when they were read
    return pack


def export_passport(
    store: Store,
    passport_id: str,
    out: Path,
    *,
    kind: str = "handoff",
    machine: str,
    actor: str,
    harness: str = "taskpack-desk",
    note: str | None = None,
    files: Sequence[LuggageSource] = (),
    encoding: str | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
    to: str | None = None,
    via: str | None = None,
) -> PackOutcome:
    """Write a pack of `passport_id` to `out` and remember it (see module doc).

    The passport's stored luggage travels with it; `files` are added for this pack only
    (a file with the same name as stored luggage replaces it in this pack). The outbox
    ledger records the pack with `to` (who it is for) and `via` (which front end).
    Asks whose `accept` is too vague to judge an answer against are warned about.
    """
    lp = store.get(passport_id, pages=True)  # many asks stay pages: packing only reads them
    sent_before = {
        a for p in store.packs_written(passport_id) if p.kind == "handoff" for a in p.asks
    }
    asks = asks_for_pack(lp, kind, sent_before)
    pack = build_pack_object(
        lp,
        kind=kind,
        asks=asks,
        machine=machine,
        actor=actor,
        harness=harness,
        note=note,
        packed_at=store.clock(),
    )
    extra = {f.name for f in files}
    luggage = [_blob_source(store, s.name, s.sha256, s.size) for s in store.luggage(passport_id)]
    luggage = [s for s in luggage if s.name not in extra] + list(files)
    result = make_pack(
        pack,
        luggage,
        Path(out),
        machine=machine,
        encoding=encoding,
        progress=progress,
        cancel=cancel,
        file_digest=True,
    )
    if isinstance(asks, AskPages):
        open_sent = [i for i, flag in zip(asks.ids, asks.open_flags, strict=True) if i and flag]
    else:
        open_sent = [a.id for a in asks if a.id and (a.status or "open") == "open"]
    warnings = list(result.warnings) + [
        f"ask {a.id}: {w}"
        for a in asks
        if (a.status or "open") == "open"
        for w in lint_accept(a.accept, a.what)
    ]
    # the file's own digest: hashed as it was written when the file was written front to
    # back (flat, every attachment's digest known ahead). Otherwise (a bag: its manifests
    # and CRCs are filled in after the luggage has passed) it needs a second read of
    # everything just written: done for packs a chat or mail would carry, left unknown
    # above that so packing stays one pass
    file_sha = result.file_sha256
    if file_sha is None and result.size <= FILE_DIGEST_MAX_BYTES:
        file_sha = _hash_file(Path(result.path))
    moved: str | None = None
    with store.write() as tx:
        tx.record_pack_written(
            result.content_digest,
            passport_id,
            lp.version,
            kind,
            open_sent,
            encoding=result.encoding,
            path=str(Path(result.path).resolve()),
            file_sha256=file_sha,
            size=result.size,
            to=(to or "").strip() or None,
            via=via,
            stub=pack_stub(pack),
        )
        tx.log(
            passport_id,
            "packed",
            {
                "kind": kind,
                "file": Path(result.path).name,
                "encoding": result.encoding,
                "content_digest": result.content_digest,
                "version": lp.version,
                "chain": pack.lineage.chain if pack.lineage else [],
                "asks_sent": open_sent,
                "sealed": list(result.sealed),
            },
        )
        if kind == "handoff" and open_sent and tx.state_of(passport_id)[0] == "working":
            # §4.3: a passport that sent questions now waits for the answers (a move
            # changes no ask: many stay pages)
            _move(
                tx,
                tx.get(passport_id, pages=True),
                "waiting",
                "human",
                why="it sent open asks in a handoff",
            )
            moved = "waiting[human]"
        changes = list(tx.events)
    return PackOutcome(
        path=Path(result.path),
        encoding=result.encoding,
        size=result.size,
        content_digest=result.content_digest,
        kind=kind,
        passport_id=passport_id,
        version=lp.version,
        lineage=pack.lineage.to_data() if pack.lineage else {},
        asks_sent=open_sent,
        sealed=list(result.sealed),
        warnings=warnings,
        moved_to=moved,
        changes=changes,
    )


#: how much of each text the outbox stub keeps (the whole version stays in the store)
_STUB_TEXT = 300
_STUB_ITEMS = 20


def pack_stub(pack: PackObject) -> dict[str, JSON]:
    """The passport as it was packed, in brief, for the outbox ledger (bounded in size)."""

    def cut(text: str | None) -> str | None:
        if text is None:
            return None
        return text if len(text) <= _STUB_TEXT else text[: _STUB_TEXT - 1] + "…"

    state = pack.passport or PassportState()
    facts = list(pack.facts)
    return {
        "id": state.id,
        "version": state.version,
        "title": cut(state.title),
        "goal": cut(state.goal),
        "current_state": cut(state.current_state),
        "facts": [
            {"claim": cut(f.claim), "scope": f.effective_scope, "verified": bool(f.verified)}
            for f in facts[:_STUB_ITEMS]
        ],
        "facts_total": len(facts),
        "next_steps": [cut(str(x)) for x in (state.next_steps or [])[:_STUB_ITEMS]],
        "asks": [
            {"id": a.id, "what": cut(a.what), "accept": cut(a.accept), "status": a.status}
            for a in (pack.asks or [])[:_STUB_ITEMS]
        ],
        "landing_checks": [
            {"id": c.id, "check": cut(c.check), "required": c.is_required}
            for c in (pack.landing_checks or [])[:_STUB_ITEMS]
        ],
        "chain": list(pack.lineage.chain or []) if pack.lineage else [],
        "note": cut(pack.note),
    }


#: up to this size a written pack's file digest goes into the outbox ledger
FILE_DIGEST_MAX_BYTES = 64 << 20


def _hash_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _blob_source(store: Store, name: str, sha256: str, size: int) -> LuggageSource:
    return LuggageSource(
        name=name,
        size=size,
        sha256=sha256,
        verified_stream=True,
        opener=lambda: store.open_blob(sha256, name=name, size=size),
    )


# --- the one accept path --------------------------------------------------------------
#
# Every way a pack arrives — the window's Land, `taskpack land`, the watcher, the A2A
# handler — ends in :func:`accept`, through `app.desk.Desk.accept`. One open (the
# caller's), one review (held by the window, or built here from the same pass that
# stages the luggage), one sealing (in the review), then ONE transaction.

#: a repair hook: given the opened pack and the copy of its pack object that will be
#: stored, fix what a hand or an AI got wrong IN THE COPY and say what, one plain
#: sentence per repair. Called before sealing and before the target rule is applied.
Repair = Callable[[OpenedPack, PackObject], list[str]]


@dataclass
class _LuggagePass:
    """What one pass over a pack's luggage gave: texts for the imperative scan, the
    secrets scan's findings, and (when landing) the bytes staged in the blob folder."""

    texts: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    staged: list[tuple[str, StagedBlob]] = field(default_factory=list)
    scanned: bool = False


def _luggage_pass(
    opened: OpenedPack,
    *,
    store: Store | None = None,
    scan: bool = True,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> _LuggagePass:
    """Read every luggage byte once (verified at EOF), scanning for secrets and keeping
    small texts; with a `store`, stage each file in its blob folder on the way (nothing
    is stored until committed). Without `scan`, only small files are read."""
    out = _LuggagePass(scanned=scan)
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
            ) -> None:
                nonlocal done
                if scanner is not None:
                    scanner.feed(chunk)
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
                            store.stage_blob(
                                reader,
                                expected_sha256=item.sha256,
                                size_hint=max(item.size, 0) or None,
                                hashed=_digest_of(raw),
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


def _digest_of(reader: VerifyingReader) -> Callable[[], str | None]:
    """The digest a verifying reader computed on its way to EOF (None before it got there)."""
    return lambda: reader.digest


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


def _examine(opened: OpenedPack, repair: Repair | None) -> LandingReview:
    """The review's content: everything that depends on the pack alone, not on this desk.

    Repairs (if a hook is given) and sealing happen here, once, on a copy; the pack as
    read (`opened.data`) stays what the content digest and the landing record are of."""
    pack = _working_copy(opened.pack)
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
        imperatives=[],  # with the luggage's texts, in `_with_luggage` (one pass)
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
    return rv


def _with_luggage(rv: LandingReview, opened: OpenedPack, luggage: _LuggagePass) -> LandingReview:
    """Add what the pass over the luggage found: secrets, and imperatives in small texts."""
    rv.secrets = [*rv.secrets, *luggage.findings]
    found = find_imperatives(opened.data, luggage.texts)
    rv.imperatives = [_imperative_data(i) for i in found]
    rv.luggage_scanned = luggage.scanned
    return rv


def _place(store: Store, rv: LandingReview, allow: Iterable[str]) -> LandingReview:
    """The review's other half: what this desk makes of it now (cheap; no luggage read)."""
    digest = rv.content_digest
    landing = store.landing(digest)
    rv.already = landing.passport_id if landing else None
    rv.written_here = store.pack_written(digest) is not None
    if rv.kind == "handoff":
        rv.gate_allows = lifecycle.gate_allows(rv.origin, allow)
        return rv
    target_by_id(rv, store.exists)
    rv.target_here = bool(rv.receipt_target) and store.exists(rv.receipt_target or "")
    rv.would_answer, rv.would_adopt = [], []
    if rv.target_here and rv.sealed_pack is not None:
        target = store.get(rv.receipt_target or "")
        plan = _merge_asks(target, rv.sealed_pack.asks or [], rv.sealed_pack, apply=False)
        rv.would_answer, rv.would_adopt = plan.answered, [a for a, _ in plan.adopted]
    return rv


def review(
    store: Store,
    opened: OpenedPack,
    *,
    machine: str,
    allow: Iterable[str] = (),
    repair: Repair | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> LandingReview:
    """Everything a person should see before a pack lands. Writes nothing.

    Reads every luggage byte once (digests checked, secrets scanned), so the review
    carries the same findings the accept path refuses on. Hold on to it: :func:`accept`
    given this review (and the same file, checked by digest) reads the luggage only to
    store it."""
    del machine  # the sender's machine seals the facts; ours does not enter the review
    luggage = _luggage_pass(opened, progress=progress, cancel=cancel)
    return _place(store, _with_luggage(_examine(opened, repair), opened, luggage), allow)


def target_by_id(rv: LandingReview, exists: Callable[[str], bool]) -> None:
    """A receipt written by hand without its lineage answers the passport its
    `passport.id` names when that is one of this desk's — the passport a one-entry chain
    would name (§4.4.1 rule 1). Otherwise it has no target, and merging is refused."""
    if rv.kind != "receipt" or rv.receipt_target or not rv.named_id or not exists(rv.named_id):
        return
    rv.receipt_target = rv.named_id
    said = (
        f"the receipt carries no lineage; it was taken to answer {rv.named_id}, the "
        "passport its passport.id names (one of this desk's)"
    )
    if said not in rv.repairs:
        rv.repairs.append(said)


def target_refusal(
    rv: LandingReview, *, into: str | None, expect: str | None, exists: Callable[[str], bool]
) -> TaskPackError | None:
    """THE merge-target rule (§4.4.1 rule 1), the one place it lives: why this pack may
    not be accepted as asked, or None. `into` names the passport a receipt must answer;
    `expect` is "handoff" when the caller lands (a receipt is then refused with the way
    to merge it) or "receipt" when it merges."""
    if rv.kind == "handoff":
        if into is not None or expect == "receipt":
            answers = [a.id or "?" for a in rv.asks if has_answer(a.to_data())]
            if answers:  # a reply whose writer forgot to say it is a receipt
                return MergeRefused(
                    f"this is a handoff carrying answers ({', '.join(answers[:5])}), and a handoff "
                    "is never merged into a passport (spec §4.4.1): this looks like answers — ask "
                    "the sender for a receipt",
                    hint='A receipt says "kind": "receipt" and keeps the handoff\'s lineage; '
                    "nothing was changed.",
                    code="merge_handoff_with_answers",
                    params={"asks": ", ".join(answers)},
                )
            return MergeRefused(
                "a handoff is never merged into a passport: it lands as a new one (spec §4.4.1)",
                hint="Land it without --into; nothing was changed.",
                code="merge_handoff",
            )
        return None
    target = rv.receipt_target
    if expect == "handoff" and into is None:
        shown = target or "the passport that asked"
        return MergeRefused(
            f"this is a receipt answering {shown}, not a handoff",
            hint=f"Merge it with `taskpack land FILE --into {shown}`; nothing was changed.",
            code="merge_receipt_as_handoff",
            params={"target": target},
        )
    if not target:
        named = (
            f"; its passport.id {rv.named_id} is not a passport on this desk" if rv.named_id else ""
        )
        return MergeRefused(
            f"this receipt's lineage names no passport it answers{named}",
            hint="A receipt is never matched by its title: ask the sender for one that keeps "
            "the lineage of the handoff it answers. Nothing was changed.",
            code="merge_no_target",
            params={"named": rv.named_id or ""},
        )
    if into is not None and target != into:
        return MergeRefused(
            f"this receipt answers {target}, not {into}",
            hint=f"A receipt merges only into the passport that asked; use --into {target} "
            "(nothing was changed).",
            code="merge_wrong_target",
            params={"target": target, "into": into},
        )
    if not exists(target):
        return NotFound(
            f"this receipt answers {target}, which is not in this desk",
            hint="Land it on the desk that asked the questions.",
            code="merge_target_missing",
            params={"target": target},
        )
    return None


def accept(
    store: Store,
    opened: OpenedPack,
    *,
    machine: str,
    allow: Iterable[str] = (),
    into: str | None = None,
    expect: str | None = None,
    held: LandingReview | None = None,
    repair: Repair | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> LandingOutcome | MergeOutcome:
    """Accept a pack: a handoff lands as a new passport, a receipt merges `into` the one
    passport it answers (§4.4.1). Lands a pack once, ever (idempotent on its content).

    `held` is a review the caller already holds (the window's): it is used when its
    content digest is the file's, and ignored (the file re-read) when the file changed.
    Refused before anything is stored: a receipt for the wrong passport or a handoff
    given `into` (MergeRefused), a pack carrying a credential or a chat transcript
    (LandingRefused, naming kind and place). `progress(done, total)` follows the luggage
    bytes; `cancel()` returning True raises Cancelled and nothing lands.
    """
    allow = list(allow)
    trusted = (
        held is not None
        and held.sealed_pack is not None
        and held.luggage_scanned
        and held.content_digest == opened.content_digest()
    )
    if held is not None and trusted:
        rv = _place(store, _own_copy(held), allow)
    else:  # no review held, or the file changed since: read it afresh, trust nothing
        rv = _place(store, _examine(opened, repair), allow)
    # the pack-level checks first, so a refused pack costs no pass over its luggage
    refusal = target_refusal(rv, into=into, expect=expect, exists=store.exists)
    if refusal is not None:
        raise refusal
    if rv.secrets:
        raise LandingRefused(rv.secrets)
    if rv.already:
        if not trusted:  # (a fresh read finds them with the luggage's texts, which it skips)
            rv.imperatives = [_imperative_data(i) for i in find_imperatives(opened.data)]
        return _already(store, rv)
    # one pass: each luggage file is staged in the blob folder as it is read (and, unless
    # the held review already did, scanned); nothing is stored until the scan is clean
    luggage = _luggage_pass(opened, store=store, scan=not trusted, progress=progress, cancel=cancel)
    try:
        if luggage.scanned:
            rv = _with_luggage(rv, opened, luggage)
            if rv.secrets:
                raise LandingRefused(rv.secrets)
        for _name, staged in luggage.staged:
            store.commit_blob(staged)
    except BaseException:
        for _name, staged in luggage.staged:
            store.discard_blob(staged)
        raise
    stored = [(name, b.sha256, b.size) for name, b in luggage.staged]
    file_name = opened.path.name
    try:
        if rv.kind == "handoff":
            return _land(store, opened, rv, stored, file_name, machine)
        return _merge(store, opened, rv, stored, file_name)
    except AlreadyLanded as exc:  # another process landed the same pack first
        rv.already = exc.passport_id
        return _already(store, rv)


def _working_copy(pack: PackObject) -> PackObject:
    """A copy of `pack` to repair, seal and land: lists of its own, sharing the records in
    them (a pack may carry 100,000 asks or facts: a deep copy is ~150 MB and a second). A
    record is copied before it is changed (repairs, sealing and landing all do so)."""
    copy = pack.copy_record(sharing=("asks", "passport"))
    if pack.passport is not None:
        copy.passport = pack.passport.copy_record(sharing=("facts",))
    return copy


def _own_copy(held: LandingReview) -> LandingReview:
    """A held review is shared with its holder (another thread): accept works on a copy
    (its asks shared, as landing copies an ask before it changes one)."""
    pack = _working_copy(held.sealed_pack) if held.sealed_pack else None
    return replace(
        held,
        notes=list(held.notes),
        next_steps=list(held.next_steps),
        sealed_pack=pack,
        repairs=list(held.repairs),
        secrets=list(held.secrets),
    )


def _already(store: Store, rv: LandingReview) -> LandingOutcome | MergeOutcome:
    passport_id = rv.already or ""
    if rv.kind == "receipt":
        return MergeOutcome(passport=store.get(passport_id), already=True, review=rv)
    return LandingOutcome(passport=store.get(passport_id), already=True, review=rv)


def _land(
    store: Store,
    opened: OpenedPack,
    rv: LandingReview,
    stored: list[tuple[str, str, int]],
    file_name: str,
    machine: str,
) -> LandingOutcome:
    """A handoff becomes a new local passport, in one transaction."""
    pack = rv.sealed_pack or opened.pack
    digest = rv.content_digest
    with store.write() as tx:
        winner = tx.landing(digest)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        lp = _new_local_passport(tx, pack, rv, digest, machine)
        tx.insert(
            lp,
            event="landed",
            came_from="handoff",
            detail={
                "from": _sender_entry(pack),
                "content_digest": digest,
                "file": file_name,
                "sealed": rv.sealed,
                "imperatives": len(rv.imperatives),
                "required_checks": sum(1 for c in rv.landing_checks if c.is_required),
                **({"repairs": list(rv.repairs)} if rv.repairs else {}),
            },
        )
        for name, sha, size in stored:
            tx.add_luggage(lp.id, name, sha, size)
        tx.record_landing(digest, lp.id, "handoff", opened.data)
        if rv.gate_allows:
            _move(tx, lp, "routed", None, why="the sender is on the gate's allow list")
        else:
            _move(tx, lp, "waiting", "owner_approval", why="the gate holds it for the owner")
        changes = list(tx.events)
    return LandingOutcome(passport=lp, already=False, review=rv, changes=changes)


def _merge(
    store: Store,
    opened: OpenedPack,
    rv: LandingReview,
    stored: list[tuple[str, str, int]],
    file_name: str,
) -> MergeOutcome:
    """§4.4.1 rules 2–5: answers onto the asks, new asks adopted open, new facts added
    (sealed, rule 4), the sender's landing checks reported and never adopted; the goal,
    current state and next steps of the target are never touched (rule 2)."""
    pack = rv.sealed_pack or opened.pack
    digest = rv.content_digest
    into = rv.receipt_target or ""
    with store.write() as tx:
        winner = tx.landing(digest)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        lp = tx.get(into)
        plan = _merge_asks(lp, pack.asks or [], pack, apply=True)  # rules 2, 3
        facts = list(lp.passport.facts or [])
        known = {_claim_key(f) for f in facts}
        added = [f for f in pack.facts if _claim_key(f) not in known]
        if added:
            lp.passport.facts = facts + added
        lp = tx.save(
            lp,
            event="merged",
            detail={
                "from": _sender_entry(pack),
                "content_digest": digest,
                "file": file_name,
                "answered": plan.answered,
                "adopted": [n for _, n in plan.adopted],
                "facts_added": len(added),
                "sender_checks_reported": len(pack.landing_checks or []),
                "imperatives": len(rv.imperatives),
                **({"repairs": list(rv.repairs)} if rv.repairs else {}),
            },
        )
        names = {x.name: x.sha256 for x in store.luggage(into)}
        # the folder name comes from the sender's id: keep it a plain, safe segment
        sender = re.sub(r"[^A-Za-z0-9_-]", "_", (_sender_entry(pack) or "receipt").split("@")[0])[
            :64
        ]
        for name, sha, size in stored:
            final = name if names.get(name) in (None, sha) else f"from-{sender}/{name}"
            tx.add_luggage(into, final, sha, size)
        tx.record_landing(digest, into, "receipt", opened.data)
        moved = None
        if lp.state == "waiting" and lp.waiting_on == "human" and not _still_waiting(store, lp):
            _move(tx, lp, "working", None, why="the receipt answered every ask it was waiting on")
            moved = "working"
        changes = list(tx.events)
    return MergeOutcome(
        passport=lp,
        already=False,
        review=rv,
        answered=plan.answered,
        adopted=plan.adopted,
        facts_added=len(added),
        sender_checks=list(rv.landing_checks),
        moved_to=moved,
        changes=changes,
    )


def land_handoff(
    store: Store,
    opened: OpenedPack,
    *,
    machine: str,
    allow: Iterable[str] = (),
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> LandingOutcome:
    """:func:`accept` for a handoff (a receipt is refused with the way to merge it)."""
    out = accept(
        store,
        opened,
        machine=machine,
        allow=allow,
        expect="handoff",
        progress=progress,
        cancel=cancel,
    )
    return cast(LandingOutcome, out)  # target_refusal lets only a handoff through


def merge_receipt(
    store: Store,
    opened: OpenedPack,
    into: str,
    *,
    machine: str,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> MergeOutcome:
    """:func:`accept` for a receipt, which must answer `into` (§4.4.1 rules 1–5)."""
    out = accept(
        store,
        opened,
        machine=machine,
        into=into,
        expect="receipt",
        progress=progress,
        cancel=cancel,
    )
    return cast(MergeOutcome, out)  # target_refusal lets only a receipt through


def _imperative_data(imp: Any) -> dict[str, JSON]:
    return {"place": imp.place, "sentence": imp.sentence, "cue": imp.cue}


def _sender_entry(pack: PackObject) -> str | None:
    chain = (pack.lineage.chain if pack.lineage else None) or []
    return chain[-1] if chain else None


def _new_local_passport(
    tx: Tx, pack: PackObject, rv: LandingReview, digest: str, machine: str
) -> LocalPassport:
    pid = ids.new_id()
    while tx.exists(pid):  # pragma: no cover - one in 8.5e11
        pid = ids.new_id()
    state = (pack.passport or PassportState()).copy_record(sharing=("facts",))  # (replaced below)
    state.id = pid
    state.version = 1
    state.machine_id = machine
    state.created_at = tx.now
    state.next_steps = rv.next_steps
    state.facts = list(pack.facts)
    asks: Sequence[Ask] = pack.asks or []
    if not isinstance(asks, AskPages) or "" in asks.ids:
        asks = list(asks)  # the review's records: `_give_ask_ids` copies one it changes
        _give_ask_ids(asks)
        # many asks are stored (twice: landed, then moved) from their JSON text, not re-encoded
        asks = compact(asks) or []
    lineage = _kept_lineage(pack, rv)
    lp = LocalPassport(
        passport=state, asks=[], landing_checks=list(rv.landing_checks), lineage=lineage
    )
    # set, not validated: a held review's asks may be pages (compact JSON, read-only), which
    # the store writes as they are — 100,000 asks never become 100,000 models here
    lp.asks = asks  # type: ignore[assignment]
    lp.state, lp.waiting_on = lifecycle.START_LANDED, None
    lp.received = Received.from_data(
        {
            "kind": "handoff",
            "origin": rv.origin,
            "note": pack.note,
            "packed_at": pack.packed_at,
            "from": _sender_entry(pack),
            "pack_sha256": digest,
            "encoding": rv.encoding,
            "written_here": rv.written_here,
            "asks": ask_ids(asks),
            "sealed": rv.sealed,
            "imperatives": rv.imperatives,
            "notes": rv.notes,
            "landed_at": tx.now,
            **({"repairs": list(rv.repairs)} if rv.repairs else {}),
        },
        where="received",
    )
    return lp


def _kept_lineage(pack: PackObject, rv: LandingReview) -> Lineage:
    """The pack's lineage, kept as it came (§3.1). A hand-made pack without one gets the
    sender's passport id as its root, so a receipt from here can still find its way."""
    if pack.lineage and (pack.lineage.chain or pack.lineage.root_id):
        return pack.lineage.copy_record()
    sender = pack.passport.id if pack.passport else None
    version = pack.passport.version if pack.passport else None
    if not sender:
        rv.notes.append("the pack carries no lineage and no passport id; its history starts here")
        return Lineage(root_id=None, from_version=None, chain=[])
    rv.notes.append("the pack carries no lineage; the sender's passport id was kept as its root")
    chain = [ids.chain_entry(sender, version)] if version is not None else [sender]
    return Lineage(root_id=sender, from_version=version, chain=chain)


def _give_ask_ids(asks: list[Ask]) -> None:
    """Asks without an id (hand-made packs) get the next free ``aN`` so they can be answered.

    Such an ask is replaced in `asks` by a copy of its own first (the list may share its
    records with the review). One set of taken ids for the whole list: 100,000 asks without
    ids cost one pass, not 100,000."""
    taken = {a.id for a in asks if a.id}
    n = 1
    for i, ask in enumerate(asks):
        if ask.id:
            continue
        while f"a{n}" in taken:
            n += 1
        asks[i] = ask = ask.copy_record()
        ask.id = f"a{n}"
        taken.add(ask.id)


def next_ask_id(asks: Iterable[Ask]) -> str:
    taken = {a.id for a in asks if a.id}
    n = 1
    while f"a{n}" in taken:
        n += 1
    return f"a{n}"


def next_check_id(checks: Iterable[LandingCheck]) -> str:
    taken = {c.id for c in checks if c.id}
    n = 1
    while f"c{n}" in taken:
        n += 1
    return f"c{n}"


# --- merging a receipt ----------------------------------------------------------------


@dataclass
class _AskPlan:
    answered: list[str] = field(default_factory=list)
    adopted: list[tuple[str, str]] = field(default_factory=list)


def _merge_asks(
    target: LocalPassport, incoming: Sequence[Ask], pack: PackObject, *, apply: bool
) -> _AskPlan:
    """§4.4.1 rules 2 and 3 on the asks: answers onto matching asks, the rest adopted open.

    An ask matches when the ids agree and, if both say `what`, the questions agree too
    (ids like ``a1`` are short and a busy passport may reuse one for another question).
    An answer never erases one: a receipt that still has an ask open leaves it alone.
    """
    plan = _AskPlan()
    asks = target.asks if target.asks is not None else []
    origin = pack.origin
    who = sender_label(origin.actor, origin.machine) if origin else ""
    for theirs in incoming:
        mine = next(
            (a for a in asks if a.id and a.id == theirs.id and _same_question(a, theirs)), None
        )
        if mine is not None:
            answered = has_answer(theirs.to_data())
            status = theirs.status or ("answered" if answered else "open")
            if status == "open" and answered:
                status = "answered"  # an answer is an answer, whatever the status forgot
            if status == "open":
                continue
            plan.answered.append(mine.id or "")
            if apply:
                mine.answer = theirs.answer
                mine.status = status
                mine.answered_by = theirs.answered_by or who or None
                mine.answered_at = theirs.answered_at or pack.packed_at
            continue
        adopted = theirs.copy_record()
        old = theirs.id or ""
        if not adopted.id or any(a.id == adopted.id for a in asks):
            adopted.id = next_ask_id(asks)
        adopted.status = "open"
        plan.adopted.append((old, adopted.id or ""))
        if apply:
            asks.append(adopted)
    if apply:
        target.asks = asks
    return plan


def _same_question(a: Ask, b: Ask) -> bool:
    return a.what is None or b.what is None or a.what.strip() == b.what.strip()


def _claim_key(fact: Fact) -> str:
    """Facts are the same claim when their text is: a receipt never overwrites a fact the
    target already holds (its own copy may carry a ✓ proven here), it only adds new ones."""
    return " ".join((fact.claim or "").split()).casefold()


def _still_waiting(store: Store, lp: LocalPassport) -> bool:
    """Does `lp` still have an open ask that it sent downstream in a handoff?"""
    sent = {a for p in store.packs_written(lp.id) if p.kind == "handoff" for a in p.asks}
    return any(a.id in sent and (a.status or "open") == "open" for a in lp.asks or [])


# --- restoring a ✓ --------------------------------------------------------------------


def restore_check(
    store: Store,
    passport_id: str,
    fact_no: int,
    *,
    machine: str,
    passport: LocalPassport | None = None,
) -> tuple[bool, str]:
    """May fact number `fact_no` (1-based) of the passport get its ✓ back here? (§4.2)
    `passport` is the passport as the caller just read it (else it is read here)."""
    lp = passport if passport is not None and passport.id == passport_id else store.get(passport_id)
    fact = _fact(lp, fact_no)
    return can_restore(
        fact, this_machine=machine, pack_written_here=_carried_by_own_pack(store, lp, fact)
    )


def restore_checks(
    store: Store, passport_id: str, *, machine: str, passport: LocalPassport | None = None
) -> dict[int, tuple[bool, str]]:
    """:func:`restore_check` for every sealed fact of the passport, by fact number: the
    packs it came in are read once (a passport of 100,000 sealed facts read them once per
    fact: hours)."""
    lp = passport if passport is not None and passport.id == passport_id else store.get(passport_id)
    carried = _carried_by_own_packs(store, lp)
    out: dict[int, tuple[bool, str]] = {}
    same: dict[tuple[bool, str], tuple[bool, str]] = {}  # one object per answer: 100,000 facts
    for n, fact in enumerate(lp.passport.facts or [], 1):  # sealed on one machine share one
        if fact.needs_reverify and not fact.verified:
            said = can_restore(
                fact,
                this_machine=machine,
                pack_written_here=(fact.claim, fact.verified_on) in carried,
            )
            out[n] = same.setdefault(said, said)
    return out


def restore_fact(
    store: Store, passport_id: str, fact_no: int, *, machine: str
) -> tuple[LocalPassport, list[tuple[str, str]]]:
    """Restore a sealed fact's ✓ after the person's explicit choice; refused unless allowed."""
    with store.write() as tx:
        lp = tx.get(passport_id)
        fact = _fact(lp, fact_no)
        ok, reason = can_restore(
            fact, this_machine=machine, pack_written_here=_carried_by_own_pack(store, lp, fact)
        )
        if not ok:
            raise RestoreRefused(f"cannot restore the ✓ of fact {fact_no}: {reason}")
        restore(fact)
        tx.save(
            lp,
            event="restored",
            detail={
                "fact": fact_no,
                "claim": fact.claim,
                "verified_on": fact.verified_on,
                "machine": machine,
            },
        )
        return lp, list(tx.events)


def _fact(lp: LocalPassport, fact_no: int) -> Fact:
    facts = lp.passport.facts or []
    if not 1 <= fact_no <= len(facts):
        raise NotFound(
            f"passport {lp.id} has no fact {fact_no}",
            hint=f"Facts are numbered 1 to {len(facts)} in `taskpack open {lp.id}`.",
        )
    return facts[fact_no - 1]


def _carried_by_own_pack(store: Store, lp: LocalPassport, fact: Fact) -> bool:
    """Was `fact` carried here by a pack (landed or merged into `lp`) that this store wrote?"""
    return (fact.claim, fact.verified_on) in _carried_by_own_packs(store, lp)


def _carried_by_own_packs(store: Store, lp: LocalPassport) -> set[tuple[Any, Any]]:
    """(claim, verified_on) of every fact carried here by a pack this store wrote."""
    out: set[tuple[Any, Any]] = set()
    for sha, data in store.landings_for(lp.id):
        if store.pack_written(sha) is None:
            continue
        passport = (data or {}).get("passport") if isinstance(data, dict) else None
        facts = (passport.get("facts") if isinstance(passport, dict) else None) or []
        for f in facts if isinstance(facts, list) else []:
            if isinstance(f, dict):
                key = (f.get("claim"), f.get("verified_on"))
                if all(
                    k is None or isinstance(k, str) for k in key
                ):  # (what a fact's fields can equal)
                    out.add(key)
    return out


# --- small helpers --------------------------------------------------------------------


def _move(tx: Tx, lp: LocalPassport, state: str, waiting_on: str | None, *, why: str) -> None:
    move = lifecycle.check_move(lp.state, lp.waiting_on, state, waiting_on)
    before = lifecycle.describe(lp.state, lp.waiting_on)
    lp.state, lp.waiting_on = state, waiting_on
    tx.save(
        lp,
        event="moved",
        detail={
            "from": before,
            "to": lifecycle.describe(state, waiting_on),
            "why": why,
            "move": move.why,
        },
    )
