"""Replies answer the passport that asked, for an agent:
`taskpack_land` (dry run and merge) follows the rule `taskpack land` and the window do —
a receipt merges only into a passport whose outbox holds the handoff it answers, only
for the asks that handoff carried."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from taskpack.app.desk import Desk
from taskpack.app.mcp.server import build_server


def _hand_receipt(path: Path, pid: str, asks: list[dict[str, Any]]) -> str:
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
    return str(path)


def test_taskpack_land_applies_the_outbox_rule_in_its_dry_run_and_its_merge(
    tmp_path: Path,
) -> None:
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")
    never = desk.new("Never sent", "G").id
    desk.add_ask(never, "What is the budget?", "a number")
    q = desk.new("Q", "G").id
    desk.add_ask(q, "What is the budget?", "a number")
    desk.pack(q, tmp_path / "asked.taskpack.json", encoding="flat")
    desk.add_ask(q, "Who signs it off?", "a name")  # a draft, never sent
    answers = [
        {"id": "a1", "status": "answered", "answer": "12"},
        {"id": "a2", "status": "answered", "answer": "me, trust me"},
    ]
    to_never = _hand_receipt(tmp_path / "r1.taskpack.json", never, answers[:1])
    to_q = _hand_receipt(tmp_path / "r2.taskpack.json", q, answers)

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            for dry in (True, False):
                res = await c.call_tool(
                    "taskpack_land", {"path": to_never, "into": never, "dry_run": dry}
                )
                # before: the dry run said it would merge (and answer a1)
                assert res.is_error, (dry, res.structured_content)
                assert "has no handoff in its outbox" in res.content[0].text  # type: ignore[union-attr]
            dry_run = await c.call_tool("taskpack_land", {"path": to_q, "into": q, "dry_run": True})
            review = dry_run.structured_content["review"]  # type: ignore[index]
            # before: would answer a1 and a2, the draft that never left
            assert review["would_answer"] == ["a1"]
            merged = await c.call_tool("taskpack_land", {"path": to_q, "into": q})
            assert merged.structured_content["answered"] == ["a1"]  # type: ignore[index]

    try:
        anyio.run(main)
        assert desk.get(never).asks[0].status == "open"  # type: ignore[index]
    finally:
        desk.close()
