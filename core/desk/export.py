"""How a passport leaves this desk (spec §3, §3.1, §4.3).

:func:`export_passport` makes a pack from a stored passport through the one pack writer
(`trust.pack_writer.make_pack`: refusals, sealing), extends its kept lineage, remembers
the pack in the outbox ledger, and puts a passport that now waits on its asks into
``waiting[human]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..format import ids
from ..format.luggage import LuggageSource
from ..format.model import (
    BAG_SPEC,
    JSON,
    Ask,
    Lineage,
    LocalPassport,
    PackObject,
    PassportState,
)
from ..format.record_pages import AskPages
from ..format.streams import hash_file
from ..portable.long_paths import extended, resolve
from ..progress import CancelCheck, Progress
from ..trust.ask_lint import lint_accept
from ..trust.pack_writer import make_pack
from ..trust.sealing import proven_here
from .authoring import record_move
from .history_words import SENT_OPEN_ASKS
from .store import Store


@dataclass
class PackOutcome:
    """What packing a passport wrote: the file, its form and size, and what it carries."""

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


def pack_object_for(
    store: Store,
    passport_id: str,
    *,
    kind: str,
    machine: str,
    actor: str,
    harness: str,
    note: str | None,
) -> tuple[LocalPassport, list[Ask], PackObject]:
    """The stored passport, the asks that travel, and the pack object made of them (not
    sealed yet): what `export_passport` writes and the composer's preview shows."""
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
    return lp, asks, pack


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
    lp, asks, pack = pack_object_for(
        store, passport_id, kind=kind, machine=machine, actor=actor, harness=harness, note=note
    )
    extra = {f.name for f in files}
    luggage = [_blob_source(store, s.name, s.sha256, s.size) for s in store.luggage(passport_id)]
    luggage = [s for s in luggage if s.name not in extra] + list(files)
    proven = proven_here(pack, machine=machine)  # before make_pack seals them
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
        file_sha = hash_file(Path(extended(result.path)))
    moved: str | None = None
    try:
        with store.write() as tx:
            tx.record_pack_written(
                result.content_digest,
                passport_id,
                lp.version,
                kind,
                open_sent,
                encoding=result.encoding,
                path=str(resolve(result.path)),  # past Windows' MAX_PATH too
                file_sha256=file_sha,
                size=result.size,
                to=(to or "").strip() or None,
                via=via,
                # which facts this desk proved here and sealed in this pack: the one record
                # a later restore of their ✓ may rely on (restore.py)
                stub={**pack_stub(pack), "sealed_here": list(proven)},
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
                record_move(
                    tx,
                    tx.get(passport_id, pages=True),
                    "waiting",
                    "human",
                    reason=SENT_OPEN_ASKS,
                )
                moved = "waiting[human]"
            changes = list(tx.events)
    except BaseException:
        # the store kept nothing of this pack (a read-only role, a lost connection): the
        # file it would have recorded goes too, so what is on disk matches what is said
        Path(result.path).unlink(missing_ok=True)
        raise
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


def _blob_source(store: Store, name: str, sha256: str, size: int) -> LuggageSource:
    return LuggageSource(
        name=name,
        size=size,
        sha256=sha256,
        verified_stream=True,
        opener=lambda: store.open_blob(sha256, name=name, size=size),
    )
