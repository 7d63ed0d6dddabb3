"""Driving the composer's real dialogs as a person does: wait for the dialog to open,
type into it, press its buttons."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QCheckBox, QLineEdit, QPlainTextEdit, QWidget
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.composer.item_dialog import ItemDialog


def when_modal(cls: type, act: Callable[[Any], None], *, tries: int = 3000) -> None:
    """Call `act(dialog)` once a modal dialog of `cls` is up (it is polled for)."""

    def attempt(left: int) -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, cls) and box.isVisible():
            act(box)
        elif left:
            QTimer.singleShot(20, lambda: attempt(left - 1))

    QTimer.singleShot(0, lambda: attempt(tries))


def type_into(qtbot: QtBot, widget: QWidget, text: str, *, replace: bool = True) -> None:
    widget.setFocus()
    if replace and isinstance(widget, (QLineEdit, QPlainTextEdit)):
        # select what is there and delete it (Ctrl+A alone can reach the widget before its
        # focus does, on a loaded machine, and the new text would be appended)
        widget.selectAll()
        qtbot.keyClick(widget, Qt.Key.Key_Delete)
        left = widget.text() if isinstance(widget, QLineEdit) else widget.toPlainText()
        assert left == "", f"could not clear {widget.accessibleName()!r}"
    qtbot.keyClicks(widget, text)


def fill_item(
    qtbot: QtBot,
    typing: dict[str, Any],
    *,
    seen: list[str] | None = None,
    lint: list[str] | None = None,
    press: str = "ok",
) -> None:
    """When the next item dialog opens: type `typing` (a check box: True/False; "scope":
    the scope whose radio button is chosen with Space), note its title and the lint as typed."""

    def act(box: ItemDialog) -> None:
        if seen is not None:
            seen.append(box.windowTitle())
        for key, value in typing.items():
            if key == "scope":
                radio = box.scope_buttons[value]
                radio.setFocus()
                qtbot.keyClick(radio, Qt.Key.Key_Space)
                continue
            w = box.fields[key]
            if isinstance(w, QCheckBox):
                if w.isChecked() != bool(value):
                    w.setFocus()
                    qtbot.keyClick(w, Qt.Key.Key_Space)
            else:
                type_into(qtbot, w, value)
                if lint is not None and key == "accept":
                    lint.append(box.lint.text())
        if press == "ok":
            qtbot.mouseClick(box.ok, Qt.MouseButton.LeftButton)
        else:
            box.reject()

    when_modal(ItemDialog, act)


def cli(desk: Desk, *args: str) -> str:
    env = {
        **os.environ,
        "TASKPACK_HOME": str(desk.home),
        "TASKPACK_MACHINE": desk.machine,
        "TASKPACK_ACTOR": desk.actor,
        "PYTHONIOENCODING": "utf-8",
    }
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    ).stdout


def cli_json(desk: Desk, *args: str) -> Any:
    return json.loads(cli(desk, *args, "--json"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
