"""The desk's one review API and the moves every front end shares: `Desk.review` answers
the dry run and the merge-target question, "Take this on" is one move, and a helper
process reports what it changed through the desk."""

from __future__ import annotations

import itertools
import zipfile
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import FormatError, IntegrityError, InvalidMove


def _receipt(tmp_path: Path) -> tuple[Desk, Desk, str, Path, Path]:
    """Ana asks Bo a question in a handoff; Bo answers it in a receipt."""
    ana = Desk(tmp_path / "ana", "ana-pc", actor="ana")
    bo = Desk(tmp_path / "bo", "bo-pc", actor="bo")
    pid = ana.new("Q3 report", "Ship it").id
    ana.add_ask(pid, "Which budget?", "a number in euros")
    handoff = ana.pack(pid, tmp_path / "h.taskpack").path
    theirs = bo.land(handoff).id
    bo.answer(theirs, "a1", "12,000 EUR")
    receipt = bo.pack(theirs, tmp_path / "r.taskpack.json", kind="receipt").path
    return ana, bo, pid, handoff, receipt


def test_review_says_where_a_receipt_goes_and_why_a_merge_would_be_refused(
    tmp_path: Path,
) -> None:
    ana, bo, pid, handoff, receipt = _receipt(tmp_path)
    try:
        rv = ana.review(receipt)
        assert (rv.kind, rv.receipt_target, rv.refusal) == ("receipt", pid, None)
        assert rv.would_answer == ["a1"]
        assert ana.review(receipt, into=pid).refusal is None
        other = ana.new("Another", "g").id
        wrong = ana.review(receipt, into=other).refusal
        assert wrong is not None and wrong.code == "merge_wrong_target"
        assert f"this receipt answers {pid}, not {other}" in str(wrong)
        # on the desk that did not ask, the receipt has nowhere to go
        missing = bo.review(receipt).refusal
        assert missing is not None and missing.code == "merge_target_missing"
        # a handoff is never merged into a passport
        into = ana.review(handoff, into=pid).refusal
        assert into is not None and into.code == "merge_handoff"
        assert ana.review(handoff).refusal is None
        # and landing from the review does what it said
        merged = ana.land(receipt, expect=None, review=rv)
        assert merged.id == pid and merged.answered == ["a1"]  # type: ignore[union-attr]
    finally:
        ana.close()
        bo.close()


def test_accept_asks_the_callers_admission_rule_before_anything_is_stored(
    tmp_path: Path,
) -> None:
    ana, bo, pid, _handoff, receipt = _receipt(tmp_path)
    try:
        seen: list[str | None] = []

        def admit(rv: object) -> None:
            seen.append(getattr(rv, "receipt_target", None))
            raise PermissionError("not this sender")

        with pytest.raises(PermissionError):
            ana.land(receipt, expect=None, admit=admit)
        assert seen == [pid]
        assert ana.get(pid).asks[0].status == "open"  # nothing merged
    finally:
        ana.close()
        bo.close()


def test_take_on_makes_the_three_moves_in_one_transaction(tmp_path: Path) -> None:
    ticks = (f"2026-12-01T10:00:{n:02d}Z" for n in itertools.count())
    ana, bo, _pid, handoff, _receipt_path = _receipt(tmp_path)
    ana.close()
    carl = Desk(tmp_path / "carl", "carl-pc", actor="carl", clock=lambda: next(ticks))
    try:
        pid = carl.land(handoff).id
        told: list[tuple[str, str]] = []
        carl.subscribe(lambda p, event: told.append((p, event)))
        lp = carl.take_on(pid)
        assert (lp.state, lp.waiting_on) == ("working", None)
        moves = [h for h in carl.history(pid) if h.event == "moved"][-3:]
        assert [(h.detail["from"], h.detail["to"]) for h in moves] == [
            ("waiting[owner_approval]", "routed"),
            ("routed", "accepted"),
            ("accepted", "working"),
        ]
        assert len({h.at for h in moves}) == 1  # one transaction: one moment
        assert told == [(pid, "moved")] * 3
        with pytest.raises(InvalidMove, match="nothing to take on"):
            carl.take_on(pid)
    finally:
        carl.close()
        bo.close()


