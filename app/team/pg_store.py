"""The team desk's store: passports and everything else in one PostgreSQL database (a
:class:`~taskpack.core.desk.store.Store`). Reads run on the process's pool and never wait
for a writer (MVCC); writes are :mod:`.pg_tx`; luggage is :mod:`.pg_blobs`; changes made
by other processes arrive by LISTEN/NOTIFY (:mod:`.listen`)."""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import psycopg
from taskpack.core.desk.sql_dialect import POSTGRES
from taskpack.core.desk.store import (
    HistoryEntry,
    PassportSummary,
    Store,
    Tx,
    utc_now,
)
from taskpack.core.desk.store_rules import (
    HeldBlobs,
    landed_origin,
    no_passport,
    origin_in,
)
from taskpack.core.desk.store_sql import CHANGED_SINCE, StoreReads
from taskpack.core.errors import StoreError
from taskpack.core.format.model import JSON

from .connect import Lost, Pool, change_failed, commit_unknown, spool_dir
from .listen import Listener
from .pg_blobs import PgBlobs
from .pg_tx import PgTx
from .rows import pg_args, signed
from .schema import require_current, version_of
from .url import describe

_SUMMARY = (
    "id, title, state, waiting_on, version, root_id, came_from, open_asks, created_at, updated_at"
)


