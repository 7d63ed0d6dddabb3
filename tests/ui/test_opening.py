"""Start-up: the window's frame is shown before the desk is opened, then the desk's window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot
from taskpack.ui.opening import OpeningWindow, after_first_paint


def test_the_frame_is_painted_before_the_store_is_read(tmp_path: Path) -> None:
    """A fresh `taskpack-desk`: the frame reaches the screen before anything of the desk is
    imported or read; then the desk's window takes its place."""
    env = dict(
        os.environ,
        TASKPACK_HOME=str(tmp_path / "home"),
        QT_QPA_PLATFORM="offscreen",
        TASKPACK_DESK_EXIT_WHEN_SHOWN="1",
    )
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "taskpack.app.gui_main", "--new-instance"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one stream: what was imported before and after "shown"
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    lines = out.stdout.splitlines()
    moments = [line.split()[0] for line in lines if line.startswith(("shown ", "ready "))]
    assert moments == ["shown", "ready"]
    shown_at = next(i for i, line in enumerate(lines) if line.startswith("shown "))

    def imported(part: list[str]) -> set[str]:
        return {line.rsplit("|", 1)[-1].strip() for line in part if line.startswith("import time:")}

    before, after = imported(lines[:shown_at]), imported(lines[shown_at:])
    for module in ("taskpack.app.desk", "taskpack.core.desk.sqlite_store", "pydantic"):
        assert module not in before
        assert module in after
    assert (tmp_path / "home").is_dir()  # the desk was opened after all


def test_the_frame_says_the_desk_is_opening(qtbot: QtBot) -> None:
    frame = OpeningWindow()
    qtbot.addWidget(frame)
    painted: list[bool] = []
    after_first_paint(frame, lambda: painted.append(True))
    frame.show()
    qtbot.waitUntil(lambda: painted == [True])
    assert frame.windowTitle() == "TaskPack Desk"
    assert frame.message.text() == "Opening your desk…"
    assert [a.text() for a in frame.menuBar().actions()] == ["&File", "&Edit", "&View", "&Help"]
    assert not any(a.isEnabled() for a in frame.menuBar().actions())  # nothing to use yet


def test_the_frame_opens_where_the_window_was_closed(qtbot: QtBot) -> None:
    first = OpeningWindow()
    qtbot.addWidget(first)
    first.resize(640, 420)
    saved = bytes(first.saveGeometry().toBase64().data()).decode("ascii")
    again = OpeningWindow(saved)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (640, 420)
