"""Which store a desk opens: the team desk named by TASKPACK_STORE (or the settings'
`store`), else the embedded SQLite desk in TASKPACK_HOME, exactly as before."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.desk.store import Store, utc_now
from taskpack.core.errors import StoreError

from .url import BadUrl, parse

STORE_ENV = "TASKPACK_STORE"


def store_url(settings_store: str | None) -> str | None:
    """The team desk this process uses: TASKPACK_STORE, else the settings' `store`.
    (Here, not beside the connections: an embedded desk never loads psycopg.)"""
    return (os.environ.get(STORE_ENV) or "").strip() or settings_store or None


def shown(url: str) -> str:
    """The URL with any password taken out: safe for messages and logs."""
    try:
        return parse(url).shown()
    except BadUrl:
        return "a team desk URL that cannot be read"


def where(url: str) -> str:
    """A team desk in a few words for a status line: ``DB on HOST:PORT``."""
    try:
        return parse(url).where()
    except BadUrl:
        return shown(url)


def describe(url: str) -> str:
    return f"the team desk {shown(url)}"


def _team_extra_missing(exc: ImportError) -> bool:
    """The driver itself is not installed (the `team` extra was left out), as opposed to
    a driver that is there but cannot load its C library."""
    name = exc.name if isinstance(exc, ModuleNotFoundError) else None
    return (name or "").split(".")[0] in {"psycopg", "psycopg_pool"}


def open_store(
    home: Path,
    *,
    settings_store: str | None,
    who: str,
    clock: Callable[[], str] = utc_now,
) -> Store:
    url = store_url(settings_store)
    if url is None:
        return SqliteStore(home, clock=clock)
    try:
        from .pg_store import PgStore  # psycopg is loaded only for a team desk
    except ImportError as exc:
        if not _team_extra_missing(exc):  # e.g. a build without the PostgreSQL client library
            raise StoreError(
                f"{describe(url)} cannot be opened here: the PostgreSQL client library did "
                f"not load ({exc})",
                hint="Install libpq (Debian: sudo apt-get install libpq5), "
                "or unset TASKPACK_STORE.",
            ) from None
        raise StoreError(
            f"{describe(url)} is a team desk, and this installation has no PostgreSQL "
            f"driver ({exc.name} is not installed)",
            hint="Install the team extra (pip install 'taskpack-desk[team]'), "
            "or unset TASKPACK_STORE.",
        ) from None

    return PgStore(url, home=home, who=who, clock=clock)
