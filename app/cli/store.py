"""`taskpack store`: the team desk's schema and moving a desk into one.

    taskpack store init [--url URL]     create or migrate the team desk's schema (safe
                                        twice, safe with two starters at once)
    taskpack store migrate --to URL     copy this machine's desk into a team desk
                                        (digests checked; twice changes nothing)
    taskpack store grant ROLE… [--admin] let database roles use the desk (members; admins
                                        also mint and revoke the tokens peers present)
    taskpack store where                which store this desk uses

URL defaults to TASKPACK_STORE, then the settings' `store` key. The password comes from
libpq's usual places (PGPASSWORD, ~/.pgpass) and is never shown.
"""

from __future__ import annotations

import argparse

from taskpack.app.cli.main import EXIT_OK, say
from taskpack.core.errors import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "store",
        help="the team desk: make its schema, copy this desk into it",
        description="A team desk keeps everything in one PostgreSQL database "
        "(TASKPACK_STORE=postgresql://USER@HOST:PORT/DB). `init` makes or migrates its "
        "schema; `migrate --to URL` copies this machine's desk into it.",
    )
    verbs = p.add_subparsers(dest="store_verb", metavar="STORE_VERB")
    verbs.required = True
    init = verbs.add_parser("init", help="create or migrate the team desk's schema")
    init.add_argument("--url", help="the team desk (default: TASKPACK_STORE or settings)")
    init.set_defaults(handler=cmd_init)
    mig = verbs.add_parser("migrate", help="copy this machine's desk into a team desk")
    mig.add_argument("--to", required=True, metavar="URL", help="the team desk")
    mig.set_defaults(handler=cmd_migrate)
    grant = verbs.add_parser(
        "grant",
        help="let database roles use the team desk (members; --admin: also mint and "
        "revoke the tokens peers present)",
    )
    grant.add_argument("roles", nargs="+", metavar="ROLE", help="login roles (CREATE ROLE … LOGIN)")
    grant.add_argument(
        "--admin", action="store_true", help="admins also mint and revoke A2A accept tokens"
    )
    grant.add_argument("--url", help="the team desk (default: TASKPACK_STORE or settings)")
    grant.set_defaults(handler=cmd_grant)
    where = verbs.add_parser("where", help="say which store this desk uses")
    where.set_defaults(handler=cmd_where)


def _url(given: str | None) -> str:
    from taskpack.app import paths
    from taskpack.app.settings import Settings
    from taskpack.app.team.choose import store_url

    url = given or store_url(Settings.load(paths.home()).store)
    if not url:
        raise UsageError(
            "no team desk is named",
            hint="Pass --url postgresql://USER@HOST:PORT/DB or set TASKPACK_STORE.",
        )
    return url


def cmd_init(args: argparse.Namespace) -> int:
    from taskpack.app.team import schema
    from taskpack.app.team.choose import describe

    url = _url(args.url)
    before, after = schema.init(url)
    if before == after:
        say(f"The schema of {describe(url)} is up to date (version {after}); nothing to do.")
    elif before == 0:
        say(f"Made the team desk schema (version {after}) in {describe(url)}.")
    else:
        say(f"Migrated {describe(url)} from schema {before} to {after}.")
    return EXIT_OK


def cmd_grant(args: argparse.Namespace) -> int:
    from taskpack.app.team.choose import describe
    from taskpack.app.team.members import grant

    url = _url(args.url)
    group, joined = grant(url, list(args.roles), admin=args.admin)
    what = "admins" if args.admin else "members"
    if joined:
        say(f"Made {', '.join(joined)} {what} of {describe(url)} (role {group}).")
    else:
        say(f"{', '.join(args.roles)} were {what} of {describe(url)} already; nothing to do.")
    return EXIT_OK


def cmd_migrate(args: argparse.Namespace) -> int:
    from taskpack.app import paths
    from taskpack.app.a2a.migrate_team import migrate_a2a
    from taskpack.app.team.choose import describe
    from taskpack.app.team.migrate import migrate
    from taskpack.app.team.pg_store import PgStore

    home = paths.home()
    with PgStore(args.to, home=home, who="migrate", listen=False) as team:
        done = migrate(home, team)
    a2a_rows = migrate_a2a(home, args.to)
    say(
        f"Copied {len(done.copied)} passport(s) and {done.blobs} luggage blob(s) from {home} "
        f"into {describe(args.to)}; {len(done.already)} were there already."
    )
    if a2a_rows:
        say(f"Copied {a2a_rows} A2A record(s) (tokens by their hashes, tasks, message ids).")
    if done.copied:
        say(f"Point this desk at it: taskpack settings set store {args.to}")
    return EXIT_OK


def cmd_where(args: argparse.Namespace) -> int:
    from taskpack.app import paths
    from taskpack.app.settings import Settings
    from taskpack.app.team.choose import describe, store_url
    from taskpack.app.team.url import check

    home = paths.home()
    url = store_url(Settings.load(home).store)
    if url:
        check(url)  # a URL libpq cannot read is said in one sentence here too
    say(describe(url) if url else f"the desk on this machine at {home}")
    return EXIT_OK
