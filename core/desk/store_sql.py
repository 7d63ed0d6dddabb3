"""The queries both stores run, written once: the embedded desk's (:mod:`.sqlite_store`,
:mod:`.sqlite_tx`) and the team desk's (``taskpack.app.team.pg_store``, ``pg_tx``).

:class:`StoreReads` holds the reads that are the same on both databases but for their
spelling, and :class:`TxRows` the parts of a write transaction that are; each store
gives its :class:`~.sql_dialect.Dialect` (``sql``) and its own ``_one`` and ``_all``
(where it connects, retries, converts values). What a store does its own way — SQLite's
single writer against PostgreSQL's row locks and advisory locks, the team desk's "who"
— stays in that store's module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import UsageError
from ..format.model import JSON, LocalPassport
from .sql_dialect import Dialect
from .sqlite_schema import (
    SENT_COLUMNS,
    dumps,
    open_asks_of,
    pack_written_of,
    passport_text,
    root_of,
    sql_text,
)
from .store import Landing, PackWritten, StoredLuggage
from .store_rules import next_version, no_outbox_entry, no_passport, no_version, passport_of

_WRITTEN = f"SELECT {SENT_COLUMNS} FROM {{packs_written}}"
#: passports with history after a seq, and the newest seq of each (oldest first)
CHANGED_SINCE = (
    "SELECT passport_id, max(seq) AS s FROM {history} WHERE seq > ? GROUP BY passport_id ORDER BY s"
)


class PassportReads:
    """A passport, its state, whether it is here: read the same way by a store and inside a
    write transaction (there, on PostgreSQL, holding the passport's row: `row_lock`)."""

    sql: Dialect
    #: what a read of a passport adds to hold its row until the transaction ends
    row_lock = ""

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        """The passport as stored. `pages=True` (to show it, not to change it): more than a
        few hundred asks come back as read-only pages (`pages.AskPages`), never a model each."""
        row = self._one(
            self.sql("SELECT data FROM {passports} WHERE id = ?" + self.row_lock), (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return passport_of(row[0], pages=pages, passport_id=passport_id)

    def exists(self, passport_id: str) -> bool:
        return (
            self._one(self.sql("SELECT 1 FROM {passports} WHERE id = ?"), (passport_id,))
            is not None
        )

    def state_of(self, passport_id: str) -> tuple[str, str | None]:
        """The passport's lifecycle state and what it waits on (its columns; no JSON read)."""
        row = self._one(
            self.sql("SELECT state, waiting_on FROM {passports} WHERE id = ?"), (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return str(row[0]), row[1]


class StoreReads(PassportReads):
    """The reads of a :class:`~.store.Store` both databases spell alike."""

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def require(self, passport_id: str) -> None:
        """NotFound (as :meth:`get` raises it) unless the passport is here; reads nothing else."""
        if not self.exists(passport_id):
            raise no_passport(passport_id)

    def get_version(self, passport_id: str, version: int) -> LocalPassport:
        row = self._one(
            self.sql("SELECT data FROM {versions} WHERE passport_id = ? AND version = ?"),
            (passport_id, version),
        )
        if row is None:
            raise no_version(passport_id, version)
        return passport_of(row[0], pages=False, passport_id=passport_id)

    def count(self) -> int:
        return int(self._one(self.sql("SELECT count(*) FROM {passports}"))[0])

    def luggage(self, passport_id: str) -> list[StoredLuggage]:
        rows = self._all(
            self.sql(
                "SELECT name, sha256, size, added_at FROM {luggage} WHERE passport_id = ? "
                "ORDER BY seq"
            ),
            (passport_id,),
        )
        return [StoredLuggage(n, s, int(z), a) for n, s, z, a in rows]

    def pack_written(self, sha256: str) -> PackWritten | None:
        """The first pack this store wrote with that content digest, if it wrote one."""
        row = self._one(self.sql(f"{_WRITTEN} WHERE sha256 = ? ORDER BY seq LIMIT 1"), (sha256,))
        return None if row is None else pack_written_of(row)

    def packs_written(self, passport_id: str) -> list[PackWritten]:
        """Every pack written of one passport, oldest first."""
        rows = self._all(self.sql(f"{_WRITTEN} WHERE passport_id = ? ORDER BY seq"), (passport_id,))
        return [pack_written_of(r) for r in rows]

    def outbox(
        self, *, passport_id: str | None = None, limit: int | None = None
    ) -> list[PackWritten]:
        """The outbox ledger, newest first (optionally one passport's packs only)."""
        sql = _WRITTEN
        args: list[Any] = []
        if passport_id is not None:
            sql += " WHERE passport_id = ?"
            args.append(passport_id)
        args.append(self.sql.no_limit if limit is None else limit)
        return [
            pack_written_of(r)
            for r in self._all(self.sql(sql + " ORDER BY seq DESC LIMIT ?"), args)
        ]

    def sent(self, seq: int) -> PackWritten:
        """One ledger entry by its number (``taskpack outbox --show N``)."""
        row = self._one(self.sql(f"{_WRITTEN} WHERE seq = ?"), (seq,))
        if row is None:
            raise no_outbox_entry(seq)
        return pack_written_of(row)

    def landing(self, pack_sha256: str) -> Landing | None:
        """Where a pack with that content digest already landed (or was merged), if it did."""
        row = self._one(
            self.sql(
                "SELECT pack_sha256, passport_id, kind, landed_at FROM {landings} "
                "WHERE pack_sha256 = ?"
            ),
            (pack_sha256,),
        )
        return None if row is None else Landing(*row)

    def landings_for(self, passport_id: str) -> list[tuple[str, JSON]]:
        """(pack digest, pack object as read) for every pack landed or merged into a passport."""
        rows = self._all(
            self.sql(
                "SELECT pack_sha256, data FROM {landings} WHERE passport_id = ? ORDER BY landed_at"
            ),
            (passport_id,),
        )
        return [(sha, json.loads(data)) for sha, data in rows]

    def landed_data(self, pack_sha256: str) -> JSON:
        row = self._one(
            self.sql("SELECT data FROM {landings} WHERE pack_sha256 = ?"), (pack_sha256,)
        )
        return None if row is None else json.loads(row[0])


class TxRows(PassportReads):
    """The rows of a write transaction both databases write alike. A transaction gives its
    `sql` dialect, `now`, its own `_one` and `_run` (on its connection), `_history` (who
    wrote, what to tell) and `_inserted_seq` (the number of a row it inserts). Its reads
    (:class:`PassportReads`) see its own writes."""

    now: str

    def _new_id(self, passport_id: str) -> None:
        """Called before a new passport's id is looked up (to wait for another writer)."""

    def _taken(self, lp: LocalPassport, was: str | None) -> dict[str, Any]:
        """Columns a store adds to a passport's row as it is inserted (`was` None) or saved
        from state `was` (the team desk: who took the task on)."""
        return {}

    def _run(self, sql: str, args: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        raise NotImplementedError

    def _inserted_seq(self, sql: str, args: Sequence[Any]) -> int:
        raise NotImplementedError

    def insert(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        came_from: str = "here",
    ) -> LocalPassport:
        """Store a new passport as version 1."""
        pid = lp.passport.id
        if not pid:
            raise UsageError("a passport needs an id before it is stored")
        self._new_id(pid)
        if self.exists(pid):
            raise UsageError(f"passport {pid} already exists in this desk")
        lp.passport.version = 1
        if not lp.passport.created_at:
            lp.passport.created_at = self.now
        lp.passport.updated_at = self.now
        data = passport_text(lp)
        row = {
            "id": pid,
            "version": 1,
            "title": sql_text(lp.passport.title),
            "state": lp.state,
            "waiting_on": lp.waiting_on,
            "root_id": root_of(lp),
            "came_from": came_from,
            "open_asks": open_asks_of(lp),
            "created_at": lp.passport.created_at,
            "updated_at": self.now,
            **self._taken(lp, None),
            "data": data,
        }
        self._run(
            self.sql(
                f"INSERT INTO {{passports}} ({', '.join(row)}) VALUES ({','.join('?' * len(row))})"
            ),
            tuple(row.values()),
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
        """Store `lp` as the next version of itself. `lp.version` must still be current."""
        pid = lp.id
        found = self._one(
            self.sql("SELECT version, state FROM {passports} WHERE id = ?" + self.row_lock), (pid,)
        )
        if found is None:
            raise no_passport(pid)
        new = next_version(lp, int(found[0]), expected_version=expected_version, now=self.now)
        data = passport_text(lp)
        row = {
            "version": new,
            "title": sql_text(lp.passport.title),
            "state": lp.state,
            "waiting_on": lp.waiting_on,
            "root_id": root_of(lp),
            "open_asks": open_asks_of(lp),
            "updated_at": self.now,
            "data": data,
            **self._taken(lp, str(found[1])),
        }
        self._run(
            self.sql(f"UPDATE {{passports}} SET {', '.join(f'{c}=?' for c in row)} WHERE id=?"),
            (*row.values(), pid),
        )
        self._version_row(pid, new, data, event, detail)
        return lp

    def log(self, passport_id: str, event: str, detail: dict[str, JSON] | None = None) -> None:
        """A history entry that changes no field of the passport (e.g. a pack was written)."""
        row = self._one(self.sql("SELECT version FROM {passports} WHERE id = ?"), (passport_id,))
        if row is None:
            raise no_passport(passport_id)
        self._history(passport_id, int(row[0]), event, detail)

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
        """One outbox ledger entry for a pack just written; returns its number."""
        return self._inserted_seq(
            self.sql(
                "INSERT INTO {packs_written} (sha256, passport_id, version, kind, written_at, "
                "asks, encoding, path, file_sha256, size, to_whom, via, stub) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
            ),
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

    def _version_row(
        self, pid: str, version: int, data: str, event: str, detail: dict[str, JSON] | None
    ) -> None:
        self._run(
            self.sql("INSERT INTO {versions} (passport_id, version, data) VALUES (?,?,?)"),
            (pid, version, data),
        )
        self._history(pid, version, event, detail)

    def _landing_row(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        self._run(
            self.sql(
                "INSERT INTO {landings} (pack_sha256, passport_id, kind, landed_at, data) "
                "VALUES (?,?,?,?,?)"
            ),
            (pack_sha256, passport_id, kind, self.now, dumps(data)),
        )
