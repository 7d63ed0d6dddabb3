"""A credential in a pack's title, sender or note is withheld in ONE place (`withhold`),
which the watcher's notification and the window's Incoming row both use."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.app.watcher import probe, withhold


def _token() -> str:
    rng = random.Random(7)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def test_withhold_names_the_kind_and_never_shows_the_text() -> None:
    secret = _token()
    shown, withheld = withhold({"title": f"deploy with {secret}", "sender": "wei@laptop"})
    assert secret not in shown["title"] and shown["sender"] == "wei@laptop"
    assert [name for name, _kind in withheld] == ["title"]


def test_the_watcher_quotes_a_pack_through_the_same_rule(tmp_path: Path) -> None:
    secret = _token()
    with Desk(tmp_path / "a", "a-pc", actor="wei") as sender:
        pid = sender.new("Rotate the key", "Ship it").id
        pack = sender.pack(pid, tmp_path / "k.taskpack.json", encoding="flat").path
    doc = json.loads(pack.read_text(encoding="utf-8"))  # (the writer refuses a secret:
    doc["passport"]["note"] = f"the key is {secret}"  # this one is written by hand)
    pack.write_text(json.dumps(doc), encoding="utf-8")
    found = probe(pack)
    shown, withheld = withhold({"title": "Rotate the key", "sender": found.sender, "note": ""})
    assert found.title == shown["title"] == "Rotate the key"
    assert secret not in found.note and found.withheld_kind("note") is not None
    assert withhold({"note": f"the key is {secret}"}) == (
        {"note": found.note},
        (("note", found.withheld_kind("note")),),
    )
    assert withheld == ()
