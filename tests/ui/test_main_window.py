"""The window as a whole: however a person quits, what they typed is there after a restart
."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import RECEIVER, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.main_window import MainWindow
from taskpack.ui.paging import filling
from test_large_passport import big_passport, open_passport


def show_more(qtbot: QtBot, window: MainWindow) -> None:
    """Click the asks' "Show 40 more" button."""
    form = window.passport.view.asks
    [more] = [b for b in form.findChildren(QPushButton) if b.text().startswith("Show")]
    qtbot.mouseClick(more, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not filling())


def quit_by_keys(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()  # the person is in this window, typing
    qtbot.waitUntil(window.isActiveWindow)
    focused = window.passport.view.asks.cards["a1"].answer_edit
    focused.setFocus()
    qtbot.keyClick(focused, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)


def quit_by_menu(qtbot: QtBot, window: MainWindow) -> None:
    [file_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&File"]
    [quit_action] = [a for a in file_menu.actions() if a.text() == "&Quit"]
    quit_action.trigger()


def quit_by_closing(qtbot: QtBot, window: MainWindow) -> None:
    window.close()  # the window manager's close button


@pytest.mark.parametrize("quit_", [quit_by_keys, quit_by_menu, quit_by_closing])
def test_answers_typed_on_any_page_are_back_after_quitting_any_way(
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    quit_: Callable[[QtBot, MainWindow], None],
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk, 200)
    window = make_window(desk)
    open_passport(qtbot, window, "Survey answers")
    window.passport.view.tabs.setCurrentIndex(1)
    show_more(qtbot, window)
    form = window.passport.view.asks
    qtbot.keyClicks(form.cards["a45"].answer_edit, "B, on the second page")
    qtbot.keyClicks(form.cards["a1"].answer_edit, "A")  # and quits at once (no write delay)
    quit_(qtbot, window)
    assert not window.isVisible()
    home = desk.home
    desk.close()

    again = Desk(home, RECEIVER, actor="Zhang")
    try:
        second = MainWindow(again, watch=False)
        qtbot.addWidget(second)
        second.show()
        settle(qtbot, second)
        open_passport(qtbot, second, "Survey answers")
        second.passport.view.tabs.setCurrentIndex(1)
        form = second.passport.view.asks
        # what the person sees first: both answers are waiting, though one is on page 2
        assert "2 answers are not saved yet." in form.labels()
        assert form.save_all_button.isVisible()
        assert form.save_all_button.text() == "Save all answers (2)"
        assert form.cards["a1"].answer_edit.toPlainText() == "A"
        show_more(qtbot, second)
        assert form.cards["a45"].answer_edit.toPlainText() == "B, on the second page"
        qtbot.mouseClick(form.save_all_button, Qt.MouseButton.LeftButton)
        settle(qtbot, second)
        assert "Saved 2 answers." in second.banner.text()
        stored = {a.id: a for a in again.get(pid).asks or []}
        assert stored["a45"].answer == "B, on the second page"
        second.shutdown()
    finally:
        again.close()


def test_help_has_a_short_guide_in_the_window_language(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    window = make_window(make_desk(RECEIVER, "Zhang"))
    [help_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&Help"]
    [guide] = [a for a in help_menu.actions() if a.text() == "&How TaskPack Desk works"]
    guide.trigger()
    assert window.guide is not None and window.guide.isVisible()
    text = window.guide.shown_text()
    for heading in (
        "What a pack is",
        "What “unproven here” means",
        "When a handoff arrives",
        "When a receipt comes back",
    ):
        assert heading in text
    assert "Nothing in a pack is ever run." in text
    window.set_language("zh_CN")
    try:
        [help_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "帮助(&H)"]
        help_menu.actions()[0].trigger()
        assert "“此处未证实”是什么意思" in window.guide.shown_text()
    finally:
        window.set_language("en")
    window.show_guide()
    window.guide.activateWindow()  # the person reads the guide, then quits from there
    qtbot.waitUntil(window.guide.isActiveWindow)
    qtbot.keyClick(window.guide.text, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()
