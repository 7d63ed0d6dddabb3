"""The team desk's schema, as versioned migrations in the database's ``taskpack`` schema.

``taskpack.meta`` says whose the tables are (``app = taskpack-desk``) and how many
migrations have run (``schema``). :func:`init` applies the missing ones in one
transaction under ``pg_advisory_xact_lock``, so two starters at once do it once, and
running it twice changes nothing. APPEND a migration for a change; never edit one that
has shipped. A database holding another program's tables, or a schema newer than this
desk knows, is refused and left untouched.
"""

from __future__ import annotations

from typing import Any

import psycopg
from taskpack.core.errors import StoreError

from .connect import connect, problem
from .roles import regrant
from .url import describe

APP = "taskpack-desk"
#: the advisory lock key every migration takes (any fixed 64-bit number)
LOCK_KEY = 0x7461736B7061636B  # "taskpack"

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (
        1,
        "passports, versions, history (with who), luggage and its chunked blobs, the outbox "
        "ledger, landings",
        (
            "CREATE SCHEMA IF NOT EXISTS taskpack",
            "CREATE TABLE taskpack.meta (key text PRIMARY KEY, value text NOT NULL)",
            """CREATE TABLE taskpack.passports (
                id          text PRIMARY KEY,
                version     integer NOT NULL,
                title       text,
                state       text NOT NULL,
                waiting_on  text,
                root_id     text,
                came_from   text,
                open_asks   integer NOT NULL DEFAULT 0,
                created_at  text NOT NULL,
                updated_at  text NOT NULL,
                taken_by    text,                 -- who took the task on (name@machine)
                data        text NOT NULL         -- the LocalPassport at `version`, as JSON
            )""",
            "CREATE INDEX passports_updated ON taskpack.passports (updated_at DESC, id)",
            "CREATE INDEX passports_root ON taskpack.passports (root_id)",
            "CREATE INDEX passports_taken ON taskpack.passports (taken_by)",
            """CREATE TABLE taskpack.versions (
                passport_id text NOT NULL REFERENCES taskpack.passports (id),
                version     integer NOT NULL,
                data        text NOT NULL,
                PRIMARY KEY (passport_id, version)
            )""",
            """CREATE TABLE taskpack.history (
                seq         bigserial PRIMARY KEY,
                passport_id text NOT NULL REFERENCES taskpack.passports (id),
                version     integer NOT NULL,
                event       text NOT NULL,
                at          text NOT NULL,
                detail      text NOT NULL DEFAULT '{}',
                who         text                  -- the person and machine: name@machine
            )""",
            "CREATE INDEX history_passport ON taskpack.history (passport_id, seq)",
            """CREATE TABLE taskpack.blobs (
                sha256      text PRIMARY KEY,
                size        bigint NOT NULL,
                chunks      integer NOT NULL,
                stored_at   timestamptz NOT NULL DEFAULT now()
            )""",
            """CREATE TABLE taskpack.blob_chunks (
                sha256      text NOT NULL REFERENCES taskpack.blobs (sha256),
                n           integer NOT NULL,
                data        bytea NOT NULL,
                PRIMARY KEY (sha256, n)
            )""",
            # the bytes are compressed already (or not worth it): stored out of line, as is
            "ALTER TABLE taskpack.blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL",
            """CREATE TABLE taskpack.luggage (
                seq         bigserial PRIMARY KEY,
                passport_id text NOT NULL REFERENCES taskpack.passports (id),
                name        text NOT NULL,
                sha256      text NOT NULL REFERENCES taskpack.blobs (sha256),
                size        bigint NOT NULL,
                added_at    text NOT NULL,
                UNIQUE (passport_id, name)
            )""",
            """CREATE TABLE taskpack.packs_written (
                seq         bigserial PRIMARY KEY,
                sha256      text NOT NULL,
                passport_id text NOT NULL REFERENCES taskpack.passports (id),
                version     integer NOT NULL,
                kind        text NOT NULL,
                written_at  text NOT NULL,
                asks        text NOT NULL DEFAULT '[]',
                encoding    text,
                path        text,
                file_sha256 text,
                size        bigint,
                to_whom     text,
                via         text,
                stub        text NOT NULL DEFAULT '{}'
            )""",
            "CREATE INDEX packs_written_sha ON taskpack.packs_written (sha256)",
            "CREATE INDEX packs_written_passport ON taskpack.packs_written (passport_id, seq)",
            """CREATE TABLE taskpack.landings (
                pack_sha256 text PRIMARY KEY,
                passport_id text NOT NULL REFERENCES taskpack.passports (id),
                kind        text NOT NULL,
                landed_at   text NOT NULL,
                data        text NOT NULL
            )""",
            "CREATE INDEX landings_passport ON taskpack.landings (passport_id, landed_at)",
        ),
    ),
    (
        2,
        "the A2A binding: tokens (hashes only), contexts, tasks, messages (idempotency), "
        "receipts, sent",
        (
            """CREATE TABLE taskpack.a2a_tokens (
                kind        text NOT NULL CHECK (kind IN ('accept', 'remote')),
                name        text NOT NULL,
                sha256      text NOT NULL,
                url         text,
                created_at  text NOT NULL,
                PRIMARY KEY (kind, name)
            )""",
            "CREATE UNIQUE INDEX a2a_tokens_accept_hash ON taskpack.a2a_tokens (sha256) "
            "WHERE kind = 'accept'",
            """CREATE TABLE taskpack.a2a_contexts (
                principal   text NOT NULL,
                context_id  text NOT NULL,
                root_id     text,
                created_at  text NOT NULL,
                PRIMARY KEY (principal, context_id)
            )""",
            "CREATE UNIQUE INDEX a2a_contexts_root ON taskpack.a2a_contexts (principal, root_id) "
            "WHERE root_id IS NOT NULL",
            """CREATE TABLE taskpack.a2a_tasks (
                principal   text NOT NULL,
                task_id     text NOT NULL,
                context_id  text NOT NULL,
                kind        text NOT NULL,
                created_at  text NOT NULL,
                PRIMARY KEY (principal, task_id)
            )""",
            "CREATE INDEX a2a_tasks_context ON taskpack.a2a_tasks (principal, context_id)",
            "CREATE INDEX a2a_tasks_task ON taskpack.a2a_tasks (task_id)",
            """CREATE TABLE taskpack.a2a_messages (
                principal   text NOT NULL,
                message_id  text NOT NULL,
                digest      text NOT NULL,
                task_id     text NOT NULL,
                created_at  text NOT NULL,
                PRIMARY KEY (principal, message_id)
            )""",
            "CREATE SEQUENCE taskpack.a2a_receipts_seq",
            """CREATE TABLE taskpack.a2a_receipts (
                task_id         text PRIMARY KEY,
                key             text NOT NULL,
                version         integer,
                content_digest  text,
                file            text,
                size            bigint,
                error           text,
                published_at    text NOT NULL,
                seq             bigint NOT NULL
            )""",
            """CREATE TABLE taskpack.a2a_sent (
                seq             bigserial PRIMARY KEY,
                url             text NOT NULL,
                remote_task_id  text NOT NULL,
                context_id      text,
                message_id      text NOT NULL,
                pack_sha256     text NOT NULL,
                local_passport  text,
                kind            text NOT NULL,
                token_name      text,
                sent_at         text NOT NULL,
                receipt_digest  text,
                merged_at       text,
                peer            text,
                UNIQUE (url, remote_task_id)
            )""",
            "CREATE INDEX a2a_sent_peer ON taskpack.a2a_sent (local_passport, peer)",
            "INSERT INTO taskpack.meta (key, value) VALUES ('desk_id', "
            "substr(md5(random()::text || clock_timestamp()::text), 1, 16))",
        ),
    ),
    (
        3,
        "history names the database role that wrote each row (set by the server)",
        (
            "ALTER TABLE taskpack.history ADD COLUMN role text",
            """CREATE FUNCTION taskpack.history_role() RETURNS trigger LANGUAGE plpgsql AS $f$
            BEGIN
                NEW.role := session_user;  -- who signed in, whatever the client says
                RETURN NEW;
            END $f$""",
            "CREATE TRIGGER history_role BEFORE INSERT OR UPDATE ON taskpack.history "
            "FOR EACH ROW EXECUTE FUNCTION taskpack.history_role()",
        ),
    ),
)
LATEST = max(m[0] for m in MIGRATIONS)


