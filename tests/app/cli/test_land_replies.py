"""Replies answer the passport that asked, as `taskpack land` shows
it: the dry run and the merge apply one rule — a receipt merges only into a passport
whose outbox holds the handoff it answers, only for the asks that handoff carried."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskpack.app.desk import Desk
from test_passports import Taskpack


def hand_receipt(path: Path, pid: str, asks: list[dict[str, Any]]) -> Path:
    """A receipt written by hand: no lineage; its passport.id names `pid`."""
    doc = {
        "taskpack": "0.1",
        "encoding": "flat",
        "passport": {
            "spec": "task-passport-bag/0.1",
            "kind": "receipt",
            "packed_at": "2026-12-01T10:00:00Z",
            "origin": {"actor": "root@alpha", "machine": "elsewhere", "harness": "hand"},
            "passport": {"id": pid, "title": "Q", "goal": "G"},
            "asks": asks,
        },
        "attachments": [],
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def asking_passport(home: Path, tmp_path: Path, *, send: bool) -> str:
    """Q asks a1 (sent in a handoff when `send`), then gets a draft a2 it never sent."""
    with Desk(home, "alpha", actor="ana") as ana:
        q = ana.new("Q", "G").id
        ana.add_ask(q, "What is the budget?", "a number in EUR")
        if send:
            ana.pack(q, tmp_path / "asked.taskpack.json", encoding="flat")
        ana.add_ask(q, "Who signs it off?", "a name")
    return q


ANSWERS = [
    {"id": "a1", "status": "answered", "answer": "12,000 EUR"},
    {"id": "a2", "status": "answered", "answer": "me, trust me"},  # no `what`, never sent
    {"id": "a9", "what": "Also: the deadline?", "status": "open"},  # never asked
]


def test_a_dry_run_refuses_a_receipt_for_a_passport_that_never_sent(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "alpha")
    q = asking_passport(tp.home, tmp_path, send=False)
    reply = hand_receipt(tmp_path / "reply.taskpack.json", q, ANSWERS[:1])
    # before: "would merge into Q … would answer: a1", then the merge itself refused
    dry = tp("land", str(reply), "--into", q, "--dry-run", code=2)
    assert "has no handoff in its outbox" in dry.stderr
    real = tp("land", str(reply), "--into", q, code=2)
    assert "has no handoff in its outbox" in real.stderr
    assert tp.json("show", q)["asks"][0]["status"] == "open"


def test_a_dry_run_names_only_the_asks_the_handoff_carried(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "alpha")
    q = asking_passport(tp.home, tmp_path, send=True)
    reply = hand_receipt(tmp_path / "reply.taskpack.json", q, ANSWERS)
    dry = tp.json("land", str(reply), "--into", q, "--dry-run")
    # before: would answer a1 and a2 (the unsent draft), though the merge answers a1 only
    assert dry["would_answer"] == ["a1"] and dry["would_adopt"] == ["a9"]
    merged = tp.json("land", str(reply), "--into", q)
    assert merged["answered"] == ["a1"] and [a["from"] for a in merged["adopted"]] == ["a9"]
    asks = {a["id"]: a for a in tp.json("show", q)["asks"]}
    assert asks["a2"]["status"] == "open" and asks["a2"].get("answer") is None
