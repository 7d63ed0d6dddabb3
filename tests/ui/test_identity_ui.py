"""Who the person is: asked once, used to sign answers and packs, the machine never twice."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.ui.settings_dialog import SettingsDialog


def answer_first_ask(qtbot: QtBot, window, text: str) -> str:
    """Type an answer into the first ask's card and save it; the card's 'Answered by' line."""
    window.passport.view.tabs.setCurrentIndex(1)
    card = next(iter(window.passport.view.asks.cards.values()))
    qtbot.keyClicks(card.answer_edit, text)
    qtbot.mouseClick(card.save_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    labels = window.passport.view.asks.labels()
    return next(t for t in labels if t.startswith("Answered by"))


def test_the_name_is_asked_once_and_signs_the_answers(
    qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    monkeypatch.delenv("TASKPACK_ACTOR", raising=False)
    desk = make_desk("beta", actor="root")  # what the operating system said
    pid = desk.new("Invoice export", "Readable names").id
    desk.add_ask(pid, "Who signs off?", "A name")
    window = make_window(desk)
    opened: list[object] = []
    monkeypatch.setattr(
        "taskpack.ui.dialogs.ask_open_paths", lambda parent: opened.append(parent) or []
    )
    assert window.name_bar.isVisible()
    assert window.name_bar.question.text().startswith("What is your name?")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.name_bar.edit.setFocus()
    qtbot.keyClicks(window.name_bar.edit, "  Wei   Zhang ")
    qtbot.keyClick(window.name_bar.edit, Qt.Key.Key_Return)
    settle(qtbot, window)
    assert not window.name_bar.isVisible()
    assert opened == []  # Enter in a text field is that field's: no "Open a pack…" dialog
    assert "signed Wei Zhang@beta" in window.banner.text()
    window.select_key(pid)
    settle(qtbot, window)
    assert answer_first_ask(qtbot, window, "Li Na").startswith("Answered by Wei Zhang@beta on ")
    saved = json.loads((desk.home / "settings.json").read_text(encoding="utf-8"))
    assert saved["actor"] == "Wei Zhang"
    window.shutdown()

    again = make_window(desk)  # the next start: not asked again
    assert not again.name_bar.isVisible()


def test_a_name_changed_in_settings_applies_at_once_without_doubling_the_machine(
    qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    monkeypatch.delenv("TASKPACK_ACTOR", raising=False)
    desk = make_desk("beta", actor="root")
    pid = desk.new("Invoice export", "Readable names").id
    desk.add_ask(pid, "Who signs off?", "A name")
    window = make_window(desk)

    def accept(self: SettingsDialog) -> int:
        self.actor.setText("li@beta")  # typed with the machine: the desk adds it once
        return SettingsDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", accept)
    window.open_settings()
    settle(qtbot, window)
    assert not window.name_bar.isVisible()
    window.select_key(pid)
    settle(qtbot, window)
    assert answer_first_ask(qtbot, window, "Zhang").startswith("Answered by li@beta on ")


def test_a_sender_named_with_their_machine_is_shown_once(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    alpha = make_desk("alpha", actor="wei@alpha")
    pid = alpha.new("Invoice export", "Readable names").id
    pack = tmp_path / "h.taskpack"
    alpha.pack(pid, pack)
    window = make_window(make_desk("beta"))
    window.open_files([pack])
    settle(qtbot, window)
    proxy = window.inbox.proxy
    assert [proxy.index(r, 2).data() for r in range(proxy.rowCount())] == ["wei@alpha"]
