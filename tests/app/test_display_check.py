"""`taskpack-desk` on a computer that cannot show its window: one sentence
naming what is missing and the package to install, exit 1, never Qt's own lines (which
name the wrong library) and never a traceback. Real processes: a library is made
unloadable by putting an empty file of its name first on the library path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from taskpack.app.display_check import XCB_LIBRARIES, display_problem

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 is Linux's")


def _desk(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    base |= {"TASKPACK_HOME": str(tmp_path / "home"), "HOME": str(tmp_path), **env}
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.gui_main"],
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_missing_x11_library_is_named_with_its_package(tmp_path: Path) -> None:
    broken = tmp_path / "lib"
    broken.mkdir()
    (broken / "libxcb-cursor.so.0").write_bytes(b"")  # found first, and cannot load
    done = _desk(tmp_path, QT_QPA_PLATFORM="xcb", DISPLAY=":99", LD_LIBRARY_PATH=str(broken))
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line == (
        "taskpack-desk: The window cannot open: this computer lacks libxcb-cursor.so.0, which "
        "Qt needs to draw on an X11 display; install it with `sudo apt install libxcb-cursor0` "
        "and start taskpack-desk again (the command line, taskpack, works without it)."
    )


def test_no_display_is_said_in_one_sentence(tmp_path: Path) -> None:
    done = _desk(tmp_path, QT_QPA_PLATFORM="xcb")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "taskpack-desk: The window cannot open: there is no X11 display (DISPLAY is not set); "
        "start taskpack-desk from a desktop session, or use the command line, taskpack."
    ]
    nobody = _desk(tmp_path, QT_QPA_PLATFORM="xcb", DISPLAY=":87")  # no X server there
    assert nobody.returncode == 1
    assert nobody.stderr.splitlines() == [
        "taskpack-desk: The window cannot open: no X11 display answers at DISPLAY=:87; "
        "start taskpack-desk from a desktop session, or use the command line, taskpack."
    ]


def test_every_missing_library_is_listed_and_other_platforms_are_not_checked() -> None:
    gone = {"libxcb-cursor.so.0", "libxkbcommon-x11.so.0"}
    said = display_problem({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, lambda n: n not in gone)
    assert said is not None
    assert "lacks libxcb-cursor.so.0, libxkbcommon-x11.so.0," in said
    assert "`sudo apt install libxcb-cursor0 libxkbcommon-x11-0`" in said
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, lambda n: False) is None
    wayland = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}
    assert display_problem(wayland, lambda n: False) is None
    assert len({lib for lib, _ in XCB_LIBRARIES}) == len(XCB_LIBRARIES)
