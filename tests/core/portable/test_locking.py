"""File locks without fcntl: the writer queue's whole-file lock and SQLite's byte lock."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from taskpack.core.desk.health import in_use
from taskpack.core.portable import locking


def test_a_whole_file_lock_keeps_a_second_handle_out_until_released(tmp_path: Path) -> None:
    path = tmp_path / "queue"
    first = locking.open_lock_file(path)
    second = locking.open_lock_file(path)
    try:
        assert locking.try_lock_file(first)
        assert not locking.try_lock_file(second)
        locking.unlock_file(first)
        assert locking.try_lock_file(second)
        locking.unlock_file(second)
    finally:
        os.close(first)
        os.close(second)


def test_a_byte_locked_by_another_process_is_seen_held(tmp_path: Path) -> None:
    path = tmp_path / "shared"
    path.write_bytes(b"\0" * 256)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import os, sys
                from taskpack.core.portable import locking
                fd = os.open({str(path)!r}, os.O_RDWR)
                assert locking.try_lock_byte(fd, 128)
                print("held", flush=True)
                sys.stdin.read()
                """
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "held"
        fd = os.open(path, os.O_RDWR)
        try:
            assert not locking.try_lock_byte(fd, 128)
            assert locking.try_lock_byte(fd, 64)  # only the one byte is held
            locking.unlock_byte(fd, 64)
        finally:
            os.close(fd)
    finally:
        holder.stdin.close()
        holder.wait(60)
        holder.stdout.close()
    fd = os.open(path, os.O_RDWR)
    try:
        assert locking.try_lock_byte(fd, 128)  # let go with its process
        locking.unlock_byte(fd, 128)
    finally:
        os.close(fd)


def test_a_store_open_in_another_process_is_in_use(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite3"
    with sqlite3.connect(db) as made:
        made.execute("PRAGMA journal_mode=WAL")
        made.execute("CREATE TABLE t (x)")
    made.close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sqlite3, sys
                db = sqlite3.connect({str(db)!r})
                db.execute("SELECT count(*) FROM t").fetchone()
                print("open", flush=True)
                sys.stdin.read()
                db.close()
                """
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "open"
        assert in_use(db)
    finally:
        holder.stdin.close()
        holder.wait(60)
        holder.stdout.close()
    assert not in_use(db)
