"""Drafts (answers typed, not saved yet) reach the disk whatever the timing of a quit."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from taskpack.app import drafts as drafts_module
from taskpack.app.drafts import Drafts


def test_a_quit_during_the_delayed_write_waits_for_it_and_keeps_the_latest_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drafts = Drafts(tmp_path)
    writing, release = threading.Event(), threading.Event()
    real_write = drafts_module.write_bytes_atomically  # the first write is slow, as on a busy disk

    def slow_first_write(path: Path, data: bytes, **kw: object) -> None:
        if not writing.is_set():
            writing.set()
            release.wait(10)
        real_write(path, data, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(drafts_module, "write_bytes_atomically", slow_first_write)
    monkeypatch.setattr(drafts_module, "WRITE_AFTER", 0.0)
    drafts.set("TP-AAAA-BBBB", "a1", "Ms. Zh")  # the delayed write starts …
    assert writing.wait(10)
    monkeypatch.setattr(drafts_module, "WRITE_AFTER", 60.0)  # the next write is the quit's
    drafts.set("TP-AAAA-BBBB", "a1", "Ms. Zhang")  # … the person types on and quits
    quitting = threading.Thread(target=drafts.flush)
    quitting.start()
    quitting.join(2.0)  # the old code wrote at once here; now it waits for the slow write
    release.set()  # the slow write finishes (with the older text)
    quitting.join(10)
    assert not quitting.is_alive()
    saved = json.loads((tmp_path / "drafts.json").read_text(encoding="utf-8"))
    assert saved == {"TP-AAAA-BBBB": {"a1": "Ms. Zhang"}}
