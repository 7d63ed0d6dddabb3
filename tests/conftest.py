"""Shared fixtures. Kept minimal: helpers that build packs live next to the tests
(tests/hostile_zips.py builds hostile files; this folder is on sys.path because this
conftest lives here)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

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
