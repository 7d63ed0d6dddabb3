"""One item, one line in the composer's lists: a line too long for the width ends in "…"
and is whole in its tooltip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import settle
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.composer.item_lines import LineLabel


def test_a_long_item_line_ends_in_an_ellipsis_and_is_whole_in_its_tooltip(
    qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any]
) -> None:
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the export", "Readable invoices").id
    claim = "The export runs in 40 s on this laptop, with the March data and the new index."
    desk.add_fact(pid, claim, scope="machine", verified=True, source="timed with make export")
    window = make_window(desk)
    window.resize(900, 600)
    window.select_key(pid)
    settle(qtbot, window)
    window.compose_action.trigger()
    settle(qtbot, window)
    composer = window.composer
    (line,) = [
        lbl
        for lbl in composer.items_box.findChildren(LineLabel)
        if lbl.text().startswith("The export runs")
    ]
    whole = f"{claim} — This machine — ✓ verified here — source: timed with make export"
    assert line.text() == whole and line.toolTip() == whole
    qtbot.waitUntil(lambda: line.width() > 0)
    shown = line.shown_text()
    assert shown.endswith("…") and whole.startswith(shown[:-1])  # shortened, and says so
    assert line.fontMetrics().horizontalAdvance(shown) <= line.contentsRect().width()
