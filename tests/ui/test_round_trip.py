"""The whole round trip a person does by hand, driven through the real widgets.

Wei's desk sends a handoff with asks; Zhang drops it on the window, reviews it (checks
first, sealed facts unproven, the sender's `how` quoted with Copy and never Run),
lands it, answers the asks and exports a receipt; Wei drops the receipt on his own
window and sees which asks it answered.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import RECEIVER, SENDER, Prompts, drop, make_handoff, settle
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot
from taskpack.ui.widgets import QuotedBlock


def test_round_trip_handoff_answers_receipt(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    wei_desk = make_desk(SENDER, "Wei Chen")
    zhang_desk = make_desk(RECEIVER, "Zhang Min")
    handoff = tmp_path / "invoice.taskpack"
    wei_pid = make_handoff(wei_desk, handoff)
    wei = make_window(wei_desk)
    zhang = make_window(zhang_desk)

    # -- Zhang drops the file: the drop is accepted and the review opens; nothing is stored
    assert drop(zhang, handoff) == (True, True)
    settle(qtbot, zhang)
    assert zhang.stack.currentWidget() is zhang.incoming.view
    assert zhang_desk.passports() == []
    review = zhang.incoming.view
    order = list(review.sections)
    assert order.index("checks") < order.index("facts") < order.index("asks") < order.index("next")
    assert "This machine can reach the billing database" in review.section_text("checks")
    quoted = review.sections["checks"].findChildren(QuotedBlock)
    assert quoted[0].text == "psql -h localhost -c 'select 1'"
    assert "sender's suggestion" in quoted[0].caption.text()
    buttons = [b.text() for b in review.findChildren(QPushButton)]
    assert not any("run" in b.casefold() for b in buttons)  # never a Run button
    quoted[0].copy_button.click()
    assert QGuiApplication.clipboard().text() == "psql -h localhost -c 'select 1'"
    facts = review.section_text("facts")
    assert "unproven here" in facts and f"verified on {SENDER}" in facts
    assert "carried" in facts  # the universal fact keeps its ✓

    # -- Land: a new local passport, waiting for the owner's approval
    review.land_button.click()
    settle(qtbot, zhang)
    [row] = zhang_desk.passports()
    assert row.id != wei_pid  # the receiver mints a new id (spec §3.1)
    assert zhang.stack.currentWidget() is zhang.passport.view
    assert "Landed as" in zhang.banner.text()

    # -- Answer the asks in the form
    view = zhang.passport.view
    card = view.asks.cards["a1"]
    assert "A name and an email address" in "\n".join(
        view.asks.labels()
    )  # the accept text is shown
    card.answer_edit.setPlainText("Ms. Zhang, zhang@finance.example.com")
    card.save_button.click()
    settle(qtbot, zhang)
    view.asks.cards["a2"].answer_edit.setPlainText("Yes, decided by finance.")
    view.asks.cards["a2"].save_button.click()
    settle(qtbot, zhang)
    assert [a.status for a in zhang_desk.get(row.id).asks or []] == ["answered", "answered"]
    assert view.asks.status_of("a1") == "answered"

    # -- Export receipt… → .taskpack.json, Save As
    receipt = tmp_path / "out" / "receipt"
    receipt.parent.mkdir()
    prompts.save_to = receipt
    assert view.export_actions[("receipt", "save_flat")].text().startswith("Save receipt")
    view.export_actions[("receipt", "save_flat")].trigger()
    settle(qtbot, zhang)
    receipt = receipt.with_name("receipt.taskpack.json")  # the suffix is added
    data = json.loads(receipt.read_text(encoding="utf-8"))
    assert data["passport"]["kind"] == "receipt"

    # -- Wei drops the receipt on his window: it answers his passport's asks
    assert drop(wei, receipt) == (True, True)
    settle(qtbot, wei)
    wrv = wei.incoming.view
    assert wrv.reviewed is not None and wrv.reviewed.review.kind == "receipt"
    assert f"It answers passport {wei_pid}." in wrv.section_text("receipt")
    assert wrv.land_button.isEnabled() and wei_pid in wrv.land_button.text()
    wrv.land_button.click()
    settle(qtbot, wei)
    asks = wei_desk.get(wei_pid).asks or []
    assert [(a.id, a.status) for a in asks] == [("a1", "answered"), ("a2", "answered")]
    assert asks[0].answer == "Ms. Zhang, zhang@finance.example.com"
    pv = wei.passport.view
    assert pv.tabs.currentIndex() == 1  # the Asks tab, showing what came home
    assert "The receipt answered: a1, a2." in wei.banner.text()
    assert pv.asks.banner.text() == ""  # said once, not twice
    assert "answered by the receipt" in "\n".join(pv.asks.labels())
    assert len(wei_desk.passports()) == 1  # merged into the asking passport, not landed as new


def test_copy_for_chat_and_email(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts, monkeypatch
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    desk.add_ask(pid, "Which day?", "A weekday")
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    view = window.passport.view

    view.export_actions[("handoff", "copy")].trigger()
    settle(qtbot, window)
    mime = QGuiApplication.clipboard().mimeData()
    [url] = mime.urls()
    path = Path(url.toLocalFile())
    assert path.name.endswith(".taskpack.json") and path.is_file()
    text = mime.text()  # a message a person reads, with the pack inline (it is small)
    assert text.startswith("someone is handing you a task with TaskPack: «Small task».")
    assert "Counts as an answer: A weekday" in text
    from taskpack.core.format.pack_in_text import find_pack_in_text

    assert find_pack_in_text(text).kind == "handoff"
    assert "Copied a message for your chat, with the pack in it." in window.banner.text()

    monkeypatch.setattr("taskpack.ui.launch.shutil.which", lambda name: "/usr/bin/xdg-email")
    monkeypatch.setattr("taskpack.ui.launch.sys.platform", "linux")
    view.export_actions[("receipt", "email")].trigger()
    settle(qtbot, window)
    [argv] = prompts.emails
    assert argv[0] == "xdg-email" and "--attach" in argv
    attached = Path(argv[argv.index("--attach") + 1])
    assert (
        attached.is_file()
        and json.loads(attached.read_text(encoding="utf-8"))["passport"]["kind"] == "receipt"
    )
    assert "attached" in window.banner.text()

    # no xdg-email: a mailto: message, and the file shown in the file manager
    monkeypatch.setattr("taskpack.ui.launch.shutil.which", lambda name: None)
    view.export_actions[("receipt", "email")].trigger()
    settle(qtbot, window)
    assert prompts.opened_urls[0].startswith("mailto:?subject=")
    assert prompts.opened_urls[1].startswith("file://")
