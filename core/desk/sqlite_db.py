"""Opening, migrating and writing the desk's SQLite databases.

Two databases live in a desk's home and are kept apart on purpose: the passport store
(``store.sqlite3``, :mod:`.store`) and the A2A binding's own (``a2a.sqlite3``). Both
want the same things from SQLite, and get them here:

* one connection shared by the threads of a process, in autocommit mode, so that every
  write is an explicit ``BEGIN IMMEDIATE`` … ``COMMIT`` (:func:`transaction`);
* WAL, and a committed transaction on disk before :func:`transaction` returns, so it
  survives kill -9 and power loss. On POSIX the WAL is synced by :func:`transaction`
  itself, once the write locks are released (SQLite commits with ``synchronous=NORMAL``):
  the next writer, in this process or another, does not wait for this one's fsync
  (:class:`DeskConnection`). Elsewhere SQLite syncs in the commit (``synchronous=FULL``);
* schema steps counted by ``PRAGMA user_version`` (:class:`Migration`, :func:`migrate`);
  a database made by a newer TaskPack Desk is refused, never touched;
* a damaged or unreadable file is one sentence in the caller's own error class, never a
  ``sqlite3`` traceback.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import TaskPackError
from .writer_queue import WriterQueue

#: POSIX: SQLite commits without a sync and `transaction` syncs the WAL after the locks
#: (with many A2A senders at once the desk's write turn is the bottleneck, and a commit's
#: fsync inside it was half of it under load; the next writer now writes while this one
#: syncs). Windows keeps SQLite's own sync in the commit.
LATE_SYNC = os.name == "posix"
#: how the WAL is synced (a test gives its own): its data, as SQLite's own sync does
_datasync = getattr(os, "fdatasync", os.fsync)


class DeskConnection(sqlite3.Connection):
    """A connection that syncs its database's WAL itself, after a commit (`LATE_SYNC`).

    A committed transaction is visible to other connections at once and on disk once
    `sync_wal` returns; :func:`transaction` calls it after releasing the write locks and
    before it returns, so its caller — the one who tells a person or a sender that a write
    is done — is told only once it is durable. Only what the caller was never told of
    (a commit between its COMMIT and its sync) can be lost to a power cut. One sync of the
    file covers every transaction committed before it, this connection's and others'.

    Group commit: each commit takes a ticket (:meth:`committed`); a writer whose commit
    came before a sync that has since ended is on disk already and does not sync again.
    Eight senders over A2A: the commits that waited while another's sync ran go out
    together in the next one, not one sync each."""

    _wal: str | None = None
    _wal_fd: int | None = None
    _wal_lock: threading.Lock
    #: commits made through this connection (each its ticket), and the last ticket that
    #: a finished sync covered
    _commits = 0
    _synced = 0

    def late_sync(self, path: Path | str) -> None:
        """Commit without syncing from now on; `sync_wal` syncs `path`'s WAL."""
        self._wal_lock = threading.Lock()
        self.execute("PRAGMA synchronous=NORMAL")
        self._wal = f"{path}-wal"

    def committed(self) -> int:
        """The ticket of the commit just made (called under the connection's write lock,
        right after COMMIT): `sync_wal` given it knows whether a sync since covered it."""
        self._commits += 1
        return self._commits

    def sync_wal(self, ticket: int | None = None) -> None:
        """Put every commit made so far on disk (nothing to do without `late_sync`); given
        a commit's `ticket`, nothing to do either once a sync begun after it has ended."""
        if self._wal is None:
            return
        # one at a time: a sync after another's finds little left to write
        with self._wal_lock:
            if ticket is not None and self._synced >= ticket:
                return  # a sync that began after this commit has put it on disk
            covers = self._commits  # every commit made so far: this sync covers them
            fd = self._wal_fd
            if fd is not None and os.fstat(fd).st_nlink == 0:  # (a new WAL: follow it)
                os.close(fd)
                fd = self._wal_fd = None
            if fd is None:
                try:
                    fd = self._wal_fd = os.open(
                        self._wal, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
                    )
                except FileNotFoundError:
                    return  # no WAL: no commit waits in one
            _datasync(fd)
            self._synced = max(self._synced, covers)

    def close(self) -> None:
        super().close()
        if self._wal is not None:
            with self._wal_lock:
                if self._wal_fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(self._wal_fd)
                    self._wal_fd = None


@dataclass(frozen=True)
class Migration:
    """One schema step. `statements` run in one transaction with the version bump."""

    version: int
    name: str
    statements: tuple[str, ...]


def _owner_only(path: Path | str) -> None:
    """The database file readable and writable by its owner only (0600): made so before
    SQLite creates it (its -wal and -shm files take the same mode), and an older 0644
    file tightened. An existing file is never opened here: closing any descriptor of it
    would drop every POSIX lock this process holds on it, those of its SQLite connections
    too — and another process closing its last connection would then take the database
    for unused and delete the WAL under them ("disk I/O error", or writes lost)."""
    if str(path) == ":memory:":
        return
    with contextlib.suppress(OSError):  # (FileExistsError: there already; no place: SQLite says)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)


