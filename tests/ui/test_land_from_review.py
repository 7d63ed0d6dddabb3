"""The window lands from the review it holds — and reads a file again if it changed since."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, SENDER, drop, make_handoff, settle
from pytestqt.qtbot import QtBot


def test_land_uses_the_held_review_and_rereads_a_changed_file(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    sender = make_desk(SENDER)
    pack = tmp_path / "h.taskpack"
    make_handoff(sender, pack, title="As reviewed")
    receiver = make_desk(RECEIVER)
    window = make_window(receiver)
    drop(window, pack)
    settle(qtbot, window)
    assert window.incoming.view.reviewed is not None
    assert window.incoming.view.reviewed.review.title == "As reviewed"
    # the file is replaced by another pack after the person looked at it
    make_handoff(sender, tmp_path / "other.taskpack", title="Changed since")
    (tmp_path / "other.taskpack").replace(pack)
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    assert "Landed as" in window.banner.text()
    [row] = receiver.passports()
    assert receiver.get(row.id).passport.title == "Changed since"  # what the file is now


def test_land_from_an_unchanged_review_lands_what_was_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    sender = make_desk(SENDER)
    pack = tmp_path / "h.taskpack"
    make_handoff(sender, pack, title="As reviewed")
    receiver = make_desk(RECEIVER)
    window = make_window(receiver)
    drop(window, pack)
    settle(qtbot, window)
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    [row] = receiver.passports()
    landed = receiver.get(row.id)
    assert landed.passport.title == "As reviewed"
    # the landing checks the person saw first are first in the landed passport
    assert (landed.passport.next_steps or [])[0].startswith("Landing check (required)")
