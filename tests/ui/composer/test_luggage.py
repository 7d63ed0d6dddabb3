"""Files for the handoff: "Attach files…" through Qt's own file dialog (several at once),
files dropped on the composer (a folder refused with a sentence, a pack still opened as a
pack), Remove; then what `taskpack open --json` lists."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from composer_helpers import cli_json, when_modal, write
from conftest import file_mime, make_handoff, settle
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QListView
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.pack_items import labels_text


def composing(qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any]):
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the export", "Readable invoices").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    window.compose_action.trigger()
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.composer
    return desk, pid, window


def drop_on(widget: Any, *paths: Path) -> bool:
    mime = file_mime(*paths)
    at = widget.rect().center()
    enter = QDragEnterEvent(
        at,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, enter)
    if not enter.isAccepted():
        return False
    dropped = QDropEvent(
        QPointF(QPoint(at)),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, dropped)
    return dropped.isAccepted()


def test_attach_several_files_through_the_file_dialog_and_remove_one(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk, pid, window = composing(qtbot, make_desk, make_window)
    folder = tmp_path / "work"
    write(folder / "sample.csv", "name;amount\nACME;12\n")
    write(folder / "notes.txt", "The BOM goes first.\n" * 100)

    def choose(box: QFileDialog) -> None:
        # the person goes to the folder, selects both files (Ctrl+A) and presses Open
        box.setDirectory(str(folder))
        view = box.findChild(QListView, "listView")

        def listed() -> None:
            if view.model().rowCount(view.rootIndex()) < 2:
                QTimer.singleShot(20, listed)
                return
            view.setFocus()
            qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            ok = box.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Open)
            qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

        listed()

    when_modal(QFileDialog, choose)
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: len(window.composer.lines("file")) == 2)
    files = sorted(window.composer.lines("file"))
    assert files[0].startswith("notes.txt — ") and files[1].startswith("sample.csv — ")
    assert sorted(i["name"] for i in cli_json(desk, "open", pid)["luggage"]) == [
        "notes.txt",
        "sample.csv",
    ]
    qtbot.mouseClick(window.composer.file_buttons["notes.txt"], Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: len(window.composer.lines("file")) == 1)
    assert "notes.txt is no longer attached." in window.composer.status.text()
    assert [i["name"] for i in cli_json(desk, "open", pid)["luggage"]] == ["sample.csv"]


def test_a_drop_attaches_files_refuses_a_folder_and_opens_a_pack(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk, pid, window = composing(qtbot, make_desk, make_window)
    data = write(tmp_path / "drop" / "export.csv", "a,b\n1,2\n")
    folder = tmp_path / "drop" / "logs"
    folder.mkdir()
    other = make_desk("beta", "Zhang")
    pack = tmp_path / "from-beta.taskpack"
    make_handoff(other, pack, title="Check the backups")

    assert drop_on(window.composer, data, folder, pack)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.composer.lines("file") == ["export.csv — 8 B"])
    qtbot.waitUntil(lambda: "logs is a folder: folders are not attached" in window.banner.text())
    assert [i["name"] for i in cli_json(desk, "open", pid)["luggage"]] == ["export.csv"]
    # the pack was opened for review, as a pack, not attached
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.incoming.view)
    qtbot.waitUntil(lambda: "Check the backups" in labels_text(window.incoming.view))


def test_attach_files_opens_in_the_home_folder_then_where_files_were_last_taken(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    from taskpack.ui.composer import composer as composer_module

    monkeypatch.setattr(composer_module, "_last_folder", [])
    home = tmp_path / "person"
    home.mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path)  # the folder the program was started in is not offered
    _desk, _pid, window = composing(qtbot, make_desk, make_window)
    folder = tmp_path / "work"
    write(folder / "sample.csv", "name;amount\nACME;12\n")
    opened_in: list[str] = []

    def choose(box: QFileDialog) -> None:
        opened_in.append(box.directory().absolutePath())
        box.selectFile(str(folder / "sample.csv"))
        box.accept()

    def look(box: QFileDialog) -> None:
        opened_in.append(box.directory().absolutePath())
        box.reject()

    when_modal(QFileDialog, choose)
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.composer.lines("file") == ["sample.csv — 20 B"])
    when_modal(QFileDialog, look)
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(opened_in) == 2)
    assert opened_in == [str(home.resolve()), str(folder.resolve())]
