"""``a2a.sqlite3``: what the A2A binding must remember beyond the passport store.

The passport store (``store.sqlite3``) belongs to the desk and has its own migrations;
this binding keeps its few tables in a small database of its own in the same home, so
that a desk without the A2A server never carries them and neither schema can block the
other. Tables:

* ``tokens``    — the non-secret token index: name, kind (``accept``: a peer uses it
  against this desk; ``remote``: this desk uses it against a peer), sha256 of the
  token. The secrets live in the system keyring (:mod:`.tokens`).
* ``tasks``     — which principal may see which task (a passport id): every task is
  scoped to its principal; another principal's task id is "not found".
* ``contexts``  — the contexts a principal owns, one per lineage root (§5: contextId ↔
  lineage.chain). A foreign or unknown contextId never joins local work.
* ``messages``  — the idempotency record: ``(principal, messageId)`` → digest of the
  message and the Task it produced. Kept as long as the task (forever, passports are
  never deleted), so a retry always gets its prior Task.
* ``receipts``  — the receipt published as a task's artifact (file under ``a2a/``).
* ``sent``      — the client side: packs this desk sent to other desks, so a receipt
  can be fetched and merged into the passport that asked; ``peer`` is the principal
  (an accept token's name) that may instead *push* that receipt to this endpoint — the
  only one whose receipt over A2A may merge into that passport.

Every change is one transaction; the two databases are never written in one, and the
order of writes makes a crash harmless: the desk lands first (idempotent on the pack's
content digest), the dedupe record is written after — a retry after a crash lands the
same pack onto the same passport and records it then.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taskpack.app.ledger_rules import (
    DIR_NAME,
    MESSAGE_COLUMNS,
    RECEIPT_COLUMNS,
    SENT_COLUMNS,
    TASK_COLUMNS,
    TOKEN_COLUMNS,
    A2AStoreError,
    Conflict,
    Ledger,
    LedgerRules,
    MessageRecord,
    ReceiptRow,
    SentRow,
    TaskGrant,
    TokenRow,
    new_context_id,
    task_of_message,
    token_taken,
)
from taskpack.core.desk.sql_dialect import SQLITE
from taskpack.core.desk.sqlite_db import Migration, open_database, transaction
from taskpack.core.desk.writer_queue import WriterQueue

__all__ = [
    "DB_NAME",
    "DIR_NAME",
    "MESSAGE_COLUMNS",
    "RECEIPT_COLUMNS",
    "SENT_COLUMNS",
    "TASK_COLUMNS",
    "TOKEN_COLUMNS",
    "A2AStore",
    "A2AStoreError",
    "Conflict",
    "Ledger",
    "MessageRecord",
    "ReceiptRow",
    "SentRow",
    "TaskGrant",
    "TokenRow",
    "new_context_id",
    "open_ledger",
    "task_of_message",
    "token_taken",
]

DB_NAME = "a2a.sqlite3"

_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "meta, tokens, contexts, tasks, messages, receipts, sent",
        (
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
            """CREATE TABLE tokens (
                kind        TEXT NOT NULL CHECK (kind IN ('accept', 'remote')),
                name        TEXT NOT NULL,
                sha256      TEXT NOT NULL,
                url         TEXT,
                created_at  TEXT NOT NULL,
                PRIMARY KEY (kind, name)
            ) WITHOUT ROWID""",
            "CREATE UNIQUE INDEX tokens_accept_hash ON tokens(sha256) WHERE kind = 'accept'",
            """CREATE TABLE contexts (
                principal   TEXT NOT NULL,
                context_id  TEXT NOT NULL,
                root_id     TEXT,
                created_at  TEXT NOT NULL,
                PRIMARY KEY (principal, context_id)
            ) WITHOUT ROWID""",
            "CREATE UNIQUE INDEX contexts_root ON contexts(principal, root_id) WHERE root_id IS NOT NULL",
            """CREATE TABLE tasks (
                principal   TEXT NOT NULL,
                task_id     TEXT NOT NULL,
                context_id  TEXT NOT NULL,
                kind        TEXT NOT NULL,     -- 'handoff' landed here | 'receipt' merged here
                created_at  TEXT NOT NULL,
                PRIMARY KEY (principal, task_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX tasks_context ON tasks(principal, context_id)",
            "CREATE INDEX tasks_task ON tasks(task_id)",
            """CREATE TABLE messages (
                principal   TEXT NOT NULL,
                message_id  TEXT NOT NULL,
                digest      TEXT NOT NULL,     -- sha256 of the message without its messageId
                task_id     TEXT NOT NULL,
                created_at  TEXT NOT NULL,
                PRIMARY KEY (principal, message_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE receipts (
                task_id         TEXT PRIMARY KEY,
                key             TEXT NOT NULL,   -- what the receipt answered (asks, state)
                version         INTEGER,
                content_digest  TEXT,
                file            TEXT,            -- relative to the a2a folder
                size            INTEGER,
                error           TEXT,            -- the receipt could not be packed: why
                published_at    TEXT NOT NULL,
                seq             INTEGER NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE sent (
                seq             INTEGER PRIMARY KEY AUTOINCREMENT,
                url             TEXT NOT NULL,
                remote_task_id  TEXT NOT NULL,
                context_id      TEXT,
                message_id      TEXT NOT NULL,
                pack_sha256     TEXT NOT NULL,
                local_passport  TEXT,
                kind            TEXT NOT NULL,
                token_name      TEXT,
                sent_at         TEXT NOT NULL,
                receipt_digest  TEXT,
                merged_at       TEXT,
                UNIQUE (url, remote_task_id)
            )""",
        ),
    ),
    Migration(
        2,
        "sent.peer: the principal here that may push this handoff's receipt back",
        (
            "ALTER TABLE sent ADD COLUMN peer TEXT",
            "CREATE INDEX sent_peer ON sent(local_passport, peer)",
        ),
    ),
)


