"""The tools for doing the work once it has landed: confirm a landing check, move or
finish the task, return a result, read its history, attach files and save its luggage.

Each is what the window (or the CLI's verb of the same name) does, over the same
:class:`~taskpack.app.desk.Desk`; each answer keeps the desk's words apart from what a
sender wrote (:mod:`.boundary`), and an ask or a check is named by its `ref`
(:mod:`.refs`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, Field
from taskpack.app.desk import Desk
from taskpack.app.mcp import models as m
from taskpack.app.mcp import refs, views
from taskpack.app.mcp.boundary import clean, line
from taskpack.app.mcp.inputs import ExpectedVersion, PassportId, parse_path, parse_pid
from taskpack.app.mcp.results import READ_ONLY, respond
from taskpack.app.mcp.results import writes as _writes
from taskpack.core.desk import lifecycle
from taskpack.core.desk.history_words import english_detail
from taskpack.core.errors import UsageError
from taskpack.core.trust.plain_words import is_plain_name, is_plain_token

Changed = Callable[..., tuple[str, dict[str, Any]]]


class EvidenceIn(BaseModel):
    kind: Literal[tuple(lifecycle.EVIDENCE_KINDS)]  # type: ignore[valid-type]
    summary: str = Field(description="what it shows, in one line")
    url: str | None = Field(None, description="where to see it, if anywhere")


def _history_entry(e: Any) -> dict[str, Any]:
    """A history row: its event, version and time are the desk's; of its detail, the
    plain values (ids, counts, states) are the desk's words and the rest (a note, a file
    name, a sender's id) the sender's."""
    mine: dict[str, Any] = {}
    theirs: dict[str, Any] = {}
    for key, value in english_detail(e.detail).items():
        plain = (
            value is None
            or isinstance(value, bool | int | float)
            or is_plain_token(value)
            or (isinstance(value, list) and all(is_plain_token(v) for v in value))
        )
        (mine if plain else theirs)[str(key)] = value
    return {
        "seq": e.seq,
        "version": e.version,
        "event": e.event,
        "at": e.at,
        "who": views.token(e.who),
        "detail": mine,
        "sender_wrote": {"detail": clean(theirs)},
    }


def register(
    server: MCPServer[Any], desk: Desk, changed: Changed, view_of: Callable[[str], dict[str, Any]]
) -> None:
    @server.tool(annotations=_writes())
    def taskpack_confirm_check(
        id: PassportId,
        check: Annotated[
            str, Field(description="the landing check's `ref` from taskpack_open (id or #handle)")
        ],
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Mark a landing check done on this machine, after you confirmed it here yourself
        (nothing is run). It records a fact verified here; `required_checks` drops by one."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            checks = desk.get(pid).landing_checks or []
            raw = refs.resolve(check, (c.id for c in checks), "landing check", pid)
            desk.check_landing_here(pid, raw)
            left = view_of(pid)["counts"]["required_checks"]
            return changed(
                pid,
                f"landing check {refs.ref(raw)} confirmed here; {left} required check(s) left",
                changed=["landing_checks", "facts"],
                check_id=refs.ref(raw),
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_move(
        id: PassportId,
        state: Annotated[
            Literal[tuple(lifecycle.STATES)],  # type: ignore[valid-type]
            Field(description="the lifecycle state to move to (see allowed_moves)"),
        ],
        waiting_on: Annotated[
            Literal[tuple(lifecycle.WAITING_ON)] | None,  # type: ignore[valid-type]
            Field(description="with state `waiting`: who it waits on"),
        ] = None,
        why: Annotated[
            str | None, Field(description="why, in your words (kept in the history)")
        ] = None,
        expected_version: ExpectedVersion = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Move the task in its lifecycle (finish it: `completed`; drop it: `cancelled`). A move
        the table does not allow is refused, changing nothing; `completed` needs a result."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            lp = desk.move(pid, state, waiting_on, why=why, expected_version=expected_version)
            return changed(lp.id, f"moved to {lifecycle.describe(lp.state, lp.waiting_on)}")

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_result(
        id: PassportId,
        summary: Annotated[str, Field(description="what was done, in one or two sentences")],
        evidence: Annotated[
            list[EvidenceIn], Field(min_length=1, description="what shows it is done")
        ],
        expected_version: ExpectedVersion = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Return a result with its evidence: the task moves working → verifying, where the
        owner (or you, asked to) completes it with taskpack_move."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            items = [e.model_dump(exclude_none=True) for e in evidence]
            lp = desk.return_result(pid, summary, items, expected_version=expected_version)
            return changed(lp.id, "result returned; now verifying", changed=["result"])

        return respond(run)

    @server.tool(annotations=READ_ONLY)
    def taskpack_history(
        id: PassportId,
        limit: Annotated[int, Field(ge=1, le=500, description="at most this many")] = 50,
        offset: Annotated[int, Field(ge=0, description="skip this many, oldest first")] = 0,
    ) -> Annotated[CallToolResult, m.HistoryOut]:
        """Every change to a passport, oldest first: what happened, at which version, when."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            rows = desk.history(pid)
            page = [_history_entry(e) for e in rows[offset : offset + limit]]
            # fewer entries than `limit` when they are large: next_offset reads on
            data = {"id": pid, **views.page(len(rows), offset, page, "entries")}
            shown = len(data["entries"])
            return f"{shown} of {len(rows)} history entries of {pid}, oldest first.", data

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_attach(
        id: PassportId,
        files: Annotated[
            list[str], Field(min_length=1, description="files or folders to keep as luggage")
        ],
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Keep files as the passport's luggage: they travel with every later pack. Symlinks
        and special files in a folder are left out (said in `warnings`)."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            skipped: list[str] = []
            stored = desk.attach(pid, [parse_path(f) for f in files], skipped=skipped)
            return changed(
                pid,
                f"{len(stored)} luggage file(s) kept",
                changed=["luggage"],
                warnings=[views.line(f"left out: {s}") for s in skipped],
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_save_luggage(
        id: PassportId,
        folder: Annotated[str, Field(description="a folder that exists; files go only inside it")],
    ) -> Annotated[CallToolResult, m.SavedOut]:
        """Save the passport's luggage into a folder, each file under its name there. Nothing
        is written outside the folder and no file is overwritten (those are `skipped`)."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            target = parse_path(folder)
            if not target.is_dir():
                raise UsageError(
                    f"the folder {target} does not exist; nothing was written",
                    hint="Give a folder that exists (none is created here).",
                )
            saved, skipped = save_luggage(desk, pid, target)
            return (
                f"Saved {len(saved)} luggage file(s) of {pid} into {target}; "
                f"{len(skipped)} skipped.",
                {"id": pid, "folder": line(str(target)), "saved": saved, "skipped": skipped},
            )

        return respond(run)


def save_luggage(
    desk: Desk, pid: str, folder: Path
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each luggage file of `pid` written under its name inside `folder`: a name that would
    leave the folder, or a file already there, is skipped with the reason."""
    from taskpack.app.luggage_out import write_inside

    saved: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for item in desk.luggage(pid):
        with desk.open_luggage(pid, item.name) as src:
            path, why = write_inside(folder, item.name, src)
        said = {"name": line(item.name) or ""}
        if path is None:
            skipped.append({"reason": why, "sender_wrote": said})
        else:
            # the path holds the sender's name: the desk says it only when it is a plain one
            plain = is_plain_name(item.name)
            saved.append(
                {
                    "path": line(str(path)) if plain else views.WITHHELD,
                    "size": item.size,
                    "sha256": item.sha256,
                    "sender_wrote": {**said, "path": line(str(path))},
                }
            )
    return saved, skipped
