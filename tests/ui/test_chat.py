"""Chat both ways: Copy for chat gives a message a person can read with the pack in it;
Edit → Paste (Ctrl+V) opens the pack in a reply, whatever prose or fence surrounds it."""

from __future__ import annotations

from pathlib import Path

from conftest import Prompts, file_mime, settle
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot


def press_paste(qtbot: QtBot, window) -> None:
    window.activateWindow()  # the person clicks into this desk's window first
    qtbot.waitUntil(window.isActiveWindow)
    window.inbox.view.setFocus()
    qtbot.keyClick(window.inbox.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, window)


def test_a_handoff_goes_out_by_chat_and_the_reply_comes_back_by_paste(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    alpha = make_desk("alpha", "Wei")
    pid = alpha.new("Invoice export", "Readable names").id
    alpha.add_ask(pid, "Who signs off?", "A name and an email address")
    a = make_window(alpha)
    a.select_key(pid)
    settle(qtbot, a)
    a.passport.view.export_actions[("handoff", "copy")].trigger()
    settle(qtbot, a)
    message = QGuiApplication.clipboard().text()
    assert message.startswith("Wei is handing you a task with TaskPack: «Invoice export».")
    assert "Counts as an answer: A name and an email address" in message
    assert len(message) < 16_000

    # beta's person pastes what arrived in the chat, with a greeting around it
    beta = make_desk("beta", "Li")
    b = make_window(beta)
    QGuiApplication.clipboard().setText("hi Li, can you look at this?\n\n" + message + "\nthanks!")
    press_paste(qtbot, b)
    assert b.incoming.view.reviewed is not None
    assert b.incoming.view.reviewed.review.title == "Invoice export"
    assert "Opened the pack found in the pasted text" in b.banner.text()
    qtbot.mouseClick(b.incoming.view.land_button, Qt.MouseButton.LeftButton)
    settle(qtbot, b)
    [landed] = beta.passports()
    ask = beta.get(landed.id).asks[0]
    beta.answer(landed.id, ask.id, "Zhang Min, zhang@example.com")
    settle(qtbot, b)
    b.passport.view.export_actions[("receipt", "copy")].trigger()
    settle(qtbot, b)
    receipt_message = QGuiApplication.clipboard().text()
    assert "Answer: Zhang Min, zhang@example.com" in receipt_message

    # the receipt comes back as a ```json fence inside the chat, text only
    fenced = receipt_message[receipt_message.index("```") :]
    QGuiApplication.clipboard().setText("Here you go:\n" + fenced + "\nLi")
    press_paste(qtbot, a)
    assert (
        a.incoming.view.reviewed is not None and a.incoming.view.reviewed.review.kind == "receipt"
    )
    qtbot.mouseClick(
        a.incoming.view.land_button, Qt.MouseButton.LeftButton
    )  # "Merge answers into …"
    settle(qtbot, a)
    assert alpha.get(pid).asks[0].answer == "Zhang Min, zhang@example.com"


def test_paste_says_why_when_there_is_no_pack(qtbot: QtBot, make_desk, make_window) -> None:
    window = make_window(make_desk("beta"))
    QGuiApplication.clipboard().setText("see you at 3?")
    press_paste(qtbot, window)
    assert window.banner.text().startswith("No pack could be opened from the pasted text:")
    QGuiApplication.clipboard().setMimeData(QMimeData())
    press_paste(qtbot, window)
    assert window.banner.text().startswith("The clipboard holds no pack.")


def test_paste_opens_copied_files(tmp_path: Path, qtbot: QtBot, make_desk, make_window) -> None:
    alpha = make_desk("alpha", "Wei")
    pid = alpha.new("Invoice export", "Readable names").id
    pack = tmp_path / "from-file-manager.taskpack"
    alpha.pack(pid, pack)
    saved_email = tmp_path / "reply.txt"  # a reply saved from a mail client
    flat = tmp_path / "flat.taskpack.json"
    alpha.pack(pid, flat)
    saved_email.write_text(
        "Hello,\n\n" + flat.read_text(encoding="utf-8") + "\nRegards\n", encoding="utf-8"
    )
    window = make_window(make_desk("beta"))
    QGuiApplication.clipboard().setMimeData(file_mime(pack))
    press_paste(qtbot, window)
    assert [r.path for r in window.inbox.model.incoming()] == [pack.resolve()]
    QGuiApplication.clipboard().setMimeData(file_mime(saved_email))
    press_paste(qtbot, window)
    assert len(window.inbox.model.incoming()) == 2
    assert {r.title for r in window.inbox.model.incoming()} == {"Invoice export"}


def test_ctrl_v_in_the_search_field_still_pastes_text(qtbot: QtBot, make_desk, make_window) -> None:
    window = make_window(make_desk("beta"))
    QGuiApplication.clipboard().setText("invoice")
    window.inbox.search.setFocus()
    qtbot.keyClick(window.inbox.search, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, window)
    assert window.inbox.search.text() == "invoice"
    assert window.banner.text() == ""
