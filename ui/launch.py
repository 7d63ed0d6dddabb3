"""Handing a file to the rest of the desktop: the mail client, the file manager, a browser.

Nothing here ever runs anything taken from a pack: the only programs started are the
platform's own mail/file-manager launchers, with a file path this desk wrote as the
argument (never through a shell). A mail helper is waited for (off the GUI thread) so a
missing mail client is reported, not claimed as success. Tests replace `run`,
`run_and_wait` and `open_url`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices


def run(argv: list[str]) -> bool:
    """Start a desktop helper detached; True if it started."""
    try:
        subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
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


#: seconds to wait for the mail helper to say whether it worked; a client that is still
#: starting after this counts as opened (xdg-email and `open` return once it is running)
EMAIL_WAIT = 20.0


def run_and_wait(argv: list[str], timeout: float = EMAIL_WAIT) -> int | None:
    """Run a desktop helper and wait for its exit code (None: still running after `timeout`).

    Call it off the GUI thread. A helper still running is waited for on a daemon thread,
    so it never stays behind as a zombie. OSError when it cannot be started.
    """
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        threading.Thread(target=proc.wait, name="reap-mail-helper", daemon=True).start()
        return None


@dataclass(frozen=True)
class EmailResult:
    """How handing a file to the mail client went.

    `how`: ``"attached"`` (the client took the file), ``"no_helper"`` (this platform has
    no helper that attaches files: the caller may open a ``mailto:`` message instead), or
    ``"failed"`` with the helper's exit `code` (xdg-email: 3 = no mail program set up) or
    the `error` that kept it from starting.
    """

    how: str
    code: int | None = None
    error: str = ""


def email_attached(path: Path, subject: str, body: str) -> EmailResult:
    """Ask the platform's mail helper to open a new message with `path` attached.

    Blocks until the helper says how it went (run it off the GUI thread).
    """
    if sys.platform.startswith("linux") or sys.platform.startswith("freebsd"):
        if not shutil.which("xdg-email"):
            return EmailResult("no_helper")
        argv = ["xdg-email", "--subject", subject, "--body", body, "--attach", str(path)]
    elif sys.platform == "darwin":
        argv = ["open", "-a", "Mail", str(path)]
    else:
        return EmailResult("no_helper")
    try:
        code = run_and_wait(argv)
    except OSError as exc:
        return EmailResult("failed", error=exc.strerror or str(exc))
    if code in (0, None):
        return EmailResult("attached")
    return EmailResult("failed", code=code)
