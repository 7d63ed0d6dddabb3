"""`taskpack mcp --print-config HARNESS`: a snippet each harness reads, printed, never written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest


def print_config(harness: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "TASKPACK_HOME": str(home / "desk"),
        "TASKPACK_MACHINE": "laptop-ana",
    }
    env.pop("TASKPACK_ACTOR", None)
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", "mcp", "--print-config", harness],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.mark.parametrize("harness", ["claude", "cursor", "gemini", "codex"])
def test_each_harness_gets_a_snippet_it_can_read_and_nothing_is_written(
    harness: str, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    proc = print_config(harness, home)
    if harness == "codex":
        server = tomllib.loads(proc.stdout)["mcp_servers"]["taskpack"]
        assert "config.toml" in proc.stderr
    else:
        server = json.loads(proc.stdout)["mcpServers"]["taskpack"]
        assert {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "gemini": "settings.json"}[
            harness
        ] in proc.stderr
    assert server["args"][-1] == "mcp" and Path(server["command"]).is_absolute()
    assert Path(server["command"]).exists()
    assert server["env"] == {"TASKPACK_HOME": str(home / "desk"), "TASKPACK_MACHINE": "laptop-ana"}
    assert list(home.iterdir()) == []  # no harness's configuration was touched
    if harness == "gemini":
        assert server["trust"] is False


def test_the_printed_command_starts_a_server_that_answers(tmp_path: Path) -> None:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    home = tmp_path / "home"
    home.mkdir()
    server = json.loads(print_config("claude", home).stdout)["mcpServers"]["taskpack"]

    async def main() -> list[str]:
        params = StdioServerParameters(
            command=server["command"], args=server["args"], env=server["env"]
        )
        with open(tmp_path / "stderr", "w") as err:
            async with stdio_client(params, errlog=err) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                return [t.name for t in (await s.list_tools()).tools]

    assert "taskpack_pack" in anyio.run(main)


def test_the_skill_file_is_printed_as_shipped(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", "mcp", "--print-skill"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        encoding="utf-8",
    )
    shipped = Path(__file__).parents[3] / "resources" / "agents" / "SKILL.md"
    assert proc.stdout == shipped.read_text(encoding="utf-8")
    assert proc.stdout.startswith("---\nname: taskpack\n")
