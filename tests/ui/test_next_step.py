"""The next step is always in sight: under the title one sentence says
what this desk waits for, and one button moves it on — on both desks of a round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, Prompts, drop, make_handoff, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot


def next_step(window: Any) -> tuple[str, str]:
    pv = window.passport.view
    return pv.next_label.text(), pv.next_button.text() if pv.next_button.isVisible() else ""


def test_each_desk_is_told_what_now_with_the_button_that_does_it(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any, prompts: Prompts
) -> None:
    alpha = make_desk(SENDER, "Wei")
    pack = tmp_path / "invoice.taskpack"
    sent = make_handoff(alpha, pack)
    beta = make_window(make_desk(RECEIVER, "Zhang"))
    drop(beta, pack)
    settle(qtbot, beta)
    qtbot.mouseClick(beta.incoming.view.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, beta)
    assert next_step(beta) == (
        "It waits for you: take it on (approve, accept and start in one go), then answer its "
        "2 open questions.",
        "Take this on",
    )
    qtbot.mouseClick(beta.passport.view.next_button, Qt.MouseButton.LeftButton)
    settle(qtbot, beta)
    # taken on: the required check comes before the questions, as the Overview orders them
    assert next_step(beta) == (
        "First the required check: “This machine can reach the billing database”. Do it on "
        "this machine, then say “I checked this here” in the Overview.",
        "Show the check",
    )
    beta.activateWindow()
    qtbot.waitUntil(beta.isActiveWindow)
    qtbot.mouseClick(beta.passport.view.next_button, Qt.MouseButton.LeftButton)
    [check_button] = beta.passport.view.landing_check_buttons.values()
    assert beta.passport.view.tabs.currentIndex() == 0
    qtbot.waitUntil(lambda: QApplication.focusWidget() is check_button)
    qtbot.mouseClick(check_button, Qt.MouseButton.LeftButton)
    settle(qtbot, beta)
    assert next_step(beta) == (
        "Next: answer the 2 open questions in the Asks tab, then send the answers home as a "
        "receipt.",
        "Answer the questions",
    )
    beta.activateWindow()  # the person works in this window
    qtbot.waitUntil(beta.isActiveWindow)
    qtbot.mouseClick(beta.passport.view.next_button, Qt.MouseButton.LeftButton)
    form = beta.passport.view.asks
    assert beta.passport.view.tabs.currentIndex() == 1
    assert QApplication.focusWidget() is form.cards["a1"].answer_edit  # the cursor is there
    qtbot.keyClicks(form.cards["a1"].answer_edit, "Ms. Zhang")
    qtbot.keyClicks(form.cards["a2"].answer_edit, "Yes")
    qtbot.mouseClick(form.save_all_button, Qt.MouseButton.LeftButton)
    settle(qtbot, beta)
    assert next_step(beta) == (
        "Every question is answered: send the answers home to Wei@wei-laptop.",
        "Send a receipt…",
    )
    qtbot.mouseClick(beta.passport.view.next_button, Qt.MouseButton.LeftButton)
    menu = beta.passport.view.export_menu
    qtbot.waitUntil(menu.isVisible)  # the Export menu opens at its button
    prompts.save_to = tmp_path / "receipt.taskpack"
    menu.close()
    beta.passport.view.export_actions[("receipt", "save_bag")].trigger()
    settle(qtbot, beta)
    text, button = next_step(beta)
    assert text.startswith("Your answers went home in a receipt; Wei@wei-laptop merges them.")
    assert button == ""

    home = make_window(alpha)
    home.select_key(sent)
    settle(qtbot, home)
    assert next_step(home) == (
        "Waiting for the answers to come back: open the receipt when it arrives (drop it on "
        "this window, or paste the reply).",
        "Open a receipt…",
    )
    prompts.open_paths = [tmp_path / "receipt.taskpack"]
    qtbot.mouseClick(home.passport.view.next_button, Qt.MouseButton.LeftButton)
    settle(qtbot, home)
    assert home.incoming.view.land_button.text() == f"Merge answers into {sent}"
    qtbot.mouseClick(home.incoming.view.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, home)
    assert next_step(home) == (
        "The answers are home (see the Asks tab): carry on, and return the result when it is done.",
        "Return result…",
    )
