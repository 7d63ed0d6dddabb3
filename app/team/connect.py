"""Connecting to a team desk: the URL as a person may show it (never the password), the
pool each process keeps, and psycopg's errors as one line naming the store and what to do."""

from __future__ import annotations

import logging
import os
import select
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool
from taskpack.core.errors import StoreError

from .url import check, describe

# the pool retries on its own and says so at WARNING; our errors say it once, in one line
logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)
# psycopg warns on its own of a COPY it could not end on a lost connection; the change
# that COPY belonged to already says so in one line
logging.getLogger("psycopg").setLevel(logging.ERROR)
#: connections one process keeps open to the team desk (readers and writers share them)
POOL_MAX = int(os.environ.get("TASKPACK_STORE_POOL", "4"))
#: seconds a statement waits for a lock (a row, an advisory lock on a pack) before the
#: change is given up with a sentence, rather than hanging on a session that holds it
LOCK_TIMEOUT_S = float(os.environ.get("TASKPACK_STORE_LOCK_TIMEOUT", "30"))
#: seconds one statement may run (a luggage chunk is 4 MiB: none needs long)
STATEMENT_TIMEOUT_S = float(os.environ.get("TASKPACK_STORE_STATEMENT_TIMEOUT", "300"))
#: the session settings every connection starts with (libpq's `options`)
SESSION_OPTIONS = (
    f"-c lock_timeout={int(LOCK_TIMEOUT_S * 1000)} "
    f"-c statement_timeout={int(STATEMENT_TIMEOUT_S * 1000)}"
)


class Lost(StoreError):
    """The server dropped the connection under a statement (a restart, a failover): a read
    may run again at once on a fresh one; a write was rolled back whole."""


def problem(url: str, exc: BaseException) -> StoreError:
    """A psycopg failure as one sentence naming the store (never its password)."""
    what = describe(url)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    low = text.lower()
    if "no password supplied" in low:
        return StoreError(
            f"{what} asks for a password and none was given",
            hint="Put it in PGPASSWORD or ~/.pgpass for this role; nothing was written.",
        )
    if "password authentication failed" in low:
        return StoreError(
            f"{what} refused the password",
            hint="Check PGPASSWORD or ~/.pgpass for this role; nothing was written.",
        )
    if "insufficient_privilege" in low or "permission denied" in low or "admin role" in low:
        return StoreError(
            f"{what} does not let this role do that ({text})",
            hint="Ask the desk's admin for the rights (taskpack store grant ROLE, or "
            "--admin for the tokens peers present); nothing was written.",
        )
    if "lock timeout" in low:
        return StoreError(
            f"{what} waited {LOCK_TIMEOUT_S:g} s for a lock another session holds",
            hint="Nothing of that change was kept; run the command again. If it keeps "
            "waiting, look for the session holding it (pg_locks) and end it.",
        )
    if "statement timeout" in low:
        return StoreError(
            f"{what} took longer than {STATEMENT_TIMEOUT_S:g} s for one statement",
            hint="Nothing of that change was kept; run the command again when the database "
            "is less busy.",
        )
    if "does not exist" in low and "database" in low:
        return StoreError(
            f"{what} names a database that does not exist",
            hint="Create it (createdb) or fix TASKPACK_STORE; nothing was written.",
        )
    if (
        "connection refused" in low
        or "could not translate host" in low
        or "timeout" in low
        or "couldn't get a connection" in low  # the pool waited and none came
    ):
        return StoreError(
            f"{what} cannot be reached ({text})",
            hint="Check the host and port in TASKPACK_STORE and that PostgreSQL runs; "
            "nothing was written.",
        )
    return StoreError(f"{what} failed ({text})", hint="Nothing was written.")


def change_failed(url: str, exc: BaseException) -> StoreError:
    """A write transaction that failed, rolled back whole: one sentence, and what to do."""
    error = problem(url, exc)
    if "waited" in error.message or "took longer" in error.message:
        return error
    if "does not let" in error.message:
        return StoreError(error.message, hint="Nothing of that change was kept. " + error.hint)
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return StoreError(
        f"{describe(url)} failed during a change ({text})",
        hint="Nothing of that change was kept; run the command again.",
    )


def commit_unknown(url: str, exc: BaseException) -> StoreError:
    """The connection was lost while the server committed: only the server knows whether
    it did (a failover may even have lost a commit it made), so say both may be true."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return StoreError(
        f"{describe(url)} lost the connection while it committed a change ({text})",
        hint="The change may or may not have been kept: look (taskpack list, taskpack open "
        "ID) before making it again. Landing the same pack again is always safe: it lands "
        "once.",
    )


def check_url(url: str) -> None:
    check(url)


def connect(url: str, **kw: Any) -> psycopg.Connection[Any]:
    """One connection (for LISTEN, init and the doctor), errors as StoreError."""
    check_url(url)
    kw.setdefault("options", SESSION_OPTIONS)
    try:
        return psycopg.connect(url, connect_timeout=10, **kw)
    except psycopg.Error as exc:
        raise problem(url, exc) from None


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """Raise if the server ended `conn` while it sat in the pool. A server that ends a
    session (a restart, a crash, a failover, an admin's pg_terminate_backend) sends its
    last words or closes the socket, so an idle connection with nothing to read is alive
    as far as a round trip could tell; only one with something waiting (that, or a
    notice) is asked with one. A landing takes four connections: four round trips saved."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    if _readable(conn.fileno()):
        ConnectionPool.check_connection(conn)


def _readable(fd: int) -> bool:
    if hasattr(select, "poll"):  # any descriptor number, unlike select()
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


class Pool:
    """The connections one process keeps to the team desk; every use names the store in
    its errors."""

    def __init__(self, url: str, *, max_size: int = POOL_MAX) -> None:
        connect(url).close()  # unreachable, refused, no such database: one line, at once
        self.url = url
        self._pool: ConnectionPool[Any] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, max_size),
            kwargs={"connect_timeout": 10, "autocommit": True, "options": SESSION_OPTIONS},
            open=False,
            # a request waits this long for a connection while the server is away, then
            # says it cannot be reached (the pool goes on reconnecting behind it)
            timeout=10,
            reconnect_timeout=30,
            # a connection the server dropped (a restart, a failover) is found and replaced
            # when it is taken, not handed to a request that then fails
            check=check_idle,
        )
        try:
            self._pool.open(wait=True, timeout=15)
        except Exception:
            self._pool.close()
            connect(url).close()  # the one-line reason, from a plain connection
            raise StoreError(f"{describe(url)} cannot be reached") from None

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        used: psycopg.Connection[Any] | None = None
        try:
            with self._pool.connection() as conn:
                used = conn
                yield conn
        except psycopg.Error as exc:
            error = problem(self.url, exc)
            if used is not None and used.broken:
                raise Lost(error.message, hint=error.hint) from None
            raise error from None

    def close(self) -> None:
        self._pool.close()


def spool_dir(home: Path) -> Path:
    """Where a team desk's staged blobs and copied-out luggage wait on this machine."""
    return Path(home) / "team-spool"
