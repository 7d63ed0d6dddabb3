"""Luggage blobs are filed under the digest computed from their bytes, never under one a
caller claims; a claim that differs is an error and nothing is kept. A
pack's verifying reader read once lends its digest, so landing hashes each byte once."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import IntegrityError
from taskpack.core.format.streams import VerifyingReader

DATA = bytes(range(256)) * 4096  # 1 MiB: the writes go through the background writer
REAL = hashlib.sha256(DATA).hexdigest()


class _Boasting:
    """A stream that says what its digest is (wrongly)."""

    digest = "ab" * 32

    def __init__(self, data: bytes) -> None:
        self._f = io.BytesIO(data)

    def read(self, n: int = -1, /) -> bytes:
        return self._f.read(n)


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = SqliteStore(tmp_path / "home")
    yield s
    s.close()


def test_a_blob_is_filed_under_the_digest_of_its_bytes(store: SqliteStore) -> None:
    staged = store.stage_blob(_Boasting(DATA))
    assert staged.sha256 == REAL
    store.commit_blob(staged)
    assert not store.has_blob("ab" * 32)
    with store.open_blob(REAL) as f:
        assert f.read() == DATA


def test_a_digest_claimed_beside_the_bytes_is_not_a_way_in(store: SqliteStore) -> None:
    with pytest.raises(TypeError):
        store.stage_blob(io.BytesIO(DATA), hashed=lambda: "ab" * 32)  # type: ignore[call-arg]
    assert not store.has_blob("ab" * 32)


def test_a_wrong_claim_is_an_error_and_nothing_is_kept(store: SqliteStore) -> None:
    with pytest.raises(IntegrityError, match="do not match its declared sha256"):
        store.stage_blob(io.BytesIO(DATA), expected_sha256="ab" * 32)
    with pytest.raises(IntegrityError):
        store.put_blob(io.BytesIO(DATA), expected_sha256="ab" * 32)
    assert list((store.blob_root / "tmp").iterdir()) == []
    assert not store.has_blob("ab" * 32) and not store.has_blob(REAL)


def test_a_verifying_reader_lends_the_digest_it_computed(store: SqliteStore) -> None:
    seen: list[int] = []
    reader = VerifyingReader(io.BytesIO(DATA), name="a.bin", size=len(DATA), sha256=REAL)
    staged = store.stage_blob(reader, expected_sha256=REAL, on_chunk=lambda c: seen.append(len(c)))
    assert staged.sha256 == REAL and sum(seen) == len(DATA)
    store.commit_blob(staged)
    assert store.blob_path(REAL).read_bytes() == DATA


def test_a_reader_read_before_it_was_handed_over_is_hashed_again(store: SqliteStore) -> None:
    reader = VerifyingReader(io.BytesIO(DATA), name="a.bin", size=None, sha256=None)
    reader.read(10)
    staged = store.stage_blob(reader)
    assert staged.sha256 == hashlib.sha256(DATA[10:]).hexdigest()
    assert staged.path.read_bytes() == DATA[10:]
    store.discard_blob(staged)


def test_a_damaged_stream_still_stages_nothing(store: SqliteStore) -> None:
    reader = VerifyingReader(io.BytesIO(DATA), name="a.bin", size=len(DATA), sha256="0" * 64)
    with pytest.raises(IntegrityError, match=r"a\.bin"):
        store.stage_blob(reader)
    assert list((store.blob_root / "tmp").iterdir()) == []
