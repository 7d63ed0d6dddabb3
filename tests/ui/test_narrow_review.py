"""A review in a small window (a 800×600 screen) fits its pane: the verdict's badge and
the senders' commands wrap instead of widening the review past the window, so nothing
is cut off at the right and the Copy buttons stay in view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, drop, settle
from PySide6.QtWidgets import QApplication, QScrollArea, QToolButton
from pytestqt.qtbot import QtBot
from test_plain_words import sent_pack


def test_the_review_fits_a_small_window(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    window = make_window(make_desk(RECEIVER, "Zhang"))
    window.resize(720, 540)
    drop(window, sent_pack(tmp_path, make_desk))
    settle(qtbot, window)
    QApplication.processEvents()
    review = window.incoming.view
    assert "✓ The file is well-formed" in review.visible_text()
    scroll = review.findChild(QScrollArea)
    qtbot.waitUntil(lambda: scroll.viewport().width() > 0)
    assert not scroll.horizontalScrollBar().isVisible(), "the review is wider than its pane"
    copies = [b for b in review.findChildren(QToolButton) if b.text() == "Copy" and b.isVisible()]
    assert copies, [b.text() for b in review.findChildren(QToolButton)]
    right = scroll.viewport().mapToGlobal(scroll.viewport().rect().topRight()).x()
    for b in copies:  # each Copy button wholly inside the pane a person sees
        assert b.mapToGlobal(b.rect().topRight()).x() <= right