class A2AStore(LedgerRules):
    """The binding's database in `home`. Thread-safe (one connection behind a lock); its
    queries and rules are :class:`~taskpack.app.ledger_rules.LedgerRules`."""

    sql = SQLITE
    duplicate = (sqlite3.IntegrityError,)
    #: in the write turn, which is this process's alone (BEGIN IMMEDIATE)
    next_receipt_seq = "SELECT coalesce(max(seq), 0) + 1 FROM {receipts}"

    def __init__(self, home: Path, *, timeout: float = 30.0) -> None:
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        self.dir = self.home / DIR_NAME
        self.dir.mkdir(exist_ok=True)
        self.path = self.home / DB_NAME
        self._lock = threading.RLock()
        self._writers = WriterQueue(self.path, timeout=timeout)  # other processes' writers
        self._db = open_database(
            self.path,
            timeout=timeout,
            migrations=_MIGRATIONS,
            error=A2AStoreError,
            what=f"the A2A database at {self.path}",
            versions_in_message=False,
            then=self._mint_desk_id,
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._writers.close()

    def __enter__(self) -> A2AStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _mint_desk_id(self, db: sqlite3.Connection) -> None:
        with transaction(db, self._lock):
            row = db.execute("SELECT value FROM meta WHERE key = 'desk_id'").fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO meta (key, value) VALUES ('desk_id', ?)", (secrets.token_hex(8),)
                )

    def _tx(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return transaction(self._db, self._lock, self._writers)

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self._lock:
            return self._db.execute(sql, args).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()


def open_ledger(home: Path, settings_store: str | None = None) -> Ledger:
    """The binding's ledger for the desk at `home`: ``a2a.sqlite3`` there, or the team
    desk's tables when TASKPACK_STORE (or the settings' `store`) names one."""
    from taskpack.app.team.choose import store_url

    url = store_url(settings_store)
    if url is None:
        return A2AStore(home)
    from taskpack.app.team.a2a_ledger import PgLedger

    return PgLedger(url, home)


def _is_a_ledger(ledger: A2AStore) -> Ledger:
    """Never called: a type checker sees here that the embedded ledger keeps the protocol."""
    return ledger
