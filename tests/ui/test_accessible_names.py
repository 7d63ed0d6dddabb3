"""Every control a person can reach by keyboard has a name a screen reader says ("Search
titles", not "edit"): a walk over the whole window, on each of its pages, fails on any
focusable control without one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, drop, make_handoff, settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot


def spoken_name(w: QWidget) -> str:
    """The name assistive technology reads for `w` (its own, or the one Qt derives from
    its text or its label)."""
    face = QAccessible.queryAccessibleInterface(w)
    return (face.text(QAccessible.Text.Name) if face is not None else "").strip()


def unnamed_controls(root: QWidget) -> list[str]:
    missing = []
    for w in [root, *root.findChildren(QWidget)]:
        if w.focusPolicy() == Qt.FocusPolicy.NoFocus or not w.isVisible() or not w.isEnabled():
            continue
        if w.focusProxy() is not None:
            continue  # the proxy is the control that takes the focus, and is walked itself
        if w.objectName() == "qt_scrollarea_viewport" or type(w).__name__ == "QScrollBar":
            continue  # Qt's own parts of a scroll area: not stops a person tabs to
        if not spoken_name(w):
            missing.append(f"{type(w).__name__} {w.objectName()!r} in {type(w.parent()).__name__}")
    return missing


def test_every_focusable_control_has_a_spoken_name(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    pack = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    window = make_window(make_desk(RECEIVER, "Zhang"))
    window.resize(1000, 700)
    assert unnamed_controls(window) == []  # the empty desk
    assert drop(window, pack) == (True, True)
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.incoming.view
    assert unnamed_controls(window) == []  # the landing review
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    page = window.passport.view
    for tab in range(page.tabs.count()):
        page.tabs.setCurrentIndex(tab)
        settle(qtbot, window)
        assert unnamed_controls(window) == [], page.tabs.tabText(tab)


def test_the_list_and_its_filters_say_what_they_are(make_desk: Any, make_window: Any) -> None:
    window = make_window(make_desk(RECEIVER))
    assert spoken_name(window.inbox.view) == "Passports and incoming packs"
    assert spoken_name(window.inbox.search) == "Search titles"
    # (a combo box's spoken name on Linux is its current text, its label a relation; the
    # name set here is what Windows and macOS read)
    assert window.inbox.state_box.accessibleName() == "Filter by state"
    assert window.inbox.sender_box.accessibleName() == "Filter by sender"
