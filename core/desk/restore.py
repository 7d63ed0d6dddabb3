"""Giving a sealed fact its ✓ back, only where spec §4.2 allows it."""

from __future__ import annotations

from typing import Any

from ..errors import NotFound, RestoreRefused
from ..format.model import Fact, LocalPassport
from ..trust.sealing import can_restore, proof_key, restore
from .store import Store


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
        fact, this_machine=machine, sealed_here=_carried_by_own_pack(store, lp, fact)
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
                sealed_here=(fact.claim, fact.verified_on) in carried,
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
            fact, this_machine=machine, sealed_here=_carried_by_own_pack(store, lp, fact)
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
    """Did `fact` come here in a pack this desk wrote, which sealed it from a ✓ this desk
    recorded on this machine? (the outbox entry of each pack keeps which facts those were)"""
    return (fact.claim, fact.verified_on) in _carried_by_own_packs(store, lp)


def _carried_by_own_packs(store: Store, lp: LocalPassport) -> set[tuple[Any, Any]]:
    """(claim, verified_on) of every fact that came here (landed or merged into `lp`) in a
    pack this store wrote, and that this store proved and sealed when it wrote it. A fact
    that pack merely carried (it was sealed elsewhere, or packed again here) is not one."""
    out: set[tuple[Any, Any]] = set()
    for sha, data in store.landings_for(lp.id):
        written = store.pack_written(sha)
        if written is None:
            continue
        keys = written.stub.get("sealed_here") if isinstance(written.stub, dict) else None
        proven = {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()
        if not proven:
            continue
        passport = (data or {}).get("passport") if isinstance(data, dict) else None
        facts = (passport.get("facts") if isinstance(passport, dict) else None) or []
        for f in facts if isinstance(facts, list) else []:
            if isinstance(f, dict):
                key = (f.get("claim"), f.get("verified_on"))
                if all(k is None or isinstance(k, str) for k in key) and (
                    proof_key(*key) in proven
                ):
                    out.add(key)
    return out