class PgStore(StoreReads, HeldBlobs):
    """A team desk at `url`. `who` (``name@machine``) is written on every history row;
    `home` holds only this machine's spool of staged luggage."""

    sql = POSTGRES

    blobs: PgBlobs

    #: several machines read and write this store: a fact proven here names this machine
    shared = True

    def __init__(
        self,
        url: str,
        *,
        home: Path,
        who: str,
        clock: Callable[[], str] = utc_now,
        listen: bool = True,
    ) -> None:
        self.url = url
        self.clock = clock
        self.who = who
        self.home = Path(home)
        self.pool = Pool(url)
        try:
            with self.pool.connection() as conn:
                require_current(conn, url)
        except BaseException:
            self.pool.close()
            raise
        #: this store's name on the change channel: its own notifications are not news
        self.token = secrets.token_hex(8)
        self.blobs = PgBlobs(self.pool, spool_dir(self.home), url=url)
        #: the connection of the write transaction this thread is in, if any: reads made
        #: inside a transaction see its writes and take no second connection from the pool
        self._in_tx = threading.local()
        #: the change feed, started by the first who asks (a window, a poll): a one-shot
        #: command never opens its connection nor waits for its thread
        self.listener: Listener | None = None
        self._listen = listen
        self._listener_lock = threading.Lock()
        #: until the feed starts: the newest history row when this store opened, and the
        #: rows it wrote since (what others wrote meanwhile is news once it listens)
        self.opened_at_seq = 0
        self.own_seqs: list[int] = []
        if listen:
            with self.pool.connection() as conn:
                row = conn.execute("SELECT coalesce(max(seq), 0) FROM taskpack.history")
                self.opened_at_seq = int(row.fetchone()[0])  # type: ignore[index]

    def describe(self) -> str:
        return describe(self.url)

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
        self.blobs.drop_copies()
        self.pool.close()

    def __enter__(self) -> PgStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self.pool.connection() as conn:
            return version_of(conn, self.url)

    # -- change notifications --

    def on_change(self, fn: Callable[[], None]) -> Callable[[], None] | None:
        """Call `fn()` (on the listener's thread) soon after another process commits a
        change; returns an unsubscribe (None: this store does not listen). The window hops
        to its own thread and then asks :meth:`changed_since`."""
        listener = self._listening()
        return None if listener is None else listener.subscribe(fn)

    def data_version(self) -> int:
        """Changes when another process (or Store) committed; never for this one's writes.
        Counts from the first call (which starts the change feed)."""
        listener = self._listening()
        return 0 if listener is None else listener.count

    def wrote(self, seq: int) -> None:
        """A history row this store wrote before its feed started (a few thousand at
        most are kept: past that, the feed counts the time before it as news)."""
        if len(self.own_seqs) < 4096:
            self.own_seqs.append(seq)
        else:
            self.opened_at_seq = -1

    def _listening(self) -> Listener | None:
        with self._listener_lock:
            if self.listener is None and self._listen:
                listener = Listener(self.url, self.token)
                try:  # anyone else's change since this store opened counts as heard
                    if self.opened_at_seq < 0:
                        raise StoreError("too many of its own writes to tell")
                    others = self._one(
                        "SELECT count(*) FROM taskpack.history WHERE seq > %s "
                        "AND NOT (seq = ANY(%s))",
                        (self.opened_at_seq, self.own_seqs),
                    )
                    listener.count = 1 if int(others[0]) else 0
                except StoreError:
                    listener.count = 1
                self.listener = listener
                self.own_seqs = []
            return self.listener

    # -- writing --

    @contextlib.contextmanager
    def write(self) -> Iterator[PgTx]:
        """One write transaction: everything in it commits or nothing (a connection lost
        on the way rolls it back; the next command finds it either done or not)."""
        with self.pool.connection() as conn:
            self._in_tx.conn = conn
            committing = False
            try:
                with conn.transaction():
                    tx = PgTx(self, conn)
                    self._in_tx.tx = tx
                    yield tx
                    tx.announce()
                    committing = True
            except psycopg.Error as exc:
                if committing and conn.broken:
                    raise commit_unknown(self.url, exc) from None
                raise change_failed(self.url, exc) from None
            finally:
                self._in_tx.conn = self._in_tx.tx = None

    # -- reading --

    @contextlib.contextmanager
    def _reading(self) -> Iterator[psycopg.Connection[Any]]:
        conn = getattr(self._in_tx, "conn", None)
        if conn is not None:
            tx = getattr(self._in_tx, "tx", None)
            if tx is not None:
                tx.flush()  # a read inside the transaction sees the luggage it added
            yield conn
            return
        with self.pool.connection() as conn:
            yield conn

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        try:
            with self._reading() as conn:
                return conn.execute(sql, pg_args(args)).fetchone()
        except Lost:  # the server dropped it under us: a read runs again on a fresh one
            if getattr(self._in_tx, "conn", None) is not None:
                raise
            with self._reading() as conn:
                return conn.execute(sql, pg_args(args)).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = (), *, binary: bool = False) -> list[Any]:
        """All rows; `binary` results (no text parsing of each value) for long lists."""
        try:
            with self._reading() as conn, conn.cursor(binary=binary) as cur:
                return cur.execute(sql, pg_args(args)).fetchall()
        except Lost:
            if getattr(self._in_tx, "conn", None) is not None:
                raise
            with self._reading() as conn, conn.cursor(binary=binary) as cur:
                return cur.execute(sql, pg_args(args)).fetchall()

    def size_of(self, passport_id: str) -> int:
        row = self._one(
            "SELECT octet_length(data) FROM taskpack.passports WHERE id = %s", (passport_id,)
        )
        if row is None:
            raise no_passport(passport_id)
        return int(row[0] or 0)

    def received_origin(self, passport_id: str) -> dict[str, JSON]:
        try:
            row = self._one(
                "SELECT (data::json #> '{received,origin}')::text FROM taskpack.passports "
                "WHERE id = %s",
                (passport_id,),
            )
        except StoreError:  # JSON PostgreSQL will not parse (a lone surrogate): read it whole
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
        """Passports, most recently changed first; `taken_by` (``name@machine`` or a name)
        keeps those that person took on."""
        sql = f"SELECT {_SUMMARY} FROM taskpack.passports"
        where: list[str] = []
        args: list[object] = []
        if state is not None:
            where.append("state = %s")
            args.append(state)
        if taken_by is not None:
            where.append("(taken_by = %s OR split_part(taken_by, '@', 1) = %s)")
            args += [taken_by, taken_by]
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC, id LIMIT %s OFFSET %s"
        args += [limit, offset]
        return [PassportSummary(*row) for row in self._all(sql, args, binary=True)]

    def changed_since(self, seq: int) -> tuple[int, list[str]]:
        if self.listener is not None and self.listener.lost:
            # asked on a window's own thread: say at once that the store is out of reach
            # rather than wait on the pool; the feed says "look again" when it is back
            raise StoreError(
                f"{self.describe()} cannot be reached",
                hint="The desk keeps trying; what you see may be out of date.",
            )
        rows = self._all(self.sql(CHANGED_SINCE), (seq,))
        newest = max((int(s) for _, s in rows), default=seq)
        return newest, [pid for pid, _ in rows]

    def history(self, passport_id: str) -> list[HistoryEntry]:
        self.require(passport_id)
        rows = self._all(
            "SELECT seq, version, event, at, detail, who, role FROM taskpack.history "
            "WHERE passport_id = %s ORDER BY seq",
            (passport_id,),
        )
        return [
            HistoryEntry(s, v, e, a, json.loads(d), signed(who, role))
            for s, v, e, a, d, who, role in rows
        ]

    # -- blobs (in the database, chunked) --

    # -- housekeeping and health --

    def housekeep(self) -> list[str]:
        """Sweep this machine's spool of half-staged luggage and of copies a crash left
        (backups are pg_dump's)."""
        n = self.blobs.sweep_spool()
        return [f"removed {n} half-written luggage file(s) left by a crash"] if n else []

    def check(self, *, hash_blobs: bool = False) -> list[str]:
        from .doctor import problems

        return problems(self, hash_blobs=hash_blobs)


def _is_a_store(store: PgStore, tx: PgTx) -> tuple[Store, Tx]:
    """Never called: mypy checks here that the team desk keeps the interface."""
    return store, tx
