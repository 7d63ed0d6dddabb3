"""In 简体中文, Qt's own words are Chinese too: the file dialog's labels and buttons, the
About box's OK (Qt's translations load beside the desk's)."""

from __future__ import annotations

import re
from typing import Any

from conftest import RECEIVER, settle
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel, QMessageBox
from pytestqt.qtbot import QtBot


def test_qt_dialogs_speak_the_windows_language(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    window = make_window(make_desk(RECEIVER))
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        box = QMessageBox(QMessageBox.Icon.Information, "关于", "…", QMessageBox.StandardButton.Ok)
        qtbot.addWidget(box)
        assert box.button(QMessageBox.StandardButton.Ok).text() == "确定"
        dialog = QFileDialog(window, "保存")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        qtbot.addWidget(dialog)
        labels = " ".join(w.text() for w in dialog.findChildren(QLabel))
        buttons = dialog.findChild(QDialogButtonBox)
        words = labels + " " + " ".join(b.text() for b in buttons.buttons())
        assert "取消" in words and "Cancel" not in words, words
        assert "文件名称" in words and "File name" not in words, words
        # the two labels Qt's own catalogue leaves in English come from ui/qt_gaps.py
        assert "查找范围" in words and "Look in" not in words, words
        assert "文件类型" in words and "Files of" not in words, words
        assert not re.search("[A-Za-z]{3}", labels), labels
        window.set_language("en")  # and back: Qt's words in English again
        settle(qtbot, window)
        again = QMessageBox(
            QMessageBox.Icon.Information, "About", "…", QMessageBox.StandardButton.Ok
        )
        qtbot.addWidget(again)
        assert again.button(QMessageBox.StandardButton.Ok).text() == "OK"
        english = QFileDialog(window, "Save")
        english.setOption(QFileDialog.Option.DontUseNativeDialog)
        qtbot.addWidget(english)
        back = " ".join(w.text() for w in english.findChildren(QLabel))
        assert "Files of &type:" in back and "文件" not in back, back
    finally:
        window.set_language("en")
