"""Cancel in the window's Paste: reading a huge pasted reply shows
the progress dialog the window's other long operations show, and its Cancel stops it —
the window says so, and nothing is kept or lands (before: no dialog, no way to stop)."""

from __future__ import annotations

from typing import Any

from conftest import RECEIVER, settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QProgressDialog, QPushButton
from pytestqt.qtbot import QtBot


def test_a_huge_paste_can_be_cancelled_and_nothing_lands(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    window = make_window(desk)
    # 27 MB of lines that each open a JSON object: seconds of reading, under the 32 MiB cap
    QGuiApplication.clipboard().setText('{"k": 1}\n' * 3_000_000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.inbox.view.setFocus()
    qtbot.keyClick(window.inbox.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    def dialog() -> QProgressDialog | None:
        shown = [d for d in window.findChildren(QProgressDialog) if d.isVisible()]
        return shown[0] if shown else None

    qtbot.waitUntil(lambda: dialog() is not None, timeout=20_000)
    box = dialog()
    assert box is not None and "Reading the pasted text" in box.labelText()
    [cancel] = [b for b in box.findChildren(QPushButton) if b.text() == "Cancel"]
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    settle(qtbot, window, timeout=30_000)
    assert "Reading the pasted text was cancelled; nothing was opened." in window.banner.text()
    assert desk.passports() == [] and list(desk.inbox().glob("reply-*")) == []
    assert window.stack.currentWidget() is not window.incoming.view
