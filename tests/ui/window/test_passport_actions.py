"""The four "Add …" buttons of a passport made here, driven as a person does: the real
button, the real form dialog typed into, OK clicked; then what the window and
`taskpack open --json` show. And files dropped on the passport's page: attached to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import file_mime, make_handoff, settle
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QPushButton,
)
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui import dialogs
from taskpack.ui.pack_items import labels_text

#: the real form (the shared `prompts` fixture answers forms without showing them)
REAL_ASK_FORM = dialogs.ask_form


def fill_next_form(qtbot: QtBot, typing: dict[str, Any], seen: list[str]) -> None:
    """When the next form dialog opens, type `typing` into its fields and press OK.

    A str is typed key by key; for a choice, an int is how many times Down is pressed;
    for a check box, True means it ends up ticked (Space pressed on it if it is not)."""

    def attempt() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, dialogs.FormDialog):
            QTimer.singleShot(20, attempt)
            return
        seen.append(box.windowTitle())
        for key, value in typing.items():
            w = box.widgets[key]
            if isinstance(w, QComboBox):
                for _ in range(int(value)):
                    qtbot.keyClick(w, Qt.Key.Key_Down)
            elif isinstance(w, QCheckBox):
                if w.isChecked() != bool(value):
                    w.setFocus()
                    qtbot.keyClick(w, Qt.Key.Key_Space)
            else:
                qtbot.keyClicks(w, value)
        ok = box.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, attempt)


def cli_open(desk: Desk, pid: str) -> dict[str, Any]:
    env = {
        **os.environ,
        "TASKPACK_HOME": str(desk.home),
        "TASKPACK_MACHINE": desk.machine,
        "PYTHONIOENCODING": "utf-8",
    }
    out = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", "open", pid, "--json"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    ).stdout
    return json.loads(out)


def click_add(qtbot: QtBot, window: Any, label: str) -> None:
    found = [b for b in window.passport.view.findChildren(QPushButton) if b.text() == label]
    assert found, f"no {label!r} button on the passport"
    qtbot.mouseClick(found[0], Qt.MouseButton.LeftButton)


@pytest.fixture
def own_passport(
    qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Callable[..., Any], monkeypatch
) -> tuple[Any, Desk, str]:
    monkeypatch.setattr(dialogs, "ask_form", REAL_ASK_FORM)
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the invoice export", "Invoices open in Excel.").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    return window, desk, pid


def test_add_ask_stores_the_typed_ask(qtbot: QtBot, own_passport) -> None:
    window, desk, pid = own_passport
    seen: list[str] = []
    fill_next_form(
        qtbot,
        {
            "what": "Who in finance signs off?",
            "why": "Before the 1st.",
            "accept": "A name and an email address",
        },
        seen,
    )
    click_add(qtbot, window, "Add ask…")
    settle(qtbot, window)
    assert seen == ["Add an ask"]
    assert "Something went wrong" not in window.banner.text()
    qtbot.waitUntil(lambda: "Who in finance signs off?" in labels_text(window.passport.view.asks))
    asks = cli_open(desk, pid)["asks"]
    assert [(a["what"], a["why"], a["accept"]) for a in asks] == [
        ("Who in finance signs off?", "Before the 1st.", "A name and an email address")
    ]


def test_add_landing_check_with_a_how_stores_it(qtbot: QtBot, own_passport) -> None:
    window, desk, pid = own_passport
    seen: list[str] = []
    fill_next_form(
        qtbot,
        {
            "check": "This machine reaches the billing database",
            "how": "psql -h localhost -c 'select 1'",
            "required": True,
        },
        seen,
    )
    click_add(qtbot, window, "Add landing check…")
    settle(qtbot, window)
    assert seen == ["Add a landing check"]
    assert "Something went wrong" not in window.banner.text()
    qtbot.waitUntil(
        lambda: "This machine reaches the billing database" in window.passport.view.overview_text()
    )
    checks = cli_open(desk, pid)["checks_to_send"]
    assert [(c["check"], c.get("how"), c.get("required", True)) for c in checks] == [
        ("This machine reaches the billing database", "psql -h localhost -c 'select 1'", True)
    ]


def test_add_fact_stores_its_scope_and_verified_here(qtbot: QtBot, own_passport) -> None:
    window, desk, pid = own_passport
    seen: list[str] = []
    # second choice: universal
    fill_next_form(
        qtbot, {"claim": "Finance agreed the file stays CSV.", "scope": 1, "verified": True}, seen
    )
    click_add(qtbot, window, "Add fact…")
    settle(qtbot, window)
    assert seen == ["Add a fact"]
    assert "Something went wrong" not in window.banner.text()
    qtbot.waitUntil(
        lambda: "Finance agreed the file stays CSV." in window.passport.view.overview_text()
    )
    facts = cli_open(desk, pid)["passport"]["facts"]
    assert [(f["claim"], f.get("scope"), f.get("verified")) for f in facts] == [
        ("Finance agreed the file stays CSV.", "universal", True)
    ]


def test_add_next_step_stores_it(qtbot: QtBot, own_passport) -> None:
    window, desk, pid = own_passport
    seen: list[str] = []
    fill_next_form(qtbot, {"step": "Merge fix/csv-bom after review."}, seen)
    click_add(qtbot, window, "Add next step…")
    settle(qtbot, window)
    assert seen == ["Add a next step"]
    assert "Something went wrong" not in window.banner.text()
    qtbot.waitUntil(
        lambda: "Merge fix/csv-bom after review." in window.passport.view.overview_text()
    )
    assert cli_open(desk, pid)["passport"]["next_steps"] == ["Merge fix/csv-bom after review."]


def drop_on(widget: Any, *paths: Path) -> bool:
    """Drag `paths` over `widget` (where the pointer is) and drop them; whether it took them."""
    mime, at = file_mime(*paths), widget.rect().center()
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(at, Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, enter)
    if not enter.isAccepted():
        return False
    dropped = QDropEvent(QPointF(QPoint(at)), Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, dropped)
    return dropped.isAccepted()


def test_files_dropped_on_a_passport_are_attached_a_folder_refused_a_pack_opened(
    tmp_path: Path, qtbot: QtBot, make_desk: Callable[..., Desk], make_window: Any
) -> None:
    desk = make_desk("alpha", "Wei")
    pid = desk.new("Fix the export", "Readable invoices").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    view = window.passport.view
    assert window.stack.currentWidget() is view
    data = tmp_path / "drop" / "export.csv"
    data.parent.mkdir()
    data.write_text("a,b\n1,2\n", encoding="utf-8")
    folder = tmp_path / "drop" / "logs"
    folder.mkdir()
    pack = tmp_path / "from-beta.taskpack"
    make_handoff(make_desk("beta", "Zhang"), pack, title="Check the backups")

    assert drop_on(view, data, folder, pack)
    settle(qtbot, window)
    # the pack is opened for review, as a pack, not attached
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.incoming.view)
    qtbot.waitUntil(lambda: "Check the backups" in labels_text(window.incoming.view))
    assert "logs is a folder: folders are not attached" in window.banner.text()
    assert [i["name"] for i in cli_open(desk, pid)["luggage"]] == ["export.csv"]
    window.select_key(pid)  # and the passport lists it
    settle(qtbot, window)
    view = window.passport.view
    [files_tab] = [i for i in range(view.tabs.count()) if view.tabs.widget(i) is view.luggage]
    view.tabs.setCurrentIndex(files_tab)
    qtbot.waitUntil(lambda: "export.csv" in labels_text(view.luggage))
