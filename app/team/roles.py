"""Who may do what on a team desk, as PostgreSQL roles (the command that makes members is
:mod:`.members`: ``taskpack store grant``).

Two group roles per desk database, named after it (database ``taskpack``:
``taskpack_member`` and ``taskpack_admin``), made on first use:

* a **member** reads and writes the desk: passports, their history (append only: no
  member rewrites who did what), luggage, the outbox, A2A tasks and messages, and the
  tokens it uses to reach other desks (``kind = 'remote'``). A member sees everything
  on the desk: it is one shared inbox;
* an **admin** is a member who may also mint and revoke the tokens peers present to this
  desk (``kind = 'accept'``): whoever holds that right can stand in for any peer, so a
  member cannot — a trigger refuses it, whatever grants a table has.

Default privileges on the schema owner's new tables, and a grant again after every
migration, keep both roles' rights across upgrades. History rows name the database role
of the session that wrote them (``session_user``, set by a trigger, not by the client).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

#: the tables whose rows only move forward (no member updates or deletes them)
APPEND_ONLY = ("history", "versions")
#: what a member may not change at all
READ_ONLY = ("meta",)


def group_names(conn: psycopg.Connection[Any]) -> tuple[str, str]:
    """(member, admin) group role names for the database `conn` is on."""
    row = conn.execute("SELECT current_database()").fetchone()
    db = str(row[0]) if row else "taskpack"
    return f"{db}_member"[:63], f"{db}_admin"[:63]


def _exists(conn: psycopg.Connection[Any], role: str) -> bool:
    return conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None


def regrant(conn: psycopg.Connection[Any]) -> None:
    """Give the group roles their rights on every table the schema holds now (after a
    migration, or the first `store grant`). Does nothing on a desk without them."""
    member, admin = group_names(conn)
    if not (_exists(conn, member) and _exists(conn, admin)):
        return
    m, a = sql.Identifier(member), sql.Identifier(admin)
    owner_row = conn.execute(
        "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'taskpack'"
    ).fetchone()
    owner = sql.Identifier(str(owner_row[0])) if owner_row else None
    run = conn.execute
    run(sql.SQL("GRANT USAGE ON SCHEMA taskpack TO {}, {}").format(m, a))
    run(sql.SQL("GRANT {} TO {}").format(m, a))  # an admin is a member too
    run(
        sql.SQL(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA taskpack TO {}"
        ).format(m)
    )
    run(sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA taskpack TO {}").format(m))
    for table in APPEND_ONLY:
        run(
            sql.SQL("REVOKE UPDATE, DELETE ON taskpack.{} FROM {}").format(sql.Identifier(table), m)
        )
    for table in READ_ONLY:
        run(
            sql.SQL("REVOKE INSERT, UPDATE, DELETE ON taskpack.{} FROM {}").format(
                sql.Identifier(table), m
            )
        )
    if owner is not None:  # the tables a later migration makes get the same rights
        run(
            sql.SQL(
                "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA taskpack "
                "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}"
            ).format(owner, m)
        )
        run(
            sql.SQL(
                "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA taskpack "
                "GRANT USAGE, SELECT ON SEQUENCES TO {}"
            ).format(owner, m)
        )
    run(
        sql.SQL(
            """CREATE OR REPLACE FUNCTION taskpack.accept_tokens_by_admin() RETURNS trigger
            LANGUAGE plpgsql AS $f$
            BEGIN
                IF (TG_OP <> 'INSERT' AND OLD.kind = 'accept')
                   OR (TG_OP <> 'DELETE' AND NEW.kind = 'accept') THEN
                    IF NOT pg_has_role(session_user, {}, 'USAGE') THEN
                        RAISE EXCEPTION 'only the desk''s admin role mints or revokes the tokens peers present (role % is not one)', session_user
                            USING ERRCODE = 'insufficient_privilege';
                    END IF;
                END IF;
                RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
            END $f$"""
        ).format(sql.Literal(admin))
    )
    run("DROP TRIGGER IF EXISTS accept_tokens_by_admin ON taskpack.a2a_tokens")
    run(
        "CREATE TRIGGER accept_tokens_by_admin BEFORE INSERT OR UPDATE OR DELETE "
        "ON taskpack.a2a_tokens FOR EACH ROW EXECUTE FUNCTION taskpack.accept_tokens_by_admin()"
    )
