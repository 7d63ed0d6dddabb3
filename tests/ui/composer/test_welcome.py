"""The empty desk and Help's guide speak to both halves: the work handed to you, and your
own work to hand off — in English and in 简体中文."""

from __future__ import annotations

from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton
from pytestqt.qtbot import QtBot


def welcome_words(window) -> tuple[str, list[str]]:
    labels = "\n".join(lbl.text() for lbl in window.welcome.findChildren(QLabel))
    buttons = [b.text() for b in window.welcome.findChildren(QPushButton) if not b.isHidden()]
    return labels, buttons


def test_the_empty_desk_and_the_guide_offer_both_halves_in_both_languages(
    qtbot: QtBot, make_desk, make_window
) -> None:
    window = make_window(make_desk("alpha", "Wei"))
    labels, buttons = welcome_words(window)
    assert "Work handed to you by file lands here" in labels
    assert "Start your own work and hand it off" in labels
    assert "New passport…" in buttons
    window.show_guide()
    guide = window.guide.shown_text()
    assert "Sending your own work" in guide
    for command in ("New passport…", "Add fact…", "Add ask…", "Attach files…", "Send a handoff…"):
        assert command in guide
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        labels, buttons = welcome_words(window)
        assert "开始你自己的工作，并把它交出去" in labels
        assert "新建护照…" in buttons
        window.show_guide()
        guide = window.guide.shown_text()
        assert "发出你自己的工作" in guide
        # the guide names the buttons with the window's own words
        assert "“发送交接包…”" in guide and window.composer.send_button.text() == "发送交接包…"
        assert "“移除”" in guide and "删除" not in guide
        start = next(b for b in window.welcome.findChildren(QPushButton) if b.text() == "新建护照…")
        qtbot.mouseClick(start, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.composer
        assert window.composer.save_basics.text() == "创建护照"
    finally:
        window.set_language("en")
