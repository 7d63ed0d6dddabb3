"""Handing a file to the rest of the desktop: the mail client, the file manager, a browser.

Nothing here ever runs anything taken from a pack: the only programs started are the
platform's own mail/file-manager launchers, with a file path this desk wrote as the
argument (never through a shell). Tests replace `run` and `open_url`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices


def run(argv: list[str]) -> bool:
    """Start a desktop helper detached; True if it started."""
    try:
        subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    except OSError:
        return False
    return True


def open_url(url: QUrl) -> bool:
    return QDesktopServices.openUrl(url)


def reveal(path: Path) -> bool:
    """Show `path` in the file manager (its folder, where selecting is not possible)."""
    if sys.platform == "darwin":
        return run(["open", "-R", str(path)])
    if sys.platform == "win32":
        return run(["explorer", "/select,", str(path)])
    return open_url(QUrl.fromLocalFile(str(path.parent)))


def mailto(subject: str, body: str) -> QUrl:
    return QUrl(f"mailto:?subject={quote(subject)}&body={quote(body)}")


def email(path: Path, subject: str, body: str) -> str:
    """Open the mail client with `path` attached where the platform allows.

    Returns how it was done: ``"attached"`` (xdg-email / Thunderbird took the file),
    ``"mailto"`` (a new message without the file, and the file revealed in the file
    manager so it can be dragged in), or ``"failed"``.
    """
    if sys.platform.startswith("linux") and shutil.which("xdg-email"):
        argv = ["xdg-email", "--subject", subject, "--body", body, "--attach", str(path)]
        if run(argv):
            return "attached"
    if sys.platform == "darwin" and run(["open", "-a", "Mail", str(path)]):
        return "attached"
    if open_url(mailto(subject, body)):
        reveal(path)
        return "mailto"
    return "failed"
