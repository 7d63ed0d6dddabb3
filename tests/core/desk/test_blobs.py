"""Landing hashes each luggage byte once (issue 12.7): the verifying reader's digest is
what the staged blob is filed under, so the store does not hash the bytes again."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from taskpack.core.desk.store import Store
from taskpack.core.errors import IntegrityError
from taskpack.core.format.streams import VerifyingReader

DATA = bytes(range(256)) * 4096  # 1 MiB: the writes go through the background writer


def test_a_self_hashing_stream_is_not_hashed_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "home")
    try:
        staged = store.stage_blob(io.BytesIO(DATA), hashed=lambda: "ab" * 32)
        assert staged.sha256 == "ab" * 32  # taken from the stream, not recomputed
        assert staged.path.read_bytes() == DATA
        store.discard_blob(staged)
        reader = VerifyingReader(
            io.BytesIO(DATA), name="a.bin", size=len(DATA), sha256=hashlib.sha256(DATA).hexdigest()
        )
        staged = store.stage_blob(reader, hashed=lambda: reader.digest)
        assert staged.sha256 == hashlib.sha256(DATA).hexdigest()
        store.commit_blob(staged)
        assert store.blob_path(staged.sha256).read_bytes() == DATA
    finally:
        store.close()


def test_a_damaged_stream_still_stages_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "home")
    try:
        reader = VerifyingReader(io.BytesIO(DATA), name="a.bin", size=len(DATA), sha256="0" * 64)
        with pytest.raises(IntegrityError, match=r"a\.bin"):
            store.stage_blob(reader, hashed=lambda: reader.digest)
        assert list((store.blob_root / "tmp").iterdir()) == []
    finally:
        store.close()