def open_database(
    path: Path,
    *,
    timeout: float,
    error: type[TaskPackError],
    what: str,
    migrations: Sequence[Migration] = (),
    foreign_keys: bool = False,
    versions_in_message: bool = True,
    then: Callable[[sqlite3.Connection], None] | None = None,
    before_migrate: Callable[[sqlite3.Connection, int], None] | None = None,
) -> sqlite3.Connection:
    """Connect to `path` (WAL; each commit on disk before :func:`transaction` returns,
    :class:`DeskConnection`), bring its schema up to `migrations`,
    then run `then` (a step every open needs, such as minting a row that must exist).
    `before_migrate(db, current)` runs before an existing database (schema `current` > 0)
    is migrated: the place to take a backup.

    `what` names the database in messages ("the passport store at …"). Any
    ``sqlite3.DatabaseError`` on the way becomes ``error("<what> cannot be opened (…)")``;
    a newer schema is refused as :func:`migrate` says. Writers wait up to `timeout`
    seconds for each other, here and in every later transaction.
    """
    _owner_only(path)
    try:
        db = sqlite3.connect(
            path,
            timeout=timeout,
            isolation_level=None,
            check_same_thread=False,
            factory=DeskConnection,
        )
        try:
            _into_wal(db, timeout)
            if LATE_SYNC and str(path) != ":memory:":
                db.late_sync(path)
            else:
                db.execute("PRAGMA synchronous=FULL")
            if foreign_keys:
                db.execute("PRAGMA foreign_keys=ON")
            migrate(
                db,
                migrations,
                error=error,
                what=what,
                versions_in_message=versions_in_message,
                before=before_migrate,
            )
            if then is not None:
                then(db)
        except BaseException:
            db.close()
            raise
    except sqlite3.DatabaseError as exc:
        raise error(f"{what} cannot be opened ({exc})") from None
    return db


def _into_wal(db: sqlite3.Connection, timeout: float) -> None:
    """``PRAGMA journal_mode=WAL``, waiting for other openers as every write does.

    Switching a database into WAL needs a lock SQLite does not wait for (its busy handler
    is not called there, to avoid a deadlock): several processes opening a brand-new store
    at once get "database is locked" at once. So the switch is retried, with a growing
    pause, up to `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def migrate(
    db: sqlite3.Connection,
    migrations: Sequence[Migration],
    *,
    error: type[TaskPackError],
    what: str,
    versions_in_message: bool = True,
    before: Callable[[sqlite3.Connection, int], None] | None = None,
) -> None:
    """Apply, in version order and in one transaction, every migration newer than the
    database's ``user_version``. Nothing to do takes no write lock.

    A database whose ``user_version`` is above every migration's was made by a newer
    TaskPack Desk: raises `error` and changes nothing. `versions_in_message` adds the two
    schema numbers to that sentence.

    Call it only while `db` is not yet shared with other threads (as
    :func:`open_database` does): it takes no lock of the caller's.
    """
    latest = max((m.version for m in migrations), default=0)
    current = _schema_version(db, latest, error, what, versions_in_message)
    if current == latest:
        return
    if before is not None and current > 0:
        before(db, current)
    with transaction(db, contextlib.nullcontext()):
        # read again under the write lock: another process may have migrated meanwhile
        current = _schema_version(db, latest, error, what, versions_in_message)
        for m in sorted(migrations, key=lambda m: m.version):
            if m.version <= current:
                continue
            for statement in m.statements:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {int(m.version)}")


def _schema_version(
    db: sqlite3.Connection,
    latest: int,
    error: type[TaskPackError],
    what: str,
    versions_in_message: bool,
) -> int:
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    if current > latest:
        message = f"{what} was made by a newer TaskPack Desk"
        if versions_in_message:
            message += f" (schema {current}, this one knows {latest})"
        raise error(message, hint="Update TaskPack Desk; nothing was changed.")
    return current


@contextlib.contextmanager
def transaction(
    db: sqlite3.Connection,
    lock: contextlib.AbstractContextManager[object],
    writers: WriterQueue | None = None,
) -> Iterator[sqlite3.Connection]:
    """One write transaction (``BEGIN IMMEDIATE``) holding `lock` — the lock that keeps the
    threads sharing `db` apart — and, when given, a turn in the queue of the database's
    writers in other processes: everything in it commits, or on any exception nothing.
    What commits is on disk when this returns: a :class:`DeskConnection` syncs it here,
    after the locks are released, so the next writer need not wait for the disk."""
    with lock, writers.held() if writers is not None else contextlib.nullcontext():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        ticket = db.committed() if isinstance(db, DeskConnection) else 0
    if isinstance(db, DeskConnection):
        db.sync_wal(ticket)
