"""Packing reads the luggage once: the outbox keeps the written file's own
digest when it could be hashed as the file was written (a flat pack whose luggage
digests are known ahead), or else when the pack is small enough that reading it again
costs nothing noticeable; above that the digest is left unknown rather than paid for
with a second pass."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from taskpack.core.desk import export
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.format import ids
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import LocalPassport, PassportState


@pytest.mark.parametrize("limit, kept", [(1 << 30, True), (1000, False)])
def test_the_file_digest_is_kept_only_below_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int, kept: bool
) -> None:
    monkeypatch.setattr(export, "FILE_DIGEST_MAX_BYTES", limit)
    with SqliteStore(tmp_path / "home") as store:
        lp = LocalPassport(passport=PassportState(id=ids.new_id(), title="t", goal="g"))
        with store.write() as tx:
            tx.insert(lp, event="created")
        reads: list[Path] = []
        real = export.hash_file
        monkeypatch.setattr(export, "hash_file", lambda p: reads.append(p) or real(p))
        out = export.export_passport(
            store,
            lp.id,
            tmp_path / "x.taskpack",
            machine="m",
            actor="a",
            files=[LuggageSource.from_bytes("big.bin", bytes(4096))],
        )
        [entry] = store.outbox(passport_id=lp.id)
        if kept:
            assert entry.file_sha256 == hashlib.sha256(out.path.read_bytes()).hexdigest()
        else:
            assert entry.file_sha256 is None and reads == []  # the written file was not read again


def _passport_with_stored_luggage(store: SqliteStore, blobs: dict[str, bytes]) -> str:
    lp = LocalPassport(passport=PassportState(id=ids.new_id(), title="t", goal="g"))
    stored = {name: store.put_blob_bytes(data) for name, data in blobs.items()}
    with store.write() as tx:
        tx.insert(lp, event="created")
        for name, (sha, size) in stored.items():
            tx.add_luggage(lp.id, name, sha, size)
    return lp.passport.id


BLOBS = {"dump.bin": bytes(range(256)) * 300 + b"\0", "notes.txt": b"line one\nline two\n" * 500}


@pytest.mark.parametrize(
    "name, hashed_as_written", [("x.taskpack.json", True), ("x.taskpack", False)]
)
def test_a_big_flat_pack_of_stored_luggage_gets_its_file_digest_in_the_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, hashed_as_written: bool
) -> None:
    """The flat form of luggage whose digests are known ahead is written front to back,
    so its file digest is hashed as it is written: kept above the limit, without a read."""
    monkeypatch.setattr(export, "FILE_DIGEST_MAX_BYTES", 1000)  # every pack here is "big"
    reads: list[Path] = []
    real = export.hash_file
    monkeypatch.setattr(export, "hash_file", lambda p: reads.append(p) or real(p))
    with SqliteStore(tmp_path / "home") as store:
        pid = _passport_with_stored_luggage(store, BLOBS)
        out = export.export_passport(store, pid, tmp_path / name, machine="m", actor="a")
        [entry] = store.outbox(passport_id=pid)
        assert out.size > 1000 and reads == []
        if hashed_as_written:
            assert entry.file_sha256 == hashlib.sha256(out.path.read_bytes()).hexdigest()
        else:  # a bag's manifests and CRCs are filled in after the luggage: unknown, not read again
            assert entry.file_sha256 is None


def test_a_flat_pack_with_fresh_luggage_above_the_limit_stays_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "FILE_DIGEST_MAX_BYTES", 1000)
    reads: list[Path] = []
    monkeypatch.setattr(export, "hash_file", lambda p: reads.append(p) or "")
    with SqliteStore(tmp_path / "home") as store:
        pid = _passport_with_stored_luggage(store, {"kept.bin": b"\0" * 5000})
        export.export_passport(
            store,
            pid,
            tmp_path / "x.taskpack.json",
            machine="m",
            actor="a",
            files=[LuggageSource.from_bytes("fresh.bin", b"\1\0" * 3000)],
        )
        [entry] = store.outbox(passport_id=pid)
        assert entry.file_sha256 is None and reads == []


def test_stored_luggage_writes_the_same_flat_bytes_whether_its_digest_is_known_ahead_or_not(
    tmp_path: Path,
) -> None:
    from taskpack.core.format.writing import write_pack

    data = {"spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-01-01T00:00:00Z"}
    fresh = [LuggageSource.from_bytes(n, b) for n, b in BLOBS.items()]
    known = [
        LuggageSource(
            name=n,
            size=len(b),
            sha256=hashlib.sha256(b).hexdigest(),
            verified_stream=True,
            opener=lambda b=b: __import__("io").BytesIO(b),
        )
        for n, b in BLOBS.items()
    ]
    a = write_pack(data, fresh, tmp_path / "a.taskpack.json", encoding="flat", file_digest=True)
    b = write_pack(data, known, tmp_path / "b.taskpack.json", encoding="flat", file_digest=True)
    assert a.path.read_bytes() == b.path.read_bytes()
    assert a.file_sha256 is None  # placeholders filled in after a seek back: not hashed
    assert b.file_sha256 == hashlib.sha256(b.path.read_bytes()).hexdigest()


def test_append_digest_is_spoiled_by_a_write_after_a_seek_back(tmp_path: Path) -> None:
    from taskpack.core.format.streams import AppendDigest

    with open(tmp_path / "f", "w+b") as raw:
        f = AppendDigest(raw)
        f.write(b"abc")
        f.write(bytearray(b"d" * (1 << 20)))  # large: hashed on the background thread
        f.seek(0, 2)
        f.write(memoryview(b"tail"))
        assert f.tell() == 3 + (1 << 20) + 4
        raw.flush()
        assert f.hexdigest() == hashlib.sha256((tmp_path / "f").read_bytes()).hexdigest()
    with open(tmp_path / "g", "w+b") as raw:
        f = AppendDigest(raw)
        f.write(b"0000rest")
        end = f.tell()
        f.seek(0)
        f.write(b"abcd")
        f.seek(end)
        f.write(b"more")
        assert f.hexdigest() is None
