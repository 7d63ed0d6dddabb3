"""Locks on files without ``fcntl`` where there is none.

Two kinds, because POSIX has two that do not see each other:

* :func:`try_lock_file` / :func:`unlock_file` — the whole file, held by this open file
  (``flock`` on POSIX: two descriptors of one process exclude each other too);
* :func:`try_lock_byte` / :func:`unlock_byte` — one byte, as SQLite locks its files
  (``fcntl`` record locks on POSIX: held by the process; ``LockFile`` on Windows, the
  same call SQLite's Windows VFS makes, so the two see each other's locks).

On Windows both are ``LockFileEx`` on one byte (held by the handle; ``msvcrt.locking``
fails outright under Wine, and it moves the file position). Each try is
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
    import ctypes
    import msvcrt
    from ctypes import wintypes

    class _Overlapped(ctypes.Structure):
        _fields_ = [
            ("Internal", ctypes.c_void_p),
            ("InternalHigh", ctypes.c_void_p),
            ("Offset", wintypes.DWORD),
            ("OffsetHigh", wintypes.DWORD),
            ("hEvent", wintypes.HANDLE),
        ]

    _kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    _lock_file_ex = _kernel32.LockFileEx
    _lock_file_ex.argtypes = [
        wintypes.HANDLE,
        wintypes.DWORD,
        wintypes.DWORD,
        wintypes.DWORD,
        wintypes.DWORD,
        ctypes.POINTER(_Overlapped),
    ]
    _lock_file_ex.restype = wintypes.BOOL
    _unlock_file_ex = _kernel32.UnlockFileEx
    _unlock_file_ex.argtypes = [
        wintypes.HANDLE,
        wintypes.DWORD,
        wintypes.DWORD,
        wintypes.DWORD,
        ctypes.POINTER(_Overlapped),
    ]
    _unlock_file_ex.restype = wintypes.BOOL
    _EXCLUSIVE, _IMMEDIATELY = 0x2, 0x1
    _LOCK_VIOLATION, _IO_PENDING = 33, 997

    def _lock(fd: int, offset: int) -> bool:
        place = _Overlapped(Offset=offset)
        if _lock_file_ex(msvcrt.get_osfhandle(fd), _EXCLUSIVE | _IMMEDIATELY, 0, 1, 0, place):
            return True
        error = ctypes.get_last_error()
        if error in (_LOCK_VIOLATION, _IO_PENDING):
            return False
        raise ctypes.WinError(error)

    def _unlock(fd: int, offset: int) -> None:
        if not _unlock_file_ex(msvcrt.get_osfhandle(fd), 0, 1, 0, _Overlapped(Offset=offset)):
            raise ctypes.WinError(ctypes.get_last_error())

    def try_lock_file(fd: int) -> bool:
        return _lock(fd, 0)

    def unlock_file(fd: int) -> None:
        _unlock(fd, 0)

    def try_lock_byte(fd: int, offset: int) -> bool:
        return _lock(fd, offset)

    def unlock_byte(fd: int, offset: int) -> None:
        _unlock(fd, offset)

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
