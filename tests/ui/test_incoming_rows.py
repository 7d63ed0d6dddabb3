"""Incoming rows as a person handles them: removing, plain words, what a drop says,
what survives a restart, and rows that stay under the pointer."""

from __future__ import annotations

import itertools
import zipfile
from pathlib import Path

from conftest import RECEIVER, SENDER, drop, make_handoff, settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.ui.models import InboxModel


def shown_rows(window) -> list[tuple[str, str]]:
    """(title, state) of each visible row, top to bottom."""
    proxy = window.inbox.proxy
    return [(proxy.index(r, 0).data(), proxy.index(r, 1).data()) for r in range(proxy.rowCount())]


def click_row(qtbot: QtBot, window, title: str) -> None:
    proxy = window.inbox.proxy
    [row] = [r for r in range(proxy.rowCount()) if proxy.index(r, 0).data() == title]
    rect = window.inbox.view.visualRect(proxy.index(row, 0))
    qtbot.mouseClick(window.inbox.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def ordinary_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("holiday.jpg", b"\xff\xd8 not really")
    return path


def test_a_broken_file_says_what_it_is_and_can_be_removed_with_delete(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    broken = ordinary_zip(tmp_path / "photos.taskpack")
    good = tmp_path / "good.taskpack"
    make_handoff(make_desk(SENDER), good, title="Invoice export")
    window = make_window(make_desk(RECEIVER))
    assert drop(window, good, broken) == (True, True)
    settle(qtbot, window)
    click_row(qtbot, window, "photos.taskpack")
    settle(qtbot, window)
    assert window.banner.text().startswith(
        "photos.taskpack cannot be opened: it is an ordinary zip file, not a TaskPack."
    )
    assert "bagit" not in window.banner.text()
    assert ("photos.taskpack", "cannot be opened") in shown_rows(window)

    assert [a.text() for a in window.inbox.view.actions()] == [
        "Remove from the list"
    ]  # its context menu
    window.inbox.view.setFocus()
    qtbot.keyClick(window.inbox.view, Qt.Key.Key_Delete)
    settle(qtbot, window)
    assert [t for t, _ in shown_rows(window)] == ["Invoice export"]
    assert "Removed photos.taskpack from the list" in window.banner.text()
    assert broken.is_file()  # the file stays where it was

    click_row(qtbot, window, "Invoice export")
    settle(qtbot, window)
    window.inbox.view.actions()[0].trigger()  # the same from the context menu, for a good pack
    settle(qtbot, window)
    assert shown_rows(window) == []
    assert window.desk.passports() == []


def test_opened_packs_and_the_window_place_survive_a_restart(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "elsewhere" / "a.taskpack"
    pack.parent.mkdir()
    make_handoff(make_desk(SENDER), pack, title="Invoice export")
    desk = make_desk(RECEIVER)
    first = make_window(desk)
    first.open_files([pack])
    settle(qtbot, first)
    first.resize(720, 520)
    first.move(40, 30)
    qtbot.waitUntil(lambda: first.size().width() == 720)
    first.close()  # the person quits

    from taskpack.app.desk import Desk

    again = Desk(desk.home, RECEIVER)  # a new process: settings read from disk
    try:
        second = make_window(again)
        settle(qtbot, second)
        assert shown_rows(second) == [("Invoice export", "handoff arrived")]
        assert (second.width(), second.height()) == (720, 520)
        second.shutdown()
    finally:
        again.close()


def test_an_opened_pack_keeps_the_time_it_came_after_a_restart(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    pack = tmp_path / "elsewhere" / "a.taskpack"
    pack.parent.mkdir()
    make_handoff(make_desk(SENDER), pack, title="Invoice export")
    monkeypatch.setattr("taskpack.ui.window.incoming.utc_now", lambda: "2026-08-16T03:07:00Z")
    desk = make_desk(RECEIVER)
    first = make_window(desk)
    first.open_files([pack])
    settle(qtbot, first)
    came = first.inbox.proxy.index(0, InboxModel.UPDATED).data()
    first.close()  # the person quits, and starts the desk again later

    monkeypatch.setattr("taskpack.ui.window.incoming.utc_now", lambda: "2026-08-17T11:45:00Z")
    from taskpack.app.desk import Desk

    again = Desk(desk.home, RECEIVER)
    try:
        second = make_window(again)
        settle(qtbot, second)
        assert second.inbox.proxy.index(0, InboxModel.UPDATED).data() == came
        second.shutdown()
    finally:
        again.close()


def test_a_row_stays_under_the_pointer_when_clicked(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    ticks = itertools.count()
    monkeypatch.setattr(
        "taskpack.ui.window.incoming.utc_now", lambda: f"2026-08-16T03:{next(ticks) % 60:02d}:00Z"
    )
    broken = [ordinary_zip(tmp_path / f"b{n}.taskpack") for n in range(3)]
    window = make_window(make_desk(RECEIVER))
    window.open_files(broken)
    settle(qtbot, window)
    before = [t for t, _ in shown_rows(window)]
    click_row(qtbot, window, before[-1])  # the lowest row, newest-first order
    settle(qtbot, window)
    assert [t for t, _ in shown_rows(window)] == before
    assert window.inbox.view.currentIndex().data() == before[-1]
