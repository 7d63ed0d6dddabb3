"""The flat reader's cursor (`core/format/flat_scanner.py`) and what a declared size may
make it do: an attachment's `bytes`, whatever its value, never sends it to look outside
the file; the reader answers a size the data cannot hold with one sentence of ours."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hostile_sizes import HUGE, huge_flat
from taskpack.core.errors import IntegrityError
from taskpack.core.format.reading import open_pack


@pytest.mark.parametrize("encoding", ["base64", "utf8"])
@pytest.mark.parametrize("size", HUGE)
def test_a_huge_declared_size_is_one_sentence(size: int, encoding: str, tmp_path: Path) -> None:
    raw = huge_flat(size, encoding)
    path = tmp_path / "huge.taskpack.json"
    path.write_bytes(raw)
    for speculate in (False, True):
        with pytest.raises(IntegrityError) as info:
            open_pack(path, speculate=speculate)
        assert f"declares {size} bytes, but its data can hold at most" in info.value.message
    with pytest.raises(IntegrityError):  # a stream of it (what the endpoint reads)
        open_pack(io.BytesIO(raw), name="huge.taskpack.json", speculate=True)
