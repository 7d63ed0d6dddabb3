"""Writing a luggage file into a folder a person chose, under the name the sender gave it.

The name is the sender's: it is only ever joined below the folder, part by part. A part
that is empty, ``.`` or ``..``, holds a separator or a NUL, or an absolute name, is refused;
each folder on the way is created inside the target and may not be a symbolic link; the
file is created new (``O_EXCL``, never through a link), so an existing file is never
overwritten. What cannot be written is skipped, with the reason, and nothing is left
half-written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from taskpack.core.portable.long_paths import extended, resolve

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def _parts(name: str) -> list[str] | None:
    if not name or "\x00" in name or "\\" in name or name.startswith("/"):
        return None
    parts = list(PurePosixPath(name).parts)
    if not parts or any(p in ("", ".", "..") or ":" in p for p in parts):
        return None
    return parts


def write_inside(folder: Path, name: str, src: BinaryIO) -> tuple[Path | None, str]:
    """(the file written, "") or (None, why it was skipped)."""
    parts = _parts(name)
    if parts is None:
        return None, "its name would leave the folder"
    # every call below takes the path past Windows' MAX_PATH too (`extended`); the
    # path said to the person is the usual one
    root = resolve(folder)
    here = root
    for part in parts[:-1]:
        here = here / part
        if os.path.islink(extended(here)):
            return None, "a folder on its way is a symbolic link"
        try:
            os.mkdir(extended(here))
        except FileExistsError as exc:
            if not os.path.isdir(extended(here)):
                return None, f"its folder cannot be made ({exc.strerror or exc})"
        except OSError as exc:
            return None, f"its folder cannot be made ({exc.strerror or exc})"
        if os.path.islink(extended(here)) or not resolve(here).is_relative_to(root):
            return None, "its name would leave the folder"
    path = here / parts[-1]
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY
    try:
        fd = os.open(extended(path), flags, 0o644)
    except FileExistsError:
        return None, "a file of that name is already there (never overwritten)"
    except OSError as exc:
        return None, f"it cannot be written ({exc.strerror or exc})"
    try:
        with os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 20)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(extended(path))
        raise
    return path, ""
