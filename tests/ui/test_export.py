"""Sending a passport on: Email says honestly whether a mail client opened."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import RECEIVER, Prompts, settle
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot
from taskpack.ui import launch


def fake_xdg_email(folder: Path, code: int) -> Path:
    """An `xdg-email` on PATH that writes its pid and exits with `code` (3 = no mail client)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "xdg-email"
    script.write_text(f'#!/bin/sh\necho $$ > "{folder}/pid"\nexit {code}\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder / "pid"


def is_zombie(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False  # reaped and gone
    return state == "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to look for a zombie")
def test_email_without_a_mail_client_says_so_and_offers_the_file(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts, monkeypatch
) -> None:
    monkeypatch.setattr(launch, "run", _real_run)
    monkeypatch.setattr(launch, "run_and_wait", _real_run_and_wait)
    pid_file = fake_xdg_email(tmp_path / "bin", 3)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("taskpack.ui.launch.sys.platform", "linux")
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)

    window.passport.view.export_actions[("receipt", "email")].trigger()
    settle(qtbot, window)
    text = window.banner.text()
    assert "No email was opened: no mail program is set up on this computer" in text
    assert "opened" not in text.replace("No email was opened", "")
    outbox = desk.home / "outbox"
    [made] = list(outbox.iterdir())
    assert str(made) in text  # where the file is, to attach by hand
    buttons = {b.text(): b for b in window.banner.action_buttons}
    assert set(buttons) == {"Show in folder", "Copy path"}
    buttons["Copy path"].click()
    assert QGuiApplication.clipboard().text() == str(made)
    buttons["Show in folder"].click()
    assert prompts.opened_urls == [f"file://{outbox}"]
    helper = int(pid_file.read_text())
    assert not is_zombie(helper)  # waited for, not left behind


def test_email_with_a_mail_client_says_attached(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts, monkeypatch
) -> None:
    monkeypatch.setattr(launch, "run_and_wait", _real_run_and_wait)
    pid_file = fake_xdg_email(tmp_path / "bin", 0)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("taskpack.ui.launch.sys.platform", "linux")
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    window.passport.view.export_actions[("handoff", "email")].trigger()
    settle(qtbot, window)
    assert (
        "Your mail client opened with Small-task-handoff.taskpack.json attached."
        in window.banner.text()
    )
    assert not is_zombie(int(pid_file.read_text()))


_real_run = launch.run
_real_run_and_wait = launch.run_and_wait


def test_a_receipt_with_a_question_unanswered_is_not_called_complete(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    from conftest import SENDER, make_handoff

    handoff = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), handoff)
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.land(handoff).id
    desk.answer(pid, "a1", "Ms. Li, li@example.com")  # a2 stays open
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)

    prompts.confirm_answer = False  # asked first, the person thinks again: nothing goes
    window.passport.view.export_actions[("receipt", "copy")].trigger()
    settle(qtbot, window)
    assert prompts.confirmed == [
        "1 question is still unanswered. The receipt will say so, and it stays open here: "
        "answer it later and send another receipt."
    ]
    assert desk.outbox() == []

    prompts.confirm_answer = True
    window.passport.view.export_actions[("receipt", "copy")].trigger()
    settle(qtbot, window)
    message = QGuiApplication.clipboard().text()
    answered, still_open = message.split("Not answered in this receipt (still open):")
    assert "Who in finance signs off?" in answered and "Ms. Li" in answered
    assert "Can the export move to 07:00?" in still_open
    assert "Can the export move to 07:00?" not in answered
    pv = window.passport.view
    assert pv.next_label.text() == (
        "Your receipt went home with 1 question still unanswered: answer it in the Asks "
        "tab, then send another receipt."
    )
    assert pv.next_button.text() == "Answer the questions" and pv.next_button.isVisible()
