"""The SQLite helper both stores open their databases with: durability, migrations,
refusing a newer schema, one-line errors, all-or-nothing transactions."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from taskpack.core.desk import sqlite_db
from taskpack.core.desk.sqlite_db import Migration, open_database, transaction
from taskpack.core.desk.writer_queue import WriterQueue
from taskpack.core.errors import TaskPackError


class DemoError(TaskPackError):
    hint = "Try another folder."


def _open(
    path: Path,
    migrations: tuple[Migration, ...] = (),
    *,
    foreign_keys: bool = False,
    versions_in_message: bool = True,
    then: Callable[[sqlite3.Connection], None] | None = None,
) -> sqlite3.Connection:
    return open_database(
        path,
        timeout=5.0,
        error=DemoError,
        what=f"the demo database at {path}",
        migrations=migrations,
        foreign_keys=foreign_keys,
        versions_in_message=versions_in_message,
        then=then,
    )


ONE = Migration(
    1,
    "table and log",
    ("CREATE TABLE t (a TEXT)", "CREATE TABLE log (step TEXT)", "INSERT INTO log VALUES ('one')"),
)
TWO = Migration(
    2, "a column", ("ALTER TABLE t ADD COLUMN b TEXT", "INSERT INTO log VALUES ('two')")
)


def _log(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT step FROM log ORDER BY rowid")]


def _user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def test_a_database_is_opened_in_wal_with_its_commits_synced(tmp_path: Path) -> None:
    db = _open(tmp_path / "d.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # POSIX: SQLite's commit does not sync (NORMAL), `transaction` syncs the WAL itself
    assert db.execute("PRAGMA synchronous").fetchone()[0] == (1 if sqlite_db.LATE_SYNC else 2)
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 0
    assert db.isolation_level is None  # autocommit: every write is an explicit transaction
    db.close()
    db = _open(tmp_path / "d.sqlite3", foreign_keys=True)
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    db.close()


def test_migrations_run_in_version_order_and_once(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    db = _open(path, (TWO, ONE))  # given out of order: applied 1, then 2
    assert _log(db) == ["one", "two"]
    db.close()
    db = _open(path, (ONE, TWO))  # second open: nothing to do
    assert _log(db) == ["one", "two"]
    db.close()
    three = Migration(3, "later", ("INSERT INTO log VALUES ('three')",))
    db = _open(path, (ONE, TWO, three))  # an appended step runs alone
    assert _log(db) == ["one", "two", "three"]
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    db.close()


def test_a_newer_database_is_refused_in_one_line_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    _open(path, (ONE, TWO, Migration(3, "newer", ("CREATE TABLE n (x)",)))).close()
    ran: list[str] = []
    with pytest.raises(DemoError) as caught:
        _open(path, (ONE, TWO), then=lambda db: ran.append("then"))
    assert caught.value.message == (
        f"the demo database at {path} was made by a newer TaskPack Desk "
        "(schema 3, this one knows 2)"
    )
    assert caught.value.hint == "Update TaskPack Desk; nothing was changed."
    assert "\n" not in str(caught.value)
    with pytest.raises(DemoError) as caught:
        _open(path, (ONE, TWO), versions_in_message=False)
    assert caught.value.message == f"the demo database at {path} was made by a newer TaskPack Desk"
    assert ran == [] and _user_version(path) == 3


def test_a_damaged_file_is_one_sentence_in_the_callers_error(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(DemoError) as caught:
        _open(path, (ONE,))
    assert caught.value.message == (
        f"the demo database at {path} cannot be opened (file is not a database)"
    )
    assert str(caught.value).endswith("Try another folder.") and "\n" not in str(caught.value)


def test_a_failing_step_leaves_the_schema_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    _open(path, (ONE,)).close()
    broken = Migration(2, "broken", ("CREATE TABLE half (x)", "THIS IS NOT SQL"))
    with pytest.raises(DemoError, match="cannot be opened"):
        _open(path, (ONE, broken))
    db = _open(path, (ONE,))
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchone() is None
    db.close()


def test_the_open_step_runs_after_migrating_and_its_errors_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    seen: list[list[str]] = []
    _open(path, (ONE, TWO), then=lambda db: seen.append(_log(db))).close()
    assert seen == [["one", "two"]]

    def read_a_missing_table(db: sqlite3.Connection) -> None:
        db.execute("SELECT * FROM nowhere")

    with pytest.raises(DemoError, match=r"cannot be opened \(no such table: nowhere\)"):
        _open(path, (ONE, TWO), then=read_a_missing_table)


def test_a_transaction_commits_or_rolls_back_whole(tmp_path: Path) -> None:
    db = _open(tmp_path / "d.sqlite3", (ONE,))
    lock = threading.Lock()
    with transaction(db, lock) as tx:
        assert lock.locked() and tx is db
        tx.execute("INSERT INTO t VALUES ('kept')")
    assert not lock.locked()
    with pytest.raises(RuntimeError), transaction(db, lock) as tx:
        tx.execute("INSERT INTO t VALUES ('lost 1')")
        tx.execute("INSERT INTO t VALUES ('lost 2')")
        raise RuntimeError("stop")
    assert not lock.locked() and not db.in_transaction
    assert [r[0] for r in db.execute("SELECT a FROM t")] == ["kept"]
    # another connection sees only what was committed
    other = sqlite3.connect(tmp_path / "d.sqlite3")
    assert [r[0] for r in other.execute("SELECT a FROM t")] == ["kept"]
    other.close()
    db.close()


fcntl = pytest.importorskip("fcntl") if sqlite_db.LATE_SYNC else None
late_sync_only = pytest.mark.skipif(not sqlite_db.LATE_SYNC, reason="POSIX: the WAL synced late")


@late_sync_only
def test_a_commit_is_on_disk_before_the_transaction_returns_and_after_its_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The WAL is synced once the thread lock and the writers' queue are free again (the
    next writer goes on meanwhile), and before the writer is told its write is done."""
    path = tmp_path / "d.sqlite3"
    db = _open(path, (ONE,))
    lock, writers = threading.Lock(), WriterQueue(path, timeout=5.0)
    synced: list[str] = []

    def datasync(fd: int) -> None:
        assert os.fstat(fd).st_ino == os.stat(f"{path}-wal").st_ino  # the database's WAL
        assert not lock.locked()
        # another process's writer can have its turn (flock: another open file conflicts)
        queue = os.open(f"{path}-writer", os.O_RDWR)
        try:
            fcntl.flock(queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(queue)
        reader = sqlite3.connect(path)  # and what was committed is there to read
        synced.extend(r[0] for r in reader.execute("SELECT a FROM t"))
        reader.close()

    monkeypatch.setattr(sqlite_db, "_datasync", datasync)
    with transaction(db, lock, writers) as tx:
        tx.execute("INSERT INTO t VALUES ('kept')")
        assert synced == []
    assert synced == ["kept"]  # synced once, before `transaction` returned
    with pytest.raises(RuntimeError), transaction(db, lock, writers) as tx:
        tx.execute("INSERT INTO t VALUES ('lost')")
        raise RuntimeError("stop")
    assert synced == ["kept"]  # a rollback has nothing to sync
    writers.close()
    db.close()


@late_sync_only
def test_a_sync_that_fails_reaches_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write whose sync failed is never reported done: the caller gets the OSError, as
    it would from a commit whose own sync failed; the next write syncs again."""
    db = _open(tmp_path / "d.sqlite3", (ONE,))

    def failing(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(sqlite_db, "_datasync", failing)
    with pytest.raises(OSError, match="Input/output"), transaction(db, threading.Lock()) as tx:
        tx.execute("INSERT INTO t VALUES ('unsure')")
    calls: list[int] = []
    monkeypatch.setattr(sqlite_db, "_datasync", calls.append)
    with transaction(db, threading.Lock()) as tx:
        tx.execute("INSERT INTO t VALUES ('sure')")
    assert len(calls) == 1
    db.close()


@late_sync_only
def test_commits_made_while_a_sync_runs_share_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit: three writers, the first one's sync slow; the two that commit while it
    runs are put on disk by one more sync, not one each, and none returns before a sync
    that began after its own commit has ended."""
    path = tmp_path / "d.sqlite3"
    db = _open(path, (ONE,))
    lock = threading.Lock()
    first_sync, let_go = threading.Event(), threading.Event()
    syncs: list[set[str]] = []  # what each sync found committed, as it began

    def datasync(fd: int) -> None:
        reader = sqlite3.connect(path)
        syncs.append({r[0] for r in reader.execute("SELECT a FROM t")})
        reader.close()
        if len(syncs) == 1:
            first_sync.set()
            assert let_go.wait(30)

    monkeypatch.setattr(sqlite_db, "_datasync", datasync)
    returned: dict[str, int] = {}  # each writer: how many syncs had begun when it returned

    def write(value: str) -> None:
        with transaction(db, lock) as tx:
            tx.execute("INSERT INTO t VALUES (?)", (value,))
        returned[value] = len(syncs)

    first = threading.Thread(target=write, args=("a",))
    first.start()
    assert first_sync.wait(30)  # a's sync runs (and waits)
    later = [threading.Thread(target=write, args=(v,)) for v in ("b", "c")]
    for t in later:
        t.start()
    while db.execute("SELECT count(*) FROM t").fetchone()[0] < 3:  # b and c committed
        threading.Event().wait(0.01)
    let_go.set()
    for t in (first, *later):
        t.join(30)
    assert syncs == [{"a"}, {"a", "b", "c"}]  # two syncs for three commits
    assert returned == {"a": 1, "b": 2, "c": 2}  # each after a sync that saw its commit
    db.close()


@late_sync_only
def test_a_sync_that_fails_covers_no_one_who_waited_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first writer's sync fails while a second writer, committed meanwhile, waits: the
    second is not taken for synced, it syncs itself (and only it is told its write is done)."""
    path = tmp_path / "d.sqlite3"
    db = _open(path, (ONE,))
    lock = threading.Lock()
    first_sync, let_go = threading.Event(), threading.Event()
    calls: list[int] = []

    def datasync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            first_sync.set()
            assert let_go.wait(30)
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(sqlite_db, "_datasync", datasync)
    outcome: dict[str, str] = {}

    def write(value: str) -> None:
        try:
            with transaction(db, lock) as tx:
                tx.execute("INSERT INTO t VALUES (?)", (value,))
            outcome[value] = "done"
        except OSError:
            outcome[value] = "failed"

    first = threading.Thread(target=write, args=("a",))
    first.start()
    assert first_sync.wait(30)
    second = threading.Thread(target=write, args=("b",))
    second.start()
    while db.execute("SELECT count(*) FROM t").fetchone()[0] < 2:
        threading.Event().wait(0.01)
    let_go.set()
    first.join(30)
    second.join(30)
    assert outcome == {"a": "failed", "b": "done"} and len(calls) == 2
    db.close()


@pytest.mark.skipif(os.name != "posix", reason="POSIX locks")
def test_opening_a_database_again_keeps_the_locks_of_this_process(tmp_path: Path) -> None:
    """A second open in this process (`taskpack serve` opens its A2A database twice) must
    not drop the first connection's locks: another process closing its own last connection
    would then delete the WAL under it ("disk I/O error" at its next write)."""
    import subprocess
    import sys

    path = tmp_path / "d.sqlite3"
    first = _open(path, (ONE,))
    with transaction(first, threading.Lock()) as tx:
        tx.execute("INSERT INTO t VALUES ('one')")
    second = _open(path, (ONE,))
    code = (
        "import sqlite3, sys; db = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "db.execute(\"INSERT INTO t VALUES ('two')\"); db.close()"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)
    assert Path(f"{path}-wal").exists()
    with transaction(first, threading.Lock()) as tx:
        tx.execute("INSERT INTO t VALUES ('three')")
    reader = sqlite3.connect(path)
    assert sorted(r[0] for r in reader.execute("SELECT a FROM t")) == ["one", "three", "two"]
    reader.close()
    second.close()
    first.close()


def test_a_new_database_file_is_made_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    _open(path, (ONE,)).close()
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o644)  # an older file, made before: tightened at the next open
    _open(path, (ONE,)).close()
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o600
