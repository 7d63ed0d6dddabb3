"""The window's first moment: its frame, shown before the desk is opened.

Opening a desk means importing the whole application (the pack format, the judge, the
store: most of a start-up's time) and reading the store. `OpeningWindow` needs none of
that: it is the window's title, icon, place and menu bar with "Opening your desk…" where
the inbox will be, so a person sees the window at once. `ui.app.run` shows it, opens
the desk after its first paint, and hands its place to the desk's window.

This module imports only Qt and the settings file's reader; keep it that way.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget
from taskpack.ui import tones
from taskpack.ui.i18n import tr

#: where the window's place is kept in the settings (`Settings.other`)
GEOMETRY_KEY = "window_geometry"
TITLE = "TaskPack Desk"


def icon() -> QIcon:
    folder = Path(str(resources.files("taskpack.resources") / "icons"))
    result = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        png = folder / f"taskpack-desk-{size}.png"
        if png.is_file():
            result.addFile(str(png))
    return result


def place(window: QWidget, saved: object) -> None:
    """Put `window` where it was last closed (`saved`, from the settings), or size it."""
    if isinstance(saved, str) and window.restoreGeometry(
        QByteArray.fromBase64(saved.encode("ascii"))
    ):
        return
    screen = QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen is not None else None
    if room is None or room.width() <= 0:
        window.resize(1180, 760)
    else:
        window.resize(min(1180, int(room.width() * 0.9)), min(760, int(room.height() * 0.9)))


class _FirstPaint(QObject):
    """Calls back once, on the event-loop turn after `widget` was first painted."""

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self._callback: Callable[[], None] | None = callback
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._callback is not None:
            callback, self._callback = self._callback, None
            watched.removeEventFilter(self)
            QTimer.singleShot(0, callback)  # after this paint has reached the screen
        return False


def after_first_paint(widget: QWidget, callback: Callable[[], None]) -> None:
    """Run `callback` once `widget` (shown, or about to be) has been painted."""
    _FirstPaint(widget, callback)


class OpeningWindow(QMainWindow):
    """The desk window's frame while the desk opens: nothing in it can be used yet."""

    def __init__(self, saved_place: object = None) -> None:
        super().__init__()
        self.setWindowTitle(TITLE)
        self.setWindowIcon(icon())
        place(self, saved_place)
        bar = self.menuBar()
        for title in (tr("&File"), tr("&Edit"), tr("&View"), tr("&Help")):
            bar.addMenu(title).setEnabled(False)
        self.message = QLabel(tr("Opening your desk…"))
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setStyleSheet(
            f"color: {tones.muted()};"
        )  # muted, as the window's "Reading…" page
        self.setCentralWidget(self.message)
        self.statusBar()


__all__ = ["GEOMETRY_KEY", "OpeningWindow", "after_first_paint", "icon", "place"]
