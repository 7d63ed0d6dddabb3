"""`streams.hash_file`: the one file digest every module uses (store, health, export, A2A)."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.format.streams import CHUNK, hash_file


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=4096), st.sampled_from([0, 1, CHUNK - 1, CHUNK, CHUNK + 1]))
def test_hash_file_is_the_sha256_of_the_whole_file(head: bytes, pad: int) -> None:
    data = head + b"\x5a" * pad  # across the read buffer's edges, not only inside one
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.bin"
        path.write_bytes(data)
        assert hash_file(path) == hashlib.sha256(data).hexdigest()
        assert hash_file(str(path)) == hash_file(path)


def test_hash_file_of_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    assert hash_file(tmp_path / "empty") == hashlib.sha256(b"").hexdigest()
