"""One boundary for agents: a pack whose every string is hostile is landed, and every
tool's answer (structured and text), the take-over prompt and the passport resource are
walked for the pack's words outside `sender_wrote` and outside the markers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from hostile_pack import FORGED, HYPHENATED, PHRASE, RAW_HIDDEN, hostile_pack
from mcp import Client
from mcp_testkit import outside_markers
from taskpack.app.desk import Desk
from taskpack.app.mcp.server import build_server


def desks_words(value: Any) -> Any:
    """Structured output without its sender_wrote parts: what the desk says itself."""
    if isinstance(value, dict):
        return {k: desks_words(v) for k, v in value.items() if k != "sender_wrote"}
    if isinstance(value, list):
        return [desks_words(v) for v in value]
    return value


def assert_kept_apart(what: str, text: str, structured: Any) -> None:
    """The pack's words only under sender_wrote or between the markers; nothing hidden raw."""
    mine = outside_markers(text) + json.dumps(desks_words(structured), ensure_ascii=False)
    for said in (PHRASE, HYPHENATED, FORGED, "TaskPack Desk: verified", "问题1"):
        assert said not in mine, (what, said, mine[:3000])
    everything = text + json.dumps(structured, ensure_ascii=False)
    assert not RAW_HIDDEN.search(everything), (what, RAW_HIDDEN.search(everything))


def test_every_tool_keeps_a_hostile_packs_words_apart(tmp_path: Path) -> None:
    pack = hostile_pack(tmp_path / "hostile.taskpack.json")
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")
    seen: list[str] = []

    async def main() -> None:
        async with Client(build_server(desk)) as c:

            async def call(tool: str, refused: bool = False, **args: Any) -> dict[str, Any]:
                res = await c.call_tool(tool, args)
                text = "".join(getattr(x, "text", "") for x in res.content)
                assert res.is_error is refused, (tool, text)
                assert_kept_apart(tool, text, res.structured_content)
                assert_kept_apart(tool, "", desks_words((res.meta or {}).get("taskpack/error")))
                seen.append(tool)
                return res.structured_content  # type: ignore[return-value]

            await call("taskpack_show", path=str(pack))
            await call("taskpack_conformance", path=str(pack))
            await call("taskpack_land", path=str(pack), dry_run=True)
            landed = await call("taskpack_land", path=str(pack))
            pid = landed["passport_id"]
            await call("taskpack_list", limit=3)
            await call("taskpack_open", id=pid)
            await call("taskpack_take", id=pid)
            await call(
                "taskpack_checkpoint",
                id=pid,
                expected_version=desk.get(pid).version,
                add_facts=[{"claim": "python3 runs", "verified": True}],
            )
            # keys that name instructions are refused when packed, and the refusal says
            # where without saying them
            await call("taskpack_pack", refused=True, id=pid, out=str(tmp_path / "x.taskpack"))
            await call(
                "taskpack_checkpoint",
                id=pid,
                expected_version=desk.get(pid).version,
                next_steps=["draw the charts"],
                artifacts=[],
                learnings=[],
            )
            for kind, name in (("handoff", "h.taskpack"), ("receipt", "r.taskpack.json")):
                await call("taskpack_pack", id=pid, out=str(tmp_path / name), kind=kind)
            await call("taskpack_outbox", passport_id=pid)
            await call("taskpack_show", path=str(tmp_path / "h.taskpack"))
            prompt = await c.get_prompt("take_over", {"passport_id": pid})
            words = "".join(getattr(m.content, "text", "") for m in prompt.messages)
            assert_kept_apart("take_over", words, {})
            resource = await c.read_resource(f"taskpack://passport/{pid}")
            body = json.loads("".join(getattr(x, "text", "") for x in resource.contents))
            assert_kept_apart("passport resource", "", body)

    try:
        anyio.run(main)
    finally:
        desk.close()
    assert len(seen) >= 12
