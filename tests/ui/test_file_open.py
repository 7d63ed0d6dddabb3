"""A pack opened from macOS' Finder or dropped on the Dock icon: a QFileOpenEvent."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtCore import QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from taskpack.ui.file_open import FileOpenRelay


def relay_to(window) -> FileOpenRelay:
    app = QApplication.instance()
    relay = FileOpenRelay(app)
    app.installEventFilter(relay)  # as ui/app.py's run() does
    relay.attach(window.open_files)
    return relay


def test_a_pack_opened_from_finder_shows_its_landing_review(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "from-finder.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack, title="Opened from Finder")
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    relay = relay_to(window)
    try:
        QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(pack)))
        settle(qtbot, window)
        assert window.stack.currentWidget() is window.incoming.view
        assert window.incoming.view.reviewed is not None
        assert window.incoming.view.reviewed.review.title == "Opened from Finder"
        assert window.incoming.view.land_button.isEnabled()
        assert desk.passports() == []  # reviewed, not landed: the person decides
    finally:
        QApplication.instance().removeEventFilter(relay)


def test_a_pack_opened_before_the_window_exists_is_shown_once_it_does(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "dropped-on-dock.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack, title="Dropped on the Dock")
    app = QApplication.instance()
    relay = FileOpenRelay(app)
    app.installEventFilter(relay)
    try:
        # macOS sends the launching file while the opening frame paints; a file:// URL
        QApplication.sendEvent(app, QFileOpenEvent(QUrl.fromLocalFile(str(pack))))
        assert relay.pending == [pack]
        window = make_window(make_desk(RECEIVER))
        relay.attach(window.open_files)
        settle(qtbot, window)
        assert window.incoming.view.reviewed is not None
        assert window.incoming.view.reviewed.review.title == "Dropped on the Dock"
        assert relay.pending == []
    finally:
        app.removeEventFilter(relay)
