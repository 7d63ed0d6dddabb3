"""Positioned reads where the system has them; the reader's other path where it does not."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.reading import open_pack
from taskpack.core.format.writing import write_pack
from taskpack.core.portable import positional


def test_posix_has_them_and_windows_says_it_has_not() -> None:
    assert positional.AVAILABLE is (sys.platform != "win32")


@pytest.mark.skipif(not positional.AVAILABLE, reason="no positioned reads here")
def test_a_positioned_read_leaves_the_shared_position_alone(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(bytes(range(256)))
    with open(path, "rb", buffering=0) as f:
        f.seek(10)
        assert positional.pread(f.fileno(), 4, 100) == bytes([100, 101, 102, 103])
        view = memoryview(bytearray(3))
        assert positional.pread_into(f.fileno(), view, 254) == 2
        assert f.tell() == 10 and f.read(1) == bytes([10])


def test_stored_luggage_reads_the_same_without_positioned_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hostile_zips import pack_data

    body = os.urandom(3 << 20)  # random: stored, not deflated, and read in several chunks
    out = write_pack(
        pack_data(),
        [LuggageSource.from_bytes("big.bin", body)],
        tmp_path / "p.taskpack",
        encoding="bag",
    ).path
    monkeypatch.setattr(positional, "AVAILABLE", False)  # as on Windows
    with open_pack(out) as opened:
        [item] = opened.luggage
        with opened.open_luggage(item) as f:
            assert b"".join(iter(lambda: f.read(1 << 16), b"")) == body
