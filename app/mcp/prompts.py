"""The take-over prompt and the resources (the skill, a passport a page at a time): each
within the same budget as a tool's result."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from taskpack.app.mcp import views
from taskpack.app.mcp.boundary import fit, render
from taskpack.app.mcp.briefing import briefing
from taskpack.app.mcp.config import skill_text
from taskpack.app.mcp.inputs import parse_pid
from taskpack.core.errors import TaskPackError


def register(server: MCPServer[Any], view_of: Callable[..., dict[str, Any]]) -> None:
    @server.prompt(title="Take over a passport")
    def take_over(passport_id: str) -> str:
        """Brief an agent taking over a passport: goal, where it stands, what is proven, what
        must be re-verified here, required checks first, open asks."""
        try:
            data = view_of(parse_pid(passport_id))
        except TaskPackError as exc:  # a bad argument: the protocol's invalid-params error
            raise MCPError(INVALID_PARAMS, views.line(str(exc)) or "") from None
        return render(briefing(data), fit(data))  # within the same budget as a result

    @server.resource(
        "taskpack://skill",
        mime_type="text/markdown",
        title="How to use TaskPack",
        description="When to pack and land, flat vs zip, the trust boundary, "
        "required checks first, answering asks, receipts",
    )
    def skill_resource() -> str:
        return skill_text()

    @server.resource(
        "taskpack://passport/{id}{?cursor}",
        mime_type="application/json",
        title="A passport",
        description="One passport as taskpack_open returns it, a page at a time (`page` says "
        "what is shown; add ?cursor=<page.next_cursor> for the next); written text is under "
        "sender_wrote",
    )
    def passport_resource(id: str, cursor: str | None = None) -> str:
        try:
            data = view_of(parse_pid(id), cursor)
        except TaskPackError as exc:
            raise ResourceNotFoundError(views.line(str(exc)) or "") from None
        return json.dumps(fit(data), ensure_ascii=False, indent=1)
