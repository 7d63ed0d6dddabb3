"""A receipt sent again: the same answers, in a new file, into the passport that merged
them already (a reply pasted twice, the same receipt copied for chat once more).

Its bytes differ (a new ``packed_at``), so its content digest is new and the landing
ledger does not know it; yet merging it would change nothing but the version and the
history. :func:`merged_before` says when that is so, and the review then treats it as
already merged: the person is told nothing in it is new, and accepting it writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..format.model import LocalPassport
from .merge import claim_key
from .store import Store

if TYPE_CHECKING:
    from .review import LandingReview


def merged_before(store: Store, rv: LandingReview, target: LocalPassport) -> bool:
    """`target` already merged a receipt from the same sending passport at the same
    version (the last entry of the lineage), and this one brings nothing new: no answer
    it does not hold (`rv.would_answer`, which leaves out an answer already there), no
    question to adopt, no fact it lacks, no attached file it does not keep."""
    pack = rv.sealed_pack
    if pack is None or rv.kind != "receipt" or rv.would_answer or rv.would_adopt:
        return False
    chain = (pack.lineage.chain if pack.lineage else None) or []
    sender = chain[-1] if chain else None
    if not sender:
        return False
    history = store.history(target.id)
    if not any(e.event == "merged" and e.detail.get("from") == sender for e in history):
        return False
    known = {claim_key(f) for f in target.passport.facts or []}
    if any(claim_key(f) not in known for f in pack.facts):
        return False
    kept = {item.sha256 for item in store.luggage(target.id)}
    return all(item.get("sha256") in kept for item in rv.luggage)


__all__ = ["merged_before"]
