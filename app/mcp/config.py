"""`taskpack mcp --print-config HARNESS`: the snippet that registers this server.

We print; we never edit another program's configuration. The command is this very
`taskpack` (an absolute path, so the harness need not share our PATH), and a
`TASKPACK_HOME` / `TASKPACK_MACHINE` / `TASKPACK_ACTOR` set where the snippet is printed
is carried along, so the agent works on the same desk as the person's window.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

SERVER_NAME = "taskpack"
CARRIED_ENV = ("TASKPACK_HOME", "TASKPACK_MACHINE", "TASKPACK_ACTOR")


def command() -> list[str]:
    """How to start this server: the frozen binary, the `taskpack` script, or this Python."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "mcp"]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name in ("taskpack", "taskpack.exe") and script.exists():
        return [str(script.resolve()), "mcp"]
    found = shutil.which("taskpack")
    if found:
        return [str(Path(found).resolve()), "mcp"]
    return [sys.executable, "-m", "taskpack.app.cli.main", "mcp"]


def _env() -> dict[str, str]:
    return {k: os.environ[k] for k in CARRIED_ENV if os.environ.get(k)}


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def snippet(harness: str) -> tuple[str, str]:
    """(where it goes, the snippet): the snippet alone is valid JSON or TOML, so it can be
    redirected straight into a new file; where it goes is said separately."""
    cmd, *args = command()
    env = _env()
    entry: dict[str, object] = {"command": cmd, "args": args}
    if env:
        entry["env"] = env
    if harness == "codex":
        lines = [
            f"[mcp_servers.{SERVER_NAME}]",
            f"command = {_toml_str(cmd)}",
            f"args = [{', '.join(_toml_str(a) for a in args)}]",
        ]
        if env:
            lines.append(
                "env = { " + ", ".join(f"{k} = {_toml_str(v)}" for k, v in env.items()) + " }"
            )
        where = "Codex: add to ~/.codex/config.toml (or .codex/config.toml in a trusted project)"
        return where, "\n".join(lines) + "\n"
    places = {
        "claude": "Claude Code: save as .mcp.json in your project (or merge into it); "
        f"or run: claude mcp add {SERVER_NAME} -- {' '.join([cmd, *args])}",
        "cursor": "Cursor: save as .cursor/mcp.json in your project, or ~/.cursor/mcp.json",
        "gemini": "Gemini CLI: merge into ~/.gemini/settings.json (or .gemini/settings.json)",
    }
    if harness not in places:
        raise ValueError(f"unknown harness {harness!r}")
    if harness == "gemini":
        entry["trust"] = False  # keep the harness asking before each tool call
    body = json.dumps({"mcpServers": {SERVER_NAME: entry}}, ensure_ascii=False, indent=2)
    return places[harness], body + "\n"


def skill_text() -> str:
    """resources/agents/SKILL.md as shipped (also in the frozen build)."""
    from importlib import resources

    return (resources.files("taskpack.resources") / "agents" / "SKILL.md").read_text(
        encoding="utf-8"
    )
