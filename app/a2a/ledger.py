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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taskpack.core.desk.sqlite_db import Migration, open_database, transaction
from taskpack.core.desk.store import utc_now
from taskpack.core.desk.writer_queue import WriterQueue
from taskpack.core.errors import TaskPackError

DB_NAME = "a2a.sqlite3"
#: files this binding keeps (published receipts, incoming packs being landed)
DIR_NAME = "a2a"

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


class A2AStoreError(TaskPackError):
    hint = "Close other TaskPack Desk processes, or point TASKPACK_HOME at another folder."


@dataclass(frozen=True)
class TokenRow:
    kind: str
    name: str
    sha256: str
    url: str | None
    created_at: str


@dataclass(frozen=True)
class TaskGrant:
    principal: str
    task_id: str
    context_id: str
    kind: str
    created_at: str


@dataclass(frozen=True)
class MessageRecord:
    principal: str
    message_id: str
    digest: str
    task_id: str


@dataclass(frozen=True)
class ReceiptRow:
    task_id: str
    key: str
    version: int | None
    content_digest: str | None
    file: str | None
    size: int | None
    error: str | None
    published_at: str
    seq: int


@dataclass(frozen=True)
class SentRow:
    seq: int
    url: str
    remote_task_id: str
    context_id: str | None
    message_id: str
    pack_sha256: str
    local_passport: str | None
    kind: str
    token_name: str | None
    sent_at: str
    receipt_digest: str | None
    merged_at: str | None
    peer: str | None


class Conflict(Exception):
    """The same (principal, messageId) was recorded with another digest."""

    def __init__(self, prior: MessageRecord) -> None:
        super().__init__(prior.message_id)
        self.prior = prior


# --- the rules both ledgers keep (this one and the team desk's, app/team/a2a_ledger) ---

#: the columns each record is read from, in the order of its fields
TOKEN_COLUMNS = "kind, name, sha256, url, created_at"
TASK_COLUMNS = "principal, task_id, context_id, kind, created_at"
MESSAGE_COLUMNS = "principal, message_id, digest, task_id"
RECEIPT_COLUMNS = "task_id, key, version, content_digest, file, size, error, published_at, seq"
SENT_COLUMNS = (
    "seq, url, remote_task_id, context_id, message_id, pack_sha256, local_passport, kind, "
    "token_name, sent_at, receipt_digest, merged_at, peer"
)


def task_of_message(prior: MessageRecord, digest: str) -> str:
    """Idempotency on (principal, messageId): the same message sent again is the task it
    made the first time; the same id with other bytes is a :class:`Conflict`."""
    if prior.digest != digest:
        raise Conflict(prior)
    return prior.task_id


def new_context_id() -> str:
    return f"ctx-{secrets.token_hex(10)}"


def token_taken(name: str) -> A2AStoreError:
    return A2AStoreError(
        f"a token named {name!r} already exists",
        hint=f"Revoke it first with `taskpack token revoke {name}`, or pick another name.",
    )


