"""Forward Tab goes through the whole window and comes back: it never circles inside the
passport page (a person working from the keyboard can always reach the list again)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot


def tab_stops(qtbot: QtBot, window: Any, start: QWidget, most: int = 120) -> list[QWidget]:
    """The widgets forward Tab visits from `start`, until it comes back to it."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is start)
    stops: list[QWidget] = []
    for _ in range(most):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        QApplication.processEvents()
        now = QApplication.focusWidget()
        if now is start:
            return stops
        stops.append(now)
    names = [
        f"{type(w).__name__}:{w.accessibleName() or getattr(w, 'text', lambda: '')()}"
        for w in stops[-12:]
    ]
    raise AssertionError(f"Tab did not come back to {type(start).__name__}: ... {names}")


def test_forward_tab_goes_round_the_whole_window(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    pack = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.land(pack).id
    window = make_window(desk)
    window.resize(1000, 700)
    window.select_key(pid)
    settle(qtbot, window)
    page = window.passport.view
    for tab in range(page.tabs.count()):
        page.tabs.setCurrentIndex(tab)
        settle(qtbot, window)
        stops = tab_stops(qtbot, window, window.inbox.view)
        assert window.inbox.search in stops and page.tabs.tabBar() in stops, page.tabs.tabText(tab)
        assert any(page.isAncestorOf(w) for w in stops)


def test_a_scroll_area_with_the_focus_shows_the_ring(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    from PySide6.QtGui import QColor
    from taskpack.ui import tones

    pack = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.land(pack).id
    window = make_window(desk)
    window.resize(1000, 700)
    window.select_key(pid)
    settle(qtbot, window)
    stops = tab_stops(qtbot, window, window.inbox.view)
    overview = window.passport.view.overview
    assert overview in stops  # Tab stops on the Overview (it scrolls by keyboard) …
    overview.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(overview.hasFocus)
    QApplication.processEvents()
    image = window.grab().toImage()
    ring = QColor(tones.focus())
    top_left = overview.mapTo(window, overview.rect().topLeft())
    edge = [
        QColor(image.pixel(top_left.x() + x, top_left.y() + dy))
        for x in range(10, min(overview.width() - 10, 200))
        for dy in (-3, -2, -1, 0, 1, 2)
    ]
    near = [c for c in edge if abs(c.red() - ring.red()) + abs(c.blue() - ring.blue()) < 60]
    assert len(near) > 50  # … and a person sees that it did: a ring along its edge
