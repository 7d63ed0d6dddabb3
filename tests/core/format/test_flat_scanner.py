"""The flat reader's cursor (`core/format/flat_scanner.py`) and what a declared size may
make it do: an attachment's `bytes`, whatever its value, never sends it to look outside
the file; the reader answers a size the data cannot hold with one sentence of ours."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

import pytest
from taskpack.core.errors import IntegrityError
from taskpack.core.format.reading import open_pack

#: sizes past what a file offset holds (2**63 and up), and one past what a file may be
HUGE = [2**63, 2**63 - 1, 2**64, 10**30, 2**62]

PACK = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": "tester", "machine": "elsewhere", "harness": "tests"},
    "lineage": {"root_id": "TP-2222-2222", "from_version": 1, "chain": ["TP-2222-2222@1"]},
    "note": "",
    "passport": {"id": "TP-2222-2222", "title": "sizes", "version": 1, "facts": []},
    "asks": [],
    "landing_checks": [],
}


def huge_flat(size: int, encoding: str = "base64") -> bytes:
    """A flat pack whose one attachment declares `size` bytes (its `bytes` before its
    `data`, as the desk's writer puts them)."""
    data = b"\xff\xfe twelve bytes"
    att = {
        "name": "notes.bin",
        "encoding": encoding,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": size,
        "data": base64.b64encode(data).decode() if encoding == "base64" else "plain text",
    }
    top = {"taskpack": "0.1", "encoding": "flat", "passport": PACK, "attachments": [att]}
    return json.dumps(top, indent=2).encode()


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
