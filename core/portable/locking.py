"""Locks on files without ``fcntl`` where there is none.

Two kinds, because POSIX has two that do not see each other:

* :func:`try_lock_file` / :func:`unlock_file` — the whole file, held by this open file
  (``flock`` on POSIX: two descriptors of one process exclude each other too);
* :func:`try_lock_byte` / :func:`unlock_byte` — one byte, as SQLite locks its files
  (``fcntl`` record locks on POSIX: held by the process; ``LockFile`` on Windows, the
  same call SQLite's Windows VFS makes, so the two see each other's locks).

On Windows both are ``msvcrt.locking`` on a byte range (held by the handle). Each try is
non-blocking: True when the lock is now held, False when someone else holds it. An
``OSError`` other than "held" (a file system without locks) is the caller's to handle.
"""

from __future__ import annotations

import errno
import os
import sys

_HELD_ERRNOS = {errno.EACCES, errno.EAGAIN, errno.EDEADLK}
#: a lock file's descriptor stays in this process (POSIX: close-on-exec; Windows: not
#: inherited by child processes)
_PRIVATE = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)


def open_lock_file(path: str | os.PathLike[str]) -> int:
    """A descriptor for locking `path` (made if missing, for its owner only)."""
    return os.open(path, os.O_RDWR | os.O_CREAT | _PRIVATE, 0o600)


if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int, offset: int, mode: int) -> bool:
        os.lseek(fd, offset, os.SEEK_SET)  # msvcrt locks from the current position
        try:
            msvcrt.locking(fd, mode, 1)
        except OSError as exc:
            if exc.errno in _HELD_ERRNOS or getattr(exc, "winerror", None) in (33, 158):
                return False
            raise
        return True

    def try_lock_file(fd: int) -> bool:
        return _lock(fd, 0, msvcrt.LK_NBLCK)

    def unlock_file(fd: int) -> None:
        _lock(fd, 0, msvcrt.LK_UNLCK)

    def try_lock_byte(fd: int, offset: int) -> bool:
        return _lock(fd, offset, msvcrt.LK_NBLCK)

    def unlock_byte(fd: int, offset: int) -> None:
        _lock(fd, offset, msvcrt.LK_UNLCK)

else:
    import fcntl

    def try_lock_file(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock_file(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

    def try_lock_byte(fd: int, offset: int) -> bool:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
        except OSError as exc:
            if exc.errno in _HELD_ERRNOS:
                return False
            raise
        return True

    def unlock_byte(fd: int, offset: int) -> None:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset)
