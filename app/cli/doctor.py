"""`taskpack doctor`: is this desk's store whole, and bring back a backup if it is not.

    taskpack doctor [--json]          check everything; exit 0 whole, 1 damaged
    taskpack doctor --restore         put the newest sound backup back (damaged file kept)
    taskpack doctor --sweep           also remove stored bytes nothing points at any more

The check reads the database read-only (SQLite's full integrity check, the foreign keys,
every luggage blob's sha256), so it works on a store too damaged to open and writes
nothing when it finds damage. On a whole store it also sweeps what crashes left behind
and takes the daily backup when due.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, emit_json, say, warn
from taskpack.core.errors import UsageError

if TYPE_CHECKING:  # imported when the verb runs: every other verb starts without sqlite3
    from taskpack.core.desk import health


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "doctor",
        help="check the store (database and every luggage blob); restore a backup",
        description="Check this desk's store: SQLite's integrity check, references, and "
        "every luggage blob against its sha256. Exit 0 when whole, 1 when damaged (then "
        "nothing is written). --restore puts the newest sound backup in place of the "
        "database and keeps the damaged file beside it; close TaskPack Desk windows first.",
    )
    p.add_argument("--restore", action="store_true", help="bring back the newest sound backup")
    p.add_argument(
        "--force", action="store_true", help="with --restore: replace a store that is whole, too"
    )
    p.add_argument(
        "--sweep",
        action="store_true",
        help="remove unused luggage blobs and old receipts (untouched for 15 minutes)",
    )
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(handler=cmd_doctor)


def _diagnose(home: Path) -> health.Diagnosis:
    from taskpack.core.desk import health
    from taskpack.core.desk.blob_folder import blob_path

    return health.diagnose(home, blob_path=lambda sha: blob_path(home, sha))


def cmd_doctor(args: argparse.Namespace) -> int:
    from taskpack.app import paths
    from taskpack.core.desk import health
    from taskpack.core.errors import StoreError

    home = paths.home()
    team = _team_store(home)
    if team is not None:
        from taskpack.app.cli.team_doctor import team_doctor

        return team_doctor(team, as_json=args.json, restore=args.restore, sweep=args.sweep)
    found = _diagnose(home)
    if args.restore:
        if not found.damaged and not args.force:
            say(
                f"The store at {home} is whole; nothing to restore "
                "(add --force to replace it with the newest backup anyway)."
            )
            return EXIT_OK
        done = health.restore(home, error=StoreError)
        say(
            f"Restored the backup of {health.describe_backup(done.backup)}: "
            f"{done.passports} passport(s)."
        )
        if done.damaged_kept_as is not None:
            say(f"The previous database is kept as {done.damaged_kept_as}.")
        say("Changes made after that backup are not in it; luggage blobs were not touched.")
        after = _diagnose(home)
        return EXIT_OK if not after.damaged else EXIT_ERROR
    done_now: list[str] = []
    if not found.damaged and found.db_path.exists():
        from taskpack.app.desk import Desk

        with Desk.open(home) as desk:
            done_now = desk.housekeep()
        found.backups = health.backups(home)
        if args.sweep and found.unused:
            done_now.append(_sweep(found))
    elif args.sweep and found.damaged:
        raise UsageError(
            "the store is damaged, so nothing is swept",
            hint="Restore a backup first (taskpack doctor --restore).",
        )
    if args.json:
        emit_json(
            {
                "store": str(found.db_path),
                "whole": not found.damaged,
                "problems": found.problems,
                "passports": found.passports,
                "blobs_checked": found.blobs_checked,
                "leftovers": found.leftovers,
                "leftover_bytes": found.leftover_bytes,
                "backups": [str(b) for b in found.backups],
                "unused": [{"kind": u.kind, "name": u.name, "size": u.size} for u in found.unused],
                "done": done_now,
            }
        )
        return EXIT_ERROR if found.damaged else EXIT_OK
    if found.damaged:
        warn(f"The store at {found.db_path} is damaged:")
        for problem in found.problems[:20]:
            warn(f"  - {problem}")
        if len(found.problems) > 20:
            warn(f"  … and {len(found.problems) - 20} more")
        warn("Nothing was changed.")
        if found.backups:
            warn(
                "To bring back the backup of "
                f"{health.describe_backup(found.backups[0])}: taskpack doctor --restore"
            )
        else:
            warn(
                "There is no backup yet: keep a copy of the file, then move it aside to "
                "start an empty desk."
            )
        return EXIT_ERROR
    if not found.db_path.exists():
        say(f"There is no store at {home} yet; it is made the first time you use the desk.")
        return EXIT_OK
    say(
        f"The store at {found.db_path} is whole: {found.passports} passport(s), "
        f"{found.blobs_checked} luggage blob(s) checked against their sha256."
    )
    for line in done_now:
        say(f"Also {line}.")
    if found.leftovers and not any("half-written" in d for d in done_now):
        say(
            f"{found.leftovers} half-written luggage file(s) belong to a landing still "
            "in progress (or younger than 15 minutes) and were left alone."
        )
    if found.unused and not args.sweep:
        size = sum(u.size for u in found.unused)
        say(
            f"{len(found.unused)} stored file(s) or row(s) ({size:,} bytes) are used by "
            "nothing: luggage of landings that failed or was replaced, old receipts. "
            "`taskpack doctor --sweep` removes them."
        )
    if found.backups:
        say(
            f"Newest backup: {health.describe_backup(found.backups[0])} "
            f"({len(found.backups)} kept)."
        )
    return EXIT_OK


def _sweep(found: health.Diagnosis) -> str:
    import sqlite3

    from taskpack.core.desk.store_audit import SWEEP_AFTER, sweep

    db = sqlite3.connect(found.db_path, timeout=30.0)
    try:
        gone = sweep(db, found.db_path.parent)
    finally:
        db.close()
    left = len(found.unused) - len(gone)
    young = f"; {left} younger than {SWEEP_AFTER / 60:.0f} minutes were left alone" if left else ""
    return (
        f"removed {len(gone)} unused stored file(s) or row(s) "
        f"({sum(u.size for u in gone):,} bytes){young}"
    )


def _team_store(home: Path) -> str | None:
    from taskpack.app.settings import Settings
    from taskpack.app.team.choose import store_url

    return store_url(Settings.load(home).store)
