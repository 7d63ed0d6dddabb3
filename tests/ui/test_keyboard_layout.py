"""The window at 800×600 and from the keyboard: it fits, Enter does the default thing,
Tab follows the screen, focus is visible, menus have one access key each, and the
status-bar summary stays."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QColor, QStatusTipEvent
from PySide6.QtWidgets import QApplication, QPushButton, QWidget
from pytestqt.qtbot import QtBot
from taskpack.ui import style


def working_passport(tmp_path: Path, make_desk) -> tuple[object, str]:
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    desk = make_desk(RECEIVER)
    pid = desk.land(pack).id
    for state in ("routed", "accepted", "working"):
        desk.move(pid, state)
    return desk, pid


def test_usable_at_800_by_600_with_a_working_passport(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk, pid = working_passport(tmp_path, make_desk)
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    assert window.minimumSizeHint().width() <= 800
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    settle(qtbot, window)
    view = window.passport.view
    right_edge = window.mapFromGlobal(window.mapToGlobal(QPoint(window.width(), 0))).x()
    for b in [*view.move_buttons.values(), view.export_button]:
        assert b.isVisible(), b.text()
        corner = b.mapTo(window, QPoint(b.width(), b.height()))
        assert corner.x() <= right_edge, b.text()  # every move is on screen, none cut off


def test_enter_lands_and_tab_follows_the_screen(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    window = make_window(make_desk(RECEIVER))
    window.open_files([pack])
    settle(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)

    window.inbox.search.setFocus()
    seen: list[QWidget] = []
    for _ in range(60):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        w = QApplication.focusWidget()
        if w in seen:
            break
        seen.append(w)
    names = [w for w in seen[:5]]
    assert names == [
        window.inbox.state_box,
        window.inbox.sender_box,
        window.inbox.asks_box,
        window.inbox.incoming_box,
        window.inbox.view,
    ]
    rv = window.incoming.view
    land, discard = seen.index(rv.land_button), seen.index(rv.discard_button)
    inside = [n for n, w in enumerate(seen) if rv.scroll_area.isAncestorOf(w)]
    assert inside and max(inside) < discard < land  # the review's contents, then its buttons

    window.inbox.view.setFocus()
    qtbot.keyClick(window.inbox.view, Qt.Key.Key_Return)  # the default: Land
    settle(qtbot, window)
    assert len(window.desk.passports()) == 1
    assert window.stack.currentWidget() is window.passport.view


def test_the_focus_ring_is_visible(qtbot: QtBot, make_desk, make_window) -> None:
    window = make_window(make_desk(RECEIVER))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    b = window.welcome.samples_button
    target = QColor(style.FOCUS_COLOR)

    def ring_pixels(widget: QPushButton) -> int:
        img = widget.grab().toImage()
        return sum(
            1
            for y in range(img.height())
            for x in range(img.width())
            if img.pixelColor(x, y) == target
        )

    window.inbox.search.setFocus()
    assert ring_pixels(b) == 0
    b.setFocus(Qt.FocusReason.TabFocusReason)
    assert ring_pixels(b) > 2 * (b.width() + b.height())  # a line all the way round


def test_each_menu_has_one_access_key_per_item_in_both_languages(
    qtbot: QtBot, make_desk, make_window
) -> None:
    window = make_window(make_desk(RECEIVER))

    def keys(actions) -> list[str]:
        out = []
        for a in actions:
            m = re.search(r"&(\w)", a.text())
            if m:
                out.append(m.group(1).casefold())
        return out

    try:
        for language in ("en", "zh_CN"):
            window.set_language(language)
            bar = window.menuBar().actions()
            assert len(set(keys(bar))) == len(bar), keys(bar)
            for menu_action in bar:
                items = [a for a in menu_action.menu().actions() if not a.isSeparator()]
                assert len(set(keys(items))) == len(keys(items)) == len(items), (
                    language,
                    keys(items),
                )
    finally:
        window.set_language("en")


def test_the_status_summary_survives_opening_a_menu(qtbot: QtBot, make_desk, make_window) -> None:
    desk = make_desk(RECEIVER)
    desk.new("Own work", "Goal")
    window = make_window(desk)
    settle(qtbot, window)
    assert window.status_summary() == "1 passport, 0 incoming"
    # what hovering a menu item does: its (empty) status tip replaces the bar's message
    QApplication.sendEvent(window, QStatusTipEvent(""))
    assert window.summary_label.isVisible()
    assert window.status_summary() == "1 passport, 0 incoming"
    assert QEvent.Type.StatusTip  # the event the menus send
