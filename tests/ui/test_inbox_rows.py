"""The inbox list at 800×600: a row is tall enough for its letters' descenders (g, y, p)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, make_handoff, settle
from pytestqt.qtbot import QtBot
from taskpack.ui.models import InboxModel


def test_at_800_by_600_rows_fit_their_letters(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    pack = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER, "Wei Zhang"), pack, title="Fix the invoice export")
    desk = make_desk(RECEIVER)
    desk.land(pack)  # "needs your approval", from Wei Zhang@wei-laptop
    desk.new("Tidy the wiki", "A goal")
    window = make_window(desk)
    window.resize(800, 600)
    settle(qtbot, window)
    view, proxy = window.inbox.view, window.inbox.proxy
    qtbot.waitUntil(lambda: proxy.rowCount() == 2)
    metrics = view.fontMetrics()
    for row in range(proxy.rowCount()):
        height = view.visualRect(proxy.index(row, InboxModel.TITLE)).height()
        assert height >= metrics.height() + 4, (height, metrics.height())
    header = view.header()
    total = sum(header.sectionSize(c) for c in range(header.count()))
    assert total <= view.viewport().width() + 1  # and no sideways scrolling


def test_a_draft_answer_waiting_after_a_restart_is_marked_in_the_list(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    from PySide6.QtCore import Qt
    from taskpack.app.desk import Desk

    pack = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER, "Wei Zhang"), pack, title="Fix the invoice export")
    desk = make_desk(RECEIVER)
    pid = desk.land(pack).id
    desk.drafts.set(pid, "a1", "Ms. Li, li@example.com")  # typed, not saved, then Ctrl+Q
    desk.drafts.flush()
    again = Desk(desk.home, RECEIVER, actor="someone")  # the desk opened again
    try:
        window = make_window(again)
        settle(qtbot, window)
        [row] = range(window.inbox.proxy.rowCount())
        asks = window.inbox.proxy.index(row, InboxModel.ASKS)
        assert asks.data() == "2 ✎"
        tip = asks.data(Qt.ItemDataRole.ToolTipRole)
        assert tip == "1 answer you typed waits here, not saved yet"
    finally:
        window.shutdown()
        again.close()
