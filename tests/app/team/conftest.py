"""Both stores behind one fixture: every test here runs on the embedded desk and on the
team desk, so they cannot drift apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings


@pytest.fixture(params=["sqlite", "postgres"])
def make_desk(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[object]:
    """make_desk(machine, actor) -> a Desk on the store under test. On SQLite every desk
    shares one home (one person's desk, opened twice); on PostgreSQL each has its own
    home and shares the database."""
    opened: list[Desk] = []
    if request.param == "postgres":
        monkeypatch.setenv("TASKPACK_STORE", request.getfixturevalue("team_desk_url"))
    else:
        monkeypatch.delenv("TASKPACK_STORE", raising=False)

    def make(machine: str = "alpha", actor: str = "ana") -> Desk:
        home = tmp_path / ("desk" if request.param == "sqlite" else f"home-{machine}-{len(opened)}")
        desk = Desk(home, machine, actor=actor, settings=Settings(gate_allow=["*"]))
        opened.append(desk)
        return desk

    make.kind = request.param  # type: ignore[attr-defined]
    yield make
    for desk in opened:
        desk.close()
