"""`taskpack-desk --smoke-test`: one line per step, a missing piece named, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest
from taskpack.app import smoke

ROOT = Path(__file__).resolve().parents[2]


def run_with(
    steps: list[tuple[str, smoke.Step]], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    code = smoke.run(["taskpack-desk", "--smoke-test"], steps=steps)
    return code, capsys.readouterr().out


def test_all_steps_ok_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_with([("one", lambda ctx: "fine"), ("two", lambda ctx: "also fine")], capsys)
    assert code == 0
    assert "  ok    one      fine\n" in out
    assert "  ok    cleanup  the temporary folder is deleted" in out  # always the last step
    assert "smoke test passed: 3 steps" in out


def test_a_missing_module_is_named_in_one_line_and_later_steps_still_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(smoke.TRACE_ENV, raising=False)

    def needs_a_module(ctx: smoke.Context) -> str:
        import taskpack_no_such_module  # noqa: F401

        return "unreachable"

    def needs_an_api(ctx: smoke.Context) -> str:
        smoke.need("taskpack.app.smoke", "no_such_service", piece="the frobnicator")
        return "unreachable"

    def breaks(ctx: smoke.Context) -> str:
        raise RuntimeError("the window\nwould not open")

    code, out = run_with(
        [
            ("mod", needs_a_module),
            ("api", needs_an_api),
            ("boom", breaks),
            ("last", lambda c: "ran"),
        ],
        capsys,
    )
    assert code == 1
    assert "FAIL  mod      missing module 'taskpack_no_such_module' (not installed)" in out
    assert (
        "FAIL  api      the frobnicator is missing: taskpack.app.smoke has no 'no_such_service'"
        in out
    )
    assert "FAIL  boom     RuntimeError: the window would not open" in out
    assert "ok    last     ran" in out
    assert "Traceback" not in out
    assert "smoke test FAILED: 3 of 5 steps (mod, api, boom)" in out


def test_a_missing_package_says_which_piece(capsys: pytest.CaptureFixture[str]) -> None:
    step = lambda ctx: smoke.need("taskpack_absent.server", piece="the A2A endpoint")  # noqa: E731
    code, out = run_with([("a2a", step)], capsys)
    assert code == 1
    assert "the A2A endpoint is not in this build (no module 'taskpack_absent.server')" in out


def test_a_file_a_step_left_open_is_named_and_fails_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What Windows does to a folder a thread still holds (a watcher never stopped): the
    deletion fails; the cleanup line says what is left and which threads still run."""
    monkeypatch.setattr(smoke, "CLEANUP_PATIENCE", 0.5)
    released = threading.Event()

    def leaves_a_watcher(ctx: smoke.Context) -> str:
        (ctx.tmp / "inbox").mkdir()
        threading.Thread(target=released.wait, name="forgotten-watcher", daemon=True).start()
        return "started"

    real_rmtree = shutil.rmtree

    def windows_rmtree(path: Any, *args: Any, **kw: Any) -> None:
        if not released.is_set():
            raise PermissionError(13, "The process cannot access the file", str(path))
        real_rmtree(path, *args, **kw)

    monkeypatch.setattr(smoke.shutil, "rmtree", windows_rmtree)
    try:
        code, out = run_with([("watch", leaves_a_watcher)], capsys)
    finally:
        released.set()
    assert code == 1
    assert "FAIL  cleanup  the temporary folder cannot be deleted" in out
    assert "still there: inbox" in out
    assert "forgotten-watcher" in out
    assert "smoke test FAILED: 1 of 2 steps (cleanup)" in out
    assert "Traceback" not in out


