"""A history row stores what happened, not a sentence: the desk's reason for a
move is a code the window says in the person's language and the CLI in English."""

from __future__ import annotations

from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.core.desk.history_words import REASONS, english_detail


def test_the_desks_own_moves_store_a_reason_code_and_no_sentence(tmp_path: Path) -> None:
    home = Desk(tmp_path / "home", "home-pc", actor="wei")
    away = Desk(tmp_path / "away", "away-pc", actor="ana")
    try:
        pid = home.new("Task", "Goal").id
        home.add_ask(pid, "Which take?", "a take number")
        home.pack(pid, tmp_path / "h.taskpack")
        there = away.land(tmp_path / "h.taskpack").passport.id
        away.take_on(there)
        away.answer(there, "a1", "take 3")
        away.pack(there, tmp_path / "r.taskpack", kind="receipt")
        home.merge_receipt(tmp_path / "r.taskpack", pid)
        moves = [e.detail for e in home.history(pid) + away.history(there) if e.event == "moved"]
        assert [m.get("reason") for m in moves] == [
            "sent_open_asks",
            "receipt_answered",
            "gate_holds",
            "taken_on",
            "taken_on",
            "taken_on",
        ]
        assert not [m for m in moves if "why" in m]
        assert english_detail(moves[1])["why"] == REASONS["receipt_answered"]
        assert list(english_detail(moves[1])) == ["from", "to", "why", "move"]
    finally:
        home.close()
        away.close()


def test_a_row_written_before_the_codes_reads_as_it_was() -> None:
    old = {"from": "working", "to": "waiting[human]", "why": "it sent open asks in a handoff"}
    assert english_detail(old) == old
