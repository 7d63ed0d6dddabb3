"""Save As of an attached file proposes a name that is safe here and hides nothing: a bidi
override cannot make ``.exe`` look like ``.pdf``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import RECEIVER, SENDER, drop, settle
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot
from taskpack.ui import dialogs

TRICK = "report\u202efdp.exe"  # shows as "reportexe.pdf"


def test_save_as_proposes_the_real_name_and_writes_what_it_proposed(
    tmp_path: Path,
    qtbot: QtBot,
    make_desk: Any,
    make_window: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sender = make_desk(SENDER)
    payload = tmp_path / "out" / TRICK
    payload.parent.mkdir()
    payload.write_bytes(b"MZ not really a program\n")
    pid = sender.new("Quarterly report", "Read the report").id
    pack = tmp_path / "h.taskpack"
    sender.pack(pid, pack, files=[payload])
    asked: list[Path] = []

    def answer(parent: Any, title: str, suggested: Path, filter_text: str) -> Path:
        asked.append(suggested)
        return tmp_path / "saved" / suggested.name  # the person accepts what is proposed

    (tmp_path / "saved").mkdir()
    monkeypatch.setattr(dialogs, "ask_save_path", answer)
    window = make_window(make_desk(RECEIVER))
    assert drop(window, pack) == (True, True)
    settle(qtbot, window)
    [save] = [b for b in window.incoming.view.findChildren(QPushButton) if b.text() == "Save As…"]
    save.click()
    settle(qtbot, window)
    [suggested] = asked
    assert suggested.name == "reportfdp.exe"  # nothing hidden: the real extension shows
    [written] = list((tmp_path / "saved").iterdir())
    assert written.name == "reportfdp.exe" and written.read_bytes().startswith(b"MZ")
    assert "\u202e" not in window.banner.text()
