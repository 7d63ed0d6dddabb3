"""Which store a desk opens: the team desk named by TASKPACK_STORE (or the settings'
`store`), else the embedded SQLite desk in TASKPACK_HOME, exactly as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.desk.store import Store, utc_now

from .connect import store_url


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
    from .pg_store import PgStore  # psycopg is loaded only for a team desk

    return PgStore(url, home=home, who=who, clock=clock)
