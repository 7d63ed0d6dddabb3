"""The inside of one write transaction on the embedded desk's SQLite store (a
:class:`~.store.Tx`): new passports, new versions, history, luggage rows, the outbox
ledger and landing records, all in the one ``BEGIN IMMEDIATE`` … ``COMMIT``."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import AlreadyLanded, ClaimTaken, UsageError
from ..format.model import JSON, LocalPassport
from .sqlite_schema import dumps, open_asks_of, passport_text, root_of, sql_text
from .store import Claim, Landing
from .store_rules import next_version, no_blob_for, no_passport

if TYPE_CHECKING:
    from .sqlite_store import SqliteStore


class SqliteTx:
    """The inside of one write transaction. Get it from :meth:`SqliteStore.write`."""

    def __init__(self, store: SqliteStore, db: sqlite3.Connection) -> None:
        self.store = store
        self._db = db
        #: history seqs this transaction wrote
        self.seqs: list[int] = []
        #: (passport_id, event) for every change made, in order — for change notifications
        self.events: list[tuple[str, str]] = []
        self.now = store.clock()

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        return self.store.get(passport_id, pages=pages)

    def state_of(self, passport_id: str) -> tuple[str, str | None]:
        return self.store.state_of(passport_id)

    def exists(self, passport_id: str) -> bool:
        return self.store.exists(passport_id)

    def landing(self, pack_sha256: str) -> Landing | None:
        return self.store.landing(pack_sha256)

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
        if self.exists(pid):
            raise UsageError(f"passport {pid} already exists in this desk")
        lp.passport.version = 1
        if not lp.passport.created_at:
            lp.passport.created_at = self.now
        lp.passport.updated_at = self.now
        data = passport_text(lp)
        self._db.execute(
            "INSERT INTO passports (id, version, title, state, waiting_on, root_id, came_from, "
            "open_asks, created_at, updated_at, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                pid,
                1,
                sql_text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                root_of(lp),
                came_from,
                open_asks_of(lp),
                lp.passport.created_at,
                self.now,
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
        """Store `lp` as the next version of itself. `lp.version` must still be current."""
        pid = lp.id
        row = self._db.execute("SELECT version FROM passports WHERE id = ?", (pid,)).fetchone()
        if row is None:
            raise no_passport(pid)
        current = int(row[0])
        new = next_version(lp, current, expected_version=expected_version, now=self.now)
        data = passport_text(lp)
        self._db.execute(
            "UPDATE passports SET version=?, title=?, state=?, waiting_on=?, root_id=?, "
            "open_asks=?, updated_at=?, data=? WHERE id=?",
            (
                new,
                sql_text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                root_of(lp),
                open_asks_of(lp),
                self.now,
                data,
                pid,
            ),
        )
        self._version_row(pid, new, data, event, detail)
        return lp

    def log(self, passport_id: str, event: str, detail: dict[str, JSON] | None = None) -> None:
        """A history entry that changes no field of the passport (e.g. a pack was written)."""
        row = self._db.execute(
            "SELECT version FROM passports WHERE id = ?", (passport_id,)
        ).fetchone()
        if row is None:
            raise no_passport(passport_id)
        self._history(passport_id, int(row[0]), event, detail)

    def add_luggage(self, passport_id: str, name: str, sha256: str, size: int) -> None:
        if not self.store.has_blob(sha256):
            raise no_blob_for(name)
        self._db.execute(
            "INSERT OR REPLACE INTO luggage (passport_id, name, sha256, size, added_at) "
            "VALUES (?,?,?,?,?)",
            (passport_id, name, sha256, size, self.now),
        )

    def remove_luggage(self, passport_id: str, name: str) -> bool:
        cur = self._db.execute(
            "DELETE FROM luggage WHERE passport_id = ? AND name = ?", (passport_id, name)
        )
        return cur.rowcount > 0

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
        cur = self._db.execute(
            "INSERT INTO packs_written (sha256, passport_id, version, kind, written_at, asks, "
            "encoding, path, file_sha256, size, to_whom, via, stub) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
        return int(cur.lastrowid or 0)

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        """Raises AlreadyLanded (naming the passport) if that pack already landed."""
        try:
            self._db.execute(
                "INSERT INTO landings (pack_sha256, passport_id, kind, landed_at, data) "
                "VALUES (?,?,?,?,?)",
                (pack_sha256, passport_id, kind, self.now, dumps(data)),
            )
        except sqlite3.IntegrityError:  # the key is the pack: it landed already (one look-up
            # on the way out, none on the way in, inside the desk's write turn)
            found = self.landing(pack_sha256)
            if found is None:
                raise
            raise AlreadyLanded(found.passport_id) from None

    def claim(self, claim: Claim, passport_id: str) -> None:
        # the write turn is this process's alone (BEGIN IMMEDIATE): look, then take
        row = self._db.execute(
            "SELECT digest, passport_id FROM claims WHERE scope = ? AND key = ?",
            (claim.scope, claim.key),
        ).fetchone()
        if row is None:
            self._db.execute(
                "INSERT INTO claims (scope, key, digest, passport_id, claimed_at) "
                "VALUES (?,?,?,?,?)",
                (claim.scope, claim.key, claim.digest, passport_id, self.now),
            )
        elif row[0] != claim.digest:
            raise ClaimTaken(claim.scope, claim.key, str(row[1]))

    def _version_row(
        self, pid: str, version: int, data: str, event: str, detail: dict[str, JSON] | None
    ) -> None:
        self._db.execute(
            "INSERT INTO versions (passport_id, version, data) VALUES (?,?,?)", (pid, version, data)
        )
        self._history(pid, version, event, detail)

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        cur = self._db.execute(
            "INSERT INTO history (passport_id, version, event, at, detail) VALUES (?,?,?,?,?)",
            (pid, version, event, self.now, dumps(detail or {})),
        )
        seq = int(cur.lastrowid or 0)
        self.seqs.append(seq)
        self.store._wrote(seq)
        self.events.append((pid, event))
