"""On a desk shared by machines (a team desk), a fact proven on one of them can be checked
on another: "I checked this here" is offered where it was not proven."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk


def test_a_fact_proven_on_another_machine_of_the_desk_can_be_checked_here(
    tmp_path: Path, qtbot: QtBot, make_window: Any
) -> None:
    home = tmp_path / "shared"
    alpha = Desk(home, "alpha", actor="Wei")
    pid = alpha.new("Fix the invoice export", "Invoices open in Excel").id
    alpha.add_fact(pid, "The export runs in 40 s.", scope="machine", verified=True)
    alpha.add_fact(pid, "Finance wants CSV.", scope="universal", verified=True)
    alpha.close()
    beta = Desk(home, "beta", actor="Zhang")  # the same passports, another machine
    try:
        window = make_window(beta)
        window.select_key(pid)
        settle(qtbot, window)
        buttons = window.passport.view.check_buttons
        assert set(buttons) == {1}  # the machine fact proven on alpha; not the universal one
        assert buttons[1].text() == "I checked this here" and buttons[1].isVisible()
        qtbot.mouseClick(buttons[1], Qt.MouseButton.LeftButton)
        settle(qtbot, window)
        fact = beta.get(pid).passport.facts[0]
        assert (fact.verified, fact.verified_on) == (True, "beta")
        assert 1 not in window.passport.view.check_buttons  # proven here now
    finally:
        window.shutdown()
        beta.close()
