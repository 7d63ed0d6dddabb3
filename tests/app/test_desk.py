"""The Desk service as the window and the endpoint use it."""

from __future__ import annotations

from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.core.pack import open_pack
from taskpack.core.packer import convert


def test_landed_as_answers_whether_a_pack_is_already_here(tmp_path: Path) -> None:
    sender = Desk(tmp_path / "a", "machine-a")
    receiver = Desk(tmp_path / "b", "machine-b")
    lp = sender.new("Invoice export", "CSV for finance")
    out = sender.pack(lp.id, tmp_path / "h.taskpack").path
    with open_pack(out) as opened:
        digest = opened.content_digest()
    assert receiver.landed_as(digest) is None  # not news yet: the watcher shows it
    landed = receiver.land(out)
    assert receiver.landed_as(digest) == landed.passport.id
    # the flat form of the same pack carries the same content: it is already here too
    flat = convert(out, tmp_path / "h.taskpack.json", machine="machine-c").path
    with open_pack(flat) as opened:
        assert receiver.landed_as(opened.content_digest()) == landed.passport.id
