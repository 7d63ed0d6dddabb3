"""Packs the operating system hands to the application as an event, not on the command line.

macOS starts an app once and delivers every file opened from Finder, dropped on the Dock
icon or chosen in "Open With" as a ``QFileOpenEvent`` to the QApplication — the first one
often before the desk's window exists (the event arrives while the opening frame paints).
`FileOpenRelay` catches them on the application, keeps those that come early and hands
them all to the window once it is there, as a double-clicked file on Linux or Windows is
handed over through ``taskpack-desk FILE`` (ui/single_instance.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent


class FileOpenRelay(QObject):
    """An event filter on the application: file-open events become calls to `deliver`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pending: list[Path] = []
        self._deliver: Callable[[list[Path]], object] | None = None

    def attach(self, deliver: Callable[[list[Path]], object]) -> None:
        """From now on hand files to `deliver` (the window's open_files); the early ones first."""
        self._deliver = deliver
        early, self.pending = self.pending, []
        if early:
            deliver(early)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
            return False
        # a file, or a file:// URL (what Finder sends for a file in some cases)
        name = event.file() or (event.url().toLocalFile() if event.url().isLocalFile() else "")
        if not name:
            return False  # a custom URL scheme: not ours
        path = Path(name)
        if self._deliver is None:
            self.pending.append(path)
        else:
            self._deliver([path])
        return True
