"""Settings: language, watched folders, names and the gate, saved to settings.json."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import RECEIVER, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot
from taskpack.app.settings import Settings
from taskpack.app.watcher import default_folders
from taskpack.ui import i18n
from taskpack.ui.settings_dialog import SettingsDialog, watch_enabled, watched_folders

Save = QDialogButtonBox.StandardButton.Save


def test_dialog_edits_settings(tmp_path: Path, qtbot: QtBot) -> None:
    settings = Settings()
    assert watched_folders(settings) == default_folders() and watch_enabled(settings)
    dialog = SettingsDialog(settings, machine="zhang-pc", actor="zhang")
    qtbot.addWidget(dialog)
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.allow.setText("wei@wei-laptop,  li ")
    dialog.folders.clear()
    dialog.folders.addItem(str(tmp_path))
    dialog.watch.setChecked(False)
    dialog.apply()
    assert settings.language == "zh_CN"
    assert settings.gate_allow == ["wei@wei-laptop", "li"]
    assert watched_folders(settings) == [tmp_path]
    assert not watch_enabled(settings)
    dialog._defaults()
    dialog.apply()
    assert settings.watched_folders == []  # the defaults are not written out


def test_saving_settings_applies_them(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    desk = make_desk(RECEIVER)
    window = make_window(desk)

    def accept(self: SettingsDialog) -> int:
        self.language.setCurrentIndex(self.language.findData("zh_CN"))
        self.folders.clear()
        self.folders.addItem(str(tmp_path))
        return SettingsDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", accept)
    try:
        window.open_settings()
        settle(qtbot, window)
        assert i18n.current() == "zh_CN"
        assert window.menuBar().actions()[0].text() == "文件(&F)"
        saved = json.loads((desk.home / "settings.json").read_text(encoding="utf-8"))
        assert saved["language"] == "zh_CN" and saved["watched_folders"] == [str(tmp_path)]
        qtbot.waitUntil(
            lambda: (
                window.watching.bridge is not None
                and window.watching.bridge.watcher.folders == [tmp_path]
            )
        )
    finally:
        window.set_language("en")


def test_the_team_desk_is_an_address_without_a_password(
    qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    typed = ["postgresql://zhang:s3cret@db.example.com:5432/desk"]
    seen: list[str] = []

    def person(self: SettingsDialog) -> int:
        self.show()
        self.store.setText(typed[0])
        qtbot.mouseClick(self.findChild(QDialogButtonBox).button(Save), Qt.MouseButton.LeftButton)
        seen.append(self.store_error.text() if self.store_error.isVisible() else "")
        if self.isVisible():  # not saved: the person takes the password out and saves again
            self.store.setText("postgresql://zhang@db.example.com:5432/desk")
            qtbot.mouseClick(
                self.findChild(QDialogButtonBox).button(Save), Qt.MouseButton.LeftButton
            )
        return self.result()

    monkeypatch.setattr(SettingsDialog, "exec", person)
    window.open_settings()
    settle(qtbot, window)
    assert seen == [
        "The address holds a password. Leave it out: put the password in PGPASSWORD or ~/.pgpass."
    ]
    assert window.banner.text() == (
        "Settings saved. The team desk applies the next time the desk starts."
    )
    saved = json.loads((desk.home / "settings.json").read_text(encoding="utf-8"))
    assert saved["store"] == "postgresql://zhang@db.example.com:5432/desk"
    assert "s3cret" not in (desk.home / "settings.json").read_text(encoding="utf-8")
