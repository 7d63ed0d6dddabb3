"""`taskpack doctor --restore` takes only a backup that is a TaskPack store and never
restores under a running desk; a damaged store's report is one line; the store, its
backups and the A2A ledger are for their owner only."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.desk import Desk
from taskpack.core.desk import health

MACHINE = "health-box"


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TASKPACK_HOME=str(home),
        TASKPACK_MACHINE=MACHINE,
        TASKPACK_ACTOR="tester",
        TASKPACK_NO_PROGRESS="1",
        PYTHONIOENCODING="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def _desk(home: Path) -> str:
    with Desk(home, MACHINE, actor="tester") as desk:
        pid = desk.new("Keep me", "a store worth restoring").id
        assert desk.housekeep() and health.backups(home)
    return pid


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_backup_that_is_not_a_taskpack_store_is_never_restored(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _desk(home)
    for old in health.backups(home):
        old.unlink()
    alien = home / "backups" / "store-20991231-235959-daily.sqlite3"  # the newest name
    with sqlite3.connect(alien) as db:
        db.execute("CREATE TABLE notes (x)")
    db.close()
    before = (home / "store.sqlite3").read_bytes()
    done = cli(home, "doctor", "--restore", "--force")
    # before: a traceback, a .restoring file left and the store moved aside (an empty desk)
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "is a sound TaskPack store" in done.stderr
    assert not list(home.glob(".*.restoring")) and not list(home.glob("store-damaged-*"))
    assert (home / "store.sqlite3").read_bytes() == before


def test_restore_is_refused_while_another_taskpack_process_has_the_store_open(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    pid = _desk(home)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom taskpack.app.desk import Desk\n"
            f"d = Desk({str(home)!r}, {MACHINE!r})\nd.passports()\nprint('open', flush=True)\n"
            "sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        done = cli(home, "doctor", "--restore", "--force")
        # before: restored under it; its next write went to the file moved aside
        assert done.returncode == 1
        assert "another TaskPack process has this store open" in done.stderr
        assert not list(home.glob("store-damaged-*"))
    finally:
        holder.communicate(timeout=30)  # closes its stdin, reads the rest, closes stdout
    time.sleep(0.1)
    done = cli(home, "doctor", "--restore", "--force")
    assert done.returncode == 0, done.stderr
    assert cli(home, "open", pid).returncode == 0


def test_the_store_its_backups_and_the_a2a_ledger_are_for_their_owner_only(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    old = os.umask(0o022)
    try:
        _desk(home)
        A2AStore(home).close()
    finally:
        os.umask(old)
    # before: 0644, readable by every user of the machine
    assert _mode(home / "store.sqlite3") == 0o600
    assert all(_mode(b) == 0o600 for b in health.backups(home))
    assert _mode(home / "a2a.sqlite3") == 0o600


def test_a_damage_report_quoting_bytes_that_are_not_utf8_is_one_line(tmp_path: Path) -> None:
    """A damaged store whose quick_check names a table by bytes that are not UTF-8: every
    command said so with a traceback (UnicodeDecodeError); now one line, the bytes shown."""
    home = tmp_path / "home"
    _desk(home)
    db_path = home / "store.sqlite3"
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE tQQQQ (a TEXT)")
    db.execute("INSERT INTO tQQQQ VALUES (NULL)")
    db.execute("PRAGMA writable_schema = ON")  # now say the column was NOT NULL all along
    db.execute(
        "UPDATE sqlite_master SET sql = 'CREATE TABLE tQQQQ (a TEXT NOT NULL)' WHERE name = 'tQQQQ'"
    )
    db.commit()
    db.close()
    raw = db_path.read_bytes()
    assert raw.count(b"tQQQQ") >= 3  # name, tbl_name and sql
    db_path.write_bytes(raw.replace(b"tQQQQ", b"t\xff\xfeQQ"))  # the table's name: not UTF-8
    with sqlite3.connect(db_path) as check:  # (SQLite itself reports it, in those bytes)
        check.text_factory = bytes
        assert b"t\xff\xfeQQ" in b" ".join(r[0] for r in check.execute("PRAGMA quick_check"))
    out = cli(home, "list")
    assert "Traceback" not in out.stderr and out.returncode != 0, out.stderr
    said = out.stderr.strip().splitlines()
    # before: Python's own complaint ("Could not decode to UTF-8 column 'quick_check' …")
    # stood in for SQLite's report; now the report itself, its bytes shown as U+FFFD
    assert len(said) == 1 and "is damaged (SQLite: NULL value in t\ufffd\ufffdQQ.a)" in said[0]
    doctor = cli(home, "doctor")
    assert "Traceback" not in doctor.stderr and "NULL value in t\ufffd\ufffdQQ.a" in doctor.stderr


def test_a_store_that_cannot_be_replaced_is_left_as_it_was_with_no_restoring_file(
    tmp_path: Path, monkeypatch
) -> None:
    import pytest
    from taskpack.core.errors import StoreError
    from taskpack.core.portable import replacing

    home = tmp_path / "home"
    pid = _desk(home)
    before = (home / "store.sqlite3").read_bytes()
    real = replacing.replace

    def held_at_the_last_step(src, dst, **kw):  # Windows: a program opened the store again
        if Path(src).name.endswith(".restoring"):
            raise PermissionError(13, "The process cannot access the file", str(dst))
        real(src, dst, **kw)

    monkeypatch.setattr(replacing, "replace", held_at_the_last_step)
    with pytest.raises(StoreError) as raised:
        health.restore(home, error=StoreError)
    assert "could not be replaced" in str(raised.value)
    assert "nothing was restored" in str(raised.value)
    assert not list(home.glob("*.restoring")) and not list(home.glob("store-damaged-*"))
    assert (home / "store.sqlite3").read_bytes() == before
    with Desk(home, MACHINE, actor="tester") as desk:
        assert desk.get(pid).passport.title == "Keep me"
