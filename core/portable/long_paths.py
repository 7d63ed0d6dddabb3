"""Paths past Windows' old limit of 260 characters (MAX_PATH).

Windows' file functions refuse a path of 260 characters or more (a folder 248) unless it
is written in its extended form — ``\\\\?\\C:\\…`` on a drive, ``\\\\?\\UNC\\server\\share\\…``
on a network share — or the whole computer has ``LongPathsEnabled`` set, which a per-user
install cannot count on. A person's Documents folder, a project tree and a luggage name
that is itself a path can add up to that.

:func:`extended` is the one place that form is made: on Windows, for an absolute path long
enough to need it; a short path, a relative one and every path elsewhere are given back as
they are, so what a person reads in a message stays the name they know. The extended
form is taken literally by Windows (no ``/`` to ``\\``, no ``..``, no trailing dot or
space dropped), so it is made from the normalized path. :func:`plain` turns it back for
messages; :func:`resolve` is ``Path.resolve`` that also works past the limit.

The mapping itself (:func:`extended_form`) is ``ntpath`` only, so it is tested anywhere.
"""

from __future__ import annotations

import ntpath
import os
from pathlib import Path

#: from this length on (in UTF-16 units, as Windows counts) a Windows path is given its
#: extended form: the limit of a folder's path, MAX_PATH less room for an 8.3 file name
LIMIT = 248
_WINDOWS = os.name == "nt"

_PREFIX = "\\\\?\\"
_UNC_PREFIX = "\\\\?\\UNC\\"
_DEVICE_PREFIX = "\\\\.\\"


def extended_form(path: str) -> str:
    """`path`, a Windows path, in its extended-length form, whatever its length.

    ``C:\\a\\b`` → ``\\\\?\\C:\\a\\b``; ``\\\\server\\share\\a`` → ``\\\\?\\UNC\\server\\share\\a``.
    A path already extended, a device path (``\\\\.\\``), and one that names no drive or
    share (``a\\b``, ``\\a``, ``C:a``: the extended form cannot say what it is relative to)
    are given back unchanged."""
    if path.startswith((_PREFIX, _DEVICE_PREFIX)):
        return path
    drive, rest = ntpath.splitdrive(path)
    if not drive or not rest.startswith(("\\", "/")):
        return path
    normal = ntpath.normpath(path)
    if normal.startswith("\\\\"):  # \\server\share\…
        return _UNC_PREFIX + normal[2:]
    return _PREFIX + normal


def plain(path: str) -> str:
    """The usual form of an extended path (for a person to read); others unchanged."""
    if path.startswith(_UNC_PREFIX):
        return "\\\\" + path[len(_UNC_PREFIX) :]
    if path.startswith(_PREFIX) and path[len(_PREFIX) + 1 : len(_PREFIX) + 2] == ":":
        return path[len(_PREFIX) :]
    return path


def extended(path: str | os.PathLike[str]) -> str:
    """`path` as the file functions of this system take it: on Windows an absolute path of
    `LIMIT` characters or more in its extended form; otherwise `path` as it is."""
    text = os.fspath(path)
    if not _WINDOWS or len(text.encode("utf-16-le", "surrogatepass")) // 2 < LIMIT:
        return text
    return extended_form(text)


def resolve(path: str | os.PathLike[str]) -> Path:
    """``Path(path).resolve()``, which on Windows fails past the limit: resolved in the
    extended form there, and given back in the usual one. Where Windows cannot name the
    final path (Wine answers ERROR_MORE_DATA past MAX_PATH), the absolute path."""
    if not _WINDOWS:
        return Path(path).resolve()
    absolute = ntpath.abspath(os.fspath(path))
    try:
        return Path(plain(ntpath.realpath(extended_form(absolute))))
    except OSError:
        return Path(absolute)
