"""The window on a team desk sees what another process does to the shared store without
being asked to refresh: a colleague's `taskpack` lands a pack, then answers one of its
asks, and the open window shows both (the change feed, not a poll)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import make_handoff
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.main_window import MainWindow

#: generous: a loaded machine may take seconds to start a subprocess (this is no timing test)
SEEN_WITHIN_MS = 60_000
ANSWER = "Ms. Lin, lin@finance.example.com"


def colleague(tmp_path: Path, url: str, *args: str) -> str:
    """Run `taskpack ARGS` as Bea on another machine of the same team desk; its stdout."""
    env = dict(os.environ)
    env.update(
        TASKPACK_STORE=url,
        TASKPACK_HOME=str(tmp_path / "bea-home"),
        TASKPACK_MACHINE="beta",
        TASKPACK_ACTOR="Bea",
        TASKPACK_NO_PROGRESS="1",
    )
    done = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def titles(window: MainWindow) -> list[str]:
    proxy = window.inbox.proxy
    return sorted(proxy.index(r, 0).data() for r in range(proxy.rowCount()))


def test_the_window_shows_a_landing_and_an_answer_made_by_another_machine(
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    team_desk_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Desk(tmp_path / "sender-home", "wei-laptop", actor="Wei") as sender:
        make_handoff(sender, tmp_path / "invoice.taskpack", title="Fix the invoice export")
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    window = make_window(make_desk("alpha", "Ana"))
    assert titles(window) == []

    colleague(tmp_path, team_desk_url, "land", str(tmp_path / "invoice.taskpack"))
    qtbot.waitUntil(lambda: titles(window) == ["Fix the invoice export"], timeout=SEEN_WITHIN_MS)

    [pid] = [p.id for p in window.desk.passports()]
    window.select_key(pid)
    qtbot.waitUntil(lambda: "a1" in window.passport.view.asks.cards, timeout=SEEN_WITHIN_MS)
    assert window.passport.view.asks.status_of("a1") == "open"
    colleague(tmp_path, team_desk_url, "answer", pid, "a1", "--answer", ANSWER)

    def answer_shown() -> bool:
        asks = window.passport.view.asks
        card = asks.cards.get("a1")
        return (
            card is not None
            and asks.status_of("a1") == "answered"
            and card.answer_edit.toPlainText() == ANSWER
        )

    qtbot.waitUntil(answer_shown, timeout=SEEN_WITHIN_MS)


def test_a_landing_check_done_on_another_machine_is_not_done_here(
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    team_desk_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bea checks the billing database from beta; Ana's window on alpha says where it was
    done and still offers "I checked this here": the check proved it on beta, not on alpha
    (the hand-run round trip showed "Checked here by Bea" on alpha)."""
    with Desk(tmp_path / "sender-home", "wei-laptop", actor="Wei") as sender:
        make_handoff(sender, tmp_path / "invoice.taskpack", title="Fix the invoice export")
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    window = make_window(make_desk("alpha", "Ana"))
    bea = make_desk("beta", "Bea")
    pid = bea.land(tmp_path / "invoice.taskpack").passport.id
    qtbot.waitUntil(lambda: titles(window) == ["Fix the invoice export"], timeout=SEEN_WITHIN_MS)
    window.select_key(pid)
    check_id = next(c.id for c in bea.get(pid).landing_checks or [] if c.is_required)
    bea.check_landing_here(pid, check_id or "")

    def shown() -> bool:
        return "Checked on beta by Bea" in window.passport.view.overview_text()

    qtbot.waitUntil(shown, timeout=SEEN_WITHIN_MS)
    overview = window.passport.view.overview_text()
    assert "not yet on this machine" in overview and "Checked here by" not in overview
    assert check_id in window.passport.view.landing_check_buttons
    assert window.passport.view.landing_check_buttons[check_id].text() == "I checked this here"


def test_the_status_bar_says_the_window_is_on_a_team_desk(
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    team_desk_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Everyone on a team desk sees its passports: the window says so, without a password."""
    from urllib.parse import urlsplit

    embedded = make_window(make_desk("alpha", "Ana"))
    assert "team desk" not in embedded.status_summary()
    embedded.close()

    # (a URL holding a password is refused before any window opens: tests/app/team/test_url.py)
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    window = make_window(make_desk("alpha", "Ana"))
    parts = urlsplit(team_desk_url)
    where = f"{parts.path.lstrip('/')} on 127.0.0.1:{parts.port}"
    qtbot.waitUntil(lambda: f"team desk {where}" in window.status_summary(), timeout=10_000)
