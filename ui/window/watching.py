"""The folder watcher seen from the window: packs found in the watched folders are listed
under Incoming (with a desktop notification); nothing lands without the person.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtWidgets import QSystemTrayIcon
from taskpack.app.desk import visible
from taskpack.app.watcher import FoundPack
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import sentence
from taskpack.ui.settings_dialog import watch_enabled, watched_folders
from taskpack.ui.window.incoming import modified_at, withheld_label


def found_text(item: FoundPack, what: str) -> str:
    """The watcher's title or sender of `item` (it withheld a credential already), in the
    window's language."""
    kind = item.withheld_kind(what)
    return withheld_label(what, kind) if kind is not None else getattr(item, what)


class WatchingMixin:
    """The watcher's packs in the list (part of `MainWindow`)."""

    def start_watcher(self) -> None:
        if getattr(self, "_closed", False):  # asked for (a queued start) after the window
            return  # closed: a watcher started now would hold its folders open, unstopped
        if self.bridge is not None or not watch_enabled(self.desk.settings):
            self._update_status()
            return
        from taskpack.ui.watch_bridge import WatchBridge

        folders = watched_folders(self.desk.settings)
        self.bridge = WatchBridge(
            self.desk, folders, dismissed=self._is_dismissed, parent=self, **self._watcher_options
        )
        self.bridge.found.connect(self._found)
        self.bridge.sent.connect(self._found_sent)
        self.bridge.rejected.connect(self._rejected)
        self.bridge.trouble.connect(
            lambda _why: self.statusBar().showMessage(
                tr(
                    "The folder watcher hit a problem and restarted itself; packs keep being found."
                ),
                15000,
            )
        )
        try:
            self.bridge.start()
        except OSError as exc:  # the desk works without it; say so once
            self.bridge = None
            self.error(tr("Folders are not being watched: {why}").format(why=sentence(exc)))
        self._update_status()

    def stop_watcher(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
            self.bridge.deleteLater()
            self.bridge = None
        self._update_status()

    def _found(self, item: FoundPack) -> None:
        if self.model.row_for_key("file:" + str(item.path)) >= 0:
            return
        if self.listed_as(f"{item.encoding}:{item.content_digest}", item.path) is not None:
            return  # the same pack is listed already: opened from another place
        self._digests[item.path] = f"{item.encoding}:{item.content_digest}"
        title, sender = found_text(item, "title"), found_text(item, "sender")
        self._add_incoming(
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
        if self.listed_as(f"{item.encoding}:{item.content_digest}", item.path) is not None:
            return
        if self.model.row_for_key("file:" + str(item.path)) < 0:
            self._digests[item.path] = f"{item.encoding}:{item.content_digest}"
            self._add_incoming(
                item.path,
                title=found_text(item, "title"),
                kind=item.kind,
                sender=found_text(item, "sender"),
                open_asks=item.open_asks,
                sent=True,
                seen_at=modified_at(item.path),
            )

    def _rejected(self, path: Path, why: str) -> None:
        self.statusBar().showMessage(
            tr("{name} is not a readable pack: {why}").format(name=path.name, why=why), 10000
        )

    def notify(self, title: str, text: str) -> None:
        """A desktop notification and a status-bar line. `text` may quote a pack: hidden
        characters are shown, and for the tray (some notification daemons render markup)
        everything is HTML-escaped, so it reads as plain text."""
        title, text = visible(title), visible(text)
        if QSystemTrayIcon.isSystemTrayAvailable():
            if self.tray is None:
                self.tray = QSystemTrayIcon(self.windowIcon(), self)
                self.tray.activated.connect(
                    lambda _r: (self.showNormal(), self.raise_(), self.activateWindow())
                )
                self.tray.show()
            self.tray.showMessage(
                html.escape(title, quote=False),
                html.escape(text, quote=False),
                QSystemTrayIcon.MessageIcon.Information,
                8000,
            )
        self.statusBar().showMessage(f"{title}: {text}", 15000)
