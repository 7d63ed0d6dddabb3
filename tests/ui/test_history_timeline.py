"""The History tab as a person reads it: a timeline, newest first, saying who
(person and machine), what and where (a file written, an email opened, landed, merged),
in the window's language. The desk stores what happened as data; the words are made
when shown, so a landing, a merge and an export read in Chinese under 简体中文."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, make_handoff, settle
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.core.desk.history_words import CANCELLED_OVER_A2A
from taskpack.ui import launch
from taskpack.ui.main_window import MainWindow
from test_export import _real_run_and_wait, fake_xdg_email


def _round_trip(tmp_path: Path, make_desk) -> tuple[Desk, str, Desk, str]:
    """Wei hands a task to Zhang, Zhang answers both asks, the receipt merges at Wei's."""
    home = make_desk(SENDER, actor="wei")
    pack = tmp_path / "invoice.taskpack"
    pid = make_handoff(home, pack)
    away = make_desk(RECEIVER, actor="zhang")
    there = away.land(pack).passport.id
    away.take_on(there)
    for ask in away.get(there).asks or []:
        away.answer(there, str(ask.id), "Fiona, fiona@example.com")
    away.pack(there, tmp_path / "answers.taskpack", kind="receipt", to="wei", via="window")
    home.merge_receipt(tmp_path / "answers.taskpack", pid)
    return home, pid, away, there


def _texts(history: Any) -> list[list[str]]:
    """What each History row reads, top to bottom: when, what, version, details, who."""
    items = [history.topLevelItem(i) for i in range(history.topLevelItemCount())]
    return [[item.text(c) for c in range(history.columnCount())] for item in items]


def _rows(window: MainWindow, pid: str, qtbot: QtBot) -> list[list[str]]:
    window.select_key(pid)
    settle(qtbot, window)
    view = window.passport.view
    view.tabs.setCurrentWidget(view.history)
    return _texts(view.history)


def test_landing_merge_and_export_read_in_chinese(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    home, pid, away, there = _round_trip(tmp_path, make_desk)
    sender = f"{pid}@"
    window = make_window(home)
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        rows = _rows(window, pid, qtbot)
        by_what = {row[1]: row[3] for row in rows}
        # the newest row: the desk's own reason for the move, in Chinese (it was English)
        assert rows[0][1] == "状态变更"
        assert "回执回答了它在等的每一个问题" in rows[0][3]
        merged = by_what["合并了回执"]
        assert merged.startswith("从 answers.taskpack 合并了一份回执（回答方的护照 ")
        assert merged.endswith("已回答：a1, a2。")
        assert "已写出交接文件" in by_what  # the handoff: a file written
        waiting = [row[3] for row in rows if "交接包里发出了未答的问题" in row[3]]
        assert len(waiting) == 1  # why it waited: it sent open asks in a handoff
        assert {row[4] for row in rows} == {"wei（wei-laptop）"}
    finally:
        window.set_language("en")
    there_window = make_window(away)
    try:
        there_window.set_language("zh_CN")
        settle(qtbot, there_window)
        rows = _rows(there_window, there, qtbot)
        [landed] = [row[3] for row in rows if row[1] == "已落地"]
        [packed] = [e for e in home.history(pid) if e.event == "packed"]
        version = packed.detail["version"]
        assert landed == (
            f"从 invoice.taskpack 落地（发送方的护照 {sender}{version}）。 放在最前面的必做检查：1 项。"
        )
        [held] = [row[3] for row in rows if "等待你批准" in row[3] and "原因" in row[3]]
        assert "held for" not in held
    finally:
        there_window.set_language("en")


def test_an_old_row_keeps_its_english_reason_readable_in_both_languages(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    """Rows written before reasons were codes hold the English sentence: the desk's own
    old sentences are translated, a person's own words are shown as they were typed."""
    desk = make_desk(RECEIVER)
    pid = desk.new("Old task", "Goal").id
    with desk.store.write() as tx:
        tx.log(
            pid,
            "moved",
            {
                "from": "waiting[human]",
                "to": "working",
                "why": "the receipt answered every ask it was waiting on",
                "move": "the answer came",
            },
        )
        tx.log(pid, "moved", {"from": "working", "to": "cancelled", "why": "Bob said stop"})
    window = make_window(desk)
    rows = _rows(window, pid, qtbot)
    assert "why: the receipt answered every question it was waiting on" in rows[1][3]
    assert rows[0][3].endswith("why: Bob said stop")
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        rows = _rows(window, pid, qtbot)
        assert "回执回答了它在等的每一个问题" in rows[1][3]
        assert rows[0][3].endswith("Bob said stop")
    finally:
        window.set_language("en")


def test_history_is_a_timeline_of_who_what_and_where_newest_first(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    monkeypatch.setattr(launch, "run_and_wait", _real_run_and_wait)
    fake_xdg_email(tmp_path / "bin", 0)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("taskpack.ui.launch.sys.platform", "linux")
    home, pid, _away, _there = _round_trip(tmp_path, make_desk)
    window = make_window(home)
    window.select_key(pid)
    settle(qtbot, window)
    # the person emails the passport on: the mail program opens with the file attached
    window.passport.view.export_actions[("handoff", "email")].trigger()
    settle(qtbot, window)
    qtbot.waitUntil(lambda: _texts(window.passport.view.history)[0][1] == "email opened")
    rows = _texts(window.passport.view.history)
    what = [row[1] for row in rows]
    assert what[:3] == ["email opened", "handoff file written", "moved"]
    assert rows[0][3] == (
        "Your mail program opened a new email with Fix-the-invoice-export-handoff"
        ".taskpack.json attached."
    )
    assert what.index("receipt merged") < what.index("handoff file written", 2)  # newest first
    assert what[-1] == "created"
    assert {row[4] for row in rows} == {"wei on wei-laptop"}
    [merged] = [row[3] for row in rows if row[1] == "receipt merged"]
    assert merged.startswith("A receipt merged from answers.taskpack (the answerer's passport ")
    assert merged.endswith("Answered: a1, a2.")
    history = window.passport.view.history
    for i in range(history.topLevelItemCount()):  # a cut detail is whole on hover
        item = history.topLevelItem(i)
        assert item.toolTip(3).startswith(item.text(3))


def test_a_task_cancelled_over_a2a_says_by_whom_in_both_languages(
    qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Their task", "Goal").id
    desk.move(pid, "cancelled", reason=CANCELLED_OVER_A2A, by="alice")
    window = make_window(desk)
    rows = _rows(window, pid, qtbot)
    assert rows[0][3].endswith("why: cancelled over A2A by the one who sent it; by: alice")
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        rows = _rows(window, pid, qtbot)
        assert "发送方通过 A2A 取消了它" in rows[0][3] and rows[0][3].endswith("alice")
    finally:
        window.set_language("en")
