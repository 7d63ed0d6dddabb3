"""A review or a passport with its asks (and many facts) as pages, for what the window
only reads: what a helper process sends back, and a review held as bytes until it lands.

The records' models say `list`; their pages (`AskPages`, `FactPages`) are read-only
sequences standing in for that list. What is made here is shown, pickled and landed from,
never appended to: the two casts below say so once, for every caller.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar, cast

from taskpack.app.desk import (
    Ask,
    Fact,
    LandingOutcome,
    LandingReview,
    LocalPassport,
    MergeOutcome,
    compact,
    compact_facts,
)

_Asks = TypeVar("_Asks", list[Ask], list[Ask] | None)
_Facts = TypeVar("_Facts", list[Fact], list[Fact] | None)
_Outcome = TypeVar("_Outcome", LandingOutcome, MergeOutcome)


def asks_as_pages(asks: _Asks, *, every: bool = True) -> _Asks:
    """`asks` as pages (however few; or, not `every`, only when there are many), typed as
    the field they go back into."""
    return cast(_Asks, compact(asks, over=0) if every else compact(asks))


def facts_as_pages(facts: _Facts) -> _Facts:
    """`facts` as pages (when there are many), typed as the field they go back into."""
    return cast(_Facts, compact_facts(facts))


def held_form(rv: LandingReview) -> LandingReview:
    """The review to hold as bytes: its asks (the sealed pack's own records) as pages, so
    neither the pickle nor the helper that lands from it holds a model per ask."""
    sealed = rv.sealed_pack
    pages = asks_as_pages(rv.asks)
    if sealed is not None and sealed.asks is not None:
        mine = sealed.asks
        if len(mine) == len(rv.asks) and all(a is b for a, b in zip(mine, rv.asks, strict=True)):
            sealed.asks = pages
        else:
            sealed.asks = asks_as_pages(mine)
    return replace(rv, asks=pages)


def compact_review(rv: LandingReview) -> LandingReview:
    """The review as the window shows it: asks (and many facts) as pages, no sealed pack
    (it stays with whoever lands it)."""
    return replace(
        rv,
        asks=asks_as_pages(rv.asks),
        facts=facts_as_pages(rv.facts),
        sealed_pack=None,
    )


def compact_passport(lp: LocalPassport) -> LocalPassport:
    """`lp` with its asks (and many facts) as pages (to send from a helper process to the
    window)."""
    if lp.asks is not None:
        lp.asks = asks_as_pages(lp.asks)
    if lp.passport.facts is not None:
        lp.passport.facts = facts_as_pages(lp.passport.facts)
    return lp


def compact_outcome(outcome: _Outcome) -> _Outcome:
    """A landing's or a merge's outcome, its passport and review compact."""
    outcome.passport = compact_passport(outcome.passport)
    outcome.review = compact_review(outcome.review)
    return outcome
