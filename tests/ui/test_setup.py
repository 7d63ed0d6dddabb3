"""`make run` on a machine without libxcb-cursor0 says what to install."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "check_gui_libs.py"

LDCONFIG_WITHOUT_CURSOR = """4 libs found in cache `/etc/ld.so.cache'
	libxkbcommon-x11.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0
	libxcb-keysyms.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libxcb-keysyms.so.1
	libxcb-icccm.so.4 (libc6,x86-64) => /lib/x86_64-linux-gnu/libxcb-icccm.so.4
	libc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6
"""


def load():
    spec = importlib.util.spec_from_file_location("check_gui_libs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux's")
def test_a_missing_xcb_cursor_library_prints_the_install_command(capsys, monkeypatch) -> None:
    check = load()
    monkeypatch.setattr(
        check.shutil, "which", lambda tool: "/usr/bin/apt-get" if tool == "apt-get" else None
    )
    assert check.main({"DISPLAY": ":0"}, LDCONFIG_WITHOUT_CURSOR) == 1
    err = capsys.readouterr().err
    assert "    sudo apt-get install libxcb-cursor0\n" in err
    assert "libxcb-icccm4" not in err  # only what is missing
    with_cursor = (
        LDCONFIG_WITHOUT_CURSOR + "\tlibxcb-cursor.so.0 (libc6,x86-64) => /lib/libxcb-cursor.so.0\n"
    )
    assert check.main({"DISPLAY": ":0"}, with_cursor) == 0
    assert (
        check.main({"QT_QPA_PLATFORM": "offscreen"}, LDCONFIG_WITHOUT_CURSOR) == 0
    )  # xcb not used
    assert check.main({"WAYLAND_DISPLAY": "wayland-0"}, LDCONFIG_WITHOUT_CURSOR) == 0


def test_make_run_checks_before_starting_the_window() -> None:
    if (
        not (ROOT / "Makefile").is_file()
        or subprocess.run(["which", "make"], capture_output=True).returncode
    ):
        pytest.skip("make is not installed")
    dry = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", "run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    lines = [
        line for line in dry.splitlines() if "check_gui_libs.py" in line or "taskpack-desk" in line
    ]
    assert "check_gui_libs.py" in lines[0] and lines[-1].endswith("bin/taskpack-desk")


def test_the_readme_says_what_to_install() -> None:
    assert "sudo apt-get install libxcb-cursor0" in (ROOT / "README.md").read_text(encoding="utf-8")
