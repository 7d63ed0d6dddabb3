"""The smaller things a person trips over, in the window as they see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import RECEIVER, SENDER, drop, make_handoff, settle
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot
from taskpack.ui import launch, widgets
from taskpack.ui.settings_dialog import SettingsDialog
from test_large_passport import open_passport


def test_enter_in_the_link_dialog_does_not_open_the_link(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(launch, "open_url", lambda url: opened.append(url.toString()) or True)
    parent = QWidget()
    qtbot.addWidget(parent)
    seen: list[str] = []

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.defaultButton().text())
        qtbot.keyClick(box, Qt.Key.Key_Return)  # the person presses Enter without reading

    QTimer.singleShot(0, press_enter)
    assert widgets.open_link(parent, "https://example.com/invoice") is False
    assert seen == ["Cancel"] and opened == []


def test_a_task_that_ended_takes_no_more_answers(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.new("Invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address")
    desk.move(pid, "cancelled", None)
    window = make_window(desk)
    open_passport(qtbot, window, "Invoice export")
    window.passport.view.tabs.setCurrentIndex(1)
    card = window.passport.view.asks.cards["a1"]
    qtbot.keyClicks(card.answer_edit, "Ms. Zhang")
    assert card.answer_edit.toPlainText() == ""
    assert not card.save_button.isVisible() and not card.drop_button.isVisible()
    assert "1 answer is not saved yet." not in window.passport.view.asks.labels()


def test_the_export_menu_names_its_recipient_field_and_the_id_stays_on_one_line(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    pack = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    window = make_window(make_desk(RECEIVER, "Zhang"))
    window.resize(800, 600)
    drop(window, pack)
    settle(qtbot, window)
    qtbot.mouseClick(window.incoming.view.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    pv = window.passport.view
    first = pv.export_menu.actions()[0].defaultWidget()
    assert [label.text() for label in first.findChildren(QLabel)] == ["For whom:"]
    [ident] = [w for w in pv.findChildren(QLabel) if " · v" in w.text()]
    assert ident.height() < 2 * ident.fontMetrics().lineSpacing()  # not "TP-… ·" / "v2"


def test_saving_settings_mentions_the_next_start_only_for_a_new_machine_name(
    qtbot: QtBot, make_desk: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(make_desk(RECEIVER, "Zhang"))
    new_name = [""]

    def accept(self: SettingsDialog) -> int:
        self.machine.setText(new_name[0])
        return SettingsDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", accept)
    window.open_settings()
    settle(qtbot, window)
    assert window.banner.text() == "Settings saved."
    new_name[0] = "zhang-desktop"
    window.open_settings()
    settle(qtbot, window)
    assert window.banner.text() == (
        "Settings saved. A new machine name applies the next time the desk starts."
    )


def test_an_answer_from_a_receipt_says_whose_it_is(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    """an answer merged from a receipt reads "Answered by …, in a
    receipt", even when the receipt names this desk's own person; one written here does not."""
    import json

    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.new("Invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address")
    desk.add_ask(pid, "Which month first?", "A month")
    sent = tmp_path / "to-wei.taskpack.json"
    desk.pack(pid, sent, encoding="flat")
    doc = json.loads(sent.read_text(encoding="utf-8"))
    doc["passport"]["kind"] = "receipt"
    doc["passport"]["asks"] = [
        {"id": "a1", "status": "answered", "answer": "Ms. Li", "answered_by": f"Zhang@{RECEIVER}"}
    ]
    reply = tmp_path / "reply.taskpack.json"
    reply.write_text(json.dumps(doc), encoding="utf-8")
    desk.merge_receipt(reply, pid)
    desk.answer(pid, "a2", "March")
    window = make_window(desk)
    open_passport(qtbot, window, "Invoice export")
    window.passport.view.tabs.setCurrentIndex(1)
    cards = window.passport.view.asks.cards
    first = " ".join(w.text() for w in cards["a1"].findChildren(QLabel))
    second = " ".join(w.text() for w in cards["a2"].findChildren(QLabel))
    # before: "Answered by Zhang@zhang-pc", as an answer written here reads
    assert f"Answered by Zhang@{RECEIVER}, in a receipt" in first
    assert "in a receipt" not in second and "Answered by Zhang@" in second
