"""The folder watcher seen from the window: packs found in the watched folders are listed
under Incoming (with a desktop notification); nothing lands without the person.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QSystemTrayIcon, QWidget
from taskpack.app.desk import Desk, visible
from taskpack.app.watcher import FoundPack, WatcherOptions
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import sentence
from taskpack.ui.settings_dialog import watch_enabled, watched_folders
from taskpack.ui.window.inbox import InboxPart
from taskpack.ui.window.incoming import IncomingPart, modified_at, withheld_label
from taskpack.ui.window.side import file_key

if TYPE_CHECKING:  # the watcher (watchdog) is imported when it starts, not with the window
    from taskpack.ui.watch_bridge import WatchBridge


def found_text(item: FoundPack, what: str) -> str:
    """The watcher's title or sender of `item` (it withheld a credential already), in the
    window's language."""
    kind = item.withheld_kind(what)
    if kind is not None:
        return withheld_label(what, kind)
    return item.title if what == "title" else item.sender


class WatchingPart(QObject):
    """The watcher's packs in the list, and the desktop notifications they bring."""

    status_changed = Signal()  # the folders watched changed (the status bar counts them)
    status_message = Signal(str, int)  # a passing line for the status bar, for so many ms
    failed = Signal(str)

    def __init__(
        self,
        desk: Desk,
        inbox: InboxPart,
        incoming: IncomingPart,
        window: QWidget,
        options: WatcherOptions | None = None,
    ) -> None:
        super().__init__(window)
        self.desk = desk
        self.inbox = inbox
        self.incoming = incoming
        self._window = window  # its icon is the tray's; the tray brings it back
        self._options: WatcherOptions = options or {}
        self.bridge: WatchBridge | None = None
        self.tray: QSystemTrayIcon | None = None
        self._shut = False

    def start(self) -> None:
        if self._shut:  # asked for (the window's queued start) after the window closed: a
            return  # watcher started now would hold its folders open, and nothing stops it
        if self.bridge is not None or not watch_enabled(self.desk.settings):
            self.status_changed.emit()
            return
        from taskpack.ui.watch_bridge import WatchBridge

        folders = watched_folders(self.desk.settings)
        bridge = WatchBridge(
            self.desk, folders, dismissed=self.incoming.is_dismissed, parent=self, **self._options
        )
        self.bridge = bridge
        bridge.found.connect(self._found)
        bridge.sent.connect(self._found_sent)
        bridge.rejected.connect(self._rejected)
        bridge.trouble.connect(
            lambda _why: self.status_message.emit(
                tr(
                    "The folder watcher hit a problem and restarted itself; packs keep being found."
                ),
                15000,
            )
        )
        try:
            bridge.start()
        except OSError as exc:  # the desk works without it; say so once
            self.bridge = None
            self.failed.emit(tr("Folders are not being watched: {why}").format(why=sentence(exc)))
        self.status_changed.emit()

    def stop(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
            self.bridge.deleteLater()
            self.bridge = None
        self.status_changed.emit()

    def apply_settings(self) -> None:
        """Watch what Settings say now (other folders, or none)."""
        if self.bridge is not None and watch_enabled(self.desk.settings):
            self.bridge.set_folders(watched_folders(self.desk.settings))
        elif watch_enabled(self.desk.settings):
            self.start()
        else:
            self.stop()

    def forget(self, path: Path) -> None:
        """`path` left the list: found again, it is listed again."""
        if self.bridge is not None:
            self.bridge.watcher.forget(path)

    def summary(self) -> str:
        """ " · watching 2 folders" for the status bar ("" when not watching)."""
        if self.bridge is None:  # only folders whose change events arrive are "watched"
            return ""
        watcher = self.bridge.watcher
        live = len(watcher.live_folders)
        rescanned = len(watcher.folders) - live
        text = ""
        if live or not rescanned:
            text += " · " + trn("watching %n folders", live)
        if rescanned:
            text += " · " + trn(
                "%n folders checked every {seconds} s (no change events)", rescanned
            ).format(seconds=f"{watcher.rescan_every:g}")
        return text

    def _found(self, item: FoundPack) -> None:
        if self.inbox.has_row(file_key(item.path)):
            return
        digest = f"{item.encoding}:{item.content_digest}"
        if self.incoming.listed_as(digest, item.path) is not None:
            return  # the same pack is listed already: opened from another place
        self.incoming.note_digest(item.path, digest)
        title, sender = found_text(item, "title"), found_text(item, "sender")
        self.incoming.list_file(
            item.path,
            title=title,
            kind=item.kind,
            sender=sender,
            open_asks=item.open_asks,
            seen_at=modified_at(item.path),  # when it came into the folder, across restarts
        )
        what = tr("A receipt arrived") if item.kind == "receipt" else tr("A pack arrived")
        self.notify(
            what,
            tr("{title} — from {sender}. It is under Incoming; nothing lands without you.").format(
                title=title, sender=sender
            ),
        )

    def _found_sent(self, item: FoundPack) -> None:
        """A pack this desk wrote, seen in a watched folder: listed as sent, no notification."""
        digest = f"{item.encoding}:{item.content_digest}"
        if self.incoming.listed_as(digest, item.path) is not None:
            return
        if not self.inbox.has_row(file_key(item.path)):
            self.incoming.note_digest(item.path, digest)
            self.incoming.list_file(
                item.path,
                title=found_text(item, "title"),
                kind=item.kind,
                sender=found_text(item, "sender"),
                open_asks=item.open_asks,
                sent=True,
                seen_at=modified_at(item.path),
            )

    def _rejected(self, path: Path, why: str) -> None:
        self.status_message.emit(
            tr("{name} is not a readable pack: {why}").format(name=path.name, why=why), 10000
        )

    def notify(self, title: str, text: str) -> None:
        """A desktop notification and a status-bar line. `text` may quote a pack: hidden
        characters are shown, and for the tray (some notification daemons render markup)
        everything is HTML-escaped, so it reads as plain text."""
        title, text = visible(title), visible(text)
        if QSystemTrayIcon.isSystemTrayAvailable():
            if self.tray is None:
                window = self._window

                def bring_back(_reason: QSystemTrayIcon.ActivationReason) -> None:
                    window.showNormal()
                    window.raise_()
                    window.activateWindow()

                self.tray = QSystemTrayIcon(window.windowIcon(), window)
                self.tray.activated.connect(bring_back)
                self.tray.show()
            self.tray.showMessage(
                html.escape(title, quote=False),
                html.escape(text, quote=False),
                QSystemTrayIcon.MessageIcon.Information,
                8000,
            )
        self.status_message.emit(f"{title}: {text}", 15000)

    def shutdown(self) -> None:
        self._shut = True
        self.stop()
        if self.tray is not None:
            self.tray.hide()
