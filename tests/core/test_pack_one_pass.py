"""Packing reads the luggage once (issue 12.7): the outbox keeps the written file's own
digest only for packs small enough that reading them again costs nothing noticeable;
above that the digest is left unknown rather than paid for with a second pass."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from taskpack.core import ids, landing
from taskpack.core.luggage import LuggageSource
from taskpack.core.model import LocalPassport, PassportState
from taskpack.core.store import Store


@pytest.mark.parametrize("limit, kept", [(1 << 30, True), (1000, False)])
def test_the_file_digest_is_kept_only_below_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      limit: int, kept: bool) -> None:  # fmt: skip
    monkeypatch.setattr(landing, "FILE_DIGEST_MAX_BYTES", limit)
    with Store(tmp_path / "home") as store:
        lp = LocalPassport(passport=PassportState(id=ids.new_id(), title="t", goal="g"))
        with store.write() as tx:
            tx.insert(lp, event="created")
        reads: list[Path] = []
        real = landing._hash_file
        monkeypatch.setattr(landing, "_hash_file", lambda p: reads.append(p) or real(p))
        out = landing.export_passport(store, lp.id, tmp_path / "x.taskpack", machine="m", actor="a",
                                    files=[LuggageSource.from_bytes("big.bin", bytes(4096))])  # fmt: skip
        [entry] = store.outbox(passport_id=lp.id)
        if kept:
            assert entry.file_sha256 == hashlib.sha256(out.path.read_bytes()).hexdigest()
        else:
            assert entry.file_sha256 is None and reads == []  # the written file was not read again
