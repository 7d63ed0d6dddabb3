"""The lifecycle table: exactly 22 moves, every other move refused with invalid_state."""

from __future__ import annotations

import itertools

import pytest
from taskpack.core.desk import lifecycle as lc
from taskpack.core.errors import InvalidMove, UsageError

# the seed's table, written out independently of the implementation
EXPECTED = {
    ("requested", None, "routed", None),
    ("requested", None, "waiting", "owner_approval"),
    ("waiting", "owner_approval", "routed", None),
    ("waiting", "owner_approval", "rejected", None),
    ("routed", None, "accepted", None),
    ("routed", None, "rejected", None),
    ("accepted", None, "working", None),
    ("working", None, "waiting", "human"),
    ("working", None, "waiting", "agent"),
    ("waiting", "human", "working", None),
    ("waiting", "agent", "working", None),
    ("working", None, "verifying", None),
    ("verifying", None, "completed", None),
    ("verifying", None, "approval", None),
    ("verifying", None, "working", None),
    ("approval", None, "completed", None),
    ("approval", None, "working", None),
    ("approval", None, "rejected", None),
    ("requested", None, "cancelled", None),
    ("routed", None, "cancelled", None),
    ("accepted", None, "cancelled", None),
    ("working", None, "cancelled", None),
    ("waiting", "owner_approval", "cancelled", None),
    ("waiting", "human", "cancelled", None),
    ("waiting", "agent", "cancelled", None),
    ("approval", None, "cancelled", None),
}


def _positions() -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for s in lc.STATES:
        out += [(s, w) for w in lc.WAITING_ON] if s == "waiting" else [(s, None)]
    return out


def test_the_table_has_22_moves() -> None:
    assert len(lc.MOVES) == 22
    assert len(lc.STATES) == 10
    assert {"completed", "rejected", "cancelled"} == lc.TERMINAL


@pytest.mark.parametrize(
    ("src", "src_w", "dst", "dst_w"),
    [(a, b, c, d) for (a, b) in _positions() for (c, d) in _positions()],
)
def test_every_pair_of_positions(src: str, src_w: str | None, dst: str, dst_w: str | None) -> None:
    if (src, src_w, dst, dst_w) in EXPECTED:
        assert lc.check_move(src, src_w, dst, dst_w).target == dst
    else:
        with pytest.raises(InvalidMove, match="invalid_state") as info:
            lc.check_move(src, src_w, dst, dst_w)
        assert info.value.code == "invalid_state"


def test_ended_tasks_go_nowhere() -> None:
    for s in lc.TERMINAL:
        assert lc.allowed_moves(s, None) == []
        with pytest.raises(InvalidMove, match="has ended"):
            lc.check_move(s, None, "working")


def test_waiting_must_say_on_what_and_others_must_not() -> None:
    with pytest.raises(InvalidMove, match="waits on") as info:
        lc.check_move("working", None, "waiting")
    assert "human|agent" in str(info.value)
    with pytest.raises(InvalidMove, match="only a waiting task"):
        lc.check_move("working", None, "verifying", "human")
    with pytest.raises(InvalidMove, match="not a task state"):
        lc.check_move("working", None, "done")


def test_owner_approval_is_left_only_by_the_owner_decision() -> None:
    with pytest.raises(InvalidMove):
        lc.check_move("waiting", "owner_approval", "working")
    with pytest.raises(InvalidMove):
        lc.check_move("waiting", "human", "routed")


def test_hint_lists_where_it_can_go() -> None:
    with pytest.raises(InvalidMove) as info:
        lc.check_move("routed", None, "completed")
    assert "accepted, rejected, cancelled" in str(info.value)


@pytest.mark.parametrize(
    ("allow", "origin", "expected"),
    [
        ([], {"actor": "ana", "machine": "m1"}, False),
        (["ana"], {"actor": "Ana", "machine": "m1"}, True),
        (["m1"], {"actor": "ana", "machine": "m1"}, True),
        (["ana@m1"], {"actor": "ana", "machine": "m1"}, True),
        (["ana@m2"], {"actor": "ana", "machine": "m1"}, False),
        (["*"], None, True),
        (["bob"], None, False),
        ([""], {"actor": "", "machine": ""}, False),
    ],
)
def test_gate(allow: list[str], origin: dict[str, str] | None, expected: bool) -> None:
    assert lc.gate_allows(origin, allow) is expected


GOOD = {
    "summary": "Fixed the export",
    "evidence": [
        {"kind": "test_output", "summary": "42 passed"},
        {"kind": "link", "summary": "PR", "url": "https://example.org/pr/1"},
    ],
    "provenance": "agent_generated",
    "returned_by": "ana/desk-1",
    "returned_at": "2026-08-16T03:11:04Z",
}


def test_a_good_result_passes() -> None:
    lc.check_result(GOOD)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"summary": ""}, "summary"),
        ({"evidence": []}, "1 to 20"),
        ({"evidence": [{"kind": "video", "summary": "x"}]}, "kind"),
        ({"evidence": [{"kind": "note", "summary": ""}]}, "evidence #1 needs a summary"),
        ({"evidence": [{"kind": "note", "summary": "x", "extra": 1}]}, "does not allow"),
        ({"evidence": [{"kind": "link", "summary": "x", "url": "not a url"}]}, "absolute URI"),
        ({"provenance": "vibes"}, "provenance"),
        ({"returned_by": "Ana"}, "owner/agent"),
        ({"returned_at": "yesterday"}, "date-time"),
        ({"returned_at": "2026-02-30T00:00:00Z"}, "date-time"),
        ({"colour": "red"}, "does not allow"),
    ],
)
def test_a_bad_result_is_refused_with_the_reason(change: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        lc.check_result({**GOOD, **change})


def test_slug() -> None:
    assert lc.slug("Zhang Wei") == "zhang-wei"
    assert lc.slug("张老师") == "unknown"
    assert lc.RETURNED_BY_RE.match(f"{lc.slug('A--B')}/{lc.slug('x' * 80)}")


def test_positions_cover_everything() -> None:
    assert len(list(itertools.product(_positions(), _positions()))) == 144
