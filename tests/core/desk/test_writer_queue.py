"""Writers to one SQLite database in several processes queue for their turn
(`writer_queue`): a write waits while another process holds the queue and starts as soon
as it lets go; a queue that cannot be had in time, or nested, never stops a write."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.desk.writer_queue import WriterQueue

pytest.importorskip("fcntl")

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()  # until told to let go
"""


def holder(path: Path) -> subprocess.Popen[str]:
    """Another process holding the queue of the database at `path`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, f"{path}-writer"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_write_waits_its_turn_behind_another_process(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "home")
    other = holder(store.db_path)
    done = threading.Event()

    def write() -> None:
        with store.write():
            pass
        done.set()

    t = threading.Thread(target=write)
    try:
        t.start()
        assert not done.wait(0.5), "the write did not wait for the other process's turn"
        assert other.stdin is not None
        other.stdin.write("go\n")
        other.stdin.flush()
        assert done.wait(60), "the write did not start once the other process let go"
    finally:
        other.kill()
        other.communicate()  # reaps it and closes its pipes
        t.join(60)
        store.close()


def test_a_queue_not_had_in_time_does_not_stop_the_write(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite3"
    other = holder(db)
    try:
        queue = WriterQueue(db, timeout=0.2)
        with queue.held():  # SQLite's own lock still decides: here, no one writes
            pass
    finally:
        other.kill()
        other.communicate()  # reaps it and closes its pipes


PROBE = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("free")
except BlockingIOError:
    print("taken")
"""


def queue_seen_from_another_process(db: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, f"{db}-writer"], capture_output=True, text=True, timeout=60
    )
    return out.stdout.strip()


def test_a_nested_turn_keeps_the_outer_one(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite3"
    queue = WriterQueue(db, timeout=30)
    with queue.held():
        with queue.held():
            pass
        assert queue_seen_from_another_process(db) == "taken"
    assert queue_seen_from_another_process(db) == "free"
    queue.close()


def test_a_waiting_writer_tries_often_at_first_and_seldom_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first tenth of a second, every 0.3 ms at most (the race with the other process's
    next writer is lost otherwise); after it, every 2 ms at most (a long wait costs ~1 % of a
    core, not ~8 %); and it gives up at its timeout. On a clock of its own, not the wall's."""
    from taskpack.core.desk import writer_queue

    db = tmp_path / "x.sqlite3"
    other = holder(db)
    clock = [1000.0]
    pauses: list[tuple[float, float]] = []  # (seconds waited so far, pause)

    def sleep(seconds: float) -> None:
        pauses.append((clock[0] - 1000.0, seconds))
        clock[0] += seconds

    monkeypatch.setattr(writer_queue, "_clock", lambda: clock[0])
    monkeypatch.setattr(writer_queue, "_sleep", sleep)
    try:
        queue = WriterQueue(db, timeout=1.0)
        with queue.held():
            pass
    finally:
        other.kill()
        other.communicate()  # reaps it and closes its pipes
    early = [p for at, p in pauses if at < 0.1]
    late = [p for at, p in pauses if at >= 0.11]
    assert early and max(early) <= 0.0003
    assert late and max(late) == 0.002
    assert 1.0 <= clock[0] - 1000.0 < 1.01  # it gave up at its timeout
