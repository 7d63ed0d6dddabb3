"""One long unbroken string (a hash, a path, a token-like word) stays in its own line: the
review keeps the window's width and wraps everything else as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, drop, settle
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

LONG = "0123456789abcdef" * 160  # 2,560 characters, no space


def test_a_long_unbroken_string_does_not_widen_the_review(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    sender = make_desk(SENDER)
    pid = sender.new(f"Title {LONG}", f"Goal {LONG}", current_state=f"State {LONG}").id
    sender.add_fact(pid, f"Digest {LONG}", scope="universal", verified=True)
    sender.add_check(pid, "It builds", how=f"sha256sum {LONG}")
    sender.add_ask(pid, f"Which {LONG}?", f"A name {LONG}")
    sender.add_next(pid, f"Then {LONG}")
    pack = tmp_path / "wide.taskpack"
    sender.pack(pid, pack, note=f"See {LONG}")
    window = make_window(make_desk(RECEIVER))
    window.resize(900, 650)
    assert drop(window, pack) == (True, True)
    settle(qtbot, window)
    QApplication.processEvents()
    scroll = window.incoming.view.scroll_area
    body = scroll.widget()
    assert body.width() <= scroll.viewport().width()
    assert not scroll.horizontalScrollBar().isVisible()
    assert window.incoming.view.land_button.isVisible()  # the footer still in the window
