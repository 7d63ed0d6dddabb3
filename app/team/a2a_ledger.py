"""The A2A binding's ledger on a team desk: the same tables as ``a2a.sqlite3``
(:mod:`taskpack.app.a2a.ledger`), in the team desk's database, so several `taskpack
serve` processes share one memory — a token added in one is accepted by another, and
idempotency on (principal, messageId) holds across all of them.

Each race the SQLite ledger settles with its single writer is settled here by a unique
key: the second writer's INSERT waits for the first and then finds its row."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from taskpack.app.a2a.ledger import (
    DIR_NAME,
    MESSAGE_COLUMNS,
    RECEIPT_COLUMNS,
    SENT_COLUMNS,
    TASK_COLUMNS,
    TOKEN_COLUMNS,
    A2AStoreError,
    MessageRecord,
    ReceiptRow,
    SentRow,
    TaskGrant,
    TokenRow,
    new_context_id,
    task_of_message,
    token_taken,
)
from taskpack.core.desk.store import utc_now

from .connect import Pool, spool_dir
from .schema import require_current

_TOKEN = f"SELECT {TOKEN_COLUMNS} FROM taskpack.a2a_tokens"
_TASK = f"SELECT {TASK_COLUMNS} FROM taskpack.a2a_tasks"
_MESSAGE = f"SELECT {MESSAGE_COLUMNS} FROM taskpack.a2a_messages"
_SENT = f"SELECT {SENT_COLUMNS} FROM taskpack.a2a_sent"


class PgLedger:
    """The binding's ledger in the team desk at `url`. Receipts it publishes are kept in
    the store (:mod:`taskpack.app.a2a.receipts`); `home` lends only its spool, for files
    on their way (a receipt being packed, a download being read)."""

    def __init__(self, url: str, home: Path) -> None:
        self.home = Path(home)
        self.dir = spool_dir(self.home) / DIR_NAME
        self.dir.mkdir(parents=True, exist_ok=True)
        self.pool = Pool(url, max_size=2)
        try:
            with self.pool.connection() as conn:
                require_current(conn, url)
        except BaseException:
            self.pool.close()
            raise

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> PgLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self.pool.connection() as conn:
            return conn.execute(sql, tuple(args)).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self.pool.connection() as conn:
            return conn.execute(sql, tuple(args)).fetchall()

    @property
    def desk_id(self) -> str:
        return str(self._one("SELECT value FROM taskpack.meta WHERE key = 'desk_id'")[0])

    # -- tokens --

    def add_token(self, kind: str, name: str, sha256: str, url: str | None = None) -> TokenRow:
        now = utc_now()
        try:
            with self.pool.connection() as conn:
                conn.execute(
                    "INSERT INTO taskpack.a2a_tokens (kind, name, sha256, url, created_at) "
                    "VALUES (%s,%s,%s,%s,%s)",
                    (kind, name, sha256, url, now),
                )
        except (pg_errors.UniqueViolation, A2AStoreError):
            raise token_taken(name) from None
        return TokenRow(kind, name, sha256, url, now)

    def tokens(self) -> list[TokenRow]:
        return [TokenRow(*r) for r in self._all(f"{_TOKEN} ORDER BY kind, name")]

    def token(self, kind: str, name: str) -> TokenRow | None:
        row = self._one(f"{_TOKEN} WHERE kind = %s AND name = %s", (kind, name))
        return None if row is None else TokenRow(*row)

    def remove_token(self, kind: str, name: str) -> bool:
        with self.pool.connection() as conn:
            cur = conn.execute(
                "DELETE FROM taskpack.a2a_tokens WHERE kind = %s AND name = %s", (kind, name)
            )
            return cur.rowcount > 0

    def principal_for_hash(self, sha256: str) -> str | None:
        row = self._one(
            "SELECT name FROM taskpack.a2a_tokens WHERE kind = 'accept' AND sha256 = %s", (sha256,)
        )
        return None if row is None else str(row[0])

    def remote_token_for_url(self, url: str) -> TokenRow | None:
        row = self._one(
            f"{_TOKEN} WHERE kind = 'remote' AND url = %s ORDER BY created_at DESC LIMIT 1",
            (url.rstrip("/"),),
        )
        return None if row is None else TokenRow(*row)

    # -- idempotency --

    def message(self, principal: str, message_id: str) -> MessageRecord | None:
        row = self._one(
            f"{_MESSAGE} WHERE principal = %s AND message_id = %s", (principal, message_id)
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
        now = utc_now()
        with self.pool.connection() as conn, conn.transaction():
            new = conn.execute(
                "INSERT INTO taskpack.a2a_messages (principal, message_id, digest, task_id, "
                "created_at) VALUES (%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING RETURNING 1",
                (principal, message_id, digest, task_id, now),
            ).fetchone()
            if new is None:  # recorded first by another request (or another server)
                row = conn.execute(
                    f"{_MESSAGE} WHERE principal = %s AND message_id = %s",
                    (principal, message_id),
                ).fetchone()
                task_id = task_of_message(MessageRecord(*row), digest)  # type: ignore[misc]
            grant = _grant(conn, principal, task_id, kind, requested_context, root_id, now)
        return MessageRecord(principal, message_id, digest, task_id), grant

    # -- tasks --

    def grant(self, principal: str, task_id: str) -> TaskGrant | None:
        row = self._one(f"{_TASK} WHERE principal = %s AND task_id = %s", (principal, task_id))
        return None if row is None else TaskGrant(*row)

    def grants(self, principal: str, *, context_id: str | None = None) -> list[TaskGrant]:
        sql, args = f"{_TASK} WHERE principal = %s", [principal]
        if context_id is not None:
            sql += " AND context_id = %s"
            args.append(context_id)
        return [TaskGrant(*r) for r in self._all(sql, args)]

    def a2a_task_ids(self, kind: str | None = None) -> set[str]:
        if kind is None:
            return {r[0] for r in self._all("SELECT DISTINCT task_id FROM taskpack.a2a_tasks")}
        return {
            r[0]
            for r in self._all(
                "SELECT DISTINCT task_id FROM taskpack.a2a_tasks WHERE kind = %s", (kind,)
            )
        }

    # -- receipts --

    def receipt(self, task_id: str) -> ReceiptRow | None:
        row = self._one(
            f"SELECT {RECEIPT_COLUMNS} FROM taskpack.a2a_receipts WHERE task_id = %s",
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
        row = self._one(
            "INSERT INTO taskpack.a2a_receipts (task_id, key, version, content_digest, file, "
            "size, error, published_at, seq) VALUES (%s,%s,%s,%s,%s,%s,%s,%s, "
            "nextval('taskpack.a2a_receipts_seq')) ON CONFLICT (task_id) DO UPDATE SET "
            "key = EXCLUDED.key, version = EXCLUDED.version, "
            "content_digest = EXCLUDED.content_digest, file = EXCLUDED.file, "
            "size = EXCLUDED.size, error = EXCLUDED.error, published_at = EXCLUDED.published_at, "
            "seq = EXCLUDED.seq RETURNING seq",
            (task_id, key, version, content_digest, file, size, error, now),
        )
        return ReceiptRow(
            task_id, key, version, content_digest, file, size, error, now, int(row[0])
        )

    # -- the client side --

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
        with self.pool.connection() as conn:
            conn.execute(
                "INSERT INTO taskpack.a2a_sent (url, remote_task_id, context_id, message_id, "
                "pack_sha256, local_passport, kind, token_name, sent_at, peer) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) "
                "ON CONFLICT (url, remote_task_id) DO UPDATE SET context_id = EXCLUDED.context_id, "
                "message_id = EXCLUDED.message_id, token_name = EXCLUDED.token_name, "
                "peer = coalesce(EXCLUDED.peer, taskpack.a2a_sent.peer)",
                (
                    url,
                    remote_task_id,
                    context_id,
                    message_id,
                    pack_sha256,
                    local_passport,
                    kind,
                    token_name,
                    utc_now(),
                    peer,
                ),
            )
        row = self.sent_task(url, remote_task_id)
        if row is None:  # pragma: no cover - written just above
            raise A2AStoreError(f"the record of the send to {url} was not kept")
        return row

    def sent_task(self, url: str, remote_task_id: str) -> SentRow | None:
        row = self._one(f"{_SENT} WHERE url = %s AND remote_task_id = %s", (url, remote_task_id))
        return None if row is None else SentRow(*row)

    def sent(
        self,
        *,
        local_passport: str | None = None,
        remote_task_id: str | None = None,
        pending_only: bool = False,
    ) -> list[SentRow]:
        sql, args = f"{_SENT} WHERE true", []
        if local_passport is not None:
            sql += " AND local_passport = %s"
            args.append(local_passport)
        if remote_task_id is not None:
            sql += " AND remote_task_id = %s"
            args.append(remote_task_id)
        if pending_only:
            sql += " AND merged_at IS NULL AND kind = 'handoff'"
        return [SentRow(*r) for r in self._all(sql + " ORDER BY seq", args)]

    def sent_to(self, principal: str, passport_id: str) -> bool:
        row = self._one(
            "SELECT 1 FROM taskpack.a2a_sent WHERE local_passport = %s AND peer = %s "
            "AND kind = 'handoff' LIMIT 1",
            (passport_id, principal),
        )
        return row is not None

    def mark_merged(self, seq: int, receipt_digest: str) -> None:
        with self.pool.connection() as conn:
            conn.execute(
                "UPDATE taskpack.a2a_sent SET receipt_digest = %s, merged_at = %s WHERE seq = %s",
                (receipt_digest, utc_now(), seq),
            )


def _grant(
    conn: psycopg.Connection[Any],
    principal: str,
    task_id: str,
    kind: str,
    requested: str | None,
    root_id: str | None,
    now: str,
) -> TaskGrant:
    row = conn.execute(
        f"{_TASK} WHERE principal = %s AND task_id = %s", (principal, task_id)
    ).fetchone()
    if row is not None:
        return TaskGrant(*row)
    context_id = _context(conn, principal, requested, root_id, now)
    conn.execute(
        "INSERT INTO taskpack.a2a_tasks (principal, task_id, context_id, kind, created_at) "
        "VALUES (%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
        (principal, task_id, context_id, kind, now),
    )
    row = conn.execute(
        f"{_TASK} WHERE principal = %s AND task_id = %s", (principal, task_id)
    ).fetchone()
    return TaskGrant(*row)  # type: ignore[misc]


def _context(
    conn: psycopg.Connection[Any],
    principal: str,
    requested: str | None,
    root_id: str | None,
    now: str,
) -> str:
    """As the SQLite ledger: the caller's own context, else the lineage root's, else new."""
    if (
        requested
        and conn.execute(
            "SELECT 1 FROM taskpack.a2a_contexts WHERE principal = %s AND context_id = %s",
            (principal, requested),
        ).fetchone()
    ):
        return requested
    if root_id:
        row = conn.execute(
            "SELECT context_id FROM taskpack.a2a_contexts WHERE principal = %s AND root_id = %s",
            (principal, root_id),
        ).fetchone()
        if row:
            return str(row[0])
    context_id = new_context_id()
    made = conn.execute(
        "INSERT INTO taskpack.a2a_contexts (principal, context_id, root_id, created_at) "
        "VALUES (%s,%s,%s,%s) ON CONFLICT DO NOTHING RETURNING context_id",
        (principal, context_id, root_id, now),
    ).fetchone()
    if made is None and root_id:  # another server made this root's context meanwhile
        row = conn.execute(
            "SELECT context_id FROM taskpack.a2a_contexts WHERE principal = %s AND root_id = %s",
            (principal, root_id),
        ).fetchone()
        return str(row[0])  # type: ignore[index]
    return context_id
