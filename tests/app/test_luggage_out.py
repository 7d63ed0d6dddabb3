"""Luggage saved into a folder a person chose, including one whose path is past Windows'
MAX_PATH (260 characters). In the Windows lane this runs under Windows' own Python, through
the extended (``\\\\?\\``) paths; Wine itself enforces no MAX_PATH, so there it proves that
those paths work end to end, not that the limit is lifted (tests/core/portable/
test_long_paths.py checks the mapping)."""

from __future__ import annotations

import os
from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.app.luggage_out import write_inside
from taskpack.app.mcp.work_tools import save_luggage
from taskpack.core.portable.long_paths import extended, resolve

NOTES = "会议记录：客户要 PDF ✓\n"


def deep_folder(base: Path, length: int = 320) -> Path:
    """A folder under `base` whose path is at least `length` characters long (made)."""
    folder = base
    while len(str(folder)) < length:
        folder = folder / "Projekt Übergabe 2026 – Unterlagen"
    os.makedirs(extended(folder))
    return folder


def test_luggage_is_packed_landed_and_saved_past_max_path(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    out_folder = deep_folder(tmp_path / "out")
    pack = out_folder / "handoff.taskpack"
    assert len(str(pack)) > 300
    with Desk(tmp_path / "sender", "wei-pc", actor="wei") as sender:
        pid = sender.new("Long paths", "Ship the report").passport.id
        sender.pack(pid, pack, files=[notes])  # the writer's temporary file and its rename
    assert os.path.getsize(extended(pack)) > 0
    save_to = deep_folder(tmp_path / "saved")
    with Desk(tmp_path / "receiver", "ana-pc", actor="ana") as receiver:
        landed = receiver.land(Path(extended(pack))).id
        saved, skipped = save_luggage(receiver, landed, save_to)
    assert skipped == []
    [item] = saved
    written = save_to / "notes.txt"
    assert item["path"] == str(written)  # said in the usual form, not the extended one
    with open(extended(written), encoding="utf-8") as f:
        assert f.read() == NOTES


def test_a_folder_on_the_way_is_made_past_max_path(tmp_path: Path) -> None:
    import io

    folder = deep_folder(tmp_path)
    path, why = write_inside(folder, "reports/2026/q3.txt", io.BytesIO(b"q3\n"))
    assert why == ""
    assert path == resolve(folder) / "reports" / "2026" / "q3.txt"
    with open(extended(path), "rb") as f:
        assert f.read() == b"q3\n"
    again, why = write_inside(folder, "reports/2026/q3.txt", io.BytesIO(b"other\n"))
    assert again is None and "never overwritten" in why
