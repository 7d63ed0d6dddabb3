"""Writing files safely: whole or not at all, and a full disk said as what it is.

    with atomic_write(path) as f:      # f is a binary file; nothing is at `path` yet
        f.write(data)                  # an exception here leaves `path` as it was
    # here `path` holds exactly what was written (fsynced, and its folder too)

The one copy of the temp-file-then-replace dance (settings, drafts, a kept reply, a
luggage file saved from the window, the store's health stamp). The pack writer keeps its
own loop because it must scan before the rename; it follows the same rules.

``ENOSPC`` (and a full quota, ``EDQUOT``) reach us as an ``OSError`` from a write, or as
SQLite's "database or disk is full". Both become :class:`~taskpack.core.errors.DiskFull`,
raised after whatever was half-written has been removed, so "nothing was written" is true.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import DiskFull
from .portable import replacing
from .portable.long_paths import extended

__all__ = [
    "atomic_write",
    "disk_full",
    "free_bytes",
    "fsync_dir",
    "is_disk_full",
    "space_for",
    "write_bytes_atomically",
]

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
SQLITE_FULL = 13


@contextlib.contextmanager
def atomic_write(path: Path | str, *, fsync: bool = True) -> Iterator[BinaryIO]:
    """Write `path` atomically (see module doc). `fsync=False` for files that may be lost
    in a power cut (a cache) but must never be seen half-written."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=extended(path.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        replacing.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if fsync:
        fsync_dir(path.parent)


def write_bytes_atomically(path: Path | str, data: bytes, *, fsync: bool = True) -> Path:
    with atomic_write(path, fsync=fsync) as f:
        f.write(data)
    return Path(path)


def fsync_dir(path: Path) -> None:
    """Make a rename in `path` durable (POSIX; Windows cannot open a folder to fsync it)."""
    if os.name != "posix":  # pragma: no cover
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return exc.errno in _FULL
    # sqlite3 only when it is already loaded: a process that never opened a database
    # cannot be holding one of its errors (and start-up stays free of the import)
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(exc, sqlite3.OperationalError):
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
    except Exception as exc:
        if is_disk_full(exc):
            raise disk_full(where, needed=needed) from None
        raise
