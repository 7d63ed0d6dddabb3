"""Reading a file at an offset without moving the position another reader shares.

POSIX has ``os.pread`` and ``os.preadv``: a stored ZIP entry is read straight from the
pack's descriptor, any number at once, while `zipfile` reads others through the same
descriptor. Windows' Python has neither, and Windows' own positioned read (``ReadFile``
with an offset) moves the file pointer that `zipfile`'s buffered reader relies on. So
:data:`AVAILABLE` is False there and the callers read through `zipfile` instead (its own
lock and seek), which is slower and as strict.
"""

from __future__ import annotations

import os

#: positioned reads that leave the shared file position alone exist here
AVAILABLE = hasattr(os, "pread") and hasattr(os, "preadv")


def pread_into(fd: int, view: memoryview, offset: int) -> int:
    """Read up to ``len(view)`` bytes at `offset` into `view`; 0 at the end."""
    return os.preadv(fd, [view], offset)


def pread(fd: int, n: int, offset: int) -> bytes:
    """Up to `n` bytes at `offset` (fewer only at the end of the file)."""
    return os.pread(fd, n, offset)
