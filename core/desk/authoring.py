"""The rules for changing a passport on this desk: the ids new asks and landing checks
get, and how a move is recorded."""

from __future__ import annotations

from collections.abc import Iterable

from ..format.model import Ask, LandingCheck, LocalPassport
from . import lifecycle
from .store import Tx


def next_ask_id(asks: Iterable[Ask]) -> str:
    """The first free ``aN`` among `asks`."""
    taken = {a.id for a in asks if a.id}
    n = 1
    while f"a{n}" in taken:
        n += 1
    return f"a{n}"


def next_check_id(checks: Iterable[LandingCheck]) -> str:
    """The first free ``cN`` among `checks`."""
    taken = {c.id for c in checks if c.id}
    n = 1
    while f"c{n}" in taken:
        n += 1
    return f"c{n}"


def record_move(tx: Tx, lp: LocalPassport, state: str, waiting_on: str | None, *, why: str) -> None:
    """Move `lp` as the lifecycle table allows (InvalidMove otherwise), saved in `tx` with
    a ``moved`` history entry saying why."""
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
