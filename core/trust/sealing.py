"""A ✓ does not cross a machine (spec §4.2): sealing at pack time, checking, restoring.

* :func:`seal_facts` is what the writer does to a pack object before it leaves: a
  machine-scoped fact that is marked verified is sealed — ``verified: false``,
  ``needs_reverify: true`` and ``verified_on`` (the machine where it *was* proven). An
  ``org`` fact keeps its ✓ and is annotated with the actor who vouched for it
  (``source_actor``). A ``universal`` fact travels as it is.
* :func:`unsealed_facts` is what the judge does (C6): it reads the raw dict strictly and
  repairs nothing.
* :func:`can_restore` / :func:`restore` are the one way back to a ✓ on landing: same
  machine as ``verified_on``, this desk's own record that it proved the fact here and
  sealed it when it packed it (:func:`proven_here`, kept with the pack in the outbox),
  and a human who chose it. A pack's word is never enough — not even a pack this desk
  wrote: a fact that arrived sealed from elsewhere and was packed again here is still
  only the other desk's claim.

A fact that was never verified is left alone: there is no ✓ to seal, and stamping
``verified_on`` on it would claim it had been proven somewhere — which would then let
:func:`can_restore` hand out a ✓ that nobody ever earned.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import RestoreRefused

if TYPE_CHECKING:  # the judge reads raw JSON here and must not pay for building models
    from ..format.model import Fact, PackObject

__all__ = [
    "STANDINGS",
    "Standing",
    "can_restore",
    "proof_key",
    "proven_here",
    "restore",
    "seal_facts",
    "standing",
    "unsealed_facts",
]


def proof_key(claim: Any, machine: Any) -> str:
    """What the outbox keeps of one fact this desk proved and sealed: a digest of its
    claim and machine (a passport of 100,000 facts keeps 100,000 short keys, not texts)."""
    text = json.dumps([claim, machine], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def proven_here(pack: PackObject, *, machine: str) -> list[str]:
    """The :func:`proof_key` of every fact :func:`seal_facts` is about to seal because it
    carries a ✓ recorded on this desk for this machine. Call it on the pack before it is
    sealed: a fact that is already sealed (it came from elsewhere) is not among them."""
    return [
        proof_key(f.claim, machine)
        for f in pack.facts
        if f.effective_scope == "machine"
        and f.verified is True
        and f.verified_on in (None, machine)
    ]


def seal_facts(pack: PackObject, *, machine: str) -> list[str]:
    """Seal the pack's facts in place; returns one sentence per change made.

    `machine` is the packing machine's name, given by the caller (core never asks the
    OS). Idempotent: sealing a sealed pack changes nothing and returns no notes.
    """
    actor = pack.origin.actor if pack.origin else None
    notes: list[str] = []
    facts = pack.facts
    for i, fact in enumerate(facts):
        place = f"passport.facts[{i}]"
        scope = fact.effective_scope
        if scope == "machine":
            if fact.verified is not True:
                continue
            # a fact is copied before it is changed: the list may share its records with
            # the pack as read (`Record.copy_record(sharing=…)`)
            facts[i] = fact = fact.copy_record()
            where = fact.verified_on or machine
            fact.verified = False
            fact.needs_reverify = True
            if fact.verified_on != where:
                fact.verified_on = where
            notes.append(
                f"sealed {place}: it was verified on {where!r} and must be re-verified on the "
                "machine that lands it"
            )
        elif scope == "org" and actor and not fact.source_actor:
            facts[i] = fact = fact.copy_record()
            fact.source_actor = actor
            notes.append(f"annotated {place}: it holds inside the organisation of {actor!r}")
    return notes


def unsealed_facts(data: dict[str, Any]) -> list[str]:
    """C6, read strictly: field paths of facts that cross wearing a ✓.

    A fact crosses wearing a ✓ when its ``verified`` is JSON ``true`` and its scope is
    not ``universal`` or ``org`` (missing, ``machine`` or anything unknown counts as
    machine). Nothing is repaired or coerced: this reads the bytes as they were written.
    """
    passport = data.get("passport") if isinstance(data, dict) else None
    facts = passport.get("facts") if isinstance(passport, dict) else None
    if not isinstance(facts, list):
        return []
    return [
        f"passport.facts[{i}]"
        for i, fact in enumerate(facts)
        if isinstance(fact, dict)
        and fact.get("verified") is True
        and fact.get("scope") not in ("universal", "org")
    ]


def can_restore(fact: Fact, *, this_machine: str, sealed_here: bool) -> tuple[bool, str]:
    """May a person restore this sealed fact's ✓ here? (allowed, one sentence why).

    Only a sealed fact, proven on this very machine, that this desk's own records show it
    proved here and sealed when it packed (`sealed_here`): a pack — even one this desk
    wrote — can *name* this machine in ``verified_on`` without it being true.
    """
    if not fact.needs_reverify:
        return False, "This fact is not sealed, so there is no ✓ to restore."
    if not fact.verified_on:
        return False, "The pack does not say where this fact was proven; check it again here."
    if fact.verified_on != this_machine:
        return False, (
            f"It was proven on {fact.verified_on!r}, not on this machine ({this_machine!r}); "
            "check it again here."
        )
    if not sealed_here:
        return False, (
            "This desk has no record of proving it here and sealing it when it packed, so the "
            "pack's word that it was proven here cannot be trusted; check it again."
        )
    return True, "This desk proved it on this machine and sealed it when it packed it."


def restore(fact: Fact) -> None:
    """Give a sealed fact its ✓ back. Call only after :func:`can_restore` said yes and a
    person chose it; raises :class:`RestoreRefused` for a fact that is not sealed."""
    if not fact.needs_reverify:
        raise RestoreRefused("This fact is not sealed, so there is no ✓ to restore")
    fact.verified = True
    fact.needs_reverify = False


# --- how a fact stands, in words ------------------------------------------------------

#: the kinds of standing, best first
STANDINGS = ("proven_here", "carried", "claimed_elsewhere", "unproven_here", "not_verified")


@dataclass(frozen=True)
class Standing:
    """What is proven about a fact, seen from one machine (spec §4.2).

    ``kind`` is one of :data:`STANDINGS`; ``machine`` is the machine it names (this one
    for ``proven_here``, where it was proven for the others); ``scope`` is the effective
    scope. :attr:`text` is the English the CLI prints; the window translates by ``kind``
    and shows the same thing.
    """

    kind: str
    scope: str
    machine: str | None = None
    source: str | None = None

    @property
    def mark(self) -> str:
        return {
            "proven_here": "✓",
            "carried": "✓",
            "claimed_elsewhere": "⚠",
            "unproven_here": "⚠",
        }.get(self.kind, "·")

    @property
    def text(self) -> str:
        where = self.machine or "an unnamed machine"
        if self.kind == "proven_here":
            return f"✓ proven here ({where})"
        if self.kind == "carried":
            text = f"✓ carried ({self.scope} fact: keeps its ✓ across machines)"
            return text[:-1] + f"; source: {self.source})" if self.source else text
        if self.kind == "claimed_elsewhere":
            return f"⚠ marked verified on {where}, not sealed: not proven here"
        if self.kind == "unproven_here":
            return f"⚠ unproven here (verified on {where})"
        return f"· not verified ({self.scope} fact)"


def standing(fact: Fact, *, machine: str | None) -> Standing:
    """How `fact` stands on `machine` (None: no machine in particular, e.g. reading a file).

    A machine fact with a ✓ is *proven here* when it was verified on this machine (or
    carries no ``verified_on``: it was recorded on this desk); a sealed fact, or one that
    names another machine, is *unproven here*. A universal or org fact keeps its ✓.
    """
    scope = fact.effective_scope
    if fact.verified and scope in ("universal", "org"):
        source = fact.source or fact.source_actor or fact.verified_by
        return Standing("carried", scope, source=str(source) if source and scope == "org" else None)
    if fact.verified and not fact.needs_reverify:
        if machine is not None and fact.verified_on in (None, machine):
            return Standing("proven_here", scope, machine=machine)
        return Standing("claimed_elsewhere", scope, machine=fact.verified_on)
    if fact.needs_reverify or (fact.verified is False and fact.verified_on):
        return Standing("unproven_here", scope, machine=fact.verified_on)
    return Standing("not_verified", scope)
