"""The Windows app under Wine, when `make package-windows` has built it (skipped otherwise).

`packaging/windows/winbuild.py check` runs the whole walk (smoke test, CLI, installer, a pack
opened by `start`, uninstall); these tests run its two parts a release most depends on,
against the same Wine prefix: the frozen window's smoke test and the file types the
installer registers (and takes away again).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging" / "windows"))
import winbuild  # noqa: E402
import winenv  # noqa: E402

LAYOUT = winenv.Layout(winenv.DEFAULT_PREFIX)

pytestmark = [
    pytest.mark.skipif(
        not (winbuild.APP / "taskpack-desk.exe").is_file() or not winbuild.installer().is_file(),
        reason="no Windows build: `make package-windows` makes dist/windows/",
    ),
    pytest.mark.skipif(
        shutil.which("wine") is None or not LAYOUT.python_exe.exists(),
        reason="no Wine prefix: `make windows-env` makes build/wine",
    ),
    pytest.mark.timeout(900),
]


@pytest.fixture
def check():
    found = winbuild.Check(LAYOUT, None)
    found.start_display()
    found.start_wineserver()
    yield found
    found.stop_wineserver()
    found.stop_display()
    shutil.rmtree(found.tmp, ignore_errors=True)


def test_the_frozen_windows_app_passes_every_smoke_step(check, capsys) -> None:
    check.smoke()
    said = capsys.readouterr().out
    assert check.failures == []
    for step in ("version", "keyring", "pack", "land", "watcher", "window"):
        assert f"ok    {step}" in said
    assert "shown on windows" in said  # Windows' own Qt platform plugin, not offscreen


def test_the_installer_registers_both_file_types_and_takes_them_away(check, capsys) -> None:
    check.install()
    try:
        said = capsys.readouterr().out
        assert check.failures == []
        assert "HKCR\\.taskpack -> TaskPack.Pack (application/vnd.taskpack+zip)" in said
        assert "HKCR\\.taskpack.json -> TaskPack.PackJson (application/vnd.taskpack+json)" in said
    finally:
        check.uninstall()
    assert check.failures == []
    assert check.reg("HKCR\\.taskpack") is None