class A2AStore:
    """The binding's database in `home`. Thread-safe (one connection behind a lock)."""

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

    @property
    def desk_id(self) -> str:
        """A random id for this home, minted once: keeps keyring entries of two desks apart."""
        return str(self._one("SELECT value FROM meta WHERE key = 'desk_id'")[0])

    # -- tokens ----------------------------------------------------------------------

    def add_token(self, kind: str, name: str, sha256: str, url: str | None = None) -> TokenRow:
        now = utc_now()
        try:
            with self._tx() as db:
                db.execute(
                    "INSERT INTO tokens (kind, name, sha256, url, created_at) VALUES (?,?,?,?,?)",
                    (kind, name, sha256, url, now),
                )
        except sqlite3.IntegrityError:
            raise token_taken(name) from None
        return TokenRow(kind, name, sha256, url, now)

    def tokens(self) -> list[TokenRow]:
        return [
            TokenRow(*r)
            for r in self._all(f"SELECT {TOKEN_COLUMNS} FROM tokens ORDER BY kind, name")
        ]

    def token(self, kind: str, name: str) -> TokenRow | None:
        row = self._one(
            f"SELECT {TOKEN_COLUMNS} FROM tokens WHERE kind = ? AND name = ?",
            (kind, name),
        )
        return None if row is None else TokenRow(*row)

    def remove_token(self, kind: str, name: str) -> bool:
        with self._tx() as db:
            cur = db.execute("DELETE FROM tokens WHERE kind = ? AND name = ?", (kind, name))
            return cur.rowcount > 0

    def principal_for_hash(self, sha256: str) -> str | None:
        """The principal an incoming bearer token (by its sha256) stands for, if any."""
        row = self._one("SELECT name FROM tokens WHERE kind = 'accept' AND sha256 = ?", (sha256,))
        return None if row is None else str(row[0])

    def remote_token_for_url(self, url: str) -> TokenRow | None:
        row = self._one(
            f"SELECT {TOKEN_COLUMNS} FROM tokens WHERE kind = 'remote' "
            "AND url = ? ORDER BY created_at DESC LIMIT 1",
            (url.rstrip("/"),),
        )
        return None if row is None else TokenRow(*row)

    # -- idempotency -----------------------------------------------------------------

    def message(self, principal: str, message_id: str) -> MessageRecord | None:
        row = self._one(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE principal = ? AND message_id = ?",
            (principal, message_id),
        )
        return None if row is None else MessageRecord(*row)

    def complete(
        self,
        principal: str,
        message_id: str,
        digest: str,
        task_id: str,
        *,
        kind: str,
        requested_context: str | None,
        root_id: str | None,
    ) -> tuple[MessageRecord, TaskGrant]:
        """Record a message's outcome and the principal's task, in one transaction.

        Raises :class:`Conflict` when the message id was recorded first with another digest
        (two processes raced); returns the prior record when it carried the same digest.
        """
        now = utc_now()
        with self._tx() as db:
            row = db.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE principal = ? AND message_id = ?",
                (principal, message_id),
            ).fetchone()
            if row is not None:
                task_id = task_of_message(MessageRecord(*row), digest)
            else:
                db.execute(
                    "INSERT INTO messages (principal, message_id, digest, task_id, created_at) "
                    "VALUES (?,?,?,?,?)",
                    (principal, message_id, digest, task_id, now),
                )
            grant = self._grant(db, principal, task_id, kind, requested_context, root_id, now)
        return MessageRecord(principal, message_id, digest, task_id), grant

    def _grant(
        self,
        db: sqlite3.Connection,
        principal: str,
        task_id: str,
        kind: str,
        requested_context: str | None,
        root_id: str | None,
        now: str,
    ) -> TaskGrant:
        row = db.execute(
            f"SELECT {TASK_COLUMNS} FROM tasks WHERE principal = ? AND task_id = ?",
            (principal, task_id),
        ).fetchone()
        if row is not None:
            return TaskGrant(*row)
        context_id = self._context(db, principal, requested_context, root_id, now)
        db.execute(
            "INSERT INTO tasks (principal, task_id, context_id, kind, created_at) VALUES (?,?,?,?,?)",
            (principal, task_id, context_id, kind, now),
        )
        return TaskGrant(principal, task_id, context_id, kind, now)

    @staticmethod
    def _context(
        db: sqlite3.Connection, principal: str, requested: str | None, root_id: str | None, now: str
    ) -> str:
        """The context a new task joins: the caller's own `requested` context if it owns it;
        else the principal's context for this lineage root; else a fresh one. A context id
        the principal does not own (another's, or made up) never joins anything."""
        if root_id:  # a pack's text: a lone surrogate in it is kept as its escape (SQLite
            # takes UTF-8 only)
            root_id = root_id.encode("utf-8", "backslashreplace").decode("utf-8")
        if requested:
            owned = db.execute(
                "SELECT 1 FROM contexts WHERE principal = ? AND context_id = ?",
                (principal, requested),
            ).fetchone()
            if owned:
                return requested
        if root_id:
            row = db.execute(
                "SELECT context_id FROM contexts WHERE principal = ? AND root_id = ?",
                (principal, root_id),
            ).fetchone()
            if row:
                return str(row[0])
        context_id = new_context_id()
        db.execute(
            "INSERT INTO contexts (principal, context_id, root_id, created_at) VALUES (?,?,?,?)",
            (principal, context_id, root_id, now),
        )
        return context_id

    # -- tasks -----------------------------------------------------------------------

    def grant(self, principal: str, task_id: str) -> TaskGrant | None:
        row = self._one(
            f"SELECT {TASK_COLUMNS} FROM tasks WHERE principal = ? AND task_id = ?",
            (principal, task_id),
        )
        return None if row is None else TaskGrant(*row)

    def grants(self, principal: str, *, context_id: str | None = None) -> list[TaskGrant]:
        sql = f"SELECT {TASK_COLUMNS} FROM tasks WHERE principal = ?"
        args: list[Any] = [principal]
        if context_id is not None:
            sql += " AND context_id = ?"
            args.append(context_id)
        return [TaskGrant(*r) for r in self._all(sql, args)]

    def a2a_task_ids(self, kind: str | None = None) -> set[str]:
        """Every passport id some principal sees as a task (of `kind`, if given)."""
        if kind is None:
            return {r[0] for r in self._all("SELECT DISTINCT task_id FROM tasks")}
        return {
            r[0] for r in self._all("SELECT DISTINCT task_id FROM tasks WHERE kind = ?", (kind,))
        }

    # -- receipts --------------------------------------------------------------------

    def receipt(self, task_id: str) -> ReceiptRow | None:
        row = self._one(
            f"SELECT {RECEIPT_COLUMNS} FROM receipts WHERE task_id = ?",
            (task_id,),
        )
        return None if row is None else ReceiptRow(*row)

    def save_receipt(
        self,
        task_id: str,
        key: str,
        *,
        version: int | None = None,
        content_digest: str | None = None,
        file: str | None = None,
        size: int | None = None,
        error: str | None = None,
    ) -> ReceiptRow:
        now = utc_now()
        with self._tx() as db:
            seq = int(db.execute("SELECT coalesce(max(seq), 0) + 1 FROM receipts").fetchone()[0])
            db.execute(
                "INSERT OR REPLACE INTO receipts (task_id, key, version, content_digest, file, "
                "size, error, published_at, seq) VALUES (?,?,?,?,?,?,?,?,?)",
                (task_id, key, version, content_digest, file, size, error, now, seq),
            )
        return ReceiptRow(task_id, key, version, content_digest, file, size, error, now, seq)

    # -- the client side -------------------------------------------------------------

    def record_sent(
        self,
        *,
        url: str,
        remote_task_id: str,
        context_id: str | None,
        message_id: str,
        pack_sha256: str,
        local_passport: str | None,
        kind: str,
        token_name: str | None,
        peer: str | None = None,
    ) -> SentRow:
        now = utc_now()
        with self._tx() as db:
            db.execute(
                "INSERT INTO sent (url, remote_task_id, context_id, message_id, pack_sha256, "
                "local_passport, kind, token_name, sent_at, peer) VALUES (?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (url, remote_task_id) DO UPDATE SET context_id = excluded.context_id, "
                "message_id = excluded.message_id, token_name = excluded.token_name, "
                "peer = coalesce(excluded.peer, sent.peer)",
                (
                    url,
                    remote_task_id,
                    context_id,
                    message_id,
                    pack_sha256,
                    local_passport,
                    kind,
                    token_name,
                    now,
                    peer,
                ),
            )
        row = self.sent_task(url, remote_task_id)
        if row is None:  # written in the transaction above; only a broken database loses it
            raise A2AStoreError(f"the record of the send to {url} was not kept")
        return row

    _SENT = f"SELECT {SENT_COLUMNS} FROM sent"

    def sent_task(self, url: str, remote_task_id: str) -> SentRow | None:
        row = self._one(f"{self._SENT} WHERE url = ? AND remote_task_id = ?", (url, remote_task_id))
        return None if row is None else SentRow(*row)

    def sent(
        self,
        *,
        local_passport: str | None = None,
        remote_task_id: str | None = None,
        pending_only: bool = False,
    ) -> list[SentRow]:
        sql = f"{self._SENT} WHERE 1=1"
        args: list[Any] = []
        if local_passport is not None:
            sql += " AND local_passport = ?"
            args.append(local_passport)
        if remote_task_id is not None:
            sql += " AND remote_task_id = ?"
            args.append(remote_task_id)
        if pending_only:
            sql += " AND merged_at IS NULL AND kind = 'handoff'"
        return [SentRow(*r) for r in self._all(sql + " ORDER BY seq", args)]

    def sent_to(self, principal: str, passport_id: str) -> bool:
        """Did this desk send a handoff of `passport_id` over A2A to `principal`?

        The one way, besides owning the task, that a receipt pushed to this endpoint by
        `principal` may merge into that passport (docs/a2a.md, "Receiving a pack")."""
        row = self._one(
            "SELECT 1 FROM sent WHERE local_passport = ? AND peer = ? AND kind = 'handoff' LIMIT 1",
            (passport_id, principal),
        )
        return row is not None

    def mark_merged(self, seq: int, receipt_digest: str) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE sent SET receipt_digest = ?, merged_at = ? WHERE seq = ?",
                (receipt_digest, utc_now(), seq),
            )


def open_ledger(home: Path, settings_store: str | None = None) -> A2AStore:
    """The binding's ledger for the desk at `home`: ``a2a.sqlite3`` there, or the team
    desk's tables when TASKPACK_STORE (or the settings' `store`) names one."""
    from taskpack.app.team.choose import store_url

    url = store_url(settings_store)
    if url is None:
        return A2AStore(home)
    from taskpack.app.team.a2a_ledger import PgLedger

    return PgLedger(url, home)  # type: ignore[return-value]
