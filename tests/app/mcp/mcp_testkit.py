"""`taskpack mcp` as an agent harness runs it: a real stdio subprocess, driven by the MCP
SDK's own client (ClientSession over stdio_client)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult

MARKER = re.compile(
    r"<<<UNTRUSTED SENDER DATA (\d+) nonce=([0-9a-f]+) place=([^>]*)>>>\n(.*?)\n"
    r"<<<END UNTRUSTED SENDER DATA \1 nonce=\2>>>",
    re.S,
)


@dataclass
class Machine:
    """One desk: its home folder and machine name."""

    home: Path
    name: str
    actor: str = "ana"

    def env(self) -> dict[str, str]:
        return {
            "TASKPACK_HOME": str(self.home),
            "TASKPACK_MACHINE": self.name,
            "TASKPACK_ACTOR": self.actor,
            "TASKPACK_NO_PROGRESS": "1",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONPYCACHEPREFIX": os.path.join(tempfile.gettempdir(), "taskpack-test-pycache"),
            # the server runs the code under test (a worktree's, when the tests run there)
            **({"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}),
        }


class Agent:
    """A connected client session, with helpers that fail loudly on a surprise."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        """Call a tool that must succeed; its structured output."""
        res = await self.session.call_tool(tool, args)
        assert not res.is_error, (tool, args, res.content)
        assert res.structured_content is not None
        return res.structured_content

    async def fail(self, tool: str, **args: Any) -> CallToolResult:
        res = await self.session.call_tool(tool, args)
        assert res.is_error, (tool, args, res.structured_content)
        return res


@contextlib.asynccontextmanager
async def agent(machine: Machine, *, cwd: Path | None = None) -> AsyncIterator[Agent]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "taskpack.app.cli.main", "mcp"],
        env=machine.env(),
        cwd=str(cwd or machine.home.parent),
    )
    with open(machine.home.parent / f"{machine.name}-mcp.stderr", "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as s,
        ):
            await s.initialize()
            yield Agent(s)


def text_of(res: CallToolResult) -> str:
    return "".join(getattr(c, "text", "") for c in res.content)


def untrusted_blocks(text: str) -> list[tuple[str, str]]:
    """(place, body) for every marked block in a text answer."""
    return [(m.group(3), m.group(4)) for m in MARKER.finditer(text)]


def outside_markers(text: str) -> str:
    return MARKER.sub("", text)
