"""The window's folder watcher lives exactly as long as the window: a window closed before
its watcher's queued start came round never starts one (on Windows that watcher would
hold the folder open, so it could not be deleted, until the process ended)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from conftest import FAST_WATCH, RECEIVER
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from taskpack.ui.main_window import MainWindow


def _watcher_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "taskpack-watcher" and t.is_alive()}


def _watching_window(tmp_path: Path, qtbot: QtBot, make_desk: Any) -> MainWindow:
    """A window watching a Downloads folder, shown, its event loop not yet run."""
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    desk = make_desk(RECEIVER)
    desk.settings.watched_folders = [str(downloads)]
    window = MainWindow(desk, watch=True, watcher_options=FAST_WATCH)
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_window_closed_before_its_watcher_started_leaves_no_watcher_running(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, prompts: Any
) -> None:
    before = _watcher_threads()
    window = _watching_window(tmp_path, qtbot, make_desk)
    window.close()  # before the event loop ran: the watcher's start is still queued
    for _ in range(5):  # the queued start comes round now
        QApplication.processEvents()
        qtbot.wait(20)
    assert window.watching.bridge is None
    assert _watcher_threads() - before == set()


def test_a_window_whose_watcher_started_stops_it_when_closed(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, prompts: Any
) -> None:
    before = _watcher_threads()
    window = _watching_window(tmp_path, qtbot, make_desk)
    qtbot.waitUntil(lambda: window.watching.bridge is not None, timeout=30_000)
    assert len(_watcher_threads() - before) == 1
    window.close()
    assert window.watching.bridge is None
    assert _watcher_threads() - before == set()
