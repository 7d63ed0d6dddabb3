"""The files an agent harness reads beside resources/agents/SKILL.md agree with it and with
the server: Codex's agents/openai.yaml (interface and MCP dependency) names the same MCP
server and the same tools SKILL.md does, and those are the tools `taskpack mcp` serves."""

from __future__ import annotations

import contextlib
import io
import re
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
import yaml
from mcp import Client
from taskpack.app.cli.main import build_parser
from taskpack.app.desk import Desk
from taskpack.app.mcp.config import SERVER_NAME, skill_text
from taskpack.app.mcp.server import build_server

AGENTS = resources.files("taskpack.resources") / "agents"
INTERFACE_KEYS = {
    "display_name",
    "short_description",
    "icon_small",
    "icon_large",
    "brand_color",
    "default_prompt",
}
TOOL = re.compile(r"\btaskpack_[a-z_]+\b")


def openai_yaml() -> dict[str, Any]:
    data = yaml.safe_load((AGENTS / "agents" / "openai.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def skill_front_matter() -> dict[str, Any]:
    m = re.match(r"^---\n(.*?)\n---\n", skill_text(), re.S)
    assert m, "SKILL.md opens with YAML front matter"
    data = yaml.safe_load(m.group(1))
    assert isinstance(data, dict)
    return data


def served_tools(tmp_path: Path) -> set[str]:
    desk = Desk(tmp_path / "home", machine="m1", actor="ana")

    async def main() -> set[str]:
        async with Client(build_server(desk)) as c:
            return {t.name for t in (await c.list_tools()).tools}

    try:
        return anyio.run(main)
    finally:
        desk.close()


def test_openai_yaml_parses_as_codex_reads_it() -> None:
    data = openai_yaml()
    assert set(data) <= {"interface", "dependencies"}
    interface = data["interface"]
    assert set(interface) <= INTERFACE_KEYS
    assert all(isinstance(v, str) and v.strip() for v in interface.values())
    assert 25 <= len(interface["short_description"]) <= 64
    name = skill_front_matter()["name"]
    assert interface["display_name"].lower() == name
    assert f"${name}" in interface["default_prompt"]  # how Codex names a skill in a prompt
    [tool] = data["dependencies"]["tools"]
    assert tool["type"] == "mcp" and tool["transport"] == "stdio"
    assert tool["value"] == SERVER_NAME


def test_the_skill_and_openai_yaml_name_the_tools_the_server_serves(tmp_path: Path) -> None:
    skill = skill_text()
    [tool] = openai_yaml()["dependencies"]["tools"]
    in_skill = set(TOOL.findall(skill))
    in_yaml = set(TOOL.findall(tool["description"]))
    served = served_tools(tmp_path)
    assert in_yaml == served  # every tool the harness is told about, and no other
    assert in_skill <= served  # the skill names only tools that exist
    assert {"taskpack_show", "taskpack_land", "taskpack_pack", "taskpack_checkpoint"} <= in_skill
    assert f"`{SERVER_NAME}` server (`taskpack mcp`)" in skill


def is_a_verb(word: str) -> bool:
    """Does `taskpack WORD --help` show help (a verb), rather than refuse the word?"""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            build_parser().parse_args([word, "--help"])
        except SystemExit as exc:
            return exc.code == 0
    return False


def test_the_command_line_twins_in_the_skill_are_real_verbs() -> None:
    m = re.search(r"\(`taskpack ([a-z |\n-]+)`\)", skill_text())
    assert m, "SKILL.md lists the command-line twins"
    twins = {w for w in re.split(r"[\s|]+", m.group(1)) if w}
    assert twins and not {w for w in twins if not is_a_verb(w)}, twins
    assert "mcp --print-config codex" in openai_yaml()["dependencies"]["tools"][0]["description"]
    assert "codex" in build_parser().parse_args(["mcp", "--print-config", "codex"]).print_config
