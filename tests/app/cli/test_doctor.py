"""The store knows when it is damaged, keeps backups, sweeps crash leftovers, and says a
full disk is full. Driven as a person meets it: real `taskpack` subprocesses."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.desk import health
from taskpack.core.desk.sqlite_schema import MIGRATIONS
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import DiskFull, IntegrityError
from taskpack.core.format import writing

MACHINE = "health-box"


def cli(home: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TASKPACK_HOME=str(home),
        TASKPACK_MACHINE=MACHINE,
        TASKPACK_ACTOR="tester",
        TASKPACK_NO_PROGRESS="1",
        PYTHONIOENCODING="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def desk_with_luggage(home: Path, tmp_path: Path, n: int = 1) -> tuple[Desk, str]:
    desk = Desk(home, MACHINE, actor="tester")
    first = ""
    for i in range(n):
        lp = desk.new(f"Passport {i}", "keep the store whole", current_state="x" * 300)
        src = tmp_path / f"notes-{i}.txt"
        src.write_text(f"luggage {i}\n" * 200)
        desk.attach(lp.id, [src])
        first = first or lp.id
    return desk, first


def files_under(home: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(home)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in home.rglob("*")
        if p.is_file()
    }


# --- a damaged blob -------------------------------------------------------------------


def test_a_bit_flipped_blob_is_never_packed_as_if_whole(tmp_path: Path) -> None:
    home = tmp_path / "home"
    desk, pid = desk_with_luggage(home, tmp_path)
    [item] = desk.luggage(pid)
    blob = desk.store.blob_path(item.sha256)
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0x01
    blob.write_bytes(bytes(data))
    desk.close()
    for out in (tmp_path / "out.taskpack", tmp_path / "out.taskpack.json"):
        run = cli(home, "pack", pid, "--out", out)
        assert run.returncode == 1, run.stderr
        assert "the stored luggage 'notes-0.txt' is damaged" in run.stderr
        assert "taskpack doctor" in run.stderr and "Traceback" not in run.stderr
        assert not out.exists()
        assert not list(tmp_path.glob(".out.*"))  # no half-written file either


def test_saving_a_damaged_blob_is_an_error_naming_the_luggage(tmp_path: Path) -> None:
    desk, pid = desk_with_luggage(tmp_path / "home", tmp_path)
    [item] = desk.luggage(pid)
    desk.store.blob_path(item.sha256).write_bytes(b"something else entirely")
    with (
        desk.open_luggage(pid, "notes-0.txt") as f,
        pytest.raises(IntegrityError, match=r"notes-0\.txt"),
    ):
        f.read()
    desk.close()


# --- a damaged database ---------------------------------------------------------------


def _overwrite_middle(db_path: Path) -> None:
    size = db_path.stat().st_size
    page = 4096
    with open(db_path, "r+b") as f:
        f.seek((size // page // 2) * page)
        f.write(b"\xa5" * page * 2)


def test_bytes_overwritten_in_the_database_stop_every_command(tmp_path: Path) -> None:
    home = tmp_path / "home"
    desk, pid = desk_with_luggage(home, tmp_path, n=60)
    desk.close()
    assert cli(home, "list").returncode == 0
    _overwrite_middle(home / "store.sqlite3")
    before = files_under(home)
    for args in (
        ["list"],
        ["open", pid],
        ["fact", pid, "--claim", "c", "--scope", "org"],
        ["pack", pid, "--out", tmp_path / "x.taskpack"],
    ):
        run = cli(home, *args)
        assert run.returncode == 1, (args, run.stdout, run.stderr)
        line = run.stderr.strip()
        assert "is damaged" in line and "taskpack doctor" in line, line
        assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert files_under(home) == before  # nothing further written
    assert not (tmp_path / "x.taskpack").exists()


def test_a_zero_length_database_is_damage_not_an_empty_desk(tmp_path: Path) -> None:
    home = tmp_path / "home"
    desk, _ = desk_with_luggage(home, tmp_path)
    desk.close()
    (home / "store.sqlite3").write_bytes(b"")
    for side in ("-wal", "-shm"):
        (home / f"store.sqlite3{side}").unlink(missing_ok=True)
    run = cli(home, "list")
    assert run.returncode == 1
    assert "is damaged: the file is empty" in run.stderr
    assert (home / "store.sqlite3").stat().st_size == 0  # not silently re-created


def test_a_store_that_was_only_read_is_not_checked_again(tmp_path: Path) -> None:
    home = tmp_path / "home"
    desk, _ = desk_with_luggage(home, tmp_path)
    desk.close()
    SqliteStore(home).close()
    stamp = home / health.STAMP
    assert stamp.is_file()
    first = stamp.stat().st_mtime_ns
    SqliteStore(home).close()
    assert stamp.stat().st_mtime_ns == first  # unchanged file: the stamp was enough


# --- doctor and backups -----------------------------------------------------------------


def test_doctor_on_a_damaged_store_says_what_to_do_and_restore_brings_the_backup_back(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    desk, pid = desk_with_luggage(home, tmp_path, n=60)
    assert desk.housekeep() and health.backups(home)  # the first daily backup
    desk.close()
    whole = cli(home, "doctor")
    assert whole.returncode == 0, whole.stderr
    assert "is whole: 60 passport(s), 60 luggage blob(s) checked" in whole.stdout
    assert "Newest backup:" in whole.stdout
    _overwrite_middle(home / "store.sqlite3")
    before = files_under(home)
    sick = cli(home, "doctor")
    assert sick.returncode == 1
    assert "is damaged:" in sick.stderr and "Nothing was changed." in sick.stderr
    assert "taskpack doctor --restore" in sick.stderr
    assert files_under(home) == before
    fixed = cli(home, "doctor", "--restore")
    assert fixed.returncode == 0, fixed.stderr
    assert "Restored the backup of" in fixed.stdout and "60 passport(s)" in fixed.stdout
    assert "kept as" in fixed.stdout
    assert list(home.glob("store-damaged-*.sqlite3"))
    listed = cli(home, "open", pid)
    assert listed.returncode == 0 and "Passport 0" in listed.stdout
    assert cli(home, "doctor").returncode == 0


def test_doctor_finds_a_damaged_blob(tmp_path: Path) -> None:
    home = tmp_path / "home"
    desk, pid = desk_with_luggage(home, tmp_path)
    [item] = desk.luggage(pid)
    desk.store.blob_path(item.sha256).write_bytes(b"rot")
    desk.close()
    run = cli(home, "doctor")
    assert run.returncode == 1
    assert f"luggage 'notes-0.txt' of {pid} has 3 stored bytes" in run.stderr


def test_doctor_without_a_backup_says_so(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "store.sqlite3").write_bytes(b"\0" * 8192)
    run = cli(home, "doctor")
    assert run.returncode == 1 and "no backup yet" in run.stderr
    assert cli(home, "doctor", "--restore").returncode == 1


def test_a_backup_is_taken_daily_and_before_each_migration(tmp_path: Path) -> None:
    home = tmp_path / "home"
    SqliteStore(home, migrations=MIGRATIONS[:1]).close()  # a desk made by an older version
    if len(MIGRATIONS) > 1:
        SqliteStore(home).close()
        made = health.backups(home)
        assert len(made) == 1 and "schema1" in made[0].name
        old = sqlite3.connect(made[0])
        assert old.execute("PRAGMA user_version").fetchone()[0] == 1
        old.close()
    for made in health.backups(home):
        made.unlink()
    with SqliteStore(home) as store:
        first = store.housekeep()
        assert any("backed up" in line for line in first)
        assert not any("backed up" in line for line in store.housekeep())  # not due again
        for _ in range(health.KEEP + 3):
            store.housekeep(backup_every=0)
    assert len(health.backups(home)) == health.KEEP  # rotated


def test_crash_leftovers_are_swept_at_start_but_a_running_landing_keeps_its_file(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    SqliteStore(home).close()
    tmp = home / "blobs" / "tmp"
    stale, fresh = tmp / "dead.part", tmp / "busy.part"
    stale.write_bytes(b"x" * 5000)
    fresh.write_bytes(b"y" * 10)
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    run = cli(home, "list")  # any command that opens the desk sweeps on its way out
    assert run.returncode == 0, run.stderr
    assert not stale.exists() and fresh.exists()


# --- a full disk ----------------------------------------------------------------------


class _FullFile:
    def __init__(self, real: object) -> None:
        self._real = real

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)

    def __enter__(self) -> _FullFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()  # type: ignore[attr-defined]


def test_a_full_disk_says_it_is_full_how_much_was_needed_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk, pid = desk_with_luggage(tmp_path / "home", tmp_path)
    real_fdopen = os.fdopen
    monkeypatch.setattr(writing.os, "fdopen", lambda *a, **k: _FullFile(real_fdopen(*a, **k)))
    out = tmp_path / "export" / "x.taskpack"
    with pytest.raises(DiskFull) as caught:
        desk.pack(pid, out)
    text = str(caught.value)
    assert "is full:" in text and "were needed" in text and "are free" in text
    assert "nothing was written" in text and "Free some space" in text
    assert "permission" not in text.lower() and "close other" not in text.lower()
    assert list(out.parent.iterdir()) == []
    desk.close()


def test_a_full_disk_while_storing_luggage_removes_the_half_written_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins
    import io

    store = SqliteStore(tmp_path / "home")
    real_open = builtins.open

    def full_open(file: object, mode: str = "r", *a: object, **k: object) -> object:
        handle = real_open(file, mode, *a, **k)  # type: ignore[call-overload]
        return _FullFile(handle) if str(file).endswith(".part") and "x" in mode else handle

    monkeypatch.setattr(builtins, "open", full_open)
    with pytest.raises(DiskFull, match=r"1\.0 MB were needed"):
        store.put_blob(io.BytesIO(b"z" * 1_000_000), size_hint=1_000_000)
    monkeypatch.undo()
    assert list((tmp_path / "home" / "blobs" / "tmp").iterdir()) == []
    store.close()


def test_a_full_disk_in_the_database_is_said_plainly() -> None:
    from taskpack.core.files import is_disk_full

    assert is_disk_full(sqlite3.OperationalError("database or disk is full"))
    assert not is_disk_full(sqlite3.OperationalError("database is locked"))
