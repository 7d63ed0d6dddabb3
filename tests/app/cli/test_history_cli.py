"""`taskpack history ID` says what happened in the English it always printed, though the
desk now stores the reason for a move it made as a code. Real processes."""

from __future__ import annotations

from pathlib import Path

from test_passports import Taskpack


def test_history_prints_the_desks_reasons_as_the_same_english_sentences(tmp_path: Path) -> None:
    wei = Taskpack(tmp_path / "wei", "wei-laptop", actor="wei")
    pid = wei.json("new", "--title", "Cut the video", "--goal", "A 90 s cut")["passport"]["id"]
    wei("ask", pid, "--what", "Which take?", "--accept", "a take number")
    handoff = tmp_path / "video.taskpack"
    wei("pack", pid, "--out", str(handoff))
    ana = Taskpack(tmp_path / "ana", "ana-pc", actor="ana")
    there = ana.json("land", str(handoff))["passport"]
    ana("take", there)
    ana("answer", there, "a1", "--answer", "take 3")
    receipt = tmp_path / "answers.taskpack"
    ana("pack", there, "--kind", "receipt", "--out", str(receipt))
    wei("land", str(receipt), "--into", pid)

    home = wei("history", pid).stdout
    assert "why=it sent open asks in a handoff," in home
    assert "why=the receipt answered every ask it was waiting on," in home
    away = ana("history", there).stdout
    assert "why=the gate holds it for the owner," in away
    assert away.count("why=taken on by the owner, who is also the assignee,") == 3
    assert "reason" not in home + away
    moved = [e for e in wei.json("history", pid) if e["event"] == "moved"]
    assert [e["detail"]["why"] for e in moved] == [
        "it sent open asks in a handoff",
        "the receipt answered every ask it was waiting on",
    ]
