"""A required landing check placed first among the next steps reads in the window's
language: the passport keeps the line the desk wrote, the Overview says it
again from the passport's own record of the check; the check and its `how` stay the
sender's words, quoted."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, SENDER, make_handoff, settle
from pytestqt.qtbot import QtBot


def test_a_landing_check_among_the_next_steps_reads_in_chinese(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    make_handoff(make_desk(SENDER), tmp_path / "invoice.taskpack")
    desk = make_desk(RECEIVER)
    pid = desk.land(tmp_path / "invoice.taskpack").passport.id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    english = window.passport.view.overview_text()
    assert (
        "1. Landing check (required): This machine can reach the billing database — "
        "sender's suggestion, not run: «psql -h localhost -c 'select 1'»"
    ) in english
    assert "2. Merge fix/csv-bom after review." in english
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        window.select_key(pid)
        settle(qtbot, window)
        chinese = window.passport.view.overview_text()
        assert (
            "1. 落地检查（必需）：This machine can reach the billing database — 发送方的建议，"
            "未运行：«psql -h localhost -c 'select 1'»"
        ) in chinese
        assert "Landing check" not in chinese
    finally:
        window.set_language("en")
