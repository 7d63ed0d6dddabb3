"""What `taskpack doctor` says about a team desk (one line when whole, one per problem)."""

from __future__ import annotations

from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, emit_json, say, warn
from taskpack.app.team.choose import describe
from taskpack.core.errors import UsageError


def team_doctor(url: str, *, as_json: bool, restore: bool, sweep: bool = False) -> int:
    from taskpack.app import paths
    from taskpack.app.team import doctor
    from taskpack.app.team.pg_store import PgStore

    if restore:
        raise UsageError(
            f"{describe(url)} is backed up by PostgreSQL, not by this desk",
            hint="Restore a pg_dump backup with pg_restore (see README: Run a team desk).",
        )
    with PgStore(url, home=paths.home(), who="doctor", listen=False) as store:
        found = doctor.problems(store, hash_blobs=True)
        passports, blobs = doctor.blob_count(store)
        if found and sweep:
            raise UsageError(
                f"{describe(url)} is damaged, so nothing is swept",
                hint="Restore the newest pg_dump backup first (README: Run a team desk).",
            )
        unused = [] if found else doctor.unused(store)
        swept = doctor.sweep(store) if sweep and unused else []
    if as_json:
        emit_json(
            {
                "store": describe(url),
                "whole": not found,
                "problems": found,
                "passports": passports,
                "blobs_checked": blobs,
                "unused": [{"kind": "blob", "name": u.sha256, "size": u.size} for u in unused],
                "swept": [u.sha256 for u in swept],
            }
        )
        return EXIT_ERROR if found else EXIT_OK
    if found:
        warn(
            f"{describe(url)} is damaged: {found[0]}"
            + (f" (and {len(found) - 1} more)" if len(found) > 1 else "")
        )
        for problem in found[1:20]:
            warn(f"  - {problem}")
        warn("Nothing was changed. Restore the newest pg_dump backup (README: Run a team desk).")
        return EXIT_ERROR
    say(
        f"{describe(url)} is whole: schema up to date, {passports} passport(s), "
        f"{blobs} luggage blob(s) checked against their sha256."
    )
    size = sum(u.size for u in unused)
    if sweep:
        left = len(unused) - len(swept)
        say(
            f"Removed {len(swept)} unused blob(s) ({sum(u.size for u in swept):,} bytes)"
            + (
                f"; {left} stored in the last {doctor.SWEEP_AFTER} were left alone."
                if left
                else "."
            )
        )
    elif unused:
        say(
            f"{len(unused)} blob(s) ({size:,} bytes) are used by nothing: luggage of landings "
            "that failed or was replaced, old receipts. `taskpack doctor --sweep` removes them."
        )
    return EXIT_OK
