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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import errors as pg_errors
from taskpack.core.desk.sqlite_schema import dumps, open_asks_of, passport_text, root_of
from taskpack.core.desk.store import Claim, Landing
from taskpack.core.desk.store_rules import next_version, no_blob_for, no_passport, passport_of
from taskpack.core.errors import (
    AlreadyLanded,
    ClaimTaken,
    UsageError,
)
from taskpack.core.format.model import JSON, LocalPassport

from .listen import CHANNEL
from .rows import pg_args, pg_text

if TYPE_CHECKING:
    from .pg_store import PgStore

TAKEN = ("accepted", "working")


class PgTx:
    def __init__(self, store: PgStore, conn: psycopg.Connection[Any]) -> None:
        self.store = store
        self._conn = conn
        self.events: list[tuple[str, str]] = []
        self.now = store.clock()

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._conn.execute(sql, pg_args(args)).fetchone()

    def _run(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._conn.execute(sql, pg_args(args))

    # -- reads that see this transaction's own writes --

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        # the row stays locked until this transaction ends: an edit reads the version the
        # previous writer committed (as under SQLite's one writer), so two people adding a
        # fact at once both succeed; only an expected_version that moved is a conflict
        row = self._one(
            "SELECT data FROM taskpack.passports WHERE id = %s FOR UPDATE", (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return passport_of(row[0], pages=pages, passport_id=passport_id)

    def state_of(self, passport_id: str) -> tuple[str, str | None]:
        row = self._one(
            "SELECT state, waiting_on FROM taskpack.passports WHERE id = %s", (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return str(row[0]), row[1]

    def exists(self, passport_id: str) -> bool:
        return (
            self._one("SELECT 1 FROM taskpack.passports WHERE id = %s", (passport_id,)) is not None
        )

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

    def insert(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        came_from: str = "here",
    ) -> LocalPassport:
        pid = lp.passport.id
        if not pid:
            raise UsageError("a passport needs an id before it is stored")
        self._run("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", (pid,))
        if self.exists(pid):
            raise UsageError(f"passport {pid} already exists in this desk")
        lp.passport.version = 1
        if not lp.passport.created_at:
            lp.passport.created_at = self.now
        lp.passport.updated_at = self.now
        data = passport_text(lp)
        self._run(
            "INSERT INTO taskpack.passports (id, version, title, state, waiting_on, root_id, "
            "came_from, open_asks, created_at, updated_at, taken_by, data) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (
                pid,
                1,
                pg_text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                root_of(lp),
                came_from,
                open_asks_of(lp),
                lp.passport.created_at,
                self.now,
                self.store.who if lp.state in TAKEN else None,
                data,
            ),
        )
        self._version_row(pid, 1, data, event, detail)
        return lp

    def save(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        pid = lp.id
        row = self._one(
            "SELECT version, state FROM taskpack.passports WHERE id = %s FOR UPDATE", (pid,)
        )
        if row is None:
            raise no_passport(pid)
        current, was = int(row[0]), row[1]
        new = next_version(lp, current, expected_version=expected_version, now=self.now)
        data = passport_text(lp)
        taken = lp.state in TAKEN and was not in TAKEN
        self._run(
            "UPDATE taskpack.passports SET version=%s, title=%s, state=%s, waiting_on=%s, "
            "root_id=%s, open_asks=%s, updated_at=%s, data=%s, "
            "taken_by = CASE WHEN %s THEN %s ELSE taken_by END WHERE id=%s",
            (
                new,
                pg_text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                root_of(lp),
                open_asks_of(lp),
                self.now,
                data,
                taken,
                self.store.who,
                pid,
            ),
        )
        self._version_row(pid, new, data, event, detail)
        return lp

    def log(self, passport_id: str, event: str, detail: dict[str, JSON] | None = None) -> None:
        row = self._one("SELECT version FROM taskpack.passports WHERE id = %s", (passport_id,))
        if row is None:
            raise no_passport(passport_id)
        self._history(passport_id, int(row[0]), event, detail)

    def add_luggage(self, passport_id: str, name: str, sha256: str, size: int) -> None:
        if self._one("SELECT 1 FROM taskpack.blobs WHERE sha256 = %s", (sha256,)) is None:
            raise no_blob_for(name)
        self._run(
            "DELETE FROM taskpack.luggage WHERE passport_id = %s AND name = %s", (passport_id, name)
        )
        self._run(
            "INSERT INTO taskpack.luggage (passport_id, name, sha256, size, added_at) "
            "VALUES (%s,%s,%s,%s,%s)",
            (passport_id, name, sha256, size, self.now),
        )

    def remove_luggage(self, passport_id: str, name: str) -> bool:
        found = self._one(
            "DELETE FROM taskpack.luggage WHERE passport_id = %s AND name = %s RETURNING 1",
            (passport_id, name),
        )
        return found is not None

    def record_pack_written(
        self,
        sha256: str,
        passport_id: str,
        version: int,
        kind: str,
        asks: Sequence[str],
        *,
        encoding: str | None = None,
        path: str | None = None,
        file_sha256: str | None = None,
        size: int | None = None,
        to: str | None = None,
        via: str | None = None,
        stub: dict[str, JSON] | None = None,
    ) -> int:
        row = self._one(
            "INSERT INTO taskpack.packs_written (sha256, passport_id, version, kind, written_at, "
            "asks, encoding, path, file_sha256, size, to_whom, via, stub) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING seq",
            (
                sha256,
                passport_id,
                version,
                kind,
                self.now,
                dumps(list(asks)),
                encoding,
                path,
                file_sha256,
                size,
                to,
                via,
                dumps(stub or {}),
            ),
        )
        return int(row[0])

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        winner = self.landing(pack_sha256)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        try:
            self._run(
                "INSERT INTO taskpack.landings (pack_sha256, passport_id, kind, landed_at, data) "
                "VALUES (%s,%s,%s,%s,%s)",
                (pack_sha256, passport_id, kind, self.now, dumps(data)),
            )
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
        if self.events:
            ids = sorted({pid for pid, _ in self.events})
            payload = json.dumps({"by": self.store.token, "ids": ids[:50]})
            self._run("SELECT pg_notify(%s, %s)", (CHANNEL, payload[:7900]))

    def _version_row(
        self, pid: str, version: int, data: str, event: str, detail: dict[str, JSON] | None
    ) -> None:
        self._run(
            "INSERT INTO taskpack.versions (passport_id, version, data) VALUES (%s,%s,%s)",
            (pid, version, data),
        )
        self._history(pid, version, event, detail)

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        row = self._one(
            "INSERT INTO taskpack.history (passport_id, version, event, at, detail, who) "
            "VALUES (%s,%s,%s,%s,%s,%s) RETURNING seq",
            (pid, version, event, self.now, dumps(detail or {}), self.store.who),
        )
        if self.store.listener is None:  # not news for this store when its feed starts
            self.store.wrote(int(row[0]))
        self.events.append((pid, event))
