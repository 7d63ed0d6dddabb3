"""`taskpack_show` reports MCP progress when the client gives a progressToken (in-process,
the SDK's in-memory client): one rising count over its two passes, reaching the total."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client
from taskpack.app.desk import Desk
from taskpack.app.mcp import results
from taskpack.app.mcp.server import build_server


def test_show_reports_progress_up_to_the_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each pass takes ~40 ms here: without the ~10-a-second cap every step is seen
    monkeypatch.setattr(results.Job, "min_interval", 0.0)
    big = tmp_path / "data.bin"
    big.write_bytes(bytes(range(256)) * (16 * 4096))  # 16 MiB: many chunks to report
    sender = Desk(tmp_path / "alpha", machine="alpha", actor="ana")
    pid = sender.new("Big", "G").id
    out = tmp_path / "big.taskpack"
    sender.pack(pid, out, files=[big])
    sender.close()
    desk = Desk(tmp_path / "beta", machine="beta", actor="bo")
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async def main() -> None:
        async with Client(build_server(desk)) as c:
            res = await c.call_tool(
                "taskpack_show", {"path": str(out)}, progress_callback=on_progress
            )
            assert not res.is_error, res.content
            assert res.structured_content["conformance"]["conformant"] is True  # type: ignore[index]
            quiet = await c.call_tool("taskpack_show", {"path": str(out)})  # no token: no progress
            assert not quiet.is_error

    try:
        anyio.run(main)
    finally:
        desk.close()
    assert len(seen) >= 3
    done = [p for p, _, _ in seen]
    assert done == sorted(done)  # never goes back, across the review and the judge
    assert seen[-1][0] == seen[-1][1]  # reached the total
    assert any(0 < p < t / 2 for p, t, _ in seen if t)  # the first pass reported on its way
    assert any(t / 2 <= p < t for p, t, _ in seen if t)  # and so did the second
    assert all(m and m.startswith("reviewing: ") for _, _, m in seen)
