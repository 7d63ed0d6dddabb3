"""A passport too large for one answer comes in pages, through the official MCP client:
`taskpack_open` and the passport resource stay within the budget, say what they show and
what is left, and a cursor the agent passes back reads on — every row once, in order.
The take-over prompt stays within the budget too and says the rest is paged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from taskpack.app.desk import Desk
from taskpack.app.mcp.boundary import BUDGET
from taskpack.app.mcp.server import build_server

#: ~25,000 tokens, the most an agent harness takes in one result (Claude Code)
HARNESS_LIMIT = 100_000


def _big(desk: Desk, facts: int, steps: int, asks: int, title: str = "big") -> str:
    lp = desk.new(title, "many rows")
    state: dict[str, Any] = {
        "facts": [
            {
                "claim": f"fact {n} holds on the build machine",
                "scope": "machine",
                "verified": True,
                "verified_on": "beta",
            }
            for n in range(1, facts + 1)
        ],
        "next_steps": [f"step {n}" for n in range(1, steps + 1)],
    }
    lp = desk.checkpoint(lp.id, state, expected_version=lp.version)
    for n in range(1, asks + 1):
        desk.add_ask(lp.id, f"question {n}?", "a number in EUR")
    return lp.id


def _session(tmp_path: Path, body: Any) -> None:
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            await body(c, desk)

    try:
        anyio.run(main)
    finally:
        desk.close()


def _text(res: Any) -> str:
    return "".join(getattr(x, "text", "") for x in res.content)


def test_a_10000_fact_passport_opens_in_a_page_within_the_budget(tmp_path: Path) -> None:
    async def body(c: Client, desk: Desk) -> None:
        pid = _big(desk, 10_000, 10_000, 3)
        res = await c.call_tool("taskpack_open", {"id": pid})
        assert not res.is_error, _text(res)
        data = res.structured_content
        assert data is not None
        size = len(json.dumps(data, ensure_ascii=False))
        assert size <= BUDGET, size  # before: 3.5 MB structured, 5.8 MB of text
        assert len(_text(res)) + size < HARNESS_LIMIT
        # the counts are over every row, not the page
        assert data["counts"] == {"required_checks": 0, "facts_to_reverify": 10_000, "open_asks": 3}
        page = data["page"]
        assert page["complete"] is False and page["next_cursor"]
        spans = {s["list"]: s for s in page["lists"]}
        assert spans["facts"]["total"] == 10_000 and 0 < spans["facts"]["shown"] < 10_000
        # the three asks are not pushed behind 10,000 facts
        assert spans["asks"] == {"list": "asks", "total": 3, "from": 0, "shown": 3}
        assert [a["sender_wrote"]["what"] for a in data["asks"]] == [
            "question 1?",
            "question 2?",
            "question 3?",
        ]
        shown = spans["facts"]["shown"]
        assert f"facts 1–{shown} of 10000" in _text(res)
        assert f'pass cursor "{page["next_cursor"]}" to read on' in _text(res)

        brief = (await c.get_prompt("take_over", {"passport_id": pid})).messages[0].content
        said = getattr(brief, "text", "")
        assert len(said) < HARNESS_LIMIT  # before: 5.8 MB
        assert f"and {10_000 - shown} more (taskpack_open pages through them)" in said

    _session(tmp_path, body)


def test_reading_on_with_the_cursor_shows_every_row_once_in_order(tmp_path: Path) -> None:
    async def body(c: Client, desk: Desk) -> None:
        pid = _big(desk, 1_500, 1_200, 40)
        facts: list[int] = []
        steps: list[str] = []
        asks: list[str] = []
        cursor: str | None = None
        pages = 0
        while True:
            args = {"id": pid} | ({"cursor": cursor} if cursor else {})
            res = await c.call_tool("taskpack_open", args)
            assert not res.is_error, _text(res)
            data = res.structured_content
            assert data is not None and len(json.dumps(data, ensure_ascii=False)) <= BUDGET
            facts += [f["n"] for f in data["facts"]]
            steps += data["sender_wrote"]["next_steps"]
            asks += [a["sender_wrote"]["what"] for a in data["asks"]]
            pages += 1
            cursor = data["page"]["next_cursor"]
            if cursor is None:
                assert "This is the last page." in _text(res)
                break
            assert pages < 200
        assert pages > 2
        assert facts == list(range(1, 1_501))
        assert steps == [f"step {n}" for n in range(1, 1_201)]
        assert asks == [f"question {n}?" for n in range(1, 41)]

    _session(tmp_path, body)


def test_a_cursor_from_an_older_version_or_not_the_desks_is_one_sentence(tmp_path: Path) -> None:
    async def body(c: Client, desk: Desk) -> None:
        pid = _big(desk, 2_000, 0, 0)
        first = await c.call_tool("taskpack_open", {"id": pid})
        assert first.structured_content is not None
        cursor = first.structured_content["page"]["next_cursor"]
        desk.add_ask(pid, "one more?", "yes or no")  # the rows may move: a new version
        stale = await c.call_tool("taskpack_open", {"id": pid, "cursor": cursor})
        assert stale.is_error
        assert "that cursor was cut from version" in _text(stale)
        assert "\n" not in _text(stale).strip() and "Traceback" not in _text(stale)
        for bad in ("x", "v1.99999999.0", cursor.replace(".", ".9", 1), "v1" + ".0" * 500):
            res = await c.call_tool("taskpack_open", {"id": pid, "cursor": bad})
            assert res.is_error, bad
            assert "cursor" in _text(res) and "Traceback" not in _text(res)

    _session(tmp_path, body)


def test_a_small_passport_is_one_complete_answer(tmp_path: Path) -> None:
    async def body(c: Client, desk: Desk) -> None:
        pid = _big(desk, 3, 2, 1)
        res = await c.call_tool("taskpack_open", {"id": pid})
        data = res.structured_content
        assert data is not None and data["page"]["complete"] is True
        assert data["page"]["next_cursor"] is None and "one page" not in _text(res)
        assert len(data["facts"]) == 3 and len(data["sender_wrote"]["next_steps"]) == 2

    _session(tmp_path, body)


def test_the_passport_resource_stays_within_the_budget_and_pages(tmp_path: Path) -> None:
    async def body(c: Client, desk: Desk) -> None:
        pid = _big(desk, 10_000, 10_000, 2, title="T " + "x" * (2 << 20))
        read = await c.read_resource(f"taskpack://passport/{pid}")
        body_ = "".join(getattr(x, "text", "") for x in read.contents)
        assert len(body_) < HARNESS_LIMIT, len(body_)  # before: 3.8 MB (+2 MB of title)
        data = json.loads(body_)
        assert "more characters not shown" in data["sender_wrote"]["title"]
        cursor = data["page"]["next_cursor"]
        assert cursor and data["page"]["complete"] is False
        after = await c.read_resource(f"taskpack://passport/{pid}?cursor={cursor}")
        more = json.loads("".join(getattr(x, "text", "") for x in after.contents))
        spans = {s["list"]: s for s in more["page"]["lists"]}
        assert spans["facts"]["from"] == len(data["facts"])
        assert more["facts"][0]["n"] == len(data["facts"]) + 1

    _session(tmp_path, body)