def version_of(conn: psycopg.Connection[Any], url: str) -> int:
    """The schema version the database holds (0: none yet). Raises StoreError for a
    database of another program, or one made by a newer TaskPack Desk."""
    row = conn.execute("SELECT to_regclass('taskpack.meta')").fetchone()
    if row is None or row[0] is None:
        # the desk keeps to its own schema: tables in `taskpack` it did not make, or in
        # `public` (where a program keeps its tables), say the database is another's;
        # a schema of its own (an audit log kept by the organisation) is not our business
        others = conn.execute(
            "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname IN ('taskpack', 'public') "
            "AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
        ).fetchone()
        if others is not None and int(others[0]) > 0:
            raise StoreError(
                f"{describe(url)} holds another program's tables, not a team desk",
                hint="Point TASKPACK_STORE at a database of its own (createdb); "
                "nothing was written.",
            )
        return 0
    meta = dict(conn.execute("SELECT key, value FROM taskpack.meta").fetchall())
    if meta.get("app") != APP:
        raise StoreError(
            f"{describe(url)} holds another program's taskpack tables, not a team desk",
            hint="Point TASKPACK_STORE at a database of its own; nothing was written.",
        )
    version = int(meta.get("schema", "0"))
    if version > LATEST:
        raise StoreError(
            f"{describe(url)} was made by a newer TaskPack Desk (schema {version}, this one "
            f"knows {LATEST})",
            hint="Update TaskPack Desk on this machine; nothing was changed.",
        )
    return version


