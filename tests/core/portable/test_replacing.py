"""Replacing a file that another program holds for a moment (Windows), and one it keeps."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
from taskpack.core.portable import replacing


class Held(PermissionError):
    winerror = 32  # ERROR_SHARING_VIOLATION, as Windows says it


def test_a_file_held_for_a_moment_is_replaced_once_let_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "new").write_text("new")
    (tmp_path / "old").write_text("old")
    tries = []
    real = os.replace

    def scanner_holds_it_twice(src: str, dst: str) -> None:
        tries.append(dst)
        if len(tries) <= 2:
            raise Held(13, "The process cannot access the file")
        real(src, dst)

    monkeypatch.setattr(replacing, "_RETRYING", True)
    monkeypatch.setattr(replacing.os, "replace", scanner_holds_it_twice)
    replacing.replace(tmp_path / "new", tmp_path / "old")
    assert len(tries) == 3
    assert (tmp_path / "old").read_text() == "new"


def test_a_file_kept_open_fails_after_patience_and_nothing_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "new").write_text("new")

    def always_held(src: str, dst: str) -> None:
        raise Held(13, "The process cannot access the file")

    monkeypatch.setattr(replacing, "_RETRYING", True)
    monkeypatch.setattr(replacing.os, "replace", always_held)
    with pytest.raises(PermissionError):
        replacing.replace(tmp_path / "new", tmp_path / "old", patience=0.05)
    assert (tmp_path / "new").read_text() == "new" and not (tmp_path / "old").exists()


def test_other_errors_are_not_waited_for(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        replacing.replace(tmp_path / "missing", tmp_path / "x", patience=60)


@pytest.mark.skipif(sys.platform != "win32", reason="only Windows refuses to replace an open file")
def test_windows_replaces_a_file_once_its_reader_closes_it(tmp_path: Path) -> None:
    (tmp_path / "new").write_text("new")
    target = tmp_path / "old"
    target.write_text("old")
    reader = open(target, "rb")  # noqa: SIM115 - held open on purpose
    with pytest.raises(PermissionError):
        os.replace(tmp_path / "new", target)  # what the seam is for
    threading.Timer(0.2, reader.close).start()
    replacing.replace(tmp_path / "new", target, patience=30)
    assert target.read_text() == "new"
