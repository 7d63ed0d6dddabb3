"""The Restore ✓ dialog says the rule as it is now: this desk
verified the fact on this machine and sealed it when it packed it — its own records,
never a pack's word (before: "it came back in a pack this desk wrote")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import SENDER, make_handoff, settle
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot
from taskpack.ui import dialogs, i18n
from taskpack.ui.dialogs import confirm as the_real_confirm  # (the fixtures replace it)
from test_review import land


@pytest.mark.parametrize(
    ("language", "says", "never"),
    [
        (
            "en",
            f"This desk verified it on this machine ({SENDER}) and sealed it when it packed it",
            "came back in a pack this desk wrote",
        ),
        (
            "zh_CN",
            f"本工作台曾在本机（{SENDER}）上验证过它，并在打包时把它封存",
            "通过本工作台写出的包回来的",
        ),
    ],
)
def test_the_restore_dialog_names_the_desks_own_proof(
    language: str,
    says: str,
    never: str,
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk = make_desk(SENDER)
    pack = tmp_path / "mine.taskpack"
    make_handoff(desk, pack)
    i18n.install(language)
    try:
        window = make_window(desk)
        land(qtbot, window, pack)  # its own pack, back on the machine that proved the fact
        monkeypatch.setattr(dialogs, "confirm", the_real_confirm)  # the dialog a person sees
        seen: list[str] = []

        def read_and_restore() -> None:
            box = QApplication.activeModalWidget()
            assert isinstance(box, QMessageBox)
            seen.append(box.text())
            restore = next(b for b in box.buttons() if "✓" in b.text())
            restore.click()

        QTimer.singleShot(0, read_and_restore)
        window.passport.view.restore_buttons[1].click()
        settle(qtbot, window)
    finally:
        i18n.install("en")
    [text] = seen
    assert says in text and never not in text
    assert "The export runs in 40 s on this laptop." in text
    assert window.desk.get(window.current_passport_id()).passport.facts[0].verified
