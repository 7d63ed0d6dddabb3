"""A file written whole or not at all: a temp file beside it, flushed, renamed over it.

    with atomic_write(path) as f:      # f is a binary file; nothing is at `path` yet
        f.write(data)                  # an exception here leaves `path` as it was
    # here `path` holds exactly what was written (fsynced, and its folder too)

The one copy of the temp-file-then-replace dance (settings, drafts, a kept reply, a
luggage file saved from the window, the store's health stamp). The pack writer keeps its
own loop because it must scan before the rename; it follows the same rules.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["atomic_write", "fsync_dir", "write_bytes_atomically"]


@contextlib.contextmanager
def atomic_write(path: Path | str, *, fsync: bool = True) -> Iterator[BinaryIO]:
    """Write `path` atomically (see module doc). `fsync=False` for files that may be lost
    in a power cut (a cache) but must never be seen half-written."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
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
