"""The Asks tab as a person works through it (issue 23, items 2 and 7)."""

from __future__ import annotations

from typing import Any

from conftest import RECEIVER, settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from test_large_passport import open_passport


def two_asks(desk: Any) -> str:
    pid = desk.new("Invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address")
    desk.add_ask(pid, "Can the export move to 07:00?", "Yes or no, and who decided")
    return pid


def test_save_all_stays_while_the_strip_says_an_answer_is_not_saved(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = two_asks(desk)
    window = make_window(desk)
    open_passport(qtbot, window, "Invoice export")
    window.passport_view.tabs.setCurrentIndex(1)
    form = window.passport_view.asks
    qtbot.keyClicks(form.cards["a1"].answer_edit, "Ms. Zhang")
    qtbot.mouseClick(form.cards["a1"].save_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    form = window.passport_view.asks
    qtbot.keyClicks(form.cards["a2"].answer_edit, "Yes, finance decided")
    assert "1 answer is not saved yet." in form.labels()
    assert form.save_all_button.isVisible() and form.save_all_button.isEnabled()
    assert form.save_all_button.text() == "Save all answers (1)"
    qtbot.mouseClick(form.save_all_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert "Saved 1 answer. Export a receipt to send it home." in window.banner.text()
    assert [a.status for a in desk.get(pid).asks or []] == ["answered", "answered"]
