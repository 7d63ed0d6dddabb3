"""The same receipt again, into a task that is done: the review says its
answers were merged already and nothing in it is new, and pressing its button only shows
the passport: no new version, no new history."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, SENDER, make_handoff, settle, shown_passport_id
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot


def test_a_receipt_sent_again_into_a_done_task_says_nothing_is_new(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    home = make_desk(SENDER, actor="wei")
    pid = make_handoff(home, tmp_path / "invoice.taskpack")
    away = make_desk(RECEIVER, actor="zhang")
    there = away.land(tmp_path / "invoice.taskpack").passport.id
    away.take_on(there)
    for ask in away.get(there).asks or []:
        away.answer(there, str(ask.id), "Fiona, fiona@example.com")
    first, again = tmp_path / "answers.taskpack.json", tmp_path / "answers-again.taskpack.json"
    away.pack(there, first, kind="receipt")
    away.pack(there, again, kind="receipt", note="Sent again, in case")
    home.merge_receipt(first, pid)
    evidence = [{"kind": "note", "summary": "Finance signed off"}]
    home.return_result(pid, "Export fixed", evidence, returned_by="wei/desk")
    home.move(pid, "completed")
    before = (home.get(pid).version, len(home.history(pid)))

    window = make_window(home)
    window.open_files([again])
    settle(qtbot, window)
    review = window.incoming.view
    assert review.section_text("already") == (
        f"These answers were already merged into {pid}, and nothing in this receipt is new. "
        "Merging it again changes nothing."
    )
    assert review.summary.text() == "Nothing in it is new."
    assert review.land_button.text() == f"Show {pid}"
    qtbot.mouseClick(review.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert shown_passport_id(window) == pid
    assert (home.get(pid).version, len(home.history(pid))) == before
    assert home.get(pid).state == "completed"


def test_the_same_receipt_file_opened_again_does_not_offer_to_store_anything(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    """The very same file, merged already: the footer said "2 answers come home … Nothing
    is stored until you merge." under a banner saying it changes nothing (the hand-run
    round trip); now both say the same."""
    home = make_desk(SENDER, actor="wei")
    pid = make_handoff(home, tmp_path / "invoice.taskpack")
    away = make_desk(RECEIVER, actor="zhang")
    there = away.land(tmp_path / "invoice.taskpack").passport.id
    away.take_on(there)
    for ask in away.get(there).asks or []:
        away.answer(there, str(ask.id), "Fiona, fiona@example.com")
    receipt = tmp_path / "answers.taskpack"
    away.pack(there, receipt, kind="receipt")
    home.merge_receipt(receipt, pid)

    window = make_window(home)
    window.open_files([receipt])
    settle(qtbot, window)
    review = window.incoming.view
    assert "Landing it again changes nothing." in review.section_text("already")
    assert review.summary.text() == "It was merged before: opening it again changes nothing."
    assert review.land_button.text() == f"Show {pid}"

    receiver = make_window(away)  # and the handoff, opened again where it landed
    receiver.open_files([tmp_path / "invoice.taskpack"])
    settle(qtbot, receiver)
    assert receiver.incoming.view.section_text("already") == (
        f"This pack already landed as {there}. Landing it again changes nothing."
    )
    assert receiver.incoming.view.summary.text() == (
        "It landed before: opening it again changes nothing."
    )


def test_a_second_receipt_calls_an_ask_answered_at_home_answered_not_open(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    """The first receipt answered a1, the second answers a2 (and carries a1 again): its
    review said a1 "stays open" above a footer saying 0 asks stay open."""
    home = make_desk(SENDER, actor="wei")
    pid = make_handoff(home, tmp_path / "invoice.taskpack")
    away = make_desk(RECEIVER, actor="zhang")
    there = away.land(tmp_path / "invoice.taskpack").passport.id
    away.answer(there, "a1", "Fiona, fiona@example.com")
    first, second = tmp_path / "first.taskpack.json", tmp_path / "second.taskpack.json"
    away.pack(there, first, kind="receipt")
    away.answer(there, "a2", "Yes, Fiona decided")
    away.pack(there, second, kind="receipt")
    home.merge_receipt(first, pid)

    window = make_window(home)
    window.open_files([second])
    settle(qtbot, window)
    review = window.incoming.view
    assert review.summary.text().startswith("1 answer comes home, 0 asks stay open.")
    said = review.section_text("receipt")
    assert "stays open" not in said
    assert said.count("answered here already") == 1 and said.count("answers your question") == 1
