"""The `taskpack` program as a whole: version, help, exit codes (real subprocesses)."""

from __future__ import annotations

import subprocess
import sys


def taskpack(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args], capture_output=True, text=True
    )


def test_version_goes_to_stdout() -> None:
    r = taskpack("--version")
    assert r.returncode == 0
    assert r.stdout.startswith("taskpack ") and r.stdout.strip() != "taskpack"
    assert r.stderr == ""


def test_the_version_printed_is_the_installed_distributions() -> None:
    """`--version` prints a constant (reading package metadata cost half its start-up):
    it must be the version pyproject.toml gives the distribution that is installed."""
    from importlib.metadata import version

    assert taskpack("--version").stdout == f"taskpack {version('taskpack-desk')}\n"


def test_help_lists_every_verb_and_the_exit_codes() -> None:
    r = taskpack("--help")
    assert r.returncode == 0
    for verb in ("convert", "show", "verify", "conformance", "pack", "land", "serve", "watch"):
        assert f"    {verb}" in r.stdout
    assert "Exit codes: 0 ok, 1 error" in r.stdout and "2 not conformant or refused" in r.stdout


def test_a_missing_file_is_one_line_not_a_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = taskpack("verify", str(tmp_path / "nope.taskpack"))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "nope.taskpack" in r.stderr
