"""The folder watcher (`app.watcher`, Qt-free) brought onto the GUI thread.

The watcher calls back on its own thread; this bridge drops packs the desk has already
landed or the person discarded, tells apart the packs this desk wrote itself (`sent`:
a receipt saved into a watched folder is on its way out), and re-emits the rest as Qt
signals, which arrive on the GUI thread. Nothing is landed here.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from PySide6.QtCore import QObject, Qt, Signal
from taskpack.app.desk import Desk
from taskpack.app.watcher import FolderWatcher, FoundPack, WatcherOptions

#: seconds: a pack file modified this recently may be one this desk is still recording
FRESH = 5.0
#: seconds the watcher's thread waits before asking once more whether this desk wrote it
RECHECK_AFTER = 1.0


def _fresh(path: Path) -> bool:
    try:
        return time.time() - path.stat().st_mtime < FRESH
    except OSError:
        return False


class WatchBridge(QObject):
    found = Signal(object)  # FoundPack
    sent = Signal(object)  # FoundPack of a pack this desk wrote (seen in a watched folder)
    rejected = Signal(object, str)  # Path, one sentence
    trouble = Signal(str)  # the watcher hit a bug and restarted itself: one sentence

    def __init__(
        self,
        desk: Desk,
        folders: list[Path],
        *,
        dismissed: Callable[[str], bool],
        parent: QObject | None = None,
        **watcher_options: Unpack[WatcherOptions],
    ) -> None:
        super().__init__(parent)
        self.desk = desk
        self._dismissed = dismissed
        self.watcher = FolderWatcher(
            folders,
            self._on_found,
            self._on_rejected,
            on_trouble=self._trouble_relay.emit,
            **watcher_options,
        )
        self._found_relay.connect(self.found, Qt.ConnectionType.QueuedConnection)
        self._sent_relay.connect(self.sent, Qt.ConnectionType.QueuedConnection)
        self._rejected_relay.connect(self.rejected, Qt.ConnectionType.QueuedConnection)
        self._trouble_relay.connect(self.trouble, Qt.ConnectionType.QueuedConnection)

    _found_relay = Signal(object)
    _sent_relay = Signal(object)
    _rejected_relay = Signal(object, str)
    _trouble_relay = Signal(str)

    def start(self) -> None:
        self.watcher.start()

    def stop(self) -> None:
        self.watcher.stop()

    def set_folders(self, folders: list[Path]) -> None:
        self.watcher.set_folders(folders)

    # -- on the watcher's thread --

    def _on_found(self, item: FoundPack) -> None:
        with contextlib.suppress(Exception):
            if self.desk.landed_as(item.content_digest) is not None:
                return  # it landed (or merged) before: not news
        if self._dismissed(item.content_digest):
            return
        written = self._wrote(item)
        if written is None and _fresh(item.path):
            # a pack this desk is writing is on disk a moment before its outbox entry
            # commits: a file that new is asked about once more before it counts as news
            time.sleep(RECHECK_AFTER)
            written = self._wrote(item)
        if written is not None:
            self._sent_relay.emit(item)  # this desk wrote it: it is on its way out, not in
            return
        self._found_relay.emit(item)

    def _wrote(self, item: FoundPack) -> object | None:
        with contextlib.suppress(Exception):
            return self.desk.wrote(item.content_digest)
        return None

    def _on_rejected(self, path: Path, why: str) -> None:
        self._rejected_relay.emit(path, why)
