"""`taskpack store grant ROLE…`: make database roles members (or admins) of a team desk.
Above the schema it checks and the roles module whose rights it applies, so that neither
reaches up to it."""

from __future__ import annotations

import psycopg
from psycopg import sql
from taskpack.core.errors import StoreError

from .connect import connect, problem
from .roles import _exists, group_names, regrant
from .schema import LATEST, LOCK_KEY, version_of
from .url import describe


def grant(url: str, roles: list[str], *, admin: bool) -> tuple[str, list[str]]:
    """Make `roles` members (and admins with `admin`) of the desk at `url`; returns the
    group role they joined and the roles that were not members before."""
    with connect(url, autocommit=True) as conn:
        try:
            if version_of(conn, url) < LATEST:
                raise StoreError(
                    f"{describe(url)} has no up-to-date team desk schema",
                    hint="Run `taskpack store init` first (as the role that owns the desk).",
                )
            missing = [r for r in roles if not _exists(conn, r)]
            if missing:
                raise StoreError(
                    f"{describe(url)} has no role {', '.join(missing)}",
                    hint='Make it first: psql -c "CREATE ROLE NAME LOGIN"; nothing was changed.',
                )
            member, admin_role = group_names(conn)
            group = admin_role if admin else member
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
                for name in (member, admin_role):
                    if not _exists(conn, name):
                        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(name)))
                regrant(conn)
                joined = []
                for role in roles:
                    already = conn.execute(
                        "SELECT pg_has_role(%s, %s, 'MEMBER')", (role, group)
                    ).fetchone()
                    if not (already and already[0]):
                        joined.append(role)
                    conn.execute(
                        sql.SQL("GRANT {} TO {}").format(
                            sql.Identifier(group), sql.Identifier(role)
                        )
                    )
            return group, joined
        except psycopg.Error as exc:
            raise problem(url, exc) from None
