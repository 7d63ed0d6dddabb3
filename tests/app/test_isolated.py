"""A desk action run in a helper process (app/isolated.py) behaves as it would here."""

from __future__ import annotations

import json
from pathlib import Path

import isolated_helpers
import pytest
from taskpack.app import isolated
from taskpack.app.desk import Desk
from taskpack.core.errors import Cancelled, FormatError


def make_pack(tmp_path: Path, asks: int = 3) -> Path:
    with Desk(tmp_path / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Ship the report", "Numbers checked").id
        for n in range(asks):
            sender.add_ask(pid, f"Question {n}?", "yes or no")
        out = tmp_path / "report.taskpack.json"
        sender.pack(pid, out, encoding="flat")
    return out


def test_a_review_made_there_is_the_review_made_here_and_a_landing_there_is_seen_here(
    tmp_path: Path,
) -> None:
    pack = make_pack(tmp_path)
    seen: list[tuple[int, int]] = []
    with Desk(tmp_path / "home", "zhang-pc", actor="Zhang") as desk:
        there = isolated.call(
            desk,
            isolated_helpers.review,
            pack,
            progress=lambda d, t: seen.append((d, t)),
            cancel=lambda: False,
        )
        here = desk.review(pack)
        assert json.dumps(there.to_data()) == json.dumps(here.to_data())
        outcome = isolated.call(
            desk, isolated_helpers.land, pack, progress=lambda d, t: None, cancel=lambda: False
        )
        assert [p.id for p in desk.passports()] == [outcome.id]  # the same store, one passport
        assert len(desk.get(outcome.id).asks or []) == 3
        origin = desk.get(outcome.id).received.origin  # type: ignore[union-attr]
        assert desk.sent_by(outcome.id) == origin.to_data()  # read without parsing the asks
        assert desk.sent_by(outcome.id)["actor"] == "Wei"


def test_an_error_there_is_raised_here_with_its_class_code_and_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "broken.taskpack.json"
    bad.write_text('{"taskpack": "0.1", "passport": [', encoding="utf-8")
    with Desk(tmp_path / "home", "zhang-pc") as desk:
        with pytest.raises(FormatError) as here:
            desk.review(bad)
        with pytest.raises(FormatError) as there:
            isolated.call(
                desk, isolated_helpers.review, bad, progress=lambda d, t: None, cancel=lambda: False
            )
    assert str(there.value) == str(here.value)
    assert (there.value.code, there.value.params) == (here.value.code, here.value.params)


def test_cancel_here_stops_the_work_there(tmp_path: Path) -> None:
    seen: list[int] = []
    with Desk(tmp_path / "home", "zhang-pc") as desk, pytest.raises(Cancelled):
        isolated.call(
            desk,
            isolated_helpers.until_cancelled,
            progress=lambda d, t: seen.append(d),
            cancel=lambda: len(seen) >= 3,
        )
    assert 3 <= len(seen) < 6000  # progress came back, then it stopped


def test_only_packs_with_a_large_pack_object_go_to_a_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = make_pack(tmp_path)
    assert not isolated.pack_is_large(small)
    monkeypatch.setattr(isolated, "LARGE_BYTES", 100)
    assert isolated.pack_is_large(small)
    assert not isolated.pack_is_large(tmp_path / "missing.taskpack")


def test_a_helper_reads_the_file_opened_here_not_whatever_the_path_names_later(
    tmp_path: Path,
) -> None:
    pack = make_pack(tmp_path)
    with Desk(tmp_path / "home", "zhang-pc", actor="Zhang") as desk:
        here = desk.review(pack)
        with open(pack, "rb") as f:
            assert not isolated.pack_is_large(f)  # answered from the open file, left at its start
            assert f.tell() == 0
            moved = pack.with_name("elsewhere.taskpack.json")
            pack.rename(moved)
            pack.write_text('{"taskpack": "0.1", "passport": [', encoding="utf-8")
            there = isolated.call(
                desk,
                isolated_helpers.review_handed,
                pack,
                isolated.handed(f),
                progress=lambda d, t: None,
                cancel=lambda: False,
            )
    assert json.dumps(there.to_data()) == json.dumps(here.to_data())
