"""Shared fixtures. Kept minimal: helpers that build packs live next to the tests
(tests/hostile_zips.py builds hostile files; this folder is on sys.path because this
conftest lives here)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for a `taskpack` subprocess: its own home, a fixed machine name, no bar."""
    env = dict(os.environ)
    env.update(
        TASKPACK_HOME=str(tmp_path_factory.mktemp("taskpack-home")),
        TASKPACK_MACHINE="test-machine",
        TASKPACK_ACTOR="tester",
        TASKPACK_NO_PROGRESS="1",
        QT_QPA_PLATFORM="offscreen",
        PYTHONIOENCODING="utf-8",
    )
    return env


@pytest.fixture(scope="session")
def run_cli(cli_env: dict[str, str]) -> CliRun:
    """Run `python -m taskpack.app.cli.main ARGS` in a real subprocess; returns the result."""

    def run(
        args: Sequence[str], *, cwd: Path | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
            cwd=cwd,
            env=cli_env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
        )

    return run


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL 15 cluster for this test session (tests/postgres_cluster.py)."""
    from postgres_cluster import running_cluster

    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def own_postgres() -> Iterator[Any]:
    """A cluster of this test's own, which it may stop, restart or fail over."""
    from postgres_cluster import running_cluster

    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def team_url(postgres: Any) -> str:
    """The URL of a fresh, empty database on the session's cluster (no schema yet)."""
    return str(postgres.new_database())


@pytest.fixture
def team_desk_url(team_url: str) -> str:
    """A fresh database with the team desk schema made (`taskpack store init`)."""
    from taskpack.app.team import schema

    schema.init(team_url)
    return team_url


if os.environ.get("TASKPACK_WINDOWS_LANE_SELECT") == "1":  # run by tests/windows_lane.py
    from windows_lane import (  # noqa: F401 - pytest's hooks, taken by name
        pytest_collection_modifyitems,
        pytest_ignore_collect,
        retry_wine_process_creation,
    )

    retry_wine_process_creation()
