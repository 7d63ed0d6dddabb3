"""Small luggage kept as database rows (`core/desk/blob_rows.py`): a landed pack's small
files make no blob file, come back whole and checked, travel on in the next pack, are as
durable as the rows that name them (no sooner, no later), and their damage is found."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.desk.blob_rows import ROW_MAX
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import IntegrityError
from taskpack.core.format.reading import open_pack

SMALL = b"a small note\n" * 40
BIG = os.urandom(ROW_MAX + 1)


def _blob_files(home: Path) -> list[Path]:
    return [p for p in (home / "blobs" / "sha256").rglob("*") if p.is_file()]


@pytest.fixture
def landed(tmp_path: Path) -> tuple[Desk, str, Path]:
    sender = Desk(tmp_path / "a", "machine-a")
    lp = sender.new("Report", "finish the report")
    (tmp_path / "small.txt").write_bytes(SMALL)
    (tmp_path / "big.bin").write_bytes(BIG)
    sender.attach(lp.id, [tmp_path / "small.txt", tmp_path / "big.bin"])
    pack = sender.pack(lp.id, tmp_path / "h.taskpack").path
    sender.close()
    home = tmp_path / "b"
    desk = Desk(home, "machine-b")
    got = desk.land(pack, expect=None)
    return desk, got.id, home


def test_a_landed_small_file_is_a_row_and_a_big_one_a_file(
    landed: tuple[Desk, str, Path],
) -> None:
    desk, pid, home = landed
    files = _blob_files(home)
    assert [p.read_bytes() for p in files] == [BIG]  # the small one made no file
    with desk.open_luggage(pid, "small.txt") as f:
        assert f.read() == SMALL
    with desk.open_luggage(pid, "big.bin") as f:
        assert f.read() == BIG
    assert desk.store.check(hash_blobs=True) == []
    desk.close()


def test_small_luggage_travels_on_in_the_next_pack(
    landed: tuple[Desk, str, Path], tmp_path: Path
) -> None:
    desk, pid, _home = landed
    out = desk.pack(pid, tmp_path / "on.taskpack.json").path
    desk.close()
    with open_pack(out) as o:
        o.verify()
        digests = {i.name: o.digest_of(i) for i in o.luggage}
    assert digests["small.txt"] == hashlib.sha256(SMALL).hexdigest()


def test_a_file_is_handed_out_when_a_caller_needs_one(landed: tuple[Desk, str, Path]) -> None:
    desk, pid, _home = landed
    [small] = [i for i in desk.luggage(pid) if i.name == "small.txt"]
    path = desk.store.blob_path(small.sha256)
    assert path.read_bytes() == SMALL
    desk.close()


def test_a_damaged_row_is_refused_and_found_by_the_doctor(
    landed: tuple[Desk, str, Path],
) -> None:
    desk, pid, home = landed
    [small] = [i for i in desk.luggage(pid) if i.name == "small.txt"]
    desk.close()
    with sqlite3.connect(home / "store.sqlite3") as db:
        db.execute(
            "UPDATE blob_bytes SET data = ? WHERE sha256 = ?",
            (SMALL.replace(b"small", b"SMALL"), small.sha256),
        )
    desk = Desk(home, "machine-b")
    with (
        desk.open_luggage(pid, "small.txt") as f,
        pytest.raises(IntegrityError, match=r"small\.txt.* is damaged"),
    ):
        f.read()
    assert desk.store.check(hash_blobs=True) == [
        f"luggage 'small.txt' of {pid} is damaged: its stored bytes no longer match their sha256"
    ]
    desk.close()
    run = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", "doctor"],
        env=dict(os.environ, TASKPACK_HOME=str(home), PYTHONIOENCODING="utf-8"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"luggage 'small.txt' of {pid} is damaged" in run.stderr


def test_a_committed_small_blob_is_stored_with_the_next_transaction_only(
    tmp_path: Path,
) -> None:
    """Pending until a write transaction commits: none committed (a crash before it)
    leaves nothing; one rolled back leaves it pending for the next."""
    home = tmp_path / "home"
    store = SqliteStore(home)
    staged = store.stage_blob(io.BytesIO(SMALL))
    assert staged.path is None and staged.data == SMALL
    store.commit_blob(staged)
    assert store.has_blob(staged.sha256)  # this process may name it in its next transaction
    other = SqliteStore(home)  # another process's view: nothing committed yet
    assert not other.has_blob(staged.sha256)
    with pytest.raises(RuntimeError), store.write():
        raise RuntimeError("the transaction fails")
    assert not other.has_blob(staged.sha256)
    with store.write():
        pass
    assert other.has_blob(staged.sha256)
    with other.open_blob(staged.sha256) as f:
        assert f.read() == SMALL
    assert _blob_files(home) == []
    store.close()
    other.close()

    crashed = SqliteStore(tmp_path / "crashed")
    crashed.commit_blob(crashed.stage_blob(io.BytesIO(SMALL)))
    crashed.close()  # gone before any transaction wrote it
    again = SqliteStore(tmp_path / "crashed")
    assert not again.has_blob(hashlib.sha256(SMALL).hexdigest())
    again.close()


def test_a_stream_longer_than_a_row_spills_to_a_file(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "home")
    staged = store.stage_blob(io.BytesIO(BIG))  # no size said: kept in memory until too big
    assert staged.data is None and staged.path is not None
    store.commit_blob(staged)
    assert store.blob_path(staged.sha256).read_bytes() == BIG
    assert list((tmp_path / "home" / "blobs" / "tmp").iterdir()) == []
    with pytest.raises(IntegrityError):
        store.stage_blob(io.BytesIO(SMALL), expected_sha256="0" * 64)
    assert list((tmp_path / "home" / "blobs" / "tmp").iterdir()) == []
    store.close()


def test_small_blobs_held_in_memory_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past MEMORY_MAX of small blobs staged or pending at once, the next is staged as a
    file (a pack of 100,000 small files must not be held in memory); the memory is given
    back as the staged blobs are let go and the pending ones are written."""
    import gc

    from taskpack.core.desk import blob_rows

    monkeypatch.setattr(blob_rows, "MEMORY_MAX", 3 * ROW_MAX)
    store = SqliteStore(tmp_path / "home")
    piece = [bytes([n]) * ROW_MAX for n in range(5)]
    staged = [store.stage_blob(io.BytesIO(p)) for p in piece]
    assert [s.data is not None for s in staged] == [True, True, True, False, False]
    for s in staged[3:]:
        store.discard_blob(s)
    store.commit_blob(staged[0])  # pending: still held until written
    del staged, s
    gc.collect()
    assert store.stage_blob(io.BytesIO(b"a")).data is not None
    more = [store.stage_blob(io.BytesIO(p)) for p in piece[1:4]]
    assert [s.data is not None for s in more] == [True, True, False]  # the pending one counts
    with store.write():
        pass  # writes the pending row: its memory is given back
    assert store.stage_blob(io.BytesIO(b"b")).data is not None
    assert store.has_blob(hashlib.sha256(piece[0]).hexdigest())
    store.close()
