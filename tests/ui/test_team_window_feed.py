"""Windows on a team desk keep up with it whatever the feed does: they ride out a
PostgreSQL restart (saying meanwhile that they cannot reach it, then catching up on what a
colleague wrote) and a storm of notices from a session with no rights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.app.team import schema

#: generous: a loaded machine may take seconds to reconnect (this is no timing test)
WITHIN_MS = 90_000


def titles(window: Any) -> list[str]:
    proxy = window.inbox.proxy
    return sorted(proxy.index(r, 0).data() for r in range(proxy.rowCount()))


def test_two_windows_say_they_cannot_reach_the_desk_then_catch_up(
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    own_postgres: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = own_postgres.new_database()
    schema.init(url)
    monkeypatch.setenv("TASKPACK_STORE", url)
    windows = [make_window(make_desk("alpha", "Ana")), make_window(make_desk("beta", "Bea"))]
    wei = Desk(tmp_path / "wei-home", "gamma", actor="Wei")
    try:
        wei.new("Before the restart", "seen by both")
        for w in windows:
            qtbot.waitUntil(lambda w=w: titles(w) == ["Before the restart"], timeout=WITHIN_MS)

        own_postgres.stop("fast")
        for w in windows:
            qtbot.waitUntil(
                lambda w=w: "Cannot reach the team desk" in w.banner.text(), timeout=WITHIN_MS
            )
            assert "out of reach" in w.status_summary()
        own_postgres.start()
        wei.new("Written after the restart", "nobody told the windows")

        for w in windows:
            qtbot.waitUntil(
                lambda w=w: titles(w) == ["Before the restart", "Written after the restart"],
                timeout=WITHIN_MS,
            )
            qtbot.waitUntil(lambda w=w: w.banner.text() == "", timeout=WITHIN_MS)
            assert "out of reach" not in w.status_summary()
    finally:
        wei.close()


def test_a_storm_of_notices_does_not_keep_the_window_stale(
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    team_desk_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session with no rights at all may still NOTIFY the channel every few ms; the
    window reads a burst soon after its first notice, not after the last one, so it shows
    a colleague's change while the storm goes on. (The pacing itself, on a fake clock, in
    tests/ui/window/test_inbox.py: there the old pacing fails every time.)"""
    import subprocess
    import sys
    import threading

    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    desk = make_desk("alpha", "Ana")
    window = make_window(desk)
    heard = [0]
    lock = threading.Lock()

    def count() -> None:  # beside the window's own subscription, on the feed's thread
        with lock:
            heard[0] += 1

    def notices() -> int:
        with lock:
            return heard[0]

    unhear = desk.on_changes_elsewhere(count)
    storm = (  # another process, as a colleague's rogue script would be
        "import sys, time, psycopg\n"
        "with psycopg.connect(sys.argv[1], autocommit=True) as conn:\n"
        "    while True:\n"
        "        conn.execute(\"NOTIFY taskpack_changes, 'noise'\")\n"
        "        time.sleep(0.005)\n"  # far closer together than the window's 50 ms
    )
    noisy = subprocess.Popen([sys.executable, "-c", storm, team_desk_url])
    wei = Desk(tmp_path / "wei-home", "gamma", actor="Wei")
    try:
        qtbot.waitUntil(lambda: notices() >= 20, timeout=WITHIN_MS)  # the storm reaches us
        wei.new("Made during the storm", "seen anyway")
        qtbot.waitUntil(lambda: titles(window) == ["Made during the storm"], timeout=WITHIN_MS)
        shown_at = notices()
        qtbot.waitUntil(lambda: notices() >= shown_at + 20, timeout=WITHIN_MS)
        assert noisy.poll() is None  # it was still storming after the window showed it
    finally:
        if unhear is not None:
            unhear()
        noisy.kill()
        noisy.wait(timeout=30)
        wei.close()
