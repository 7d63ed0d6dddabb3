"""Verbs for the work once it has landed, as the agents' tools do it.

    taskpack confirm ID CHECK          a landing check confirmed here (nothing is run)
    taskpack save-luggage ID FOLDER    the luggage written inside FOLDER, nothing overwritten

A check is named by its id, or by the ``#`` handle `open --json` / the agents' tools give
one whose id is not plain (:mod:`taskpack.app.mcp.refs`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.cli.boundary import name
from taskpack.app.cli.main import EXIT_OK, emit_json, say, warn
from taskpack.app.cli.passports import _add_json, _pid, _verb
from taskpack.core.errors import UsageError

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

Verb = Callable[..., argparse.ArgumentParser]


def register(verb: Verb) -> None:
    p = verb("confirm", cmd_confirm, "mark a landing check done here, after you confirmed it")
    p.add_argument("id")
    p.add_argument("check", help="the check's id (or its #handle)")
    _add_json(p)

    p = verb("save-luggage", cmd_save_luggage, "write a passport's luggage into a folder")
    p.add_argument("id")
    p.add_argument("folder", type=Path, help="a folder that exists; nothing is overwritten")
    _add_json(p)


@_verb
def cmd_confirm(args: argparse.Namespace, desk: Desk) -> int:
    from taskpack.app.mcp import refs

    pid = _pid(args.id)
    checks = desk.get(pid).landing_checks or []
    raw = refs.resolve(args.check, (c.id for c in checks), "landing check", pid)
    lp = desk.check_landing_here(pid, raw)
    left = sum(1 for c in lp.landing_checks or [] if c.is_required and c.checked_on != desk.machine)
    if args.json:
        emit_json({"passport": lp.id, "version": lp.version, "required_left": left})
    else:
        say(
            f"{lp.id} v{lp.version}: landing check {refs.ref(raw)} confirmed on {desk.machine}; "
            f"{left} required check(s) left."
        )
    return EXIT_OK


@_verb
def cmd_save_luggage(args: argparse.Namespace, desk: Desk) -> int:
    from taskpack.app.mcp.work_tools import save_luggage

    pid = _pid(args.id)
    if not args.folder.is_dir():
        raise UsageError(
            f"the folder {args.folder} does not exist; nothing was written",
            hint="Give a folder that exists (none is created here).",
        )
    saved, skipped = save_luggage(desk, pid, args.folder)
    if args.json:
        emit_json({"passport": pid, "saved": saved, "skipped": skipped})
        return EXIT_OK
    for item in saved:
        say(f"saved {name(item['sender_wrote']['name'])} ({item['size']} bytes)")
    for item in skipped:
        warn(f"skipped {name(item['sender_wrote']['name'])}: {item['reason']}")
    say(f"{pid}: {len(saved)} luggage file(s) saved into {args.folder}; {len(skipped)} skipped.")
    return EXIT_OK
