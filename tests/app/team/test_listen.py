"""The change feed (LISTEN/NOTIFY) survives losing its connection: what others wrote
while it was down is not heard, so a window is told to look again once it is back."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
import pytest
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.core.errors import StoreError
from team_helpers import wait_for


def _looked(desk: Desk) -> list[str]:
    try:
        return desk.changes_elsewhere()
    except StoreError:  # out of reach while the feed is down: ask again
        return []


def test_a_window_is_told_to_look_again_when_the_change_feed_comes_back(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    ana = Desk(tmp_path / "a", "alpha", actor="ana", settings=Settings(gate_allow=["*"]))
    wei = Desk(tmp_path / "b", "beta", actor="wei", settings=Settings(gate_allow=["*"]))
    try:
        heard = threading.Event()
        unhear = ana.on_changes_elsewhere(heard.set)
        assert unhear is not None
        listening = "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN taskpack_changes'"
        with psycopg.connect(team_desk_url, autocommit=True) as admin:
            assert wait_for(lambda: admin.execute(listening).fetchall())
            for (pid,) in admin.execute(listening).fetchall():
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            made = wei.new("Written while the feed was down", "a change nobody heard")
            assert heard.wait(timeout=60)  # lost, then back: "look again" each time
        assert made.id in wait_for(lambda: _looked(ana), tries=1200)  # type: ignore[operator]
        heard.clear()
        unhear()
        wei.new("After unsubscribing", "not told")
        assert not heard.wait(timeout=2)
    finally:
        ana.close()
        wei.close()
