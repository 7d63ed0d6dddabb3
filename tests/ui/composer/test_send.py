""" "Send a handoff…": the preview says what the receiver will see (machine facts sealed,
required checks first, the asks), the refusals come before anything is written, then a
save dialog answered; `taskpack show` reads the file that was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from composer_helpers import cli, cli_json, fill_item, type_into, write
from conftest import settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def passport(desk: Desk, tmp_path: Path, *files: Path) -> str:
    pid = desk.new("Fix the invoice export", "Readable invoices", current_state="Cause found").id
    desk.add_fact(pid, "The export runs in 40 s on this laptop.", scope="machine", verified=True)
    desk.add_fact(pid, "Finance agreed the file stays CSV.", scope="universal", verified=True)
    desk.add_check(pid, "Excel opens the sample", how="open sample.csv", required=False)
    desk.add_check(pid, "This machine reaches the billing database", how="psql -c 'select 1'")
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address", to="Zhang")
    desk.add_next(pid, "Merge fix/csv-bom after review.")
    if files:
        desk.attach(pid, list(files))
    return pid


def open_send(qtbot: QtBot, window: Any, pid: str) -> Any:
    window.select_key(pid)
    settle(qtbot, window)
    window.compose_action.trigger()
    settle(qtbot, window)
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    dlg = window.send_dialog
    qtbot.waitUntil(lambda: dlg.preview is not None and dlg.file_findings is not None)
    settle(qtbot, window)
    return dlg


def test_the_preview_shows_what_the_receiver_sees_refuses_a_token_then_saves(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts
) -> None:
    desk = make_desk("alpha", "Wei")
    sample = write(tmp_path / "sample.csv", "name;amount\nACME;12\n")
    pid = passport(desk, tmp_path, sample)
    window = make_window(desk)
    dlg = open_send(qtbot, window, pid)

    shown = dlg.preview_text()
    assert "The export runs in 40 s on this laptop. — unproven there — verified on alpha" in shown
    assert "Finance agreed the file stays CSV. — ✓ verified" in shown
    required = shown.index("Required: This machine reaches the billing database")
    assert required < shown.index("Optional: Excel opens the sample")
    assert "Who in finance signs off? — what counts as an answer: A name and an email address" in (
        shown
    )
    assert "A name and an email address — to Zhang" in shown  # whom the ask is for
    assert "sample.csv — 20 B" in shown
    assert all(b.isEnabled() for b in dlg.ways.values())

    # a credential in the note: named by kind and place, and nothing can go
    type_into(qtbot, dlg.note_edit, f"deploy key {TOKEN}")
    qtbot.waitUntil(lambda: not dlg.refusals.isHidden())
    assert "GitHub" in dlg.refusals.text() and "in your note" in dlg.refusals.text()
    assert TOKEN not in dlg.preview_text().replace(f"deploy key {TOKEN}", "")  # never echoed
    assert not any(b.isEnabled() for b in dlg.ways.values())
    assert not list(tmp_path.glob("*.taskpack*"))

    type_into(qtbot, dlg.note_edit, "Checks first, please.")
    type_into(qtbot, dlg.to_edit, "Zhang")
    # the preview follows the note as typed (after a short rest)
    qtbot.waitUntil(lambda: "Your note: Checks first, please." in dlg.preview_text())
    qtbot.waitUntil(lambda: dlg.refusals.isHidden() and dlg.ways["save_bag"].isEnabled())
    assert "What Zhang will see" in dlg.preview_text()
    assert "Your note: Checks first, please." in dlg.preview_text()

    # the save dialog's answer (its static entry point: Qt's own dialog takes typed names
    # only after loading the folder, with no signal to wait on offscreen)
    out = tmp_path / "for-zhang.taskpack"
    prompts.save_to = out
    qtbot.mouseClick(dlg.ways["save_bag"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(out.exists)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: "Saved" in window.banner.text())
    # sending moved the passport on (waiting on a person): the composer follows, so the
    # next change is saved, not refused as if it had been changed elsewhere
    composer = window.composer
    assert window.stack.currentWidget() is composer
    qtbot.waitUntil(lambda: composer.lp.version == desk.get(pid).version)
    fill_item(qtbot, {"step": "Tell finance when it ships."})
    qtbot.mouseClick(composer.add_buttons["step"], Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: "Tell finance when it ships." in composer.lines("step"))
    assert "changed since you read it" not in window.banner.text()
    shown_by_cli = cli(desk, "show", str(out))
    assert "Checks first, please." in shown_by_cli
    assert "sample.csv" in shown_by_cli
    pack = cli_json(desk, "show", str(out))
    facts = pack["pack"]["passport"]["facts"] if "pack" in pack else pack["passport"]["facts"]
    assert [(f["verified"], f.get("needs_reverify")) for f in facts] == [
        (False, True),
        (True, None),
    ]
    assert cli_json(desk, "open", pid)["state"] == "waiting"  # it waits for the answers


def test_a_credential_in_a_file_is_named_and_the_luggage_is_read_once(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk("alpha", "Wei")
    env = write(tmp_path / "deploy.env", "HOST=billing\n" * 2000 + f"TOKEN={TOKEN}\n")
    pid = passport(desk, tmp_path, env)
    window = make_window(desk)
    dlg = open_send(qtbot, window, pid)
    assert "deploy.env" in dlg.refusals.text() and "GitHub" in dlg.refusals.text()
    assert not any(b.isEnabled() for b in dlg.ways.values())
    size = env.stat().st_size
    assert dlg.luggage_read == size
    previews = dlg._seq
    type_into(qtbot, dlg.note_edit, "Checks first.")
    qtbot.waitUntil(lambda: dlg._seq > previews and "Checks first." in dlg.preview_text())
    settle(qtbot, window)
    assert dlg.luggage_read == size  # typing makes the preview again without the files
