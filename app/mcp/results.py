"""What a tool answers: its structured result, or the one sentence of an error.

Every answer goes through here. A success is the summary (with the sender's words between
the markers, :mod:`.boundary`) plus structured content that conforms to the tool's output
schema. A failure the caller or the file is at fault for is ``isError`` with the CLI's one
sentence as its text and no structured content; wrong arguments are one plain sentence
too (:class:`StrictServer`), never pydantic's echo of the input.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import anyio.from_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import ValidationError
from taskpack.app.mcp import views
from taskpack.app.mcp.boundary import fit, render, trim, trim_note
from taskpack.core.errors import MergeRefused, PackError, Refused, TaskPackError

log = logging.getLogger(__name__)

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def writes(*, destructive: bool = False, idempotent: bool = False) -> ToolAnnotations:
    """A tool that changes the desk; `destructive`: it may replace what was there."""
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


#: where an error result keeps its kind, exit code and findings (never a secret)
ERROR_META = "taskpack/error"


def ok(summary: str, data: dict[str, Any]) -> CallToolResult:
    data = fit(data)
    summary = summary.rstrip() + trim_note(trim(data))
    return CallToolResult(
        content=[TextContent(type="text", text=render(summary, data))], structured_content=data
    )


def error_result(exc: BaseException) -> CallToolResult:
    """The CLI's one sentence as a tool error. It carries no structured content (the MCP
    spec: structured content MUST conform to the tool's output schema, and a client that
    checks, as the TypeScript SDK does, would report a protocol failure instead of the
    sentence); kind and place go in the result's `_meta` under :data:`ERROR_META`."""
    if isinstance(exc, TaskPackError):
        # a value a pack chose (lineage target, kind, luggage name) never in the desk's words
        places = [f.place for f in exc.findings] if isinstance(exc, Refused) else []
        sentence, said = views.desk_error(str(exc), exc.params, places)
        detail: dict[str, Any] = {
            "message": sentence,
            "kind": type(exc).__name__,
            "exit_code": 2 if isinstance(exc, Refused | MergeRefused) else 1,
        }
        if said:
            detail["sender_wrote"] = said
        if isinstance(exc, PackError) and exc.place:  # an entry's name is the sender's
            place, theirs = views.desk_error(exc.place, {}, [exc.place])
            detail["place"] = place
            if theirs:
                detail.setdefault("sender_wrote", {})["place"] = views.line(exc.place)
        if isinstance(exc, Refused):
            detail["findings"] = [
                {
                    "rule": f.rule,
                    "kind": f.kind,
                    "place": views.desk_error(f.place, {}, [f.place])[0],
                }
                for f in exc.findings
            ]
    else:  # OSError: the same words the CLI uses
        assert isinstance(exc, OSError)
        target = f": {exc.filename}" if exc.filename else ""
        sentence = f"{exc.strerror or exc}{target}. Check the path and its permissions."
        detail = {"message": sentence, "kind": "OSError", "exit_code": 1}
    return CallToolResult(
        content=[TextContent(type="text", text=views.line(sentence) or "")],
        is_error=True,
        _meta={ERROR_META: detail},
    )


def respond(fn: Callable[[], tuple[str, dict[str, Any]]]) -> CallToolResult:
    try:
        summary, data = fn()
    except (TaskPackError, OSError) as exc:
        return error_result(exc)
    return ok(summary, data)


