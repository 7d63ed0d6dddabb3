"""`taskpack mcp`: this desk served to an AI agent over stdio, on the official MCP SDK.

Twelve tools, one prompt and one resource template, all over the same
:class:`~taskpack.app.desk.Desk` the window and the CLI use (one store: an agent's change
is the window's change). Every tool has a JSON input schema, an output schema, structured
output and annotations; every answer keeps the desk's words apart from what a sender
wrote (:mod:`.boundary`).

* A failure the caller or the file is at fault for is a tool error (``isError``) whose
  text is the one sentence the CLI prints; its structured part says the kind and, for a
  refusal, each finding's kind and place — never the secret.
* A bug in a tool is the SDK's generic tool error ("Error executing tool …"), logged on
  stderr; the server lives on.
* `taskpack_pack`, `taskpack_land` and `taskpack_show` report MCP progress and stop when
  the request is cancelled (nothing is written or landed then).
* No tool runs anything from a pack, and none takes a command to run.
"""

from __future__ import annotations

import logging
import os
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult
from pydantic import Field
from taskpack.app.desk import Desk, harness_name
from taskpack.app.mcp import models as m
from taskpack.app.mcp import paging, prompts, refs, reviews, views, work_tools
from taskpack.app.mcp.briefing import INSTRUCTIONS, review_summary
from taskpack.app.mcp.inputs import (
    DecisionIn,
    ExpectedVersion,
    FactIn,
    PackPath,
    PassportId,
    pack_target,
    parse_path,
    parse_pid,
)
from taskpack.app.mcp.results import READ_ONLY, Job, StrictServer, respond
from taskpack.app.mcp.results import writes as _writes
from taskpack.core.desk import lifecycle
from taskpack.core.errors import UsageError
from taskpack.core.format.model import JSON

log = logging.getLogger(__name__)

# --- the server -----------------------------------------------------------------------


