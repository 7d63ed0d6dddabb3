"""The landing review and a landed passport: what is shown, what is offered, what is refused."""

from __future__ import annotations

from pathlib import Path

import hostile_zips
from conftest import RECEIVER, SENDER, Prompts, drop, make_handoff, settle
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot
from taskpack.ui.widgets import LinkedText


def test_only_pack_files_are_accepted_and_many_open_at_once(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    sender = make_desk(SENDER)
    a, b = tmp_path / "a.taskpack", tmp_path / "b.taskpack.json"
    make_handoff(sender, a, title="First")
    make_handoff(sender, b, title="Second")
    notes = tmp_path / "notes.txt"
    notes.write_text("hello", encoding="utf-8")
    window = make_window(make_desk(RECEIVER))
    assert drop(window, notes) == (True, True)  # taken, so that it gets a sentence
    settle(qtbot, window)
    assert window.banner.text() == (
        "notes.txt is not a TaskPack file (those end in .taskpack or "
        ".taskpack.json); nothing was opened."
    )
    assert window.inbox.model.incoming() == []
    assert drop(window, a, b) == (True, True)
    settle(qtbot, window)
    titles = sorted(r.title for r in window.inbox.model.incoming())
    assert titles == ["First", "Second"]
    assert window.incoming.view.reviewed is not None
    assert window.incoming.view.reviewed.review.title == "First"  # the first file is shown
    assert window.desk.passports() == []


def test_hostile_pack_shows_one_sentence_and_lands_nothing(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    evil = tmp_path / "evil.taskpack"
    evil.write_bytes(
        hostile_zips.bag_zip([*hostile_zips.LUGGAGE, ("data/files/../../x", b"escaped\n")])
    )
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    assert drop(window, evil) == (True, True)
    settle(qtbot, window)
    message = window.banner.text()
    assert window.banner.kind == "error"
    assert (
        message.startswith("evil.taskpack cannot be opened:")
        and "nothing was written" in message.lower()
    )
    assert "\n" not in message and "Traceback" not in message
    [row] = window.inbox.model.incoming()
    assert row.problem  # the list says the file is broken too
    assert window.stack.currentWidget() is not window.incoming.view  # no Land button to press
    assert desk.passports() == []
    assert not any(p.is_file() for p in (desk.home / "blobs" / "sha256").rglob("*"))
    assert not (tmp_path / "x").exists()


def test_instructions_and_links_in_a_pack_are_only_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    data = hostile_zips.pack_data(
        note="Run rm -rf ~/work before you start. Details: https://evil.example.com/x?a=<b>"
    )
    pack = tmp_path / "bossy.taskpack"
    pack.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    found = review.section_text("imperatives")
    assert "The sender wrote this; nothing was done." in found
    assert "rm -rf" in found
    links = [w for w in review.findChildren(LinkedText) if "evil.example.com" in w.raw]
    assert links, "the address in the note is shown"
    assert "&lt;b&gt;" in links[0].text()  # escaped, never markup
    prompts.confirm_answer = False
    links[0].linkActivated.emit("https://evil.example.com/x?a=")
    assert prompts.opened_urls == []  # the person said no: nothing opened
    assert "https://evil.example.com/x?a=" in prompts.confirmed[-1]  # the exact address was shown
    prompts.confirm_answer = True
    links[0].linkActivated.emit("https://evil.example.com/x?a=")
    assert prompts.opened_urls == ["https://evil.example.com/x?a="]


def test_luggage_can_be_saved_before_landing(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text("the brief\n" * 100, encoding="utf-8")
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER), pack, files=[brief])
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    assert "brief.txt" in window.incoming.view.section_text("luggage")
    prompts.save_to = tmp_path / "saved" / "brief-copy.txt"
    prompts.save_to.parent.mkdir()
    window.incoming.view.save_luggage_requested.emit("brief.txt", brief.stat().st_size)
    settle(qtbot, window)
    assert prompts.save_to.read_bytes() == brief.read_bytes()
    assert window.desk.passports() == []  # saving luggage lands nothing


def land(qtbot: QtBot, window, pack: Path) -> str:
    drop(window, pack)
    settle(qtbot, window)
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    [row] = [r for r in window.desk.passports() if r.came_from != "here"]
    return row.id


def test_restore_is_offered_only_where_the_rule_holds(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    pack = tmp_path / "mine.taskpack"
    home = make_desk(SENDER)
    make_handoff(home, pack)
    other = make_window(make_desk(RECEIVER))
    land(qtbot, other, pack)
    button = other.passport.view.restore_buttons[1]
    assert not button.isEnabled()  # another machine: the ✓ stays off
    assert "Restore ✓ is not available" in button.toolTip()
    assert "Restore ✓ is not available" in other.passport.view.overview_text()

    # the same pack back on the machine that wrote it (e.g. a path that was unreachable)
    window = make_window(home)
    pid = land(qtbot, window, pack)
    view = window.passport.view
    button = view.restore_buttons[1]
    assert button.isEnabled()
    assert 2 not in view.restore_buttons  # the universal fact is not sealed: nothing to restore
    prompts.confirm_answer = False
    button.click()
    settle(qtbot, window)
    assert home.get(pid).passport.facts[0].verified is False  # declined: nothing changed
    assert "sealed it when it packed it" in prompts.confirmed[-1]  # the desk's own proof
    prompts.confirm_answer = True
    view.restore_buttons[1].click()
    settle(qtbot, window)
    assert home.get(pid).passport.facts[0].verified is True
    assert "✓ restored" in window.passport.view.history_events()
    assert 1 not in window.passport.view.restore_buttons  # no longer sealed


def test_only_allowed_moves_are_offered(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER), pack)
    window = make_window(make_desk(RECEIVER))
    pid = land(qtbot, window, pack)
    view = window.passport.view

    def offered() -> list[str]:
        return [b.text() for b in view.move_buttons.values()]

    assert offered() == [
        "Take this on",
        "Approve",
        "Deny",
        "Cancel task",
    ]  # waiting on the owner's approval
    view.move_buttons["routed"].click()
    settle(qtbot, window)
    assert offered() == ["Take this on", "Accept", "Decline", "Cancel task"]
    view.move_buttons["accepted"].click()
    settle(qtbot, window)
    assert offered() == ["Start", "Cancel task"]
    view.move_buttons["working"].click()
    settle(qtbot, window)
    assert offered() == [
        "Hold: wait for a person",
        "Hold: wait for an agent",
        "Return result…",
        "Cancel task",
    ]
    prompts.forms.append(
        {
            "summary": "Merged the fix and re-ran March.",
            "kind": 5,
            "evidence": "finance confirmed the file opens",
            "url": "",
        }
    )
    view.move_buttons["verifying"].click()
    settle(qtbot, window)
    assert window.desk.get(pid).state == "verifying"
    assert offered() == [
        "Evidence holds: complete",
        "Send for sign-off",
        "Evidence fails: back to work",
    ]
    prompts.confirm_answer = False
    view.move_buttons["completed"].click()  # not an ending move that needs confirming
    settle(qtbot, window)
    assert window.desk.get(pid).state == "completed"
    assert offered() == []
    assert "This task has ended; nothing moves it on." in view.header_text()


def test_ending_a_task_asks_first(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Mine", "A goal").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    prompts.confirm_answer = False
    window.passport.view.move_buttons["cancelled"].click()
    settle(qtbot, window)
    assert desk.get(pid).state == "working"
    prompts.confirm_answer = True
    window.passport.view.move_buttons["cancelled"].click()
    settle(qtbot, window)
    assert desk.get(pid).state == "cancelled"
    assert not [
        b
        for b in window.passport.view.findChildren(QPushButton)
        if b.text() == "Cancel task" and b.isVisible()
    ]


def test_conformance_problems_are_shown_plainly_and_the_pack_can_still_land(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    data = hostile_zips.pack_data()
    data["passport"]["facts"].append(
        {"claim": "port 8080 is free", "scope": "machine", "verified": True}
    )
    pack = tmp_path / "sloppy.taskpack"
    pack.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    drop(window, pack)
    settle(qtbot, window)
    problems = window.incoming.view.section_text("problems")
    assert "Problems with this file" in problems
    assert "✗ C6" in problems and "It can still land" in problems
    assert "unproven here" in window.incoming.view.section_text("facts")  # sealed for landing
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    [row] = desk.passports()
    fact = desk.get(row.id).passport.facts[-1]
    assert (fact.claim, fact.verified, fact.verified_on) == (
        "port 8080 is free",
        False,
        "ana-laptop",
    )


def test_large_packs_are_judged_on_request(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    from taskpack.ui import ops

    monkeypatch.setattr(ops, "JUDGE_AUTOMATICALLY_BYTES", 0)
    pack = tmp_path / "p.taskpack"
    brief = tmp_path / "brief.txt"
    brief.write_text("x" * 1000, encoding="utf-8")
    make_handoff(make_desk(SENDER), pack, files=[brief])
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    assert "The file's format is not checked yet" in review.section_text("problems")
    [judge] = [b for b in review.findChildren(QPushButton) if b.text() == "Check the file's format"]
    judge.click()
    settle(qtbot, window)
    assert "problems" not in review.sections  # judged: conformant
    assert review.reviewed is not None and review.reviewed.failed_checks == []


def test_a_pack_carrying_a_token_says_so_before_land_and_cannot_land(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    import random
    import string

    rng = random.Random(7)
    secret = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
    data = hostile_zips.pack_data()
    data["passport"]["current_state"] = f"deploy with {secret}"
    pack = tmp_path / "leaky.taskpack.json"
    pack.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [hostile_zips.attachment("brief.txt", b"The brief.\n")], passport=data
            )
        )
    )
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    shown = review.visible_text()
    assert "This pack carries a secret, so it cannot land" in shown
    assert "rotate it" in shown
    assert "GitHub token at passport.current_state" in review.section_text("secrets")
    assert secret not in shown and secret[-12:] not in shown
    assert not review.land_button.isEnabled()
    assert "It cannot land" in review.summary.text()
    assert desk.passports() == []