def test_nothing_escapes_as_an_exception(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A windowed Windows build shows an escaped exception in a dialog that waits for a
    click: an unattended check would wait for ever. One line and exit 1 instead."""
    monkeypatch.delenv(smoke.TRACE_ENV, raising=False)

    def broken_cleanup(ctx: smoke.Context) -> str:
        raise AssertionError("unreachable")

    def broken_runner(steps: Any, ctx: smoke.Context) -> list[smoke.Result]:
        raise OSError(145, "Directory is not empty")

    monkeypatch.setattr(smoke, "run_steps", broken_runner)
    code, out = run_with([("one", broken_cleanup)], capsys)
    assert code == 1
    assert "smoke test FAILED: OSError: [Errno 145] Directory is not empty" in out
    assert "Traceback" not in out


def test_a_hang_is_bounded_and_its_stacks_are_reported(tmp_path: Path) -> None:
    """A step that never returns: after HANG_LIMIT every thread's stack is in the report
    and the process ends with 1 (a real process: faulthandler ends it)."""
    log = tmp_path / "smoke.log"
    code = (
        "import threading, sys\n"
        "from taskpack.app import smoke\n"
        "smoke.HANG_LIMIT = 1.0\n"
        "def hangs(ctx):\n"
        "    threading.Event().wait()\n"
        "sys.exit(smoke.run(['x', '--smoke-test', '--smoke-log=' + sys.argv[1]],"
        " steps=[('stuck', hangs)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(log)], capture_output=True, text=True, timeout=300
    )
    text = log.read_text(encoding="utf-8")
    assert done.returncode == 1, text
    assert "TaskPack Desk smoke test" in text
    assert "in hangs" in text  # the hung step's stack


def test_the_environment_is_restored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_HOME", "/the/users/desk")

    def moves_home(ctx: smoke.Context) -> str:
        os.environ["TASKPACK_HOME"] = str(ctx.tmp)
        os.environ["TASKPACK_MACHINE"] = "smoke"
        return "moved"

    monkeypatch.delenv("TASKPACK_MACHINE", raising=False)
    run_with([("env", moves_home)], capsys)
    assert os.environ["TASKPACK_HOME"] == "/the/users/desk"
    assert "TASKPACK_MACHINE" not in os.environ


def test_smoke_log_option_writes_to_a_file(tmp_path: Path) -> None:
    log = tmp_path / "smoke.log"
    code = smoke.run(
        ["taskpack-desk", "--smoke-test", f"--smoke-log={log}"], steps=[("one", lambda c: "fine")]
    )
    assert code == 0
    assert "smoke test passed" in log.read_text(encoding="utf-8")


def test_the_real_services_pass_from_source(capsys: pytest.CaptureFixture[str]) -> None:
    """The steps the frozen app runs, except the window (pytest-qt owns the QApplication)."""
    steps = [s for s in smoke.STEPS if s[0] != "window"]
    code, out = run_with(steps, capsys)
    assert code == 0, out
    for name, _ in steps:
        assert f"  ok    {name}" in out


def test_every_package_folder_is_in_the_wheel() -> None:
    """pyproject's package list names every folder with an __init__.py: a wheel (and the
    frozen app, which `packaging/stage.py` builds from one) would lack any other."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {
        "taskpack." + ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("core", "app", "ui")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert folders - listed == set()


def test_the_spec_file_is_python() -> None:
    source = (ROOT / "packaging" / "taskpack-desk.spec").read_text(encoding="utf-8")
    compile(source, "taskpack-desk.spec", "exec")


def test_the_frozen_checker_flags_traceback_and_missing_module_lines() -> None:
    sys.path.insert(0, str(ROOT / "packaging"))
    try:
        import check_frozen
    finally:
        sys.path.remove(str(ROOT / "packaging"))
    bad = [
        "Traceback (most recent call last):",
        "ModuleNotFoundError: No module named 'x'",
        "  FAIL  cli      missing module 'x' (left out of this build)",
        'qt.qpa.plugin: Could not load the Qt platform plugin "xcb"',
        "OSError: libfoo.so: cannot open shared object file",
    ]
    assert all(check_frozen.BAD_LINES.search(line) for line in bad)
    good = [
        "  ok    pack     TP-ABCD-EFGH → smoke.taskpack (2.1 KiB)",
        "smoke test passed: 9 steps in 2.0 s",
    ]
    assert not any(check_frozen.BAD_LINES.search(line) for line in good)
