"""Output in UTF-8 whatever the code page: a verb that prints ✓, → or Chinese, with its
output going to a pipe, as an agent or a script reads it. On Linux the test forces a
code page that cannot encode them (what Windows' Python picks for a pipe); under Wine the
real Windows default is used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TITLE = "把报告交给小王 → check ✓"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(
        TASKPACK_HOME=str(tmp_path / "home"),
        TASKPACK_MACHINE="test-machine",
        TASKPACK_ACTOR="tester",
        TASKPACK_NO_PROGRESS="1",
    )
    if sys.platform != "win32":  # Windows' choice for a pipe: the ANSI code page
        env["PYTHONIOENCODING"] = "cp1252"
    return env


def _taskpack(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )


def test_a_verb_prints_check_marks_arrows_and_chinese_through_a_pipe(tmp_path: Path) -> None:
    made = _taskpack(["new", "--title", TITLE, "--goal", "交付", "--json"], tmp_path)
    assert made.returncode == 0, made.stderr.decode("utf-8", "replace")
    pid = json.loads(made.stdout)["passport"]["id"]
    pack = tmp_path / "x.taskpack"
    packed = _taskpack(["pack", pid, "--out", str(pack)], tmp_path)
    assert packed.returncode == 0, packed.stderr.decode("utf-8", "replace")
    for verb in (["open", pid], ["show", str(pack)], ["conformance", str(pack)]):
        proc = _taskpack(verb, tmp_path)
        assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
        assert b"Traceback" not in proc.stderr
        out = proc.stdout.decode("utf-8")
        assert (TITLE if verb[0] != "conformance" else "C0 ✓") in out, verb


def test_an_error_naming_a_chinese_file_reaches_stderr_whole(tmp_path: Path) -> None:
    missing = tmp_path / "没有这个文件.taskpack"
    shown = _taskpack(["show", str(missing)], tmp_path)
    assert shown.returncode != 0
    err = shown.stderr.decode("utf-8")
    assert "没有这个文件" in err and "Traceback" not in err


def test_use_utf8_leaves_a_utf8_stream_and_switches_another(monkeypatch) -> None:
    import io

    from taskpack.app.platform.console import use_utf8

    ansi = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    monkeypatch.setattr(sys, "stdout", ansi)
    monkeypatch.setattr(sys, "stderr", utf8)
    monkeypatch.setattr(sys, "stdin", None)  # a windowed program has none
    use_utf8()
    assert ansi.encoding == "utf-8"
    assert (utf8.encoding, utf8.errors) == ("utf-8", "backslashreplace")
    ansi.write("✓ →")
    ansi.flush()
    assert ansi.buffer.getvalue() == "✓ →".encode()


@pytest.mark.parametrize("verb", [["--help"], ["conformance", "--help"]])
def test_help_prints_through_a_pipe(tmp_path: Path, verb: list[str]) -> None:
    proc = _taskpack(verb, tmp_path)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
