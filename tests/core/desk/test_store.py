"""The passport store: versions, history, conflicts, migrations, blobs, crash safety."""

from __future__ import annotations

import io
import sqlite3
import threading
from pathlib import Path

import pytest
from taskpack.core.desk.sqlite_db import Migration
from taskpack.core.desk.sqlite_schema import MIGRATIONS
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import (
    AlreadyLanded,
    IntegrityError,
    NotFound,
    StoreError,
    UsageError,
    VersionConflict,
)
from taskpack.core.format import ids
from taskpack.core.format.model import LocalPassport, PassportState


def _new(store: SqliteStore, title: str = "Ship the report") -> LocalPassport:
    lp = LocalPassport(passport=PassportState(id=ids.new_id(), title=title, goal="g"))
    lp.state, lp.waiting_on = "working", None
    with store.write() as tx:
        tx.insert(lp, event="created")
    return lp


def test_a_new_store_is_versioned_and_sound(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "home") as store:
        assert store.schema_version == len(MIGRATIONS)
        assert store.integrity_check() == ["ok"]
        assert store.check() == []
        mode = store._one("PRAGMA journal_mode")[0]
        assert mode == "wal"


def test_every_change_makes_a_version_and_keeps_the_old_ones(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    assert lp.version == 1
    for title in ("second", "third"):
        lp = store.get(lp.id)
        lp.passport.title = title
        with store.write() as tx:
            tx.save(lp, event="edit", detail={"title": title})
    assert store.get(lp.id).version == 3
    assert store.get_version(lp.id, 1).passport.title == "Ship the report"
    assert store.get_version(lp.id, 2).passport.title == "second"
    assert [(h.version, h.event) for h in store.history(lp.id)] == [
        (1, "created"),
        (2, "edit"),
        (3, "edit"),
    ]
    assert store.history(lp.id)[1].detail == {"title": "second"}
    assert store.summaries()[0].title == "third"


def test_expected_version_guards_concurrent_writers(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    mine, theirs = store.get(lp.id), store.get(lp.id)
    theirs.passport.goal = "theirs"
    with store.write() as tx:
        tx.save(theirs, event="edit", expected_version=1)
    mine.passport.goal = "mine"
    with pytest.raises(VersionConflict, match="version 2"), store.write() as tx:
        tx.save(mine, event="edit")
    with pytest.raises(VersionConflict, match="not 1"), store.write() as tx:
        tx.save(store.get(lp.id), event="edit", expected_version=1)
    assert store.get(lp.id).passport.goal == "theirs"
    assert store.get(lp.id).version == 2


def test_a_failed_transaction_changes_nothing(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    with pytest.raises(RuntimeError), store.write() as tx:
        lp.passport.title = "half"
        tx.save(lp, event="edit")
        raise RuntimeError("crash in the middle")
    assert store.get(lp.id).passport.title == "Ship the report"
    assert len(store.history(lp.id)) == 1
    assert store.check() == []


def test_unknown_ids_say_not_found(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    with pytest.raises(NotFound, match="TP-2222-2222"):
        store.get("TP-2222-2222")
    with pytest.raises(NotFound):
        store.history("TP-2222-2222")


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    again = LocalPassport(passport=PassportState(id=lp.id))
    with pytest.raises(UsageError, match="already exists"), store.write() as tx:
        tx.insert(again, event="created")


def test_listing_is_newest_first_and_filterable(tmp_path: Path) -> None:
    clock = iter(f"2026-01-01T00:00:{s:02d}Z" for s in range(60))
    store = SqliteStore(tmp_path, clock=lambda: next(clock))
    a, b = _new(store, "a"), _new(store, "b")
    lp = store.get(a.id)
    lp.state = "completed"
    with store.write() as tx:
        tx.save(lp, event="moved")
    assert [s.title for s in store.summaries()] == ["a", "b"]
    assert [s.id for s in store.summaries(state="completed")] == [a.id]
    assert [s.id for s in store.summaries(limit=1, offset=1)] == [b.id]
    assert store.count() == 2


def test_blobs_are_content_addressed_and_never_named_by_luggage(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    sha, size = store.put_blob_bytes(b"hello")
    assert size == 5
    assert store.blob_path(sha).read_bytes() == b"hello"
    assert store.put_blob_bytes(b"hello") == (sha, 5)  # idempotent
    with store.open_blob(sha) as f:
        assert f.read() == b"hello"
    assert list((tmp_path / "blobs" / "tmp").iterdir()) == []
    with pytest.raises(UsageError):
        store.blob_path("../../etc/passwd")


def test_a_stream_that_fails_leaves_no_blob(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)

    class Bad(io.BytesIO):
        def read(self, n: int | None = -1) -> bytes:
            data = super().read(n)
            if not data:
                raise IntegrityError("digest mismatch")
            return data

    with pytest.raises(IntegrityError):
        store.put_blob(Bad(b"x" * 100))
    with pytest.raises(IntegrityError, match="do not match"):
        store.put_blob(io.BytesIO(b"abc"), expected_sha256="0" * 64)
    assert list((tmp_path / "blobs" / "tmp").iterdir()) == []
    assert not any((tmp_path / "blobs" / "sha256").rglob("*")) or all(
        p.is_dir() for p in (tmp_path / "blobs" / "sha256").rglob("*")
    )


def test_luggage_rows_need_their_blob_and_check_finds_a_missing_one(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    sha, size = store.put_blob_bytes(b"data")
    with store.write() as tx:
        tx.add_luggage(lp.id, "a b/é.txt", sha, size)
    with pytest.raises(IntegrityError), store.write() as tx:
        tx.add_luggage(lp.id, "x", "1" * 64, 1)
    assert [(x.name, x.size) for x in store.luggage(lp.id)] == [("a b/é.txt", 4)]
    store.blob_path(sha).unlink()
    assert any("missing its blob" in p for p in store.check())


def test_landing_digest_is_unique(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    with store.write() as tx:
        tx.record_landing("d" * 64, lp.id, "handoff", {"kind": "handoff"})
    # the store's own error, naming the passport it went to (landing answers "already")
    with pytest.raises(AlreadyLanded) as caught, store.write() as tx:
        tx.record_landing("d" * 64, lp.id, "handoff", {})
    assert caught.value.passport_id == lp.id and caught.value.code == "already_landed"
    landing = store.landing("d" * 64)
    assert landing is not None and landing.passport_id == lp.id
    assert store.landed_data("d" * 64) == {"kind": "handoff"}


def test_packs_written_are_remembered(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    with store.write() as tx:
        tx.record_pack_written("e" * 64, lp.id, 1, "handoff", ["a1"])
    written = store.pack_written("e" * 64)
    assert written is not None and written.asks == ["a1"] and written.version == 1
    assert store.pack_written("f" * 64) is None


def test_migrations_are_appended_and_applied_once(tmp_path: Path) -> None:
    SqliteStore(tmp_path).close()
    extra = Migration(
        len(MIGRATIONS) + 1, "a2a tasks", ("CREATE TABLE a2a_tasks (id TEXT PRIMARY KEY)",)
    )
    with SqliteStore(tmp_path, migrations=(*MIGRATIONS, extra)) as store:
        assert store.schema_version == len(MIGRATIONS) + 1
        store._one("SELECT count(*) FROM a2a_tasks")
    with SqliteStore(tmp_path, migrations=(*MIGRATIONS, extra)) as store:  # second open: no-op
        assert store.schema_version == len(MIGRATIONS) + 1


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    SqliteStore(tmp_path).close()
    db = sqlite3.connect(tmp_path / "store.sqlite3")
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer TaskPack Desk"):
        SqliteStore(tmp_path)


def test_a_damaged_database_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "store.sqlite3").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is damaged: the file is not a SQLite database"):
        SqliteStore(tmp_path)


def test_threads_share_one_store(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    errors: list[BaseException] = []

    def bump() -> None:
        for _ in range(20):
            try:
                with store.write() as tx:
                    cur = tx.get(lp.id)
                    cur.passport.goal = "x"
                    tx.save(cur, event="edit")
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.get(lp.id).version == 81
    assert store.check() == []


def test_a_read_never_waits_for_another_threads_transaction(tmp_path: Path) -> None:
    """While one thread's transaction is open (a landing committing, its fsync), another
    thread reads what was committed before it; the writer reads its own changes."""
    store = SqliteStore(tmp_path)
    first = _new(store, "Committed before")
    opened, read = threading.Event(), threading.Event()
    seen: dict[str, object] = {}
    second = LocalPassport(passport=PassportState(id=ids.new_id(), title="In flight", goal="g"))
    second.state, second.waiting_on = "working", None

    def writer() -> None:
        with store.write() as tx:
            tx.insert(second, event="created")
            seen["writer sees its own"] = store.exists(second.id)
            opened.set()
            read.wait(30)  # the reader answers while this transaction is still open

    def reader() -> None:
        opened.wait(30)
        seen["reader"] = (store.count(), store.exists(first.id), store.exists(second.id))
        read.set()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert read.is_set(), "the reader waited for the writer's transaction"
    assert seen == {"writer sees its own": True, "reader": (1, True, False)}
    assert store.count() == 2 and store.exists(second.id)  # committed: every reader sees it
    store.close()


def test_two_connections_serialise_writes(tmp_path: Path) -> None:
    a, b = SqliteStore(tmp_path), SqliteStore(tmp_path)
    lp = _new(a)
    for store in (a, b, a, b):
        cur = store.get(lp.id)
        cur.passport.goal = "next"
        with store.write() as tx:
            tx.save(cur, event="edit")
    assert b.get(lp.id).version == 5


def test_many_openers_of_a_fresh_store_migrate_it_once(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    barrier = threading.Barrier(6)
    versions: list[int] = []

    def open_it() -> None:
        barrier.wait()
        with SqliteStore(home) as store:
            versions.append(store.schema_version)

    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert versions == [len(MIGRATIONS)] * 6
    with SqliteStore(home) as store:
        assert store.integrity_check() == ["ok"]