def init(url: str) -> tuple[int, int]:
    """Create or migrate the schema; returns (version before, version after). Safe to run
    twice and from two processes at once (one advisory lock, one transaction)."""
    # a migration may rewrite a large table: no statement limit here
    with connect(url, autocommit=True, options="-c statement_timeout=0") as conn:
        try:
            before = version_of(conn, url)
            if before == LATEST:
                return before, before
            # wait for any other starter first, so that the transaction below begins after
            # its migration committed and sees its tables
            conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
            try:
                return _migrate(conn, url)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
        except psycopg.Error as exc:
            raise problem(url, exc) from None


def _migrate(conn: psycopg.Connection[Any], url: str) -> tuple[int, int]:
    """(version found under the lock, version now): a starter that waited for another
    finds the work done and says so."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        current = version_of(conn, url)  # again, under the lock
        if current < LATEST:
            for number, _name, statements in MIGRATIONS:
                if number <= current:
                    continue
                for statement in statements:
                    conn.execute(statement)
            conn.execute(
                "INSERT INTO taskpack.meta (key, value) VALUES ('app', %s), ('schema', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (APP, str(LATEST)),
            )
            regrant(conn)  # members keep their rights on what this migration made
    return current, LATEST


def require_current(conn: psycopg.Connection[Any], url: str) -> None:
    """StoreError unless the schema is this desk's and up to date (opening never migrates)."""
    version = version_of(conn, url)
    if version < LATEST:
        raise StoreError(
            f"{describe(url)} has no team desk schema yet"
            if version == 0
            else f"{describe(url)} has schema {version}; this desk needs {LATEST}",
            hint="Run `taskpack store init` once; nothing was written.",
        )
