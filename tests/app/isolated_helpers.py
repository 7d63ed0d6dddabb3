"""Functions run in a helper process by tests/app/test_isolated.py (importable there)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from taskpack.core.errors import Cancelled


def review(desk: Any, path: Path, progress: Any, cancelled: Any) -> Any:
    return desk.review(path, progress=progress, cancel=cancelled)


def review_handed(desk: Any, path: Path, fd: int, progress: Any, cancelled: Any) -> Any:
    with os.fdopen(fd, "rb") as f:
        return desk.review(f, name=str(path), progress=progress, cancel=cancelled)


def land(desk: Any, path: Path, progress: Any, cancelled: Any) -> Any:
    return desk.land(path, progress=progress, cancel=cancelled)


def until_cancelled(desk: Any, progress: Any, cancelled: Any) -> str:
    for n in range(6000):
        progress(n, 6000)
        if cancelled():
            raise Cancelled()
        time.sleep(0.01)
    return "never cancelled"
