"""Connecting to a team desk: the URL as a person may show it (never the password), the
pool each process keeps, and psycopg's errors as one line naming the store and what to do."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg_pool import ConnectionPool
from taskpack.core.errors import StoreError

from .urls import describe

# the pool retries on its own and says so at WARNING; our errors say it once, in one line
logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)
#: connections one process keeps open to the team desk (readers and writers share them)
POOL_MAX = int(os.environ.get("TASKPACK_STORE_POOL", "4"))


class Lost(StoreError):
    """The server dropped the connection under a statement (a restart, a failover): a read
    may run again at once on a fresh one; a write was rolled back whole."""


def problem(url: str, exc: BaseException) -> StoreError:
    """A psycopg failure as one sentence naming the store (never its password)."""
    what = describe(url)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    password = urlsplit(url).password if "://" in url else None
    if password:
        text = text.replace(password, "***")
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        return StoreError(
            f"{what} refused the password",
            hint="Check PGPASSWORD or ~/.pgpass for this role; nothing was written.",
        )
    if "does not exist" in low and "database" in low:
        return StoreError(
            f"{what} names a database that does not exist",
            hint="Create it (createdb) or fix TASKPACK_STORE; nothing was written.",
        )
    if "connection refused" in low or "could not translate host" in low or "timeout" in low:
        return StoreError(
            f"{what} cannot be reached ({text})",
            hint="Check the host and port in TASKPACK_STORE and that PostgreSQL runs; "
            "nothing was written.",
        )
    return StoreError(f"{what} failed ({text})", hint="Nothing was written.")


def check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise StoreError(f"{describe(url)} is not a URL PostgreSQL reads ({exc})") from None
    if parts.scheme not in ("postgresql", "postgres"):
        raise StoreError(
            f"{describe(url)} is not a PostgreSQL URL",
            hint="Use postgresql://USER@HOST:PORT/DB, or unset TASKPACK_STORE.",
        )


def connect(url: str, **kw: Any) -> psycopg.Connection[Any]:
    """One connection (for LISTEN, init and the doctor), errors as StoreError."""
    check_url(url)
    try:
        return psycopg.connect(url, connect_timeout=10, **kw)
    except psycopg.Error as exc:
        raise problem(url, exc) from None


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
            kwargs={"connect_timeout": 10, "autocommit": True},
            open=False,
            timeout=30,
            reconnect_timeout=30,
            # a connection the server dropped (a restart, a failover) is found and replaced
            # when it is taken, not handed to a request that then fails
            check=ConnectionPool.check_connection,
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
