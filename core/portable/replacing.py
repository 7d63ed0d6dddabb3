"""Replace and move files on any system, including while another program holds them.

On POSIX a rename is atomic and never blocked by a reader. Windows refuses to rename,
replace or delete a file while any other handle to it is open without delete sharing
(``ERROR_SHARING_VIOLATION``, ``ERROR_ACCESS_DENIED``, ``ERROR_LOCK_VIOLATION``): a virus
scanner or the search indexer opens each new file for a moment, so the first try of a
just-written file's rename often fails there. :func:`replace` tries again for a while
(`patience`, 2 s by default, with a growing pause), then raises the last error; nothing
was changed then. A file that stays open (a second desk window) is not waited for long.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from .long_paths import extended

#: the Windows errors that mean "someone holds it right now", not "never"
_HELD = {5, 32, 33}  # access denied (a pending delete too), sharing violation, lock violation
_RETRYING = os.name == "nt"


def held_by_another(exc: OSError) -> bool:
    """Is `exc` Windows saying another program has the file open?"""
    return getattr(exc, "winerror", None) in _HELD


def replace(src: Path | str, dst: Path | str, *, patience: float = 2.0) -> None:
    """``os.replace(src, dst)``, tried again while Windows says another program holds one
    of them (for up to `patience` seconds)."""
    if not _RETRYING:
        os.replace(src, dst)
        return
    src, dst = extended(src), extended(dst)  # past MAX_PATH too (a folder a person chose)
    deadline = time.monotonic() + patience
    pause = 0.01
    while True:
        try:
            os.replace(src, dst)
            return
        except OSError as exc:
            if not held_by_another(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def unlink(path: Path | str, *, patience: float = 2.0, missing_ok: bool = False) -> None:
    """``os.unlink(path)``, tried again as :func:`replace` is."""
    path = extended(path)
    deadline = time.monotonic() + patience
    pause = 0.01
    while True:
        try:
            os.unlink(path)
            return
        except FileNotFoundError:
            if missing_ok:
                return
            raise
        except OSError as exc:
            if not (_RETRYING and held_by_another(exc)) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)
