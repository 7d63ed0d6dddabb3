"""Starting work as the person who both owns and does it: one click, plain words."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

#: the protocol's own names a person should not have to read (plain "cancelled" is fine)
INTERNAL = re.compile(
    r"\b(routed|requested|accepted|working|verifying|owner_approval|human)\b|(?<!an )\bagent\b|\["
)


def header_state(window) -> str:
    """The state badge at the top of the passport."""
    from PySide6.QtWidgets import QLabel

    top = window.passport.view.header.itemAt(0).widget()
    return top.findChildren(QLabel)[0].text()


def test_take_this_on_makes_each_allowed_move_in_order(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER), pack)
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    window.open_files([pack])
    settle(qtbot, window)
    qtbot.mouseClick(window.incoming.view.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    view = window.passport.view
    assert header_state(window) == "needs your approval"
    take = view.move_buttons["take_on"]
    assert take.text() == "Take this on" and take.isDefault()
    tips = [b.toolTip() for b in view.move_buttons.values()]
    assert not [t for t in tips if INTERNAL.search(t)], tips  # no "Move to routed"
    qtbot.mouseClick(take, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert header_state(window) == "in progress"
    assert "You took this on: it is in progress." in window.banner.text()
    moved = [view.history.topLevelItem(i) for i in range(view.history.topLevelItemCount())]
    moved = [item.text(3) for item in moved if item.text(1) == "moved"]
    assert list(reversed(moved[:3])) == [
        "from: needs your approval; to: ready to be taken on; why: taken on here by its owner, who also does the work",
        "from: ready to be taken on; to: taken on, not started; why: taken on here by its owner, who also does the work",
        "from: taken on, not started; to: in progress; why: taken on here by its owner, who also does the work",
    ]
    assert "take_on" not in view.move_buttons  # working: nothing to take on any more


def test_states_are_plain_words_in_both_languages(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER), pack)
    desk = make_desk(RECEIVER)
    desk.land(pack)
    desk.new("Own work", "Goal")
    window = make_window(desk)
    proxy = window.inbox.proxy
    shown = sorted(proxy.index(r, 1).data() for r in range(proxy.rowCount()))
    assert shown == ["in progress", "needs your approval"]
    states = [window.inbox.state_box.itemText(i) for i in range(window.inbox.state_box.count())]
    assert not [s for s in states if INTERNAL.search(s)], states
    for words in shown:  # the filter offers the list's own words, and each finds its rows
        window.inbox.state_box.setCurrentIndex(states.index(words))
        assert [proxy.index(r, 1).data() for r in range(proxy.rowCount())] == [words]
    window.inbox.state_box.setCurrentIndex(0)
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        shown = sorted(proxy.index(r, 1).data() for r in range(proxy.rowCount()))
        assert all(not re.search(r"[A-Za-z]", s) for s in shown), shown
        states = [window.inbox.state_box.itemText(i) for i in range(window.inbox.state_box.count())]
        assert set(shown) <= set(states), (shown, states)
    finally:
        window.set_language("en")
