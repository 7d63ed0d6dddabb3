"""A pack that names this desk's person and machine as its sender, and that this desk did
not write, is said to be a claim — before anyone lands it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import RECEIVER, SENDER, drop, make_handoff, settle
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.at_home import claims_this_desk

CLAIM = "It claims to be from you, but this desk did not write it"


def _review_of(qtbot: QtBot, window: Any, path: Path) -> str:
    assert drop(window, path) == (True, True)
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.incoming.view
    return window.incoming.view.visible_text()


def test_a_pack_in_this_desks_name_that_it_did_not_write_is_called_a_claim(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    here = make_desk(RECEIVER, "Zhang")
    # another home, the same person and machine names: nothing in this desk's outbox
    forger = Desk(tmp_path / "forger-home", RECEIVER.upper(), actor="zhang\u200b")
    forged = tmp_path / "forged.taskpack"
    make_handoff(forger, forged, title="Your own old work")
    forger.close()
    window = make_window(here)
    text = _review_of(qtbot, window, forged)
    assert CLAIM in text
    assert window.incoming.view.sections["claims_mine"].isVisible()

    # what this desk wrote itself, or a stranger sent, is not called a claim
    own = tmp_path / "own.taskpack"
    make_handoff(here, own, title="Really mine")
    assert CLAIM not in _review_of(qtbot, window, own)
    stranger = tmp_path / "stranger.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), stranger, title="From Wei")
    assert CLAIM not in _review_of(qtbot, window, stranger)


def test_names_are_compared_as_a_person_reads_them() -> None:
    assert claims_this_desk({"actor": "Ｚhang ", "machine": "ZHANG-PC"}, "zhang", "zhang-pc")
    assert claims_this_desk({"actor": "zh\u202eang", "machine": "zhang-pc"}, "zhang", "zhang-pc")
    assert not claims_this_desk({"actor": "zhang", "machine": "other"}, "zhang", "zhang-pc")
    assert not claims_this_desk({"machine": "zhang-pc"}, "zhang", "zhang-pc")
