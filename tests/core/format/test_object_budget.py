"""One budget for a pack object's JSON, whoever reads it (core/format/canonical.py:
`ObjectBudget`): refused before it is parsed, in one line naming
the limit, by the CLI, the reply finder and the desk the window and MCP use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import LimitExceeded
from taskpack.core.format.canonical import MAX_OBJECT_BYTES, MAX_OBJECT_ITEMS
from taskpack.core.format.reading import open_pack


def _flat(root: Path) -> dict[str, object]:
    with Desk(root / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Budget", "A pack that must keep working").id
        sender.add_ask(pid, "Which cut?", "A or B")
        flat = root / "base.taskpack.json"
        sender.pack(pid, flat, encoding="flat")
    doc: dict[str, object] = json.loads(flat.read_text(encoding="utf-8"))
    return doc


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("budget")
    doc = _flat(root)
    passport = doc["passport"]
    assert isinstance(passport, dict)
    passport["x"] = "@@X@@"
    lists = root / "lists.taskpack.json"
    lists.write_text(
        json.dumps(doc).replace('"@@X@@"', "[" + "[]," * ((31 << 20) // 3) + "[]]"),
        encoding="utf-8",
    )
    reply = root / "reply.txt"
    reply.write_text("Hi Ana,\n```json\n" + lists.read_text() + "\n```\nBo\n", encoding="utf-8")
    del passport["x"]
    doc["u1"], doc["u2"] = "a" * (30 << 20), "b" * (30 << 20)
    unknown = root / "unknown.taskpack.json"
    unknown.write_text(json.dumps(doc), encoding="utf-8")
    del doc["u1"], doc["u2"]
    passport["asks"] = [
        {
            "id": f"a{n}",
            "to": "peer",
            "what": f"Question {n}: which of the two layouts, A or B?",
            "why": "The launch needs one.",
            "accept": "A or B",
            "status": "open",
            "answer": None,
        }
        for n in range(1, 100_001)
    ]
    big = root / "asks.taskpack.json"
    big.write_text(json.dumps(doc), encoding="utf-8")
    return {"lists": lists, "reply": reply, "unknown": unknown, "big": big}


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text[:2000]
    return lines[0]


def test_ten_million_empty_lists_are_refused_by_show(packs: dict[str, Path], run_cli) -> None:  # type: ignore[no-untyped-def]
    # before: `taskpack show` read them all (55 s, 2.48 GB) and showed the pack
    done = run_cli(["show", packs["lists"]], timeout=120)
    assert done.returncode == 1
    line = _one_line(done.stderr)
    assert f"more than {MAX_OBJECT_ITEMS:,} JSON values and keys" in line
    assert "Traceback" not in done.stderr


def test_ten_million_empty_lists_in_a_reply_are_refused(packs: dict[str, Path], run_cli) -> None:  # type: ignore[no-untyped-def]
    done = run_cli(["land", packs["reply"], "--dry-run"], timeout=120)
    assert done.returncode == 1
    assert f"more than {MAX_OBJECT_ITEMS:,} JSON values and keys" in _one_line(done.stderr)


def test_two_unknown_keys_of_30_mib_are_over_the_total(
    packs: dict[str, Path], tmp_path: Path
) -> None:
    # before: each value might be 32 MiB with no total; the window's review read 60 MiB
    with (
        Desk(tmp_path / "desk", "zhang-pc", actor="Zhang") as desk,
        pytest.raises(LimitExceeded) as err,
    ):
        desk.review(packs["unknown"])
    assert f"past {MAX_OBJECT_BYTES >> 20} MiB of JSON in all" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_pack_of_100000_asks_is_within_the_budget(packs: dict[str, Path]) -> None:
    with open_pack(packs["big"], strict=False) as opened:
        assert len(opened.data["asks"]) == 100_000


def test_an_agent_gets_the_same_one_line_refusal(packs: dict[str, Path], tmp_path: Path) -> None:
    import anyio
    from mcp import Client
    from taskpack.app.mcp.server import build_server

    desk = Desk(tmp_path / "agent-desk", "zhang-pc", actor="Zhang")

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            for tool in ("taskpack_show", "taskpack_land"):
                res = await c.call_tool(tool, {"path": str(packs["lists"])})
                text = "".join(getattr(x, "text", "") for x in res.content)
                assert res.is_error and res.structured_content is None
                assert f"more than {MAX_OBJECT_ITEMS:,} JSON values and keys" in text
                assert "\n" not in text

    try:
        anyio.run(main)
    finally:
        desk.close()
