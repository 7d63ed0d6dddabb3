"""`taskpack serve` stops cleanly on Ctrl-C however it was started (the suite run
from a script's `&` inherited SIGINT ignored, and long-running verbs never heard Ctrl-C)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_started_with_sigint_ignored_still_stops(tmp_path: Path, sig: signal.Signals) -> None:
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0"]
    proc = subprocess.Popen(
        ["sh", "-c", 'trap \'\' INT; exec "$0" "$@"', *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "Serving A2A" in line  # the signal comes the moment the address is out
    finally:
        proc.send_signal(sig)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"`taskpack serve` ignored {sig.name} for 60 s")
    assert proc.returncode == 0, err
    assert "Stopped." in out
