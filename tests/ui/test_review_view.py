"""The ✓ story at home: on the desk that proved a fact, a receipt coming
home does not call it unproven, and a pack this desk sent, opened again, is not silently
landed as a second copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, drop, make_handoff, settle, shown_passport_id
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot


def test_a_receipt_coming_home_shows_the_fact_this_desk_proved_as_proven_here(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    alpha = make_desk(SENDER, "Wei")
    handoff, receipt = tmp_path / "invoice.taskpack", tmp_path / "receipt.taskpack"
    make_handoff(alpha, handoff)
    beta = make_desk(RECEIVER, "Zhang")
    landed = beta.land(handoff).id
    beta.answer(landed, "a1", "Ms. Zhang, zhang@finance.example.com")
    beta.pack(landed, receipt, kind="receipt")

    window = make_window(alpha)
    drop(window, receipt)
    settle(qtbot, window)
    facts = window.incoming.view.section_text("facts")
    assert "The export runs in 40 s on this laptop." in facts
    assert f"✓ proven here ({SENDER})" in facts
    assert "unproven here" not in facts and "not proven on this machine" not in facts
    assert "holds this fact; merging keeps yours." in facts
    assert "0 of 2 facts are not proven here" in facts
    answers = window.incoming.view.section_text("receipt")
    assert (
        "answers your question" in answers and "answers a1" not in answers
    )  # not "a1 [answers a1]"


def test_opening_this_desks_own_sent_pack_offers_the_original_not_a_copy(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    alpha = make_desk(SENDER, "Wei")
    pack = tmp_path / "invoice.taskpack"
    pid = make_handoff(alpha, pack)
    window = make_window(alpha)
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    assert (
        f"This is this desk's own pack: it was sent from {pid} “Fix the invoice export”. "
        "Landing it would make a second copy; open the original instead."
    ) in review.visible_text()
    assert review.land_button.text() == "Land a copy"
    facts = review.section_text("facts")  # the facts as the original has them: still ✓ here
    assert f"✓ proven here ({SENDER})" in facts and "unproven here" not in facts
    assert f"As your passport {pid} has it (this file carries it sealed)." in facts
    assert window.default_button() is review.original_button  # Enter opens the original
    qtbot.mouseClick(review.original_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert shown_passport_id(window) == pid
    assert [p.id for p in alpha.passports()] == [pid]  # nothing landed


def test_the_merge_review_says_what_merging_writes(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    """It said "writes the answers only" and then added the receipt's (sealed) facts."""

    home = make_desk(SENDER, actor="wei")
    pid = make_handoff(home, tmp_path / "invoice.taskpack")
    away = make_desk(RECEIVER, actor="zhang")
    there = away.land(tmp_path / "invoice.taskpack").passport.id
    away.answer(there, "a1", "Fiona, fiona@example.com")
    away.add_fact(there, "The billing database answers from here.", scope="machine", verified=True)
    receipt = tmp_path / "answers.taskpack.json"
    away.pack(there, receipt, kind="receipt")
    window = make_window(home)
    window.open_files([receipt])
    settle(qtbot, window)
    said = window.incoming.view.section_text("receipt")
    assert "writes the answers only" not in said
    assert (
        f"Merging writes into {pid}: 1 answer; the facts it carries that your passport does "
        "not hold yet, sealed. It never changes the goal, the current state or the next steps."
    ) in said
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    claims = [f.claim for f in home.get(pid).passport.facts or []]
    assert "The billing database answers from here." in claims  # as the review said
