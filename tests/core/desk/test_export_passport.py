"""Packing a passport from the store (`core/desk/export.py`, spec §3, §4.3): its own chain,
sealed facts, nothing recorded for a refused pack, the asks it sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from desk_machines import Machine, _ask, _facts
from taskpack.core.errors import (
    Refused,
)
from taskpack.core.format.model import Ask
from taskpack.core.format.reading import open_pack


def test_a_fresh_passport_starts_its_own_chain(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(facts=_facts())
    out = a.pack(pid, tmp_path / "h.taskpack", note="over to you")
    assert out.lineage == {"root_id": pid, "from_version": 1, "chain": [f"{pid}@1"]}
    with open_pack(out.path) as opened:
        assert list(opened.data) == [
            "spec",
            "kind",
            "packed_at",
            "origin",
            "lineage",
            "note",
            "passport",
            "asks",
            "landing_checks",
        ]
        assert opened.data["passport"]["id"] == pid
        assert opened.data["origin"]["machine"] == "A"
        assert opened.data["packed_at"].endswith("Z") and len(opened.data["packed_at"]) == 20
        sealed = {f["claim"]: f for f in opened.data["passport"]["facts"]}
        assert sealed["the build passes"]["verified"] is False
        assert sealed["the build passes"]["verified_on"] == "A"
        assert sealed["the customer wants a PDF"]["verified"] is True
    assert a.store.pack_written(out.content_digest) is not None
    # the passport that stays home keeps its own ✓: sealing happens to the pack only
    assert a.store.get(pid).passport.facts[0].verified is True  # type: ignore[index]
    assert [h.event for h in a.store.history(pid)] == ["created", "packed"]


def test_a_refused_pack_records_nothing(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(asks=[Ask(id="a1", what="budget?", status="open")])  # no accept
    with pytest.raises(Refused):
        a.pack(pid, tmp_path / "h.taskpack")
    assert not (tmp_path / "h.taskpack").exists()
    assert [h.event for h in a.store.history(pid)] == ["created"]
    assert a.store.get(pid).state == "working"


def test_open_asks_sent_put_the_passport_in_waiting_human(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "What is the budget?")])
    out = a.pack(pid, tmp_path / "h.taskpack")
    assert out.asks_sent == ["a1"] and out.moved_to == "waiting[human]"
    lp = a.store.get(pid)
    assert (lp.state, lp.waiting_on) == ("waiting", "human")
    # the asks it sent are on the passport that stays home (§4.3)
    assert [x.id for x in lp.asks or []] == ["a1"]
    assert a.store.packs_written(pid)[0].asks == ["a1"]
