"""History's details speak the window's language: "状态：已回答", not "状态: answered"."""

from __future__ import annotations

from typing import Any

from conftest import RECEIVER, settle
from pytestqt.qtbot import QtBot


def test_history_details_are_in_chinese_words_too(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Fix the invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who signs off?", "A name and an email address")
    desk.answer(pid, "a1", "Ms. Li")
    window = make_window(desk)
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        window.select_key(pid)
        settle(qtbot, window)
        details = [
            window.passport.view.history.topLevelItem(i).text(3)
            for i in range(window.passport.view.history.topLevelItemCount())
        ]
        said = [d for d in details if "状态" in d]
        assert said and all("状态：已回答" in d for d in said), details
        assert not [d for d in details if "answered" in d or ": " in d], details
    finally:
        window.set_language("en")
