"""The outbox ledger in the store (migration 2) and the ask lint packing warns with."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from taskpack.core.desk.export import export_passport
from taskpack.core.desk.sqlite_schema import MIGRATIONS
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import NotFound
from taskpack.core.format import ids
from taskpack.core.format.model import Ask, LocalPassport, PassportState
from taskpack.core.trust.ask_lint import lint_accept


def _new(store: SqliteStore, title: str = "Ship the report") -> LocalPassport:
    lp = LocalPassport(passport=PassportState(id=ids.new_id(), title=title, goal="g"))
    lp.state, lp.waiting_on = "working", None
    with store.write() as tx:
        tx.insert(lp, event="created")
    return lp


def test_a_store_from_before_the_ledger_keeps_its_pack_records(tmp_path: Path) -> None:
    with SqliteStore(tmp_path, migrations=MIGRATIONS[:1]) as old:
        assert old.schema_version == 1
        lp = _new(old)
        db_path = old.db_path
    # a pack written by that version, recorded as it recorded one (in its own database)
    with contextlib.closing(sqlite3.connect(db_path)) as db, db:
        db.execute(
            "INSERT INTO packs_written (sha256, passport_id, version, kind, written_at, asks) "
            "VALUES (?,?,?,?,?,?)",
            ("e" * 64, lp.id, 1, "handoff", "2026-01-01T00:00:00Z", '["a1"]'),
        )
    with SqliteStore(tmp_path) as store:
        assert store.schema_version == len(MIGRATIONS)
        found = store.pack_written("e" * 64)  # the restore rule's question still answers
        assert found is not None and found.asks == ["a1"] and found.passport_id == lp.id
        assert found.seq == 1 and found.path is None and found.stub == {}
        [entry] = store.outbox()
        assert entry.to_data()["content_digest"] == "e" * 64
        assert store.check() == []


def test_every_write_is_an_entry_even_the_same_bytes_twice(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path, clock=lambda: "2026-12-01T10:00:00Z")  # one second: same bytes
    lp = _new(store)
    a = export_passport(
        store, lp.id, tmp_path / "a.taskpack", machine="m1", actor="ana", to="bob@laptop", via="cli"
    )
    b = export_passport(
        store, lp.id, tmp_path / "b.taskpack", machine="m1", actor="ana", to="carol@desk", via="mcp"
    )
    assert a.content_digest == b.content_digest
    newest, oldest = store.outbox()
    assert (oldest.to, oldest.via, Path(oldest.path or "").name) == (
        "bob@laptop",
        "cli",
        "a.taskpack",
    )
    assert (newest.to, newest.via, Path(newest.path or "").name) == (
        "carol@desk",
        "mcp",
        "b.taskpack",
    )
    assert oldest.encoding == "bag" and oldest.size == (tmp_path / "a.taskpack").stat().st_size
    assert oldest.stub["title"] == "Ship the report" and oldest.stub["version"] == 1
    assert store.pack_written(a.content_digest).seq == oldest.seq  # type: ignore[union-attr]
    assert [e.seq for e in store.packs_written(lp.id)] == [oldest.seq, newest.seq]
    assert store.sent(newest.seq).to == "carol@desk"
    with pytest.raises(NotFound, match="no entry 99"):
        store.sent(99)


def test_the_file_digest_is_of_the_bytes_written(tmp_path: Path) -> None:
    import hashlib

    store = SqliteStore(tmp_path)
    lp = _new(store)
    out = export_passport(store, lp.id, tmp_path / "x.taskpack.json", machine="m1", actor="ana")
    [entry] = store.outbox(passport_id=lp.id)
    assert entry.file_sha256 == hashlib.sha256(out.path.read_bytes()).hexdigest()
    assert entry.encoding == "flat" and entry.via is None


def test_the_stub_is_bounded_whatever_the_passport_holds(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store, title="T" * 10_000)
    with store.write() as tx:
        lp = tx.get(lp.id)
        lp.passport.next_steps = [f"step {n}" for n in range(500)]
        tx.save(lp, event="checkpoint")
    export_passport(store, lp.id, tmp_path / "x.taskpack", machine="m1", actor="ana")
    [entry] = store.outbox()
    assert len(entry.stub["title"]) == 300 and len(entry.stub["next_steps"]) == 20  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "accept",
    [
        "ok",
        "yes",
        "an answer",
        "Anything.",
        "whatever",
        "tbd",
        "a date",
        "?",
        "your thoughts please",
    ],
)
def test_a_vague_or_short_accept_is_warned_about(accept: str) -> None:
    [warning] = lint_accept(accept)
    assert "too" in warning and "what would count as an answer" in warning


@pytest.mark.parametrize(
    "accept",
    [
        "a number in euros",
        "yes or no, with the reason",
        "the port number the API listens on",
        "ISO 8601 date",
        "一个以欧元计的数字，附上来源",
    ],
)
def test_an_accept_that_says_what_counts_passes(accept: str) -> None:
    assert lint_accept(accept) == []


def test_an_accept_that_repeats_the_question_is_warned_about() -> None:
    [warning] = lint_accept("Which port does the API use?", "Which port does the API use")
    assert "repeats the question" in warning


def test_packing_warns_about_a_vague_accept_and_still_packs(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)
    lp = _new(store)
    with store.write() as tx:
        lp = tx.get(lp.id)
        lp.asks = [
            Ask(id="a1", what="Budget?", accept="ok", status="open"),
            Ask(id="a2", what="Port?", accept="the port number, an integer", status="open"),
        ]
        tx.save(lp, event="ask")
    out = export_passport(store, lp.id, tmp_path / "x.taskpack", machine="m1", actor="ana")
    assert out.path.is_file()
    assert [w for w in out.warnings if w.startswith("ask ")] == ["ask a1: " + lint_accept("ok")[0]]


def test_another_connections_writes_are_seen_and_ones_own_are_not(tmp_path: Path) -> None:
    mine, other = SqliteStore(tmp_path), SqliteStore(tmp_path)
    version = mine.data_version()
    seq, _ = mine.changed_since(0)
    _new(mine)
    assert mine.data_version() == version  # its own write: nothing to look for
    lp = _new(other, "theirs")
    assert mine.data_version() != version
    newest, ids_changed = mine.changed_since(seq)
    assert ids_changed[-1] == lp.id and newest > seq
    assert mine.changed_since(newest) == (newest, [])
