"""What `taskpack attach` and `pack --file` say about luggage they leave out or that
another reader may not read, as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest


def taskpack(home: Path, *args: str | Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {
        "TASKPACK_HOME": str(home),
        "TASKPACK_MACHINE": "laptop",
        "TASKPACK_ACTOR": "me",
        "TASKPACK_NO_PROGRESS": "1",
        "PYTHONIOENCODING": "utf-8",
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
    return proc


@pytest.fixture
def project(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "notes.txt").write_text("mine\n")
    (proj / "link").symlink_to(secret)
    return proj


def new_passport(home: Path) -> str:
    out = taskpack(home, "new", "--title", "Q3 report", "--goal", "Ship it", "--json")
    return str(json.loads(out.stdout)["passport"]["id"])


def test_pack_file_leaves_a_symlink_out_and_says_so(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    pid = new_passport(home)
    out = tmp_path / "h.taskpack"
    proc = taskpack(home, "pack", pid, "--out", out, "--file", project)
    assert "left out of the luggage: proj/link (a symbolic link; not followed)" in proc.stderr
    with zipfile.ZipFile(out) as z:
        assert "data/files/proj/notes.txt" in z.namelist()
        assert not any("link" in n for n in z.namelist())
        assert all(b"root:x" not in z.read(n) for n in z.namelist())


def test_attach_leaves_a_symlink_out_and_says_so(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    pid = new_passport(home)
    proc = taskpack(home, "attach", pid, project)
    assert "left out of the luggage: proj/link (a symbolic link; not followed)" in proc.stderr
    assert "1 luggage file(s) kept" in proc.stdout


def test_pack_warns_about_a_percent_in_a_name_for_the_zip_form(tmp_path: Path) -> None:
    home = tmp_path / "home"
    pid = new_passport(home)
    f = tmp_path / "100% done.txt"
    f.write_text("x\n")
    bag = taskpack(home, "pack", pid, "--out", tmp_path / "h.taskpack", "--file", f)
    assert "contain '%'" in bag.stderr and "reference implementation" in bag.stderr
    flat = taskpack(home, "pack", pid, "--out", tmp_path / "h.taskpack.json", "--file", f)
    assert "%" not in flat.stderr
    taskpack(home, "verify", tmp_path / "h.taskpack")  # ours reads it
