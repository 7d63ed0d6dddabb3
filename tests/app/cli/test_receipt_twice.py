"""The same receipt sent again in a new file: the second `taskpack land
receipt --into ID` says nothing in it is new, bumps no version and adds no history.
Real `taskpack` processes."""

from __future__ import annotations

from pathlib import Path

from test_passports import Taskpack


def test_the_same_answers_twice_merge_once_and_the_second_says_nothing_is_new(
    tmp_path: Path,
) -> None:
    wei = Taskpack(tmp_path / "wei", "wei-laptop", actor="wei")
    pid = wei.json("new", "--title", "Cut the video", "--goal", "A 90 s cut")["passport"]["id"]
    wei("ask", pid, "--what", "Which take?", "--accept", "a take number")
    wei("pack", pid, "--out", str(tmp_path / "video.taskpack"))
    ana = Taskpack(tmp_path / "ana", "ana-pc", actor="ana")
    there = ana.json("land", str(tmp_path / "video.taskpack"))["passport"]
    ana("take", there)
    ana("answer", there, "a1", "--answer", "take 3")
    first, again = tmp_path / "answers.taskpack.json", tmp_path / "answers-again.taskpack.json"
    ana("pack", there, "--kind", "receipt", "--out", str(first))
    # written again, as "Copy for chat" once more would (a note, a new time: new bytes)
    ana("pack", there, "--kind", "receipt", "--out", str(again), "--note", "Here they are again")
    assert first.read_bytes() != again.read_bytes()

    merged = wei("land", str(first), "--into", pid).stdout
    assert "answered: a1" in merged
    version = wei.json("open", pid)["passport"]["version"]
    rows = len(wei.json("history", pid))

    dry = wei("land", str(again), "--into", pid, "--dry-run").stdout
    assert f"already merged into {pid}: nothing in it is new" in dry
    out = wei("land", str(again), "--into", pid)
    assert out.stdout.strip() == (
        f"Already merged into {pid}: nothing in this receipt is new; nothing changed."
    )
    assert wei.json("open", pid)["passport"]["version"] == version
    assert len(wei.json("history", pid)) == rows
    assert wei.json("land", str(again), "--into", pid)["already"] is True


def test_a_receipt_with_a_changed_answer_still_merges(tmp_path: Path) -> None:
    wei = Taskpack(tmp_path / "wei", "wei-laptop", actor="wei")
    pid = wei.json("new", "--title", "Cut the video", "--goal", "A 90 s cut")["passport"]["id"]
    wei("ask", pid, "--what", "Which take?", "--accept", "a take number")
    wei("pack", pid, "--out", str(tmp_path / "video.taskpack"))
    ana = Taskpack(tmp_path / "ana", "ana-pc", actor="ana")
    there = ana.json("land", str(tmp_path / "video.taskpack"))["passport"]
    ana("take", there)
    ana("answer", there, "a1", "--answer", "take 3")
    ana("pack", there, "--kind", "receipt", "--out", str(tmp_path / "one.taskpack.json"))
    ana("answer", there, "a1", "--answer", "take 4, not 3")
    ana("pack", there, "--kind", "receipt", "--out", str(tmp_path / "two.taskpack.json"))
    wei("land", str(tmp_path / "one.taskpack.json"), "--into", pid)
    second = wei("land", str(tmp_path / "two.taskpack.json"), "--into", pid).stdout
    assert "answered: a1" in second
    [ask] = wei.json("open", pid)["asks"]
    assert ask["answer"] == "take 4, not 3"
