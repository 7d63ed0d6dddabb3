"""The sender's whole trip in two windows, driven through the real widgets (docs/trip.md
is the same trip done by hand under an X server).

alpha composes a passport in the composer — two facts, an ask, a required landing check,
a next step, two files — and sends it as a file from "Send a handoff…"; beta, whose
window speaks 简体中文, drops it, lands it, answers the ask and saves a receipt; alpha
drops the receipt and merges the answer into the passport it composed. Between the send
and the receipt, alpha changes the passport again in the composer, as a person does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from composer_helpers import fill_item, type_into, write
from conftest import Prompts, drop, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot


def click(qtbot: QtBot, b: QPushButton) -> None:
    assert b.isVisible() and b.isEnabled(), b.text()
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)


def add_item(qtbot: QtBot, window: Any, kind: str, typing: dict[str, Any]) -> None:
    composer = window.composer
    before = len(composer.lines(kind))
    fill_item(qtbot, typing)
    click(qtbot, composer.add_buttons[kind])
    settle(qtbot, window)
    qtbot.waitUntil(lambda: len(composer.lines(kind)) == before + 1)


def test_alpha_composes_and_sends_beta_answers_in_chinese_alpha_merges(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any, prompts: Prompts
) -> None:
    alpha_desk = make_desk("alpha", "ana")
    beta_desk = make_desk("beta", "wei")
    alpha = make_window(alpha_desk)

    # -- alpha: New passport… on the empty desk, the basics, Create passport
    [start] = [b for b in alpha.welcome.findChildren(QPushButton) if b.text() == "New passport…"]
    click(qtbot, start)
    composer = alpha.composer
    type_into(qtbot, composer.title_edit, "Fix the invoice export")
    type_into(qtbot, composer.goal_edit, "Invoices open in Excel with readable names.")
    type_into(qtbot, composer.state_edit, "Cause found: the CSV has no BOM.")
    click(qtbot, composer.save_basics)
    qtbot.waitUntil(lambda: composer.pid is not None)
    settle(qtbot, alpha)
    pid = composer.pid
    assert composer.send_button.isVisible()

    # -- the items, each through its own dialog
    add_item(
        qtbot,
        alpha,
        "fact",
        {"claim": "The export runs in 40 s on this laptop.", "verified": True},
    )
    add_item(
        qtbot,
        alpha,
        "fact",
        {"claim": "Finance agreed the file stays CSV.", "scope": "universal", "verified": True},
    )
    add_item(
        qtbot,
        alpha,
        "ask",
        {
            "what": "Who in finance signs off?",
            "why": "The release is on the 1st.",
            "accept": "A name and an email address",
            "to": "wei",
        },
    )
    add_item(
        qtbot,
        alpha,
        "check",
        {"check": "This machine reaches the billing database", "how": "psql -c 'select 1'"},
    )
    add_item(qtbot, alpha, "step", {"step": "Merge fix/csv-bom after review."})
    files = [
        write(tmp_path / "files" / "invoice-sample.csv", "name;amount\nACME GmbH;1200.00\n"),
        write(tmp_path / "files" / "export-notes.txt", "The BOM goes first.\n" * 40),
    ]
    composer.attach(files)  # what "Attach files…" and a drop hand the composer
    settle(qtbot, alpha)
    qtbot.waitUntil(lambda: len(composer.lines("file")) == 2)
    assert composer.lines("check") == [
        "Required: This machine reaches the billing database — how: psql -c 'select 1'"
    ]
    assert "Added. It travels with the next handoff." not in alpha.banner.text()
    assert composer.send_button.isVisible() and alpha.banner.isHidden()  # nothing over it

    # -- Send a handoff…: the preview, then Save as .taskpack…
    click(qtbot, composer.send_button)
    dlg = alpha.send_dialog
    type_into(qtbot, dlg.to_edit, "wei")
    type_into(qtbot, dlg.note_edit, "Checks first, please.")
    qtbot.waitUntil(lambda: "Your note: Checks first, please." in dlg.preview_text())
    qtbot.waitUntil(lambda: dlg.ways["save_bag"].isEnabled())
    shown = dlg.preview_text()
    assert shown.index("Required: This machine reaches") < shown.index("Facts")
    assert "The export runs in 40 s on this laptop. — unproven there — verified on alpha" in shown
    assert "A name and an email address — to wei" in shown
    handoff = tmp_path / "out" / "invoice.taskpack"
    handoff.parent.mkdir()
    prompts.save_to = handoff
    click(qtbot, dlg.ways["save_bag"])
    qtbot.waitUntil(handoff.exists)
    settle(qtbot, alpha)

    # -- alpha goes on composing after the send: saved, not refused as "stale"
    qtbot.waitUntil(lambda: composer.lp.version == alpha_desk.get(pid).version)
    add_item(qtbot, alpha, "step", {"step": "Tell finance when it ships."})
    assert "changed since you read it" not in alpha.banner.text()

    # -- beta, in 简体中文: drop the file, land it, answer, save a receipt
    beta = make_window(beta_desk)
    beta.set_language("zh_CN")
    assert drop(beta, handoff) == (True, True)
    settle(qtbot, beta)
    review = beta.incoming.view
    facts = review.section_text("facts")
    assert "此处未证实" in facts and "The export runs in 40 s on this laptop." in facts
    assert review.land_button.text() == "落地"
    review.land_button.click()
    settle(qtbot, beta)
    [landed] = beta_desk.passports()
    view = beta.passport.view
    card = view.asks.cards["a1"]
    card.answer_edit.setPlainText("财务部张敏, zhang.min@finance.example.com")
    card.save_button.click()
    settle(qtbot, beta)
    assert [a.status for a in beta_desk.get(landed.id).asks or []] == ["answered"]
    receipt = tmp_path / "out" / "receipt"
    prompts.save_to = receipt
    view.export_actions[("receipt", "save_flat")].trigger()
    settle(qtbot, beta)
    receipt = receipt.with_name("receipt.taskpack.json")
    assert json.loads(receipt.read_text(encoding="utf-8"))["passport"]["kind"] == "receipt"

    # -- alpha: drop the receipt, merge the answer into the passport it composed
    alpha.set_language("en")
    assert drop(alpha, receipt) == (True, True)
    settle(qtbot, alpha)
    merge = alpha.incoming.view.land_button
    assert pid in merge.text()
    merge.click()
    settle(qtbot, alpha)
    [ask] = alpha_desk.get(pid).asks or []
    assert ask.status == "answered"
    assert ask.answer == "财务部张敏, zhang.min@finance.example.com"
    assert "The receipt answered: a1." in alpha.banner.text()
    assert len(alpha_desk.passports()) == 1  # merged, not landed as a new passport
    steps = alpha_desk.get(pid).passport.next_steps or []
    assert [str(s) for s in steps] == [
        "Merge fix/csv-bom after review.",
        "Tell finance when it ships.",
    ]
