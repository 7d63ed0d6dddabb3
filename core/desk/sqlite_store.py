"""The embedded desk's store: one SQLite database beside the blob folder (a
:class:`~.store.Store`).

Layout under the desk's home folder::

    store.sqlite3        passports, every version of each, history, luggage, the outbox
                         ledger (every pack written here), landings (:mod:`.sqlite_schema`),
                         and the bytes of small landed luggage (:mod:`.blob_rows`)
    blobs/               the other luggage bytes, by their sha256 (:mod:`.blob_folder`)
    backups/             rolling backups of store.sqlite3 (see :mod:`.health`)

A damaged database is refused at open, before anything is written (:mod:`.health`).
Every change is ONE transaction (``BEGIN IMMEDIATE``; WAL; on disk before it returns,
:mod:`.sqlite_db`; :mod:`.sqlite_tx`); landing is idempotent on ``landings.pack_sha256``
(UNIQUE). Blobs are written before the rows that point at them (a small one in the same
transaction), so a crash leaves at most an orphaned blob.

The threads of a process share one connection for reads and writes; the window's poll
(:meth:`SqliteStore.data_version`, :meth:`SqliteStore.changed_since`) has a read-only
connection of its own, so it never waits behind a worker's write transaction.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .. import files
from ..errors import StoreError, UsageError
from ..format.model import JSON
from . import health
from .blob_folder import BlobFolder
from .blob_rows import BlobRows
from .sql_dialect import SQLITE
from .sqlite_db import Migration, open_database, transaction
from .sqlite_schema import DB_NAME, MIGRATIONS, sql_args
from .sqlite_tx import SqliteTx
from .store import (
    HistoryEntry,
    PassportSummary,
    Store,
    Tx,
    utc_now,
)
from .store_rules import (
    HeldBlobs,
    landed_origin,
    no_passport,
    origin_in,
)
from .store_sql import CHANGED_SINCE, StoreReads
from .writer_queue import WriterQueue


class SqliteStore(StoreReads, HeldBlobs):
    """A passport store rooted at `home`. Safe to share between threads of one process,
    and between processes (SQLite locking; writers wait up to `timeout` seconds)."""

    blobs: BlobRows
    sql = SQLITE

    def __init__(
        self,
        home: Path,
        *,
        clock: Callable[[], str] = utc_now,
        timeout: float = 30.0,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        self.home = Path(home)
        self.clock = clock
        self.db_path = self.home / DB_NAME
        self.home.mkdir(parents=True, exist_ok=True)
        #: small landed luggage as rows of the database, the rest in the blob folder
        self.blobs = BlobRows(BlobFolder(self.home), self._reading)
        self.blob_root = self.blobs.root
        self._lock = threading.RLock()
        #: writers in other processes queue for their turn (SQLite's busy handler sleeps)
        self._writers = WriterQueue(self.db_path, timeout=timeout)
        what = self.describe()
        health.check_at_open(self.db_path, error=StoreError, what=what)
        self._db = open_database(
            self.db_path,
            timeout=timeout,
            migrations=migrations,
            foreign_keys=True,
            error=StoreError,
            what=what,
            before_migrate=self._backup_before_migration,
        )
        #: history seqs this store wrote and the poll has not seen yet (not "elsewhere")
        self._own_seqs: set[int] = set()
        self._lock_own = threading.Lock()
        self._watch_lock = threading.Lock()
        #: reads from threads not writing: a WAL reader never waits for a writer's commit
        self._reader_lock = threading.Lock()
        self._writer: int | None = None  # the thread inside `write`, which reads its own
        try:
            self._watch, self._reader = (
                sqlite3.connect(
                    f"{self.db_path.absolute().as_uri()}?mode=ro",
                    uri=True,
                    timeout=timeout,
                    check_same_thread=False,
                )
                for _ in range(2)
            )
            self._watched = int(self._watch.execute("PRAGMA data_version").fetchone()[0])
            row = self._watch.execute("SELECT max(seq) FROM history").fetchone()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{what} cannot be opened ({exc})") from None
        self._watched_seq = int(row[0] or 0)
        self._elsewhere = 0

    def _backup_before_migration(self, db: sqlite3.Connection, schema: int) -> None:
        health.backup(db, self.home, reason=f"schema{schema}")

    def describe(self) -> str:
        return f"the passport store at {self.db_path}"

    # -- lifecycle of the connection --

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._writers.close()
        with self._watch_lock:
            self._watch.close()
        with self._reader_lock:
            self._reader.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- writing --

    @contextlib.contextmanager
    def write(self) -> Iterator[SqliteTx]:
        """One write transaction (``BEGIN IMMEDIATE``): everything in it commits or nothing."""
        with files.space_for(self.db_path), transaction(self._db, self._lock, self._writers):
            # small blobs committed since the last transaction, before any row names them
            stored = self.blobs.flush(self._db)
            tx = SqliteTx(self, self._db)
            outer, self._writer = self._writer, threading.get_ident()
            try:
                yield tx
            except BaseException:
                with self._lock_own:
                    self._own_seqs.difference_update(tx.seqs)
                raise
            finally:
                self._writer = outer
        stored()

    def _wrote(self, seq: int) -> None:
        """A history row this store is writing (its poll must not call it someone else's)."""
        with self._lock_own:
            self._own_seqs.add(seq)

    # -- reading --

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self._reading() as db:
            return db.execute(sql, sql_args(args)).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._reading() as db:
            return db.execute(sql, sql_args(args)).fetchall()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection a read uses: the write connection in the thread writing (it
        sees its own transaction), else the reader, which sees every committed write and
        does not wait while another thread's transaction commits (its fsync)."""
        if self._writer == threading.get_ident():
            with self._lock:
                yield self._db
        else:
            with self._reader_lock:
                yield self._reader

    def size_of(self, passport_id: str) -> int:
        """Bytes of JSON the passport is stored as (SQLite counts them; nothing is parsed)."""
        row = self._one(
            "SELECT length(CAST(data AS BLOB)) FROM passports WHERE id = ?", (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return int(row[0] or 0)

    def received_origin(self, passport_id: str) -> dict[str, JSON]:
        """The `origin` of the pack the passport was landed from ({} when made here or it
        names none), read by SQLite out of the stored JSON: the passport's asks, however
        many, are not parsed in this process."""
        try:
            row = self._one(
                "SELECT json_extract(data, '$.received.origin') FROM passports WHERE id = ?",
                (passport_id,),
            )
        except sqlite3.OperationalError:  # no JSON functions in this SQLite: read it whole
            return landed_origin(self.get(passport_id))
        return origin_in(row, passport_id)

    def summaries(
        self,
        *,
        state: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        taken_by: str | None = None,
    ) -> list[PassportSummary]:
        """Passports, most recently changed first. The embedded desk is one person's: it
        records no names, so `taken_by` is refused."""
        if taken_by is not None:
            raise UsageError(
                "this desk is one person's and records no names",
                hint="A team desk (TASKPACK_STORE) records who took each task on.",
            )
        sql = (
            "SELECT id, title, state, waiting_on, version, root_id, came_from, open_asks, "
            "created_at, updated_at FROM passports"
        )
        args: list[Any] = []
        if state is not None:
            sql += " WHERE state = ?"
            args.append(state)
        sql += " ORDER BY updated_at DESC, id LIMIT ? OFFSET ?"
        args += [-1 if limit is None else limit, offset]
        return [PassportSummary(*row) for row in self._all(sql, args)]

    def data_version(self) -> int:
        """A number that changes when another connection (another process, another Store)
        committed a change, never for this store's own writes.

        Read on the store's own read-only connection: it never waits for the write lock a
        worker's transaction holds (WAL readers do not wait for writers)."""
        with self._watch_lock:
            now = int(self._watch.execute("PRAGMA data_version").fetchone()[0])
            if now != self._watched:
                self._watched = now
                seqs = [
                    int(r[0])
                    for r in self._watch.execute(
                        "SELECT seq FROM history WHERE seq > ?", (self._watched_seq,)
                    ).fetchall()
                ]
                with self._lock_own:
                    theirs = [s for s in seqs if s not in self._own_seqs]
                    self._own_seqs.difference_update(seqs)
                if seqs:
                    self._watched_seq = max(seqs)
                if theirs:
                    self._elsewhere += 1
            return self._elsewhere

    def changed_since(self, seq: int) -> tuple[int, list[str]]:
        """(newest history seq, ids of passports with history after `seq`), oldest first.
        Read on the store's own read-only connection, like :meth:`data_version`."""
        with self._watch_lock:
            rows = self._watch.execute(self.sql(CHANGED_SINCE), (seq,)).fetchall()
        newest = max((int(s) for _, s in rows), default=seq)
        return newest, [pid for pid, _ in rows]

    def history(self, passport_id: str) -> list[HistoryEntry]:
        if not self.exists(passport_id):
            raise no_passport(passport_id)
        rows = self._all(
            "SELECT seq, version, event, at, detail FROM history WHERE passport_id = ? ORDER BY seq",
            (passport_id,),
        )
        return [HistoryEntry(s, v, e, a, json.loads(d)) for s, v, e, a, d in rows]

    # -- blobs (`blob_rows`: small ones as rows, the rest in the blob folder) --

    def sweep_temp(self) -> int:
        """Delete half-written blobs left by a crash; returns how many."""
        return self.blobs.sweep_temp()

    # -- housekeeping and health --

    def housekeep(self, *, backup_every: float = health.BACKUP_EVERY) -> list[str]:
        """Sweep stale half-written blobs and take the daily backup when it is due.

        Cheap when there is nothing to do (a folder listing and a stat). Returns what was
        done, as sentences. Run it off the GUI thread.
        """
        done: list[str] = []
        count, size = health.sweep_parts(self.blob_root / "tmp")
        if count:
            done.append(
                f"removed {count} half-written luggage file(s) ({size:,} bytes) left by a crash"
            )
        if health.backup_due(self.home, every=backup_every):
            # its own connection: WAL lets it read while this store's threads go on
            source = sqlite3.connect(self.db_path, timeout=30.0)
            try:
                made = health.backup(source, self.home, reason="daily")
            finally:
                source.close()
            done.append(f"backed up the store to {made.name}")
        return done

    def integrity_check(self) -> list[str]:
        """SQLite's own verdict: ``["ok"]`` when the database is sound."""
        with self._lock:
            return [r[0] for r in self._db.execute("PRAGMA integrity_check").fetchall()]

    def check(self, *, hash_blobs: bool = False) -> list[str]:
        """Every problem found, as sentences; empty when the store is whole.

        Checks SQLite's integrity and foreign keys, that each passport's current row
        matches its newest version, and that every luggage row's blob exists (and, with
        `hash_blobs`, still has its digest).
        """
        problems = [r for r in self.integrity_check() if r != "ok"]
        with self._lock:
            fk = self._db.execute("PRAGMA foreign_key_check").fetchall()
            problems += [f"dangling reference in {r[0]} row {r[1]}" for r in fk]
            rows = self._db.execute(
                "SELECT p.id, p.version, p.data, v.data FROM passports p LEFT JOIN versions v "
                "ON v.passport_id = p.id AND v.version = p.version"
            ).fetchall()
            lug = self._db.execute("SELECT passport_id, name, sha256, size FROM luggage").fetchall()
            blobs = self.blobs.problems(self._db, lug, hash_blobs=hash_blobs)
        for pid, version, data, vdata in rows:
            if vdata is None or vdata != data:
                problems.append(f"passport {pid} has no matching version {version}")
        return problems + blobs


def _is_a_store(store: SqliteStore, tx: SqliteTx) -> tuple[Store, Tx]:
    """Never called: mypy checks here that the embedded store keeps the interface."""
    return store, tx
