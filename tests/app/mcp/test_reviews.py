"""A large pack under review, through the official MCP client: `taskpack_show` and
`taskpack_land` stay within the budget, say what they show, and `taskpack_show` reads on
with the cursor — every row once, in order; a cursor cut from other contents is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from taskpack.app.desk import Desk
from taskpack.app.mcp.boundary import BUDGET
from taskpack.app.mcp.server import build_server

HARNESS_LIMIT = 100_000


def _pack(tmp_path: Path, facts: int, name: str = "big") -> Path:
    """A handoff of `facts` facts and as many next steps, packed by a desk elsewhere."""
    desk = Desk(tmp_path / f"{name}-sender", "beta", actor="bo")
    try:
        lp = desk.new(name, "many rows")
        state: dict[str, Any] = {
            "facts": [
                {"claim": f"fact {n}", "scope": "universal", "verified": True}
                for n in range(1, facts + 1)
            ],
            "next_steps": [f"step {n}" for n in range(1, facts + 1)],
        }
        lp = desk.checkpoint(lp.id, state, expected_version=lp.version)
        desk.add_ask(lp.id, "What is the budget?", "a number in EUR")
        out = tmp_path / f"{name}.taskpack.json"
        desk.pack(lp.id, out, kind="handoff")
        return out
    finally:
        desk.close()


def _session(tmp_path: Path, body: Any) -> None:
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            await body(c)

    try:
        anyio.run(main)
    finally:
        desk.close()


def _text(res: Any) -> str:
    return "".join(getattr(x, "text", "") for x in res.content)


def _size(res: Any) -> int:
    return len(json.dumps(res.structured_content, ensure_ascii=False))


def test_a_10000_fact_pack_is_shown_and_landed_within_the_budget(tmp_path: Path) -> None:
    pack = _pack(tmp_path, 10_000)

    async def body(c: Client) -> None:
        shown = await c.call_tool("taskpack_show", {"path": str(pack)})
        assert not shown.is_error, _text(shown)
        assert _size(shown) <= BUDGET  # before: 3.2 MB structured, 5.4 MB of text
        assert _size(shown) + len(_text(shown)) < HARNESS_LIMIT
        data = shown.structured_content
        assert data is not None and data["counts"]["open_asks"] == 1
        assert data["page"]["next_cursor"] and len(data["asks"]) == 1
        assert "This answer is one page of a large pack (" in _text(shown)
        dry = await c.call_tool("taskpack_land", {"path": str(pack), "dry_run": True})
        assert _size(dry) <= BUDGET + 1_000 and "to taskpack_show to read on" in _text(dry)
        landed = await c.call_tool("taskpack_land", {"path": str(pack)})
        assert not landed.is_error, _text(landed)
        assert _size(landed) + len(_text(landed)) < HARNESS_LIMIT  # before: 5.6 MB of text

    _session(tmp_path, body)


def test_taskpack_show_reads_on_with_the_cursor_every_row_once(tmp_path: Path) -> None:
    pack = _pack(tmp_path, 1_200)
    other = _pack(tmp_path, 1_200, name="other")

    async def body(c: Client) -> None:
        facts: list[str] = []
        steps: list[str] = []
        cursor: str | None = None
        cursors: list[str] = []
        for _ in range(100):
            args = {"path": str(pack)} | ({"cursor": cursor} if cursor else {})
            res = await c.call_tool("taskpack_show", args)
            assert not res.is_error, _text(res)
            assert _size(res) <= BUDGET
            data = res.structured_content
            assert data is not None
            facts += [f["sender_wrote"]["claim"] for f in data["facts"]]
            steps += data["sender_wrote"]["next_steps"]
            cursor = data["page"]["next_cursor"]
            if cursor is None:
                break
            cursors.append(cursor)
        assert facts == [f"fact {n}" for n in range(1, 1_201)]
        assert steps == [f"step {n}" for n in range(1, 1_201)]
        assert len(cursors) > 1
        wrong = await c.call_tool("taskpack_show", {"path": str(other), "cursor": cursors[0]})
        assert wrong.is_error and "a pack of other contents" in _text(wrong)

    _session(tmp_path, body)
