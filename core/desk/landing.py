"""How a pack comes in: the one landing path (spec §4.1–§4.4.1).

Every way a pack arrives — the window's Land, `taskpack land`, the watcher, the A2A
handler, MCP — ends in :func:`land`, through `app.desk.Desk.land`. One open (the
caller's), one review (held by the window, or built here from the same pass that stages
the luggage), one sealing (in the review), then ONE transaction:

* a handoff becomes a NEW local passport: a fresh id, the sender's lineage kept, facts
  sealed, luggage stored by content, required landing checks placed ahead of the sender's
  next steps, every `how` kept as the sender's quoted suggestion and never run,
  imperative sentences listed. Idempotent on the pack's content digest.
* a receipt comes home into the ONE passport it answers (§4.4.1, see `merge`).

Every byte of a pack is data. Nothing here executes, opens or follows anything from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from ..errors import AlreadyLanded, LandingRefused, MergeRefused
from ..format import ids
from ..format.model import (
    Ask,
    LandingCheck,
    Lineage,
    LocalPassport,
    PackObject,
    PassportState,
    Received,
)
from ..format.read_once import proven
from ..format.reading import OpenedPack
from ..format.record_pages import AskPages, ask_ids, compact
from ..progress import CancelCheck, Progress
from ..trust.imperatives import find_imperatives
from . import lifecycle
from .authoring import record_move
from .history_words import GATE_ALLOWS, GATE_HOLDS, RECEIPT_ANSWERED
from .merge import answerable, asks_sent, claim_key, merge_asks, still_waiting, target_refusal
from .review import (
    LandingReview,
    LuggagePass,
    Repair,
    discard_staged,
    examine,
    imperative_data,
    luggage_pass,
    place,
    still_staged,
    with_luggage,
    working_copy,
)
from .store import Claim, Store, Tx


@dataclass
class Accepted:
    """What :func:`land` did: a handoff landed or a receipt merged (or, `already`, it
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


def land(
    store: Store,
    opened: OpenedPack,
    *,
    machine: str,
    allow: Iterable[str] = (),
    into: str | None = None,
    expect: str | None = None,
    held: LandingReview | None = None,
    repair: Repair | None = None,
    admit: Callable[[LandingReview], None] | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
    claim: Claim | None = None,
) -> LandingOutcome | MergeOutcome:
    """Land a pack: a handoff lands as a new passport, a receipt merges `into` the one
    passport it answers (§4.4.1). Lands a pack once, ever (idempotent on its content).

    `held` is a review the caller already holds (the window's): it is used when its
    content digest is the file's, and ignored (the file re-read) when the file changed.
    Refused before anything is stored: a receipt for the wrong passport or a handoff
    given `into` (MergeRefused), a pack carrying a credential or a chat transcript
    (LandingRefused, naming kind and place). `progress(done, total)` follows the luggage
    bytes; `cancel()` returning True raises Cancelled and nothing lands.

    `admit(review)` is the caller's own admission rule (A2A: may this sender answer that
    task?), called with the review before the target rule and before any luggage is read;
    what it raises refuses the pack, nothing stored.

    `claim` is the caller's idempotency key (A2A: principal and messageId): taken in the
    landing's own transaction before anything is written — also when the pack landed
    before — so a key claimed for other content refuses this landing whole (ClaimTaken).
    """
    allow = list(allow)
    trusted = (
        held is not None
        and held.sealed_pack is not None
        and held.luggage_scanned
        and held.content_digest == opened.content_digest()
    )
    # a review that staged the luggage as it read it: the file's content digest is the
    # one the review proved, so the pack object is the one it read — nothing to read again
    kept = held.staged if held is not None and trusted and still_staged(held.staged) else []
    if held is not None and held.staged and not kept:
        discard_staged(store, held.staged)  # (the file changed, or the parts were swept)
    if kept:  # what was read of the file is the review's proven reading (its digest says so)
        opened.unproven.clear()
    if held is not None and trusted:
        rv = place(store, _own_copy(held), allow)
    else:  # no review held, or the file changed since: read it afresh, trust nothing
        rv = place(store, examine(opened, repair), allow)
    refusal = target_refusal(
        rv, into=into, expect=expect, exists=store.exists, outbox=store.packs_written
    )
    if not kept and (admit is not None or refusal is not None or rv.secrets or rv.already):
        proven(opened)  # an answer from the pack object alone: only from a proven reading
    if admit is not None:
        admit(rv)
    # the pack-level checks first, so a refused pack costs no pass over its luggage
    if refusal is not None:
        raise refusal
    if rv.secrets:
        raise LandingRefused(rv.secrets)
    if rv.already:
        discard_staged(store, kept)  # (landed meanwhile: what the review staged is not needed)
        if not trusted:  # (a fresh read finds them with the luggage's texts, which it skips)
            rv.imperatives = [imperative_data(i) for i in find_imperatives(opened.data)]
        return _already(store, rv, claim)
    # one pass: each luggage file is staged in the blob folder as it is read (and, unless
    # the held review already did, scanned); nothing is stored until the scan is clean
    if kept:
        luggage = LuggagePass(staged=list(kept), scanned=False)
    else:
        luggage = luggage_pass(
            opened, store=store, scan=not trusted, progress=progress, cancel=cancel
        )
    try:
        if not kept:
            proven(opened)  # every luggage byte was read: a guessed span is borne out, or not
        if luggage.scanned:
            rv = with_luggage(rv, opened, luggage)
            if rv.secrets:
                raise LandingRefused(rv.secrets)
        store.commit_blobs([staged for _name, staged in luggage.staged])
    except BaseException:
        for _name, staged in luggage.staged:
            store.discard_blob(staged)
        raise
    stored = [(name, b.sha256, b.size) for name, b in luggage.staged]
    file_name = opened.path.name
    try:
        if rv.kind == "handoff":
            return _land(store, opened, rv, stored, file_name, machine, claim)
        return _merge(store, opened, rv, stored, file_name, claim)
    except AlreadyLanded as exc:  # another process landed the same pack first
        rv.already = exc.passport_id
        return _already(store, rv, claim)


def _own_copy(held: LandingReview) -> LandingReview:
    """A held review is shared with its holder (another thread): landing works on a copy
    (its asks shared, as landing copies an ask before it changes one)."""
    pack = working_copy(held.sealed_pack) if held.sealed_pack else None
    return replace(
        held,
        notes=list(held.notes),
        next_steps=list(held.next_steps),
        sealed_pack=pack,
        repairs=list(held.repairs),
        secrets=list(held.secrets),
    )


def _already(
    store: Store, rv: LandingReview, claim: Claim | None = None
) -> LandingOutcome | MergeOutcome:
    passport_id = rv.already or ""
    if claim is not None:  # the key still names this content, or the answer is "taken"
        with store.write() as tx:
            tx.claim(claim, passport_id)
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
    claim: Claim | None = None,
) -> LandingOutcome:
    """A handoff becomes a new local passport, in one transaction."""
    pack = rv.sealed_pack or opened.pack
    digest = rv.content_digest
    with store.write() as tx:
        lp = _new_local_passport(tx, pack, rv, digest, machine)
        if claim is not None:  # first: a loser waits here, then leaves with nothing written
            tx.claim(claim, lp.id)
        winner = tx.landing(digest)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
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
            record_move(tx, lp, "routed", None, reason=GATE_ALLOWS)
        else:
            record_move(tx, lp, "waiting", "owner_approval", reason=GATE_HOLDS)
        changes = list(tx.events)
    return LandingOutcome(passport=lp, already=False, review=rv, changes=changes)


