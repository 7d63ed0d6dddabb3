"""The inside of one write transaction on the team desk (a :class:`~taskpack.core.desk.store.Tx`).

Many processes write at once, so each rule the embedded desk gets from SQLite's single
writer is made explicit here:

* reading a passport in a write transaction locks its row (``FOR UPDATE``): edits of one
  passport follow each other, each over the version the one before committed; a save
  compares versions, so an edit begun on an older copy (or an `expected_version` that
  moved) gets VersionConflict ("read it again");
* a landing takes an advisory lock on the pack's digest before it looks, so the same
  pack landed by four processes at once is one passport (the others get AlreadyLanded);
* every history row names who (``name@machine``); a move into ``accepted`` or
  ``working`` records who took the task on;
* one NOTIFY per transaction, delivered by PostgreSQL only if it commits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import psycopg
from psycopg import errors as pg_errors
from taskpack.core.desk.sql_dialect import POSTGRES
from taskpack.core.desk.sqlite_schema import dumps
from taskpack.core.desk.store import Claim, Landing
from taskpack.core.desk.store_rules import no_blob_for
from taskpack.core.desk.store_sql import TxRows
from taskpack.core.errors import (
    AlreadyLanded,
    ClaimTaken,
)
from taskpack.core.format.model import JSON, LocalPassport

from .listen import CHANNEL
from .rows import pg_args, pg_text


class Writer(Protocol):
    """What a transaction needs of the store it writes (:class:`.pg_store.PgStore`)."""

    @property
    def clock(self) -> Callable[[], str]: ...
    #: who writes: ``name@machine``, for every history row
    @property
    def who(self) -> str: ...
    #: this store's token in its notifications, so that it can tell its own apart
    @property
    def token(self) -> str: ...
    @property
    def listener(self) -> object | None: ...
    def wrote(self, seq: int) -> None: ...


TAKEN = ("accepted", "working")


class PgTx(TxRows):
    """The rows both stores write alike are :class:`~taskpack.core.desk.store_sql.TxRows`;
    here what only the team desk does (row and advisory locks, who, the notification)."""

    sql = POSTGRES
    # reading a passport in a write transaction holds its row until the end: an edit reads
    # the version the writer before it committed, as under SQLite's one writer
    row_lock = " FOR UPDATE"

    def __init__(self, store: Writer, conn: psycopg.Connection[Any]) -> None:
        self.store = store
        self._conn = conn
        self.events: list[tuple[str, str]] = []
        self.now = store.clock()
        #: luggage added and not yet written: (passport, name) -> (sha256, size), written
        #: together before the next statement (10,000 files are three statements)
        self._luggage: dict[tuple[str, str], tuple[str, int]] = {}

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        self.flush()
        return self._conn.execute(sql, pg_args(args)).fetchone()

    def _run(self, sql: str, args: Sequence[Any] = ()) -> Any:
        self.flush()
        return self._conn.execute(sql, pg_args(args))

    def _inserted_seq(self, sql: str, args: Sequence[Any]) -> int:
        return int(self._one(sql + " RETURNING seq", args)[0])

    def _new_id(self, passport_id: str) -> None:
        self._run("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", (passport_id,))

    def _taken(self, lp: LocalPassport, was: str | None) -> dict[str, Any]:
        """Who took the task on: set by a move into accepted or working, else kept."""
        if lp.state in TAKEN and was not in TAKEN:
            return {"taken_by": self.store.who}
        return {"taken_by": None} if was is None else {}

    def flush(self) -> None:
        """Write the luggage added so far, in order (a name added again replaces it)."""
        if not self._luggage:
            return
        pending, self._luggage = self._luggage, {}
        keys = list(pending)
        pids = [pg_text(p) for p, _ in keys]
        names = [pg_text(n) for _, n in keys]
        shas = [pending[k][0] for k in keys]
        missing = self._conn.execute(
            "SELECT i FROM unnest(%s::text[]) WITH ORDINALITY AS u(sha, i) "
            "WHERE NOT EXISTS (SELECT 1 FROM taskpack.blobs b WHERE b.sha256 = u.sha) LIMIT 1",
            (shas,),
        ).fetchone()
        if missing is not None:  # the blob is not stored: nothing of this is kept
            raise no_blob_for(keys[int(missing[0]) - 1][1])
        self._conn.execute(
            "DELETE FROM taskpack.luggage l USING unnest(%s::text[], %s::text[]) AS u(p, n) "
            "WHERE l.passport_id = u.p AND l.name = u.n",
            (pids, names),
        )
        self._conn.execute(
            "INSERT INTO taskpack.luggage (passport_id, name, sha256, size, added_at) "
            "SELECT p, n, s, z, %s FROM unnest(%s::text[], %s::text[], %s::text[], "
            "%s::bigint[]) WITH ORDINALITY AS u(p, n, s, z, i) ORDER BY i",
            (self.now, pids, names, shas, [pending[k][1] for k in keys]),
        )

    # -- reads that see this transaction's own writes --

    def landing(self, pack_sha256: str) -> Landing | None:
        """Where that pack landed, if it did — after waiting for anyone landing it now."""
        self._run("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (pack_sha256,))
        row = self._one(
            "SELECT pack_sha256, passport_id, kind, landed_at FROM taskpack.landings "
            "WHERE pack_sha256 = %s",
            (pack_sha256,),
        )
        return None if row is None else Landing(*row)

    # -- writes --

    def add_luggage(self, passport_id: str, name: str, sha256: str, size: int) -> None:
        # kept until the next statement: a pack of 10,000 files is written at once
        self._luggage.pop((passport_id, name), None)  # added again: it moves to the end
        self._luggage[(passport_id, name)] = (sha256, size)

    def remove_luggage(self, passport_id: str, name: str) -> bool:
        found = self._one(
            "DELETE FROM taskpack.luggage WHERE passport_id = %s AND name = %s RETURNING 1",
            (passport_id, name),
        )
        return found is not None

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        winner = self.landing(pack_sha256)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        try:
            self._landing_row(pack_sha256, passport_id, kind, data)
        except pg_errors.UniqueViolation:  # pragma: no cover - the advisory lock prevents it
            raise AlreadyLanded(passport_id) from None

    def claim(self, claim: Claim, passport_id: str) -> None:
        """The claim is the A2A ledger's own idempotency row, written in the landing's
        transaction: a second claimer waits on the row until the first commits or rolls
        back, then sees it."""
        taken = self._one(
            "INSERT INTO taskpack.a2a_messages (principal, message_id, digest, task_id, "
            "created_at) VALUES (%s,%s,%s,%s,%s) "
            "ON CONFLICT (principal, message_id) DO NOTHING RETURNING 1",
            (claim.scope, claim.key, claim.digest, passport_id, self.now),
        )
        if taken is not None:
            return
        row = self._one(
            "SELECT digest, task_id FROM taskpack.a2a_messages "
            "WHERE principal = %s AND message_id = %s",
            (claim.scope, claim.key),
        )
        if row is not None and row[0] != claim.digest:
            raise ClaimTaken(claim.scope, claim.key, str(row[1]))

    def announce(self) -> None:
        """One NOTIFY for what this transaction changed (sent only if it commits)."""
        self.flush()
        if self.events:
            ids = sorted({pid for pid, _ in self.events})
            payload = json.dumps({"by": self.store.token, "ids": ids[:50]})
            self._run("SELECT pg_notify(%s, %s)", (CHANNEL, payload[:7900]))

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        row = self._one(
            "INSERT INTO taskpack.history (passport_id, version, event, at, detail, who) "
            "VALUES (%s,%s,%s,%s,%s,%s) RETURNING seq",
            (pid, version, event, self.now, dumps(detail or {}), self.store.who),
        )
        if self.store.listener is None:  # not news for this store when its feed starts
            self.store.wrote(int(row[0]))
        self.events.append((pid, event))
