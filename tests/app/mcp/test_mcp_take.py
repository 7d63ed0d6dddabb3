"""`taskpack_take`: an agent takes a task on for the person who owns it and does it."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import Client
from taskpack.app.desk import Desk
from taskpack.app.mcp.server import build_server


def test_taskpack_take_moves_a_landed_task_to_working(tmp_path: Path) -> None:
    sender = Desk(tmp_path / "wei", "wei-pc", actor="wei")
    desk = Desk(tmp_path / "home", machine="m1", actor="ana")
    pack = sender.pack(sender.new("Cut the video", "90 s").id, tmp_path / "v.taskpack").path
    pid = desk.land(pack).id

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            take = tools["taskpack_take"]
            assert take.input_schema["required"] == ["id"] and take.output_schema
            assert take.annotations is not None and take.annotations.read_only_hint is False
            res = await c.call_tool("taskpack_take", {"id": pid})
            assert not res.is_error
            assert res.structured_content["state"] == "working"  # type: ignore[index]
            again = await c.call_tool("taskpack_take", {"id": pid})
            assert again.is_error
            assert "nothing to take on" in "".join(getattr(x, "text", "") for x in again.content)

    try:
        anyio.run(main)
    finally:
        desk.close()
        sender.close()