def _merge(
    store: Store,
    opened: OpenedPack,
    rv: LandingReview,
    stored: list[tuple[str, str, int]],
    file_name: str,
    claim: Claim | None = None,
) -> MergeOutcome:
    """§4.4.1 rules 2–5: answers onto the asks, new asks adopted open, new facts added
    (sealed, rule 4), the sender's landing checks reported and never adopted; the goal,
    current state and next steps of the target are never touched (rule 2)."""
    pack = rv.sealed_pack or opened.pack
    digest = rv.content_digest
    into = rv.receipt_target or ""
    with store.write() as tx:
        if claim is not None:  # first: a loser waits here, then leaves with nothing written
            tx.claim(claim, into)
        winner = tx.landing(digest)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        lp = tx.get(into)
        sent = asks_sent(store.packs_written(into), into, pack)  # (checked again, in the tx)
        if isinstance(sent, MergeRefused):
            raise sent
        incoming = answerable(lp, pack.asks or [], sent)
        plan = merge_asks(lp, incoming, pack, apply=True)  # rules 2, 3
        facts = list(lp.passport.facts or [])
        known = {claim_key(f) for f in facts}
        added = [f for f in pack.facts if claim_key(f) not in known]
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
        if lp.state == "waiting" and lp.waiting_on == "human" and not still_waiting(store, lp):
            record_move(tx, lp, "working", None, reason=RECEIPT_ANSWERED)
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
    """:func:`land` for a handoff (a receipt is refused with the way to merge it)."""
    out = land(
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
    """:func:`land` for a receipt, which must answer `into` (§4.4.1 rules 1–5)."""
    out = land(
        store,
        opened,
        machine=machine,
        into=into,
        expect="receipt",
        progress=progress,
        cancel=cancel,
    )
    return cast(MergeOutcome, out)  # target_refusal lets only a receipt through


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