class Job:
    """Progress notifications for a long tool, and whether its request was cancelled.

    The tool body runs on a worker thread (the SDK runs sync tools that way); both reach
    the event loop through anyio's thread portal. Progress is sent when the percentage
    moves, at most ~10 times a second."""

    #: seconds between two notifications (but the last)
    min_interval = 0.1

    def __init__(self, ctx: Context[Any, Any], what: str) -> None:
        self.ctx, self.what = ctx, what
        self.last_pct, self.last_at = -1, 0.0

    def progress(self, done: int, total: int) -> None:
        pct = int(done * 100 / total) if total > 0 else 0
        now = time.monotonic()
        if pct == self.last_pct or (now - self.last_at < self.min_interval and pct < 100):
            return
        self.last_pct, self.last_at = pct, now
        try:
            anyio.from_thread.run(
                self.ctx.report_progress, float(done), float(total) or None, f"{self.what}: {pct}%"
            )
        except Exception:  # a client that cannot take progress must not break the pack
            log.debug("progress could not be reported", exc_info=True)

    def phase(self, index: int, count: int) -> Callable[[int, int], None]:
        """Progress for pass `index` of `count` passes, as one rising count over all of them."""
        step = 1000

        def report(done: int, total: int) -> None:
            part = min(done * step // total, step) if total > 0 else 0
            self.progress(index * step + part, count * step)

        return report

    def cancelled(self) -> bool:
        try:
            anyio.from_thread.check_cancelled()
        except RuntimeError:  # not on a worker thread (tests calling the body directly)
            return False
        except BaseException as exc:  # the backend's cancellation: the request was cancelled
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            return True
        return False


# --- arguments ------------------------------------------------------------------------

_TYPE_WORDS = {
    "int": "an integer",
    "bool": "true or false",
    "str": "a string",
    "list": "a list",
    "dict": "an object",
    "model": "an object",
    "float": "a number",
    "none": "null",
}


def _expected(kind: str) -> str:
    for word, text in _TYPE_WORDS.items():
        if kind.startswith(word):
            return text
    return "of the type its schema says"


def argument_sentence(tool: str, exc: ValidationError) -> str:
    """One plain sentence for the first thing wrong with a tool's arguments: the
    argument's name and what it must be; never the value given (it is the caller's)."""
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in first["loc"] if not str(p).startswith(("function-", "json-")))
    kind = str(first["type"])
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    name = where or "the arguments"
    if kind == "missing":
        said = f"{tool} needs the argument `{name}`"
    elif kind == "extra_forbidden":
        said = f"{tool} has no argument `{name}`"
    elif kind in ("literal_error", "enum"):
        allowed = first.get("ctx", {}).get("expected", "")
        said = f"`{name}` of {tool} must be one of {allowed}"
    elif kind.endswith("_type") or kind.endswith("_parsing"):
        said = f"`{name}` of {tool} must be {_expected(kind.removesuffix('_type'))}"
    else:
        said = f"`{name}` of {tool} is not valid: {views.line(str(first['msg']))}"
    return f"{said}{more}; see the tool's input schema."


class StrictServer(MCPServer[Any]):
    """The SDK's server, with each tool's arguments checked strictly first: `"5"` is not
    an integer, nor `"true"` a boolean. A mistake is a tool error of one plain sentence
    (:func:`argument_sentence`) instead of the SDK's multi-line validation text."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:  # the protocol's answer to a name it does not serve
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {views.line(name)}")
        if tool is not None:
            try:
                tool.fn_metadata.arg_model.model_validate(arguments, strict=True)
            except ValidationError as exc:
                return CallToolResult(
                    content=[TextContent(type="text", text=argument_sentence(name, exc))],
                    is_error=True,
                    _meta={ERROR_META: {"kind": "UsageError", "exit_code": 1}},
                )
        return await super().call_tool(name, arguments, context)

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        context: Context[Any, Any] | None = None,
    ) -> Any:
        """A prompt's arguments checked first: an unknown prompt, a missing or unknown
        argument, or one that is not a string is the protocol's invalid-params error."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt: {views.line(name)}")
        given = arguments or {}
        declared = {a.name: a for a in prompt.arguments or []}
        missing = [n for n, a in declared.items() if a.required and n not in given]
        if missing:
            raise MCPError(INVALID_PARAMS, f"the prompt {name} needs the argument `{missing[0]}`")
        unknown = [k for k in given if k not in declared]
        if unknown:
            raise MCPError(
                INVALID_PARAMS, f"the prompt {name} has no argument `{views.line(unknown[0])}`"
            )
        for key, value in given.items():
            if not isinstance(value, str):
                raise MCPError(INVALID_PARAMS, f"`{key}` of the prompt {name} must be a string")
        return await super().get_prompt(name, arguments, context)