def test_a_helper_reports_its_changes_and_the_drafts_they_made_obsolete(
    tmp_path: Path,
) -> None:
    window = Desk(tmp_path / "home", "m", actor="ana")
    pid = window.new("T", "G").id
    window.add_ask(pid, "Which?", "A or B")
    window.drafts.set(pid, "a1", "B, because")
    told: list[tuple[str, str]] = []
    window.subscribe(lambda p, event: told.append((p, event)))
    helper = Desk(tmp_path / "home", "m", actor="ana")  # another process's desk
    try:
        with helper.recording() as report:
            helper.answer(pid, "a1", "B")
        assert report.changes == [(pid, "answer")]
        assert report.drafts_done == [(pid, "a1")]
        assert window.drafts.of(pid) == {"a1": "B, because"}  # not yet: the window's own
        window.report_changes(report.changes, drafts_done=report.drafts_done)
        assert told == [(pid, "answer")]
        assert window.drafts.of(pid) == {}
    finally:
        helper.close()
        window.close()


def test_an_ordinary_zip_is_named_for_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "photos.taskpack"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("holiday.jpg", b"\xff\xd8" + b"0" * 100)
    with Desk(tmp_path / "home", "m") as desk, pytest.raises(FormatError) as caught:
        try:
            desk.review(path)
        except FormatError as exc:
            raise Desk.plain_reason(path, exc) from None
    assert str(caught.value).startswith("it is an ordinary zip file, not a TaskPack")


def test_landing_from_a_staged_review_reads_no_luggage_again(tmp_path: Path) -> None:
    """The window's review stages each luggage file as it reads it: Land stores what was
    staged, trusting the review by the file's content digest — the luggage bytes in the
    file are not read again (here they are damaged after the review, and it still lands
    what the review read and checked)."""
    import os

    luggage = os.urandom(300_000)
    (tmp_path / "footage.bin").write_bytes(luggage)
    sender = Desk(tmp_path / "a", "a-pc", actor="wei")
    pid = sender.new("Cut", "90 s").id
    pack = sender.pack(pid, tmp_path / "v.taskpack", files=[tmp_path / "footage.bin"]).path
    sender.close()
    with Desk(tmp_path / "b", "b-pc", actor="ana") as desk:
        rv = desk.review(pack, stage=True)
        assert [b.size for _n, b in rv.staged] == [len(luggage)]
        raw = bytearray(pack.read_bytes())
        at = raw.find(luggage[1000:1100])
        raw[at] ^= 0xFF  # the stored bytes of the luggage, damaged after the review
        pack.write_bytes(bytes(raw))
        landed = desk.land(pack, review=rv)
        with desk.open_luggage(landed.id, "footage.bin") as f:
            assert f.read() == luggage
        # without the staged review the damage is found, and nothing lands
        with pytest.raises(IntegrityError):
            Desk(tmp_path / "c", "c-pc").land(pack)


def test_a_flat_pack_lands_from_its_staged_review_once(tmp_path: Path) -> None:
    """The flat form too: landing from the staged review is a new passport, not "already
    landed" (the pack is accepted once, from the review's reading)."""
    import os

    (tmp_path / "notes.bin").write_bytes(os.urandom(50_000))
    sender = Desk(tmp_path / "a", "a-pc", actor="wei")
    pid = sender.new("Cut", "90 s").id
    pack = sender.pack(
        pid, tmp_path / "v.taskpack.json", files=[tmp_path / "notes.bin"], encoding="flat"
    ).path
    sender.close()
    with Desk(tmp_path / "b", "b-pc", actor="ana") as desk:
        rv = desk.review(pack, stage=True)
        landed = desk.land(pack, review=rv)
        assert not landed.already and len(desk.passports()) == 1
        with desk.open_luggage(landed.id, "notes.bin") as f:
            assert f.read() == (tmp_path / "notes.bin").read_bytes()
