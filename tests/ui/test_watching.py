"""The same pack, dropped on the window and found by the folder watcher, is one row."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import SENDER, drop, make_handoff, settle, watching_downloads
from pytestqt.qtbot import QtBot


def test_a_pack_dropped_and_then_found_in_the_watched_folder_is_one_row(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    window, downloads = watching_downloads(tmp_path, qtbot, make_desk, make_window)
    cache = tmp_path / "chat-cache"  # where the chat app keeps what it shows
    cache.mkdir()
    pack = cache / "invoice.taskpack"
    make_handoff(make_desk(SENDER), pack)
    assert drop(window, pack) == (True, True)  # dragged from the chat into the window
    settle(qtbot, window)
    with qtbot.waitSignal(window.watching.bridge.found, timeout=60_000):  # the watcher reports it
        shutil.copy(pack, downloads / ".part")  # and the browser saves it to Downloads
        (downloads / ".part").rename(downloads / pack.name)
    settle(qtbot, window)
    assert [r.title for r in window.inbox.model.incoming()] == ["Fix the invoice export"]


def test_a_pack_found_in_the_watched_folder_and_then_dropped_is_one_row(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    window, downloads = watching_downloads(tmp_path, qtbot, make_desk, make_window)
    made = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER), made)
    with qtbot.waitSignal(window.watching.bridge.found, timeout=60_000):
        shutil.copy(made, downloads / ".part")
        (downloads / ".part").rename(downloads / made.name)
    settle(qtbot, window)
    assert drop(window, made) == (True, True)  # the same pack, from another place
    settle(qtbot, window)
    assert [r.title for r in window.inbox.model.incoming()] == ["Fix the invoice export"]
    assert window.stack.currentWidget() is window.incoming.view  # and it is shown
