"""Two windows on one team desk ride out a PostgreSQL restart: while the server is down
each says it cannot reach the team desk; once it is back, each catches up on what a
colleague wrote meanwhile and the warning goes away — nobody has to click anything."""

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
    proxy = window.proxy
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
