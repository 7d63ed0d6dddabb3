"""Slow work off the GUI thread (progress, cancel, one-sentence errors) and the two languages."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QProgressDialog, QPushButton, QWidget
from pytestqt.qtbot import QtBot
from taskpack.core.errors import Cancelled, IntegrityError
from taskpack.ui import i18n, ops
from taskpack.ui.jobs import JobRunner, human_size, sentence


def test_slow_job_shows_progress_and_can_be_cancelled(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    runner = JobRunner(parent, delay_ms=50)
    gui_thread = threading.get_ident()
    seen: dict[str, object] = {}

    def work(progress, cancelled) -> str:
        seen["thread"] = threading.get_ident()
        total = 1 << 30
        for done in range(0, total, 1 << 20):
            if cancelled():
                raise Cancelled()
            progress(done, total)
            time.sleep(0.01)  # ~10 s unless cancelled
        return "finished"

    runner.run(
        work,
        title="Landing big.taskpack…",
        on_done=lambda r: seen.setdefault("done", r),
        on_cancelled=lambda: seen.setdefault("cancelled", True),
    )
    dialog = None

    def dialog_moves() -> bool:
        nonlocal dialog
        found = [d for d in parent.findChildren(QProgressDialog) if d.isVisible()]
        if found:
            dialog = found[0]
        return dialog is not None and 0 < dialog.value() < 1000

    qtbot.waitUntil(dialog_moves, timeout=10_000)  # shown, with a moving bar and sizes
    assert "MiB / 1.0 GiB" in dialog.labelText()
    first = dialog.value()
    qtbot.waitUntil(lambda: dialog.value() > first, timeout=5_000)
    [cancel] = [b for b in dialog.findChildren(QPushButton) if b.text() == "Cancel"]
    cancel.click()  # what the person presses
    qtbot.waitUntil(runner.idle, timeout=10_000)
    assert seen == {"thread": seen["thread"], "cancelled": True}
    assert seen["thread"] != gui_thread


def test_errors_become_one_sentence(qtbot: QtBot) -> None:
    runner = JobRunner(None)
    messages: list[str] = []

    def broken(progress, cancelled) -> None:
        raise IntegrityError("a luggage file's bytes do not match its declared sha256")

    runner.run(broken, title="x", on_error=messages.append, show_progress=False)
    qtbot.waitUntil(runner.idle)
    assert messages == [
        "a luggage file's bytes do not match its declared sha256. The file was damaged or "
        "altered in transit; ask the sender to send it again."
    ]
    assert (
        sentence(FileNotFoundError(2, "No such file", "/x/y.taskpack"))
        == "The file /x/y.taskpack is no longer there."
    )
    assert human_size(1536) == "1.5 KiB" and human_size(3 << 30) == "3.0 GiB"


def test_landing_reports_progress_and_a_cancel_lands_nothing(tmp_path: Path, make_desk) -> None:
    big = tmp_path / "data.bin"
    big.write_bytes(bytes(range(256)) * (12 << 12))  # 12 MiB of luggage
    pack = tmp_path / "big.taskpack"
    make_handoff(make_desk(SENDER), pack, files=[big])
    desk = make_desk(RECEIVER)

    calls = 0

    def cancel_after_first_chunk() -> bool:
        return calls > 1

    def progress(done: int, total: int) -> None:
        nonlocal calls
        calls += 1

    with pytest.raises(Cancelled):
        ops.land(desk, pack, progress, cancel_after_first_chunk)
    assert desk.passports() == []
    assert not any(p.is_file() for p in (desk.home / "blobs" / "sha256").rglob("*"))

    reports: list[tuple[int, int]] = []
    outcome = ops.land(desk, pack, lambda d, t: reports.append((d, t)), lambda: False)
    assert [r.id for r in desk.passports()] == [outcome.id]
    assert reports[-1] == (big.stat().st_size, big.stat().st_size)
    assert len(reports) >= 10  # the bar moves while the luggage is read


def test_language_switch_rebuilds_the_window(qtbot: QtBot, make_desk, make_window) -> None:
    window = make_window(make_desk(RECEIVER))
    try:
        window.set_language("zh_CN")
        assert i18n.current() == "zh_CN"
        assert [a.text() for a in window.menuBar().actions()] == [
            "文件(&F)",
            "编辑(&E)",
            "查看(&V)",
            "帮助(&H)",
        ]
        assert window.inbox.model.headerData(0, window.inbox.view.header().orientation()) == "标题"
        assert window.inbox.search.placeholderText() == "搜索标题"
        window.welcome.samples_button.click()
        settle(qtbot, window)
        review = window.incoming.view
        assert review.land_button.text() == "落地"
        assert "先做这些" in review.section_text("checks")
        assert "在 wei-laptop 上验证过；在本机未证实" in review.section_text("facts")
    finally:
        window.set_language("en")
    assert [a.text() for a in window.menuBar().actions()] == ["&File", "&Edit", "&View", "&Help"]
    assert window.incoming.view.land_button.text() == "Land"


def test_every_ui_string_is_translated() -> None:
    import importlib.util
    import string

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "update_ts", root / "resources" / "translations" / "update_ts.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    strings = module.collect(root / "ui")
    table = module.load_table("zh_CN")
    assert sorted(set(strings) - set(table)) == []

    def names(text: str) -> set[str]:
        return {n for _, n, _, _ in string.Formatter().parse(text) if n is not None}

    assert [s for s in strings if names(s) != names(table[s])] == []
    # the committed .qm is current: it says what the table says, for every string
    translator = QTranslator()
    assert translator.load("taskpack_zh_CN", str(root / "resources" / "translations"))
    stale = [s for s in strings if translator.translate("taskpack", s) != table[s]]
    assert stale == [], "run resources/translations/update_ts.py"
