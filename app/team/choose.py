"""Which store a desk opens: the team desk named by TASKPACK_STORE (or the settings'
`store`), else the embedded SQLite desk in TASKPACK_HOME, exactly as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.desk.store import Store, utc_now
from taskpack.core.errors import StoreError

from .url import STORE_ENV, describe, shown, store_url, where

__all__ = ["STORE_ENV", "describe", "open_store", "shown", "store_url", "where"]


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
