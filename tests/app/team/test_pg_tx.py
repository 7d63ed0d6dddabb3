"""Edits of one passport at once on the team desk: additive ones (a fact, a next step,
an ask, answers to different asks) all succeed, as on the embedded desk; only an edit
over a version that moved on (expected_version) reaches the person as a conflict."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.core.errors import VersionConflict

ROUNDS = 20


def _desk(url: str, home: Path, machine: str, actor: str) -> Desk:
    return Desk(home, machine, actor=actor, settings=Settings(gate_allow=["*"]))


def _together(work: list[Callable[[int], None]]) -> list[BaseException]:
    start = threading.Barrier(len(work))
    failed: list[BaseException] = []

    def run(fn: Callable[[int], None]) -> None:
        start.wait(timeout=60)
        for n in range(ROUNDS):
            try:
                fn(n)
            except BaseException as exc:  # counted, as a person would see them
                failed.append(exc)

    threads = [threading.Thread(target=run, args=(fn,)) for fn in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    return failed


def test_two_people_adding_at_once_never_meet_a_conflict(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana")
    wei = _desk(team_desk_url, tmp_path / "b", "beta", "wei")
    try:
        lp = ana.new("Invoice export", "CSV for finance")
        failed = _together(
            [
                lambda n: ana.add_fact(lp.id, f"ana's fact {n}", scope="universal"),
                lambda n: wei.add_fact(lp.id, f"wei's fact {n}", scope="universal"),
                lambda n: wei.add_next(lp.id, f"wei's step {n}"),
            ]
        )
        assert failed == []
        got = ana.get(lp.id)
        claims = {f.claim for f in got.passport.facts or []}
        assert len(claims) == 2 * ROUNDS
        assert len(got.passport.next_steps or []) == ROUNDS
        assert got.version == 1 + 3 * ROUNDS
    finally:
        ana.close()
        wei.close()


def test_an_edit_over_a_version_that_moved_on_is_still_a_conflict(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana")
    wei = _desk(team_desk_url, tmp_path / "b", "beta", "wei")
    try:
        lp = ana.new("Invoice export", "CSV for finance")
        wei.add_fact(lp.id, "wei was first", scope="universal")
        with pytest.raises(VersionConflict):
            ana.add_fact(lp.id, "over version 1", scope="universal", expected_version=1)
    finally:
        ana.close()
        wei.close()
