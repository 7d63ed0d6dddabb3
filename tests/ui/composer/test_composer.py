"""The composer, driven as a person drives it: the empty desk's "New passport…", typing,
the real item dialogs, Edit… and Remove, a stale edit; then what `taskpack open` shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from composer_helpers import cli, cli_json, fill_item, type_into
from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk


def click(qtbot: QtBot, b: QPushButton) -> None:
    assert b.isVisible() and b.isEnabled(), b.text()
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)


def welcome_button(window: Any, text: str) -> QPushButton:
    found = [b for b in window.welcome.findChildren(QPushButton) if b.text() == text]
    assert found, f"no {text!r} on the empty desk"
    return found[0]


def test_a_passport_is_composed_from_the_empty_desk_item_by_item(
    qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any]
) -> None:
    desk = make_desk("alpha", "Wei")
    window = make_window(desk)
    assert window.stack.currentWidget() is window.welcome
    assert "Start your own work and hand it off" in "\n".join(
        lbl.text() for lbl in window.welcome.findChildren(type(window.summary_label))
    )
    click(qtbot, welcome_button(window, "New passport…"))
    composer = window.composer
    assert window.stack.currentWidget() is composer
    type_into(qtbot, composer.title_edit, "Fix the invoice export")
    type_into(qtbot, composer.goal_edit, "Invoices open in Excel with readable names.")
    type_into(qtbot, composer.state_edit, "Cause found: the BOM is missing.")
    click(qtbot, composer.save_basics)
    qtbot.waitUntil(lambda: composer.pid is not None)
    settle(qtbot, window)
    pid = composer.pid
    # what a change did is said under the heading, not in the banner laid over the top
    # of the page, where it hid "Send a handoff…" after every change
    assert pid is not None and pid in composer.status.text()
    assert window.banner.isHidden()

    seen: list[str] = []
    lint: list[str] = []
    fill_item(
        qtbot,
        {
            "claim": "The export runs in 40 s on this laptop.",
            "verified": True,
            "source": "timed it",
        },
        seen=seen,
    )
    click(qtbot, composer.add_buttons["fact"])
    settle(qtbot, window)
    fill_item(
        qtbot,
        {"claim": "Finance agreed the file stays CSV.", "scope": "universal", "verified": True},
        seen=seen,
    )
    click(qtbot, composer.add_buttons["fact"])
    settle(qtbot, window)
    # the lint speaks as the answer rule is typed: vague first, then clear
    fill_item(qtbot, {"what": "Who in finance signs off?", "accept": "ok"}, lint=lint, press="no")
    click(qtbot, composer.add_buttons["ask"])
    settle(qtbot, window)
    fill_item(
        qtbot,
        {
            "what": "Who in finance signs off?",
            "why": "Before the 1st.",
            "accept": "A name and an email address",
            "to": "Zhang",
        },
        lint=lint,
        seen=seen,
    )
    click(qtbot, composer.add_buttons["ask"])
    settle(qtbot, window)
    fill_item(
        qtbot,
        {"check": "This machine reaches the billing database", "how": "psql -c 'select 1'"},
        seen=seen,
    )
    click(qtbot, composer.add_buttons["check"])
    settle(qtbot, window)
    fill_item(qtbot, {"step": "Merge fix/csv-bom after review."}, seen=seen)
    click(qtbot, composer.add_buttons["step"])
    settle(qtbot, window)
    fill_item(qtbot, {"what": "Keep CSV", "why": "Finance reads it in Excel."}, seen=seen)
    click(qtbot, composer.add_buttons["decision"])
    settle(qtbot, window)

    assert seen == [
        "Add a fact",
        "Add a fact",
        "Add an ask",
        "Add a landing check",
        "Add a next step",
        "Add a decision",
    ]
    assert lint[0].startswith("Too vague") and lint[1].startswith("Clear")
    assert "Something went wrong" not in window.banner.text()
    assert composer.lines("fact") == [
        "The export runs in 40 s on this laptop. — This machine — ✓ verified here — source: timed it",
        "Finance agreed the file stays CSV. — Universal — ✓ verified here",
    ]
    assert composer.lines("ask") == [
        "Who in finance signs off? — answer: A name and an email address — to Zhang"
    ]
    assert composer.lines("check") == [
        "Required: This machine reaches the billing database — how: psql -c 'select 1'"
    ]
    opened = cli_json(desk, "open", pid)
    p = opened["passport"]
    assert (p["title"], p["goal"], p["current_state"]) == (
        "Fix the invoice export",
        "Invoices open in Excel with readable names.",
        "Cause found: the BOM is missing.",
    )
    assert [(f["claim"], f["scope"], f["verified"], f.get("verified_on")) for f in p["facts"]] == [
        ("The export runs in 40 s on this laptop.", "machine", True, "alpha"),
        ("Finance agreed the file stays CSV.", "universal", True, None),
    ]
    assert [(a["what"], a["accept"], a["to"]) for a in opened["asks"]] == [
        ("Who in finance signs off?", "A name and an email address", "Zhang")
    ]
    assert [(c["check"], c["required"]) for c in opened["checks_to_send"]] == [
        ("This machine reaches the billing database", True)
    ]
    assert p["next_steps"] == ["Merge fix/csv-bom after review."]
    assert p["decisions"] == [{"what": "Keep CSV", "why": "Finance reads it in Excel."}]


def test_edit_remove_and_a_stale_edit_that_keeps_the_words(
    qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any]
) -> None:
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the export", "Readable invoices").id
    desk.add_next(pid, "Step one")
    desk.add_next(pid, "Step two")
    desk.add_ask(pid, "Who signs?", "A name and an email address")
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    window.compose_action.trigger()
    settle(qtbot, window)
    composer = window.composer
    assert window.stack.currentWidget() is composer
    assert composer.lines("step") == ["Step one", "Step two"]

    fill_item(qtbot, {"what": "Who signs off in finance?"})
    click(qtbot, composer.row_buttons[("edit", "ask", 1)])
    settle(qtbot, window)
    assert composer.lines("ask") == [
        "Who signs off in finance? — answer: A name and an email address"
    ]
    click(qtbot, composer.row_buttons[("remove", "step", 1)])
    settle(qtbot, window)
    assert composer.lines("step") == ["Step two"]

    # someone changes the passport meanwhile (the CLI, another window)
    cli(desk, "next", pid, "Step three")
    seen: list[str] = []
    words: list[str] = []

    def second_time(box: Any) -> None:
        seen.append(box.windowTitle())
        words.append(box.fields["step"].text())
        texts = [lbl.text() for lbl in box.findChildren(type(box.lint))]
        seen.append(next(t for t in texts if "changed since you read it" in t))
        qtbot.mouseClick(box.ok, Qt.MouseButton.LeftButton)

    from composer_helpers import when_modal
    from taskpack.ui.composer.item_dialog import ItemDialog

    fill_item(qtbot, {"step": "Step two, after review"})
    click(qtbot, composer.row_buttons[("edit", "step", 1)])
    when_modal(ItemDialog, second_time)  # the stale save brings the dialog back
    qtbot.waitUntil(lambda: len(seen) == 2)
    settle(qtbot, window)
    assert seen[0] == "Edit next step"
    assert words == ["Step two, after review"]  # nothing typed was lost
    assert composer.lines("step") == ["Step two, after review", "Step three"]
    assert cli_json(desk, "open", pid)["passport"]["next_steps"] == [
        "Step two, after review",
        "Step three",
    ]


def test_a_stale_save_of_the_title_keeps_what_was_typed(
    qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any]
) -> None:
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the export", "Readable invoices").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    window.compose_action.trigger()
    settle(qtbot, window)
    composer = window.composer
    cli(desk, "next", pid, "Meanwhile, elsewhere")
    type_into(qtbot, composer.title_edit, "Fix the invoice export")
    click(qtbot, composer.save_basics)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: "changed since you read it" in window.banner.text())
    assert composer.title_edit.text() == "Fix the invoice export"  # the words are kept
    assert composer.lines("step") == ["Meanwhile, elsewhere"]  # and the change is shown
    assert cli_json(desk, "open", pid)["passport"]["title"] == "Fix the export"
    click(qtbot, composer.save_basics)  # saved again, at the version now read
    settle(qtbot, window)
    qtbot.waitUntil(
        lambda: cli_json(desk, "open", pid)["passport"]["title"] == "Fix the invoice export"
    )
