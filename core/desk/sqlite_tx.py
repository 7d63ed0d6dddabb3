"""The inside of one write transaction on the embedded desk's SQLite store (a
:class:`~.store.Tx`): new passports, new versions, history, luggage rows, the outbox
ledger and landing records, all in the one ``BEGIN IMMEDIATE`` … ``COMMIT``."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import AlreadyLanded, ClaimTaken
from ..format.model import JSON
from .sql_dialect import SQLITE
from .sqlite_schema import dumps, sql_args
from .store import Claim, Landing
from .store_rules import no_blob_for
from .store_sql import TxRows

if TYPE_CHECKING:
    from .sqlite_store import SqliteStore


class SqliteTx(TxRows):
    """The inside of one write transaction. Get it from :meth:`SqliteStore.write`; the rows
    both stores write alike are :class:`~.store_sql.TxRows`."""

    sql = SQLITE

    def __init__(self, store: SqliteStore, db: sqlite3.Connection) -> None:
        self.store = store
        self._db = db
        #: history seqs this transaction wrote
        self.seqs: list[int] = []
        #: (passport_id, event) for every change made, in order — for change notifications
        self.events: list[tuple[str, str]] = []
        self.now = store.clock()

    def landing(self, pack_sha256: str) -> Landing | None:
        return self.store.landing(pack_sha256)

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, sql_args(args)).fetchone()

    def _run(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, args)

    def _inserted_seq(self, sql: str, args: Sequence[Any]) -> int:
        return int(self._run(sql, args).lastrowid or 0)

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

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        """Raises AlreadyLanded (naming the passport) if that pack already landed."""
        try:
            self._landing_row(pack_sha256, passport_id, kind, data)
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

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        cur = self._db.execute(
            "INSERT INTO history (passport_id, version, event, at, detail) VALUES (?,?,?,?,?)",
            (pid, version, event, self.now, dumps(detail or {})),
        )
        seq = int(cur.lastrowid or 0)
        self.seqs.append(seq)
        self.store._wrote(seq)
        self.events.append((pid, event))
