"""A full disk said as what it is: where, how much was needed, how much is free.

``ENOSPC`` (and a full quota, ``EDQUOT``) reach us as an ``OSError`` from a write, or as
SQLite's "database or disk is full". Both become :class:`~.errors.DiskFull`, raised after
whatever was half-written has been removed, so "nothing was written" is true.
"""

from __future__ import annotations

import contextlib
import errno
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from .errors import DiskFull

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
SQLITE_FULL = 13


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return exc.errno in _FULL
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == SQLITE_FULL or "disk is full" in str(exc)
    return False


def free_bytes(where: Path) -> int | None:
    for p in (where, *where.parents):
        with contextlib.suppress(OSError):
            if p.exists():
                return shutil.disk_usage(p).free
    return None


def disk_full(where: Path, *, needed: int | None = None) -> DiskFull:
    return DiskFull(str(where), needed=needed, free=free_bytes(where))


@contextlib.contextmanager
def space_for(where: Path, *, needed: int | None = None) -> Iterator[None]:
    """Turn a full disk inside the block into DiskFull naming `where` (the caller removes
    its own half-written file first, as its `except`/`finally` does)."""
    try:
        yield
    except (OSError, sqlite3.OperationalError) as exc:
        if is_disk_full(exc):
            raise disk_full(where, needed=needed) from None
        raise
