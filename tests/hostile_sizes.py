"""Packs whose numbers are too big for anything: shared by the reader's, the CLI's and the
endpoint's tests."""

from __future__ import annotations

import base64
import hashlib
import json

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
