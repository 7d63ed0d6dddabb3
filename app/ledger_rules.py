"""The A2A binding's ledger, written once for both stores: its records, the
:class:`Ledger` protocol, and every query and rule in :class:`LedgerRules`.

Two ledgers keep it: ``a2a.sqlite3`` beside an embedded desk
(:class:`taskpack.app.a2a.ledger.A2AStore`) and the team desk's ``a2a_*`` tables
(:class:`taskpack.app.team.a2a_ledger.PgLedger`). Each brings only its connection, its
transaction and its :class:`~taskpack.core.desk.sql_dialect.Dialect`. Every race is
settled the same way on both: by a unique key — the second writer's INSERT does
nothing (on PostgreSQL after waiting for the first), and the row it then reads is the
first writer's.

This module sits below both :mod:`taskpack.app.a2a` and :mod:`taskpack.app.team`, so
neither package imports the other to share it.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from taskpack.core.desk.sql_dialect import Dialect
from taskpack.core.desk.store import utc_now
from taskpack.core.errors import TaskPackError

#: files the binding keeps (published receipts, packs on their way), under a desk's home
DIR_NAME = "a2a"


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


#: the columns each record is read from, in the order of its fields
TOKEN_COLUMNS = "kind, name, sha256, url, created_at"
TASK_COLUMNS = "principal, task_id, context_id, kind, created_at"
MESSAGE_COLUMNS = "principal, message_id, digest, task_id"
RECEIPT_COLUMNS = "task_id, key, version, content_digest, file, size, error, published_at, seq"
SENT_COLUMNS = (
    "seq, url, remote_task_id, context_id, message_id, pack_sha256, local_passport, kind, "
    "token_name, sent_at, receipt_digest, merged_at, peer"
)

_TOKEN = f"SELECT {TOKEN_COLUMNS} FROM {{tokens}}"
_TASK = f"SELECT {TASK_COLUMNS} FROM {{tasks}} WHERE principal = ? AND task_id = ?"
_MESSAGE = f"SELECT {MESSAGE_COLUMNS} FROM {{messages}} WHERE principal = ? AND message_id = ?"
_SENT = f"SELECT {SENT_COLUMNS} FROM {{sent}}"
_ROOT_CONTEXT = "SELECT context_id FROM {contexts} WHERE principal = ? AND root_id = ?"


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


class Ledger(Protocol):
    """What the A2A binding asks of its ledger, on either store."""

    home: Path
    #: where the binding keeps files on their way (and, on SQLite, published receipts)
    dir: Path

    def close(self) -> None: ...
    def __enter__(self) -> Ledger: ...
    def __exit__(self, *exc: object) -> None: ...
    @property
    def desk_id(self) -> str: ...
    def add_token(self, kind: str, name: str, sha256: str, url: str | None = None) -> TokenRow: ...
    def tokens(self) -> list[TokenRow]: ...
    def token(self, kind: str, name: str) -> TokenRow | None: ...
    def remove_token(self, kind: str, name: str) -> bool: ...
    def principal_for_hash(self, sha256: str) -> str | None: ...
    def remote_token_for_url(self, url: str) -> TokenRow | None: ...
    def message(self, principal: str, message_id: str) -> MessageRecord | None: ...
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
    ) -> tuple[MessageRecord, TaskGrant]: ...
    def grant(self, principal: str, task_id: str) -> TaskGrant | None: ...
    def grants(self, principal: str, *, context_id: str | None = None) -> list[TaskGrant]: ...
    def a2a_task_ids(self, kind: str | None = None) -> set[str]: ...
    def receipt(self, task_id: str) -> ReceiptRow | None: ...
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
    ) -> ReceiptRow: ...
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
    ) -> SentRow: ...
    def sent_task(self, url: str, remote_task_id: str) -> SentRow | None: ...
    def sent(
        self,
        *,
        local_passport: str | None = None,
        remote_task_id: str | None = None,
        pending_only: bool = False,
    ) -> list[SentRow]: ...
    def sent_to(self, principal: str, passport_id: str) -> bool: ...
    def mark_merged(self, seq: int, receipt_digest: str) -> None: ...


class LedgerRules:
    """Every query of the ledger and the rules around them, once. A subclass gives its
    `sql` dialect, what a duplicate key raises (`duplicate`), how the next receipt number
    is drawn (`next_receipt_seq`), and `_one`, `_all` and `_tx`."""

    sql: Dialect
    duplicate: tuple[type[BaseException], ...]
    next_receipt_seq: str

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _tx(self) -> contextlib.AbstractContextManager[Any]:
        """A write transaction: the connection, committed when the block ends cleanly."""
        raise NotImplementedError

    @property
    def desk_id(self) -> str:
        """A random id for this desk, minted once: keeps keyring entries of two desks apart."""
        return str(self._one(self.sql("SELECT value FROM {a2a_meta} WHERE key = 'desk_id'"))[0])

    # -- tokens ----------------------------------------------------------------------

    def add_token(self, kind: str, name: str, sha256: str, url: str | None = None) -> TokenRow:
        now = utc_now()
        try:
            with self._tx() as db:
                db.execute(
                    self.sql(
                        "INSERT INTO {tokens} (kind, name, sha256, url, created_at) "
                        "VALUES (?,?,?,?,?)"
                    ),
                    (kind, name, sha256, url, now),
                )
        except self.duplicate:
            raise token_taken(name) from None
        return TokenRow(kind, name, sha256, url, now)

    def tokens(self) -> list[TokenRow]:
        return [TokenRow(*r) for r in self._all(self.sql(f"{_TOKEN} ORDER BY kind, name"))]

    def token(self, kind: str, name: str) -> TokenRow | None:
        row = self._one(self.sql(f"{_TOKEN} WHERE kind = ? AND name = ?"), (kind, name))
        return None if row is None else TokenRow(*row)

    def remove_token(self, kind: str, name: str) -> bool:
        with self._tx() as db:
            cur = db.execute(
                self.sql("DELETE FROM {tokens} WHERE kind = ? AND name = ?"), (kind, name)
            )
            return bool(cur.rowcount > 0)

    def principal_for_hash(self, sha256: str) -> str | None:
        """The principal an incoming bearer token (by its sha256) stands for, if any."""
        row = self._one(
            self.sql("SELECT name FROM {tokens} WHERE kind = 'accept' AND sha256 = ?"), (sha256,)
        )
        return None if row is None else str(row[0])

    def remote_token_for_url(self, url: str) -> TokenRow | None:
        row = self._one(
            self.sql(
                f"{_TOKEN} WHERE kind = 'remote' AND url = ? ORDER BY created_at DESC LIMIT 1"
            ),
            (url.rstrip("/"),),
        )
        return None if row is None else TokenRow(*row)

    # -- idempotency -----------------------------------------------------------------

    def message(self, principal: str, message_id: str) -> MessageRecord | None:
        row = self._one(self.sql(_MESSAGE), (principal, message_id))
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
            new = db.execute(
                self.sql(
                    "INSERT INTO {messages} (principal, message_id, digest, task_id, created_at) "
                    "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING"
                ),
                (principal, message_id, digest, task_id, now),
            )
            if new.rowcount != 1:  # recorded first by another request (or another process)
                row = db.execute(self.sql(_MESSAGE), (principal, message_id)).fetchone()
                task_id = task_of_message(MessageRecord(*row), digest)
            grant = self._grant(db, principal, task_id, kind, requested_context, root_id, now)
        return MessageRecord(principal, message_id, digest, task_id), grant

    def _grant(
        self,
        db: Any,
        principal: str,
        task_id: str,
        kind: str,
        requested_context: str | None,
        root_id: str | None,
        now: str,
    ) -> TaskGrant:
        row = db.execute(self.sql(_TASK), (principal, task_id)).fetchone()
        if row is not None:
            return TaskGrant(*row)
        context_id = self._context(db, principal, requested_context, root_id, now)
        db.execute(
            self.sql(
                "INSERT INTO {tasks} (principal, task_id, context_id, kind, created_at) "
                "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING"
            ),
            (principal, task_id, context_id, kind, now),
        )
        return TaskGrant(*db.execute(self.sql(_TASK), (principal, task_id)).fetchone())

    def _context(
        self, db: Any, principal: str, requested: str | None, root_id: str | None, now: str
    ) -> str:
        """The context a new task joins: the caller's own `requested` context if it owns it;
        else the principal's context for this lineage root; else a fresh one. A context id
        the principal does not own (another's, or made up) never joins anything."""
        if root_id:  # a pack's text: a lone surrogate in it is kept as its escape (neither
            # database takes one)
            root_id = root_id.encode("utf-8", "backslashreplace").decode("utf-8")
        if (
            requested
            and db.execute(
                self.sql("SELECT 1 FROM {contexts} WHERE principal = ? AND context_id = ?"),
                (principal, requested),
            ).fetchone()
        ):
            return requested
        if root_id:
            row = db.execute(self.sql(_ROOT_CONTEXT), (principal, root_id)).fetchone()
            if row:
                return str(row[0])
        context_id = new_context_id()
        made = db.execute(
            self.sql(
                "INSERT INTO {contexts} (principal, context_id, root_id, created_at) "
                "VALUES (?,?,?,?) ON CONFLICT DO NOTHING"
            ),
            (principal, context_id, root_id, now),
        )
        if made.rowcount != 1 and root_id:  # another process made this root's context
            return str(db.execute(self.sql(_ROOT_CONTEXT), (principal, root_id)).fetchone()[0])
        return context_id

    # -- tasks -----------------------------------------------------------------------

    def grant(self, principal: str, task_id: str) -> TaskGrant | None:
        row = self._one(self.sql(_TASK), (principal, task_id))
        return None if row is None else TaskGrant(*row)

    def grants(self, principal: str, *, context_id: str | None = None) -> list[TaskGrant]:
        sql = f"SELECT {TASK_COLUMNS} FROM {{tasks}} WHERE principal = ?"
        args: list[Any] = [principal]
        if context_id is not None:
            sql += " AND context_id = ?"
            args.append(context_id)
        return [TaskGrant(*r) for r in self._all(self.sql(sql), args)]

    def a2a_task_ids(self, kind: str | None = None) -> set[str]:
        """Every passport id some principal sees as a task (of `kind`, if given)."""
        if kind is None:
            return {r[0] for r in self._all(self.sql("SELECT DISTINCT task_id FROM {tasks}"))}
        sql = self.sql("SELECT DISTINCT task_id FROM {tasks} WHERE kind = ?")
        return {r[0] for r in self._all(sql, (kind,))}

    # -- receipts --------------------------------------------------------------------

    def receipt(self, task_id: str) -> ReceiptRow | None:
        row = self._one(
            self.sql(f"SELECT {RECEIPT_COLUMNS} FROM {{receipts}} WHERE task_id = ?"), (task_id,)
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
            seq = int(db.execute(self.sql(self.next_receipt_seq)).fetchone()[0])
            db.execute(
                self.sql(
                    f"INSERT INTO {{receipts}} ({RECEIPT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?) "
                    "ON CONFLICT (task_id) DO UPDATE SET key = excluded.key, "
                    "version = excluded.version, content_digest = excluded.content_digest, "
                    "file = excluded.file, size = excluded.size, error = excluded.error, "
                    "published_at = excluded.published_at, seq = excluded.seq"
                ),
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
        args = (url, remote_task_id, context_id, message_id, pack_sha256, local_passport, kind)
        with self._tx() as db:
            db.execute(
                self.sql(
                    "INSERT INTO {sent} (url, remote_task_id, context_id, message_id, "
                    "pack_sha256, local_passport, kind, token_name, sent_at, peer) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (url, remote_task_id) DO UPDATE "
                    "SET context_id = excluded.context_id, message_id = excluded.message_id, "
                    "token_name = excluded.token_name, peer = coalesce(excluded.peer, {sent}.peer)"
                ),
                (*args, token_name, utc_now(), peer),
            )
        row = self.sent_task(url, remote_task_id)
        if row is None:  # written in the transaction above; only a broken database loses it
            raise A2AStoreError(f"the record of the send to {url} was not kept")
        return row

    def sent_task(self, url: str, remote_task_id: str) -> SentRow | None:
        row = self._one(
            self.sql(f"{_SENT} WHERE url = ? AND remote_task_id = ?"), (url, remote_task_id)
        )
        return None if row is None else SentRow(*row)

    def sent(
        self,
        *,
        local_passport: str | None = None,
        remote_task_id: str | None = None,
        pending_only: bool = False,
    ) -> list[SentRow]:
        sql = f"{_SENT} WHERE 1 = 1"
        args: list[Any] = []
        if local_passport is not None:
            sql += " AND local_passport = ?"
            args.append(local_passport)
        if remote_task_id is not None:
            sql += " AND remote_task_id = ?"
            args.append(remote_task_id)
        if pending_only:
            sql += " AND merged_at IS NULL AND kind = 'handoff'"
        return [SentRow(*r) for r in self._all(self.sql(sql + " ORDER BY seq"), args)]

    def sent_to(self, principal: str, passport_id: str) -> bool:
        """Did this desk send a handoff of `passport_id` over A2A to `principal`?

        The one way, besides owning the task, that a receipt pushed to this endpoint by
        `principal` may merge into that passport (docs/a2a.md, "Receiving a pack")."""
        row = self._one(
            self.sql(
                "SELECT 1 FROM {sent} WHERE local_passport = ? AND peer = ? "
                "AND kind = 'handoff' LIMIT 1"
            ),
            (passport_id, principal),
        )
        return row is not None

    def mark_merged(self, seq: int, receipt_digest: str) -> None:
        with self._tx() as db:
            db.execute(
                self.sql("UPDATE {sent} SET receipt_digest = ?, merged_at = ? WHERE seq = ?"),
                (receipt_digest, utc_now(), seq),
            )
