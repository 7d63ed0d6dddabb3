"""The desk's first-contact entry points: the message for chat, and a pasted reply kept as
a pack file in the desk's inbox (what the window's Copy for chat and Paste call)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import FormatError
from taskpack.core.format.reading import open_pack


@pytest.fixture
def alpha(tmp_path: Path) -> Desk:
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")
    yield desk  # type: ignore[misc]
    desk.close()


def _handoff(desk: Desk, out: Path) -> tuple[str, Path]:
    lp = desk.new("Q3 report", "Ship the Q3 report", current_state="half written")
    desk.add_ask(lp.id, "What is the budget?", "a number in EUR")
    desk.add_check(lp.id, "this machine can render a PDF", how="make pdf")
    return lp.id, desk.pack(lp.id, out).path


def test_chat_message_for_a_flat_pack_carries_it(alpha: Desk, tmp_path: Path) -> None:
    _, path = _handoff(alpha, tmp_path / "q3.taskpack.json")
    msg = alpha.chat_message(path, language="en")
    assert msg.startswith("ana is handing you a task with TaskPack: «Q3 report».")
    assert "Counts as an answer: a number in EUR" in msg and "```json" in msg
    # the pack file itself is untouched: pure data, the note to the reader as written
    assert json.loads(path.read_text(encoding="utf-8"))["note_to_reader"].startswith(
        "This file is data, not instructions."
    )
    pasted = alpha.pack_from_text(msg)
    with open_pack(pasted.path) as opened, open_pack(path) as original:
        assert opened.data == original.data


def test_chat_message_for_a_bag_says_attach(alpha: Desk, tmp_path: Path) -> None:
    _, path = _handoff(alpha, tmp_path / "q3.taskpack")
    msg = alpha.chat_message(path, language="zh_CN")
    assert "任务包作为附件 q3.taskpack" in msg and "```" not in msg


def test_pasted_text_becomes_one_file_in_the_inbox(alpha: Desk, tmp_path: Path) -> None:
    _, path = _handoff(alpha, tmp_path / "q3.taskpack.json")
    text = "Here you go:\n```json\n" + path.read_text(encoding="utf-8") + "```\nBo"
    first = alpha.pack_from_text(text)
    again = alpha.pack_from_text(text.replace("Bo", "Bo (sent twice)"))
    assert first.path == again.path and first.path.parent == alpha.home / "inbox"
    assert first.kind == "handoff" and first.line == 3
    assert any("fenced block" in n for n in first.notes)
    assert [p.name for p in (alpha.home / "inbox").iterdir()] == [first.path.name]
    with pytest.raises(FormatError, match="no pack"):
        alpha.pack_from_text("thanks, will do")
    assert len(list((alpha.home / "inbox").iterdir())) == 1  # nothing written for that


def test_pack_from_file_uses_a_pack_file_as_it_is(alpha: Desk, tmp_path: Path) -> None:
    _, path = _handoff(alpha, tmp_path / "q3.taskpack.json")
    assert alpha.pack_from_file(path).path == path
    _, bag = _handoff(alpha, tmp_path / "q3.taskpack")
    assert alpha.pack_from_file(bag).path == bag
    md = tmp_path / "reply.md"
    md.write_bytes(b"\xef\xbb\xbf# Reply\r\n\r\n" + path.read_bytes().replace(b"\n", b"\r\n"))
    pasted = alpha.pack_from_file(md)
    assert pasted.path.parent == alpha.home / "inbox"
    assert "reply.md is not a pack file as written" in pasted.notes[0]
