"""The agents' verbs: the MCP server and the outbox ledger.

    taskpack mcp                                  serve this desk to an AI agent over stdio (MCP)
    taskpack mcp --print-config claude|codex|cursor|gemini
                                                  the configuration snippet for that harness
    taskpack mcp --print-skill                    the skill file (SKILL.md) for a harness
    taskpack outbox [--passport ID] [--show N] [--limit N] [--json]
                                                  every pack this desk wrote: when, what, to whom

`--print-config` only prints: we never edit another program's configuration files.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from taskpack.app.cli.main import EXIT_OK, emit_json, say
from taskpack.core.format import ids
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:
    from taskpack.core.desk.store import PackWritten

HARNESSES = ("claude", "codex", "cursor", "gemini")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve this desk to an AI agent over stdio (Model Context Protocol)",
        description="Serve this desk to an AI agent over stdio (Model Context Protocol). "
        "Everything a pack says is returned as the sender's data; no tool runs anything.",
    )
    p.add_argument(
        "--print-config",
        choices=HARNESSES,
        metavar="HARNESS",
        help=f"print the snippet that registers this server with a harness ({', '.join(HARNESSES)}) "
        "and exit; nothing is edited",
    )
    p.add_argument(
        "--print-skill",
        action="store_true",
        help="print the skill file for agent harnesses (SKILL.md) and exit",
    )
    p.set_defaults(handler=cmd_mcp)

    p = sub.add_parser(
        "outbox",
        help="every pack this desk wrote: when, kind, file, digest, to whom, version",
        description="The outbox ledger: every pack this desk wrote (CLI, window, A2A, MCP), "
        "newest first.",
    )
    p.add_argument("--passport", metavar="ID", help="only the packs of this passport")
    p.add_argument("--show", type=int, metavar="N", help="one entry in full, with its stub")
    p.add_argument("--limit", type=int, metavar="N", help="at most N entries")
    p.add_argument("--json", action="store_true", help="print data as JSON")
    p.set_defaults(handler=cmd_outbox)


def cmd_mcp(args: argparse.Namespace) -> int:
    if args.print_skill:
        from taskpack.app.mcp.config import skill_text

        sys.stdout.write(skill_text())
        return EXIT_OK
    if args.print_config:
        from taskpack.app.mcp.config import snippet

        where, text = snippet(args.print_config)
        sys.stderr.write(f"{where}\n")
        sys.stdout.write(text)
        return EXIT_OK
    from taskpack.app.mcp.server import serve

    serve()
    return EXIT_OK


def cmd_outbox(args: argparse.Namespace) -> int:
    from taskpack.app.desk import Desk

    with Desk.open() as desk:
        if args.show is not None:
            entry = desk.sent(args.show)
            if args.json:
                emit_json(entry.to_data())
            else:
                _say_entry(entry, full=True)
            return EXIT_OK
        pid = ids.parse_id(args.passport) if args.passport else None
        entries = desk.outbox(passport_id=pid, limit=args.limit)
    if args.json:
        emit_json([e.to_data() for e in entries])
        return EXIT_OK
    if not entries:
        say("The outbox is empty: no pack has been written on this desk yet.")
        return EXIT_OK
    for e in entries:
        _say_entry(e, full=False)
    return EXIT_OK


def _say_entry(e: PackWritten, *, full: bool) -> None:
    to = f"  to {visible(e.to)}" if e.to else ""
    via = f"  via {e.via}" if e.via else ""
    say(
        f"#{e.seq}  {e.written_at}  {e.passport_id} v{e.version}  {e.kind}  "
        f"{e.encoding or '?'}{to}{via}"
    )
    size = f"{e.size} bytes, " if e.size is not None else ""
    file_sha = f", file sha256 {e.file_sha256[:16]}…" if e.file_sha256 else ""
    say(
        f"    {visible(e.path or '(file not recorded)')}  ({size}content {e.sha256[:16]}…{file_sha})"
    )
    if e.asks:
        say(f"    asks sent: {', '.join(visible(a) for a in e.asks)}")
    if not full:
        return
    stub = e.stub or {}
    if not stub:
        say("    (packed before the ledger kept stubs)")
        return
    say("    As packed (a stub; `taskpack open ID --version N` shows that version whole):")
    say(f"      Title: {visible(stub.get('title'))}")
    say(f"      Goal:  {visible(stub.get('goal'))}")
    if stub.get("current_state"):
        say(f"      Now:   {visible(stub.get('current_state'))}")
    facts = stub.get("facts") or []
    if facts:
        say(f"      Facts ({stub.get('facts_total', len(facts))}):")
        for f in facts:
            mark = "✓" if f.get("verified") else "·"
            say(f"        {mark} [{visible(f.get('scope'))}] {visible(f.get('claim'))}")
    for a in stub.get("asks") or []:
        say(
            f"      Ask {visible(a.get('id'))} [{visible(a.get('status') or 'open')}] "
            f"{visible(a.get('what'))}  (accept: {visible(a.get('accept'))})"
        )
    for c in stub.get("landing_checks") or []:
        kind = "required" if c.get("required") else "optional"
        say(f"      Check {visible(c.get('id'))} ({kind}): {visible(c.get('check'))}")
    if stub.get("note"):
        say(f"      Note: «{visible(stub.get('note'))}»")