def build_server(desk: Desk) -> MCPServer[Any]:
    server: MCPServer[Any] = StrictServer(
        "taskpack-desk",
        title="TaskPack Desk",
        instructions=INSTRUCTIONS,
        version=harness_name().partition("/")[2] or "0",
    )

    def view_of(pid: str, cursor: str | None = None) -> dict[str, Any]:
        """A page of the passport (the first, or the one `cursor` names) within the budget."""
        lp = desk.get(pid)
        moves = [mv.label for mv in desk.allowed_moves(pid)]
        return views.passport_page(desk, lp, desk.luggage(pid), moves, cursor)

    def changed(pid: str, what: str, **extra: Any) -> tuple[str, dict[str, Any]]:
        lp = desk.get(pid)
        data = {
            "id": lp.id,
            "version": lp.version,
            "state": lifecycle.describe(lp.state, lp.waiting_on),
            **extra,
        }
        return f"{lp.id} is now at version {lp.version}: {what}.", data

    # -- reading --

    @server.tool(annotations=READ_ONLY)
    def taskpack_list(
        state: Annotated[
            Literal[tuple(lifecycle.STATES)] | None,  # type: ignore[valid-type]
            Field(description="only passports in this lifecycle state"),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="at most this many")] = 100,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> Annotated[CallToolResult, m.ListOut]:
        """This desk's passports, most recently changed first: id, title, state, open asks, updated."""

        def run() -> tuple[str, dict[str, Any]]:
            rows = desk.passports(state=state, limit=limit, offset=offset)
            total = desk.store.count() if state is None else len(desk.passports(state=state))
            data = views.page(total, offset, [views.summary_view(r) for r in rows], "passports")
            rows = rows[: len(data["passports"])]
            return f"{len(rows)} of {total} passport(s), most recently changed first.", data

        return respond(run)

    @server.tool(annotations=READ_ONLY)
    def taskpack_open(
        id: PassportId,
        cursor: Annotated[
            str | None,
            Field(
                description="a large passport comes in pages: pass the `page.next_cursor` "
                "of the previous answer to read on"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, m.PassportOut]:
        """One passport by exact id: state, facts (scope, verified, verified_on, how each stands
        here), decisions, next steps, asks, landing checks, luggage, lineage and its `version`.
        A large one comes in pages (required landing checks first); `page` says what is shown."""

        def run() -> tuple[str, dict[str, Any]]:
            data = view_of(parse_pid(id), cursor)
            c = data["counts"]
            return (
                f"{data['id']} v{data['version']} ({data['state']}): {c['required_checks']} "
                f"required landing check(s) to confirm here, {c['facts_to_reverify']} fact(s) "
                f"to re-verify, {c['open_asks']} open ask(s).{paging.page_note(data)}",
                data,
            )

        return respond(run)

    # -- authoring --

    @server.tool(annotations=_writes())
    def taskpack_new(
        title: str,
        goal: str,
        current_state: Annotated[str | None, Field(description="where the work stands now")] = None,
        next_steps: list[str] | None = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Start a passport for work you are doing (it starts `working`); returns its id."""

        def run() -> tuple[str, dict[str, Any]]:
            lp = desk.new(title, goal, current_state=current_state)
            if next_steps:
                lp = desk.checkpoint(
                    lp.id,
                    {"next_steps": [s for s in next_steps if s.strip()]},
                    expected_version=lp.version,
                )
            return changed(
                lp.id, "created", changed=["title", "goal"] + (["next_steps"] if next_steps else [])
            )

        return respond(run)

    @server.tool(annotations=_writes(destructive=True))
    def taskpack_checkpoint(
        id: PassportId,
        expected_version: Annotated[
            int,
            Field(
                description="the version you read (taskpack_open); "
                "a stale one is refused, never overwritten"
            ),
        ],
        current_state: str | None = None,
        facts: Annotated[list[FactIn] | None, Field(description="REPLACES every fact")] = None,
        add_facts: Annotated[
            list[FactIn] | None, Field(description="appended to the facts")
        ] = None,
        decisions: Annotated[
            list[DecisionIn] | None, Field(description="REPLACES the decisions")
        ] = None,
        next_steps: Annotated[
            list[str] | None, Field(description="REPLACES the next steps")
        ] = None,
        artifacts: Annotated[list[str] | None, Field(description="REPLACES the artifacts")] = None,
        learnings: Annotated[list[str] | None, Field(description="REPLACES the learnings")] = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Save your task state. Each field given replaces that field; fields left out stay.
        A verified fact you add is recorded as verified on this machine, by this desk."""

        def fact(f: FactIn) -> dict[str, JSON]:
            out: dict[str, JSON] = {
                "claim": f.claim.strip(),
                "scope": f.scope,
                "verified": f.verified,
            }
            if f.verified:
                out["verified_by"] = desk.actor
                if f.scope == "machine":
                    out["verified_on"] = desk.machine
            if f.source:
                out["source"] = f.source
            return out

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            state: dict[str, JSON] = {}
            if current_state is not None:
                state["current_state"] = current_state
            if facts is not None or add_facts:
                base = (
                    [fact(f) for f in facts]
                    if facts is not None
                    else [f.to_data() for f in desk.get(pid).passport.facts or []]
                )
                state["facts"] = base + [fact(f) for f in add_facts or []]
            if decisions is not None:
                state["decisions"] = [{"what": d.what, "why": d.why} for d in decisions]
            for key, value in (
                ("next_steps", next_steps),
                ("artifacts", artifacts),
                ("learnings", learnings),
            ):
                if value is not None:
                    state[key] = list(value)
            if not state:
                raise UsageError("a checkpoint needs at least one field to save")
            lp = desk.checkpoint(pid, state, expected_version=expected_version)
            history = desk.history(pid)
            done = history[-1].detail.get("changed") if history else None
            return changed(
                lp.id,
                "checkpoint saved",
                changed=[str(x) for x in done] if isinstance(done, list) else sorted(state),
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_ask(
        id: PassportId,
        what: Annotated[str, Field(description="the question")],
        accept: Annotated[
            str, Field(description="what would count as an answer, e.g. 'a number in euros'")
        ],
        why: str | None = None,
        to: Annotated[str | None, Field(description="who should answer (default: peer)")] = None,
        expected_version: ExpectedVersion = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Add a question for whoever receives the next handoff. `accept` is required."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            lp = desk.add_ask(pid, what, accept, why=why, to=to, expected_version=expected_version)
            ask = (lp.asks or [])[-1]
            warnings = desk.ask_warnings(ask)
            return changed(
                pid,
                f"ask {ask.id} added",
                changed=["asks"],
                ask_id=ask.id,
                warnings=[views.line(w) for w in warnings],
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_check(
        id: PassportId,
        check: Annotated[str, Field(description="what must be true on the receiver's machine")],
        how: Annotated[
            str | None,
            Field(
                description="your suggestion of how to confirm it; the receiver "
                "is shown it as your suggestion and nothing runs it"
            ),
        ] = None,
        required: bool = True,
        expected_version: ExpectedVersion = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Add a landing check the receiver of the next pack must confirm first."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            lp = desk.add_check(
                pid, check, how=how, required=required, expected_version=expected_version
            )
            sent = lp.checks_to_send or []
            cid = sent[-1].id if sent else None
            return changed(
                pid, f"landing check {cid} added", changed=["checks_to_send"], check_id=cid
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_answer(
        id: PassportId,
        ask_id: Annotated[
            str, Field(description="the ask's `ref` from taskpack_open: its id (a1) or #handle")
        ],
        answer: Annotated[
            str, Field(description="your answer, judged against the ask's accept")
        ] = "",
        drop: Annotated[
            bool, Field(description="mark the ask dropped instead of answering")
        ] = False,
        expected_version: ExpectedVersion = None,
    ) -> Annotated[CallToolResult, m.ChangedOut]:
        """Answer an ask (or drop it). It goes home in a receipt (taskpack_pack kind=receipt)."""

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            status = "dropped" if drop else "answered"
            raw = refs.resolve(ask_id, (a.id for a in desk.get(pid).asks or []), "ask", pid)
            desk.answer(pid, raw, answer, status=status, expected_version=expected_version)
            return changed(
                pid,
                f"ask {refs.ref(raw)} {status}; send it home with a receipt",
                changed=["asks"],
                ask_id=refs.ref(raw),
            )

        return respond(run)

    @server.tool(annotations=_writes())
    def taskpack_take(id: PassportId) -> Annotated[CallToolResult, m.ChangedOut]:
        """Take a task on (you own it and do it): approve, accept, start it; now `working`."""
        return respond(lambda: changed(desk.take_on(parse_pid(id)).id, "taken on, now working"))

    # -- packing and landing --

    @server.tool(annotations=_writes())
    def taskpack_pack(
        id: PassportId,
        out: Annotated[
            str,
            Field(
                description="the file to write: *.taskpack (bagit-zip) or "
                "*.taskpack.json (flat); an existing file is never overwritten"
            ),
        ],
        ctx: Context[Any, Any],
        kind: Literal["handoff", "receipt"] = "handoff",
        encoding: Annotated[
            Literal["bagit-zip", "flat"] | None,
            Field(description="must agree with the file name; default: from it"),
        ] = None,
        files: Annotated[
            list[str] | None, Field(description="files or folders to carry in this pack")
        ] = None,
        note: Annotated[str | None, Field(description="one line for the receiver")] = None,
        to: Annotated[
            str | None, Field(description="who it is for (kept in the outbox ledger)")
        ] = None,
    ) -> Annotated[CallToolResult, m.PackOut]:
        """Write a handoff or a receipt through the refusal and sealing rules. A credential, a
        transcript, an instruction field or an ask without accept is refused (kind and place named)."""
        job = Job(ctx, "packing")

        def run() -> tuple[str, dict[str, Any]]:
            pid = parse_pid(id)
            path = pack_target(out, encoding)
            outcome = desk.pack(
                pid,
                path,
                kind=kind,
                files=files or [],
                note=note,
                to=to,
                via="mcp",
                progress=job.progress,
                cancel=job.cancelled,
            )
            entry = desk.outbox(passport_id=pid, limit=1)
            data = {
                "path": str(outcome.path),
                "kind": outcome.kind,
                "encoding": views.wire_encoding(outcome.encoding),
                "size": outcome.size,
                "content_digest": outcome.content_digest,
                "passport_id": outcome.passport_id,
                "version": outcome.version,
                "current_version": desk.get(pid).version,
                "asks_sent": [refs.ref(a) or "" for a in outcome.asks_sent],
                "sealed": [views.line(s) for s in outcome.sealed],
                "warnings": [views.line(w) for w in outcome.warnings],
                "moved_to": outcome.moved_to,
                "outbox_entry": entry[0].seq if entry else None,
                "to": views.line(to),
            }
            return (
                f"Wrote {outcome.path} ({outcome.kind}, {data['encoding']}, {outcome.size} bytes) "
                f"from {pid} v{outcome.version}; {pid} is now at version "
                f"{data['current_version']} (pass that as expected_version).",
                data,
            )

        return respond(run)

    @server.tool(annotations=READ_ONLY)
    def taskpack_show(
        path: PackPath,
        ctx: Context[Any, Any],
        cursor: Annotated[
            str | None,
            Field(description="a large pack's review comes in pages: pass `page.next_cursor`"),
        ] = None,
    ) -> Annotated[CallToolResult, m.ReviewOut]:
        """Review a pack file as the window shows it, landing nothing: required checks first,
        sealed facts, asks, imperative sentences found, conformance (C0–C10). A large pack's
        review comes in pages; `page` says what is shown."""
        job = Job(ctx, "reviewing")

        def run() -> tuple[str, dict[str, Any]]:
            p = parse_path(path)
            # two passes over the luggage (the review, then the judge): one progress, 0 to 100%
            rv = desk.review(p, progress=job.phase(0, 2), cancel=job.cancelled)
            data = reviews.review_page(desk, reviews.unrefused(rv), cursor)
            report = desk.judge(p, progress=job.phase(1, 2), cancel=job.cancelled)
            job.progress(1, 1)
            data["conformance"] = {
                "conformant": report.conformant,
                "failed": [
                    views.conformance_check(c.id, c.ok, c.requirement, list(c.reasons))
                    for c in report.checks
                    if c.ok is False
                ],
            }
            return review_summary(data, "Reviewed (nothing landed)") + paging.page_note(
                data, "pack"
            ), data

        return respond(run)

    @server.tool(annotations=_writes(destructive=True, idempotent=True))
    def taskpack_land(
        path: PackPath,
        ctx: Context[Any, Any],
        dry_run: Annotated[
            bool, Field(description="say what would happen; change nothing")
        ] = False,
        into: Annotated[
            str | None, Field(description="a receipt: the passport that asked (TP-…)")
        ] = None,
    ) -> Annotated[CallToolResult, m.LandOut]:
        """Land a handoff as a new passport, or merge a receipt `into` the passport that asked.
        The same pack lands once. Nothing in it is run. A receipt's answer replaces an answer
        the ask already had (`replaced` names those asks): dry_run first says which."""
        job = Job(ctx, "landing")

        def run() -> tuple[str, dict[str, Any]]:
            p = parse_path(path)
            target = parse_pid(into) if into else None
            if dry_run:
                rv = reviews.unrefused(desk.review(p, into=target))
                if target and rv.refusal is not None:  # the desk's merge-target rule
                    raise rv.refusal  # (error_result withholds what the pack chose in it)
                review = reviews.review_page(desk, rv)
                data = {
                    "action": "dry_run",
                    "passport_id": rv.already,
                    "already": bool(rv.already),
                    "counts": review["counts"],
                    "review": review,
                }
                said = review_summary(review, "Dry run (nothing landed)")
                return said + paging.page_note(review, "pack", "taskpack_show"), data
            if target:
                before = {a.id: a.answer for a in desk.get(target).asks or [] if a.answer}
                merged = desk.merge_receipt(p, target, progress=job.progress, cancel=job.cancelled)
                replaced = [
                    refs.ref(a.id) or ""
                    for a in merged.passport.asks or []
                    if a.id in before and a.answer != before[a.id]
                ]
                after = view_of(merged.id)
                data = {
                    "action": "merged",
                    "passport_id": merged.id,
                    "already": merged.already,
                    "version": merged.passport.version,
                    "state": after["state"],
                    "counts": after["counts"],
                    "answered": [refs.ref(a) or "" for a in merged.answered],
                    "replaced": replaced,
                    "adopted": views.adopted_view(merged.adopted),
                    "facts_added": merged.facts_added,
                    "moved_to": merged.moved_to,
                    "review": reviews.review_page(desk, merged.review),
                }
                if merged.already:
                    return f"Already merged into {merged.id}; nothing changed.", data
                again = (
                    f" It REPLACED the earlier answer(s) to {', '.join(replaced)}."
                    if replaced
                    else ""
                )
                return (
                    f"Merged into {merged.id} (now v{merged.passport.version}): answered "
                    f"{', '.join(data['answered']) or 'none'}.{again}",
                    data,
                )
            landed = desk.land(p, progress=job.progress, cancel=job.cancelled)
            after = view_of(landed.id)
            data = {
                "action": "landed",
                "passport_id": landed.id,
                "already": landed.already,
                "version": landed.passport.version,
                "state": after["state"],
                "counts": after["counts"],
                "review": reviews.review_page(desk, landed.review),
            }
            c = after["counts"]
            head = (
                f"Already landed as {landed.id}; nothing changed."
                if landed.already
                else f"Landed as a new passport {landed.id} ({after['state']})."
            )
            return (
                f"{head} Confirm {c['required_checks']} required landing check(s) here first; "
                f"{c['facts_to_reverify']} fact(s) to re-verify; {c['open_asks']} open ask(s)."
                f"{paging.page_note(after)}",
                data,
            )

        return respond(run)

    @server.tool(annotations=READ_ONLY)
    def taskpack_conformance(path: PackPath) -> Annotated[CallToolResult, m.ConformanceOut]:
        """Judge a pack file strictly against TaskPack 0.1 (checks C0–C10)."""

        def run() -> tuple[str, dict[str, Any]]:
            report = desk.judge(parse_path(path))
            data = report.to_data()
            data["path"] = views.line(data["path"])
            data["checks"] = [
                views.conformance_check(c["id"], c["ok"], c["requirement"], c["reasons"])
                for c in data["checks"]
            ]
            verdict = (
                "conformant"
                if report.conformant
                else f"NOT conformant (failed: {', '.join(report.failed())})"
            )
            return f"{data['passed']}/{data['total']} checks pass: {verdict}.", data

        return respond(run)

    @server.tool(annotations=READ_ONLY)
    def taskpack_outbox(
        passport_id: Annotated[str | None, Field(description="only this passport's packs")] = None,
        entry: Annotated[int | None, Field(description="one entry by its number")] = None,
        limit: Annotated[int, Field(ge=1, le=1000)] = 50,
    ) -> Annotated[CallToolResult, m.OutboxOut]:
        """The outbox ledger: every pack this desk wrote (CLI, window, A2A, MCP), newest first —
        when, kind, encoding, file and digests, to whom, the version and a stub of it as packed."""

        def run() -> tuple[str, dict[str, Any]]:
            if entry is not None:
                rows = [desk.sent(entry)]
            else:
                rows = desk.outbox(
                    passport_id=parse_pid(passport_id) if passport_id else None, limit=limit
                )
            return f"{len(rows)} outbox entr{'y' if len(rows) == 1 else 'ies'}, newest first.", {
                "entries": [views.outbox_view(e) for e in rows]
            }

        return respond(run)

    work_tools.register(server, desk, changed, view_of)

    prompts.register(server, view_of)

    return server


def serve() -> None:
    """Run the server on stdin/stdout until the client closes it."""
    logging.basicConfig(level=os.environ.get("TASKPACK_MCP_LOG", "WARNING"))
    desk = Desk.open()
    try:
        build_server(desk).run("stdio")
    finally:
        desk.close()
