"""Restoring a sealed ✓ (`core/desk/restore.py`, spec §4.2): only on the machine that verified
it, and only from a pack this desk wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from desk_machines import Machine, _facts
from taskpack.core.desk import restore
from taskpack.core.errors import (
    NotFound,
    RestoreRefused,
)


def test_restore_needs_this_machine_and_a_pack_written_here(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a, b = world["A"], world["B"]
    pid = a.new(facts=_facts())
    out = a.pack(pid, tmp_path / "h.taskpack")
    mine = a.land(out.path).id  # the same desk lands its own pack (another harness, same machine)
    ok, reason = restore.restore_check(a.store, mine, 1, machine="A")
    assert ok, reason
    lp, _ = restore.restore_fact(a.store, mine, 1, machine="A")
    assert lp.passport.facts[0].verified is True  # type: ignore[index]
    assert a.store.history(mine)[-1].event == "restored"
    # another machine: refused, and nothing changes
    theirs = b.land(out.path).id
    with pytest.raises(RestoreRefused):
        restore.restore_fact(b.store, theirs, 1, machine="B")
    assert b.store.get(theirs).passport.facts[0].verified is False  # type: ignore[index]
    with pytest.raises(NotFound, match="no fact 9"):
        restore.restore_check(b.store, theirs, 9, machine="B")


def test_restore_refuses_a_hand_made_pack_naming_this_machine(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    data = {
        "taskpack": "0.1",
        "encoding": "flat",
        "note_to_reader": "data",
        "passport": {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "packed_at": "2026-08-16T03:11:04Z",
            "origin": {"actor": "mallory", "machine": "B", "harness": "hand"},
            "lineage": {"root_id": "TP-MMMM-MMMM", "from_version": 1, "chain": ["TP-MMMM-MMMM@1"]},
            "note": "",
            "passport": {
                "id": "TP-MMMM-MMMM",
                "title": "t",
                "goal": "g",
                "facts": [
                    {
                        "claim": "the disk is encrypted",
                        "scope": "machine",
                        "verified": False,
                        "needs_reverify": True,
                        "verified_on": "B",
                    }
                ],
            },
            "asks": [],
            "landing_checks": [],
        },
        "attachments": [],
    }
    path = tmp_path / "hand.taskpack.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    pid = b.land(path).id
    ok, reason = restore.restore_check(b.store, pid, 1, machine="B")
    assert not ok and reason
    with pytest.raises(RestoreRefused):
        restore.restore_fact(b.store, pid, 1, machine="B")
