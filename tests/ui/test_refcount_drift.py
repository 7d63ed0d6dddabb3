"""The installed Qt wheel keeps Python's reference counts honest.

PySide6-Essentials 6.12.0 (abi3) on CPython 3.11 drops one reference to ``None`` on every
void Qt call and one to ``True`` on every Python-side signal emit; after a few thousand the
count reaches zero and the window dies with "Fatal Python error: none_dealloc" (about 500
landing reviews). ``pyproject.toml`` excludes that wheel; this test catches the next one.

It runs in a child process: a broken wheel may abort the interpreter, and that must be a
failed test with the reason, not a dead xdist worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

CALLS = 3000

PROBE = textwrap.dedent(
    f"""
    import json, sys
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPushButton, QListWidget

    class Emitter(QObject):
        changed = Signal(bool)
        named = Signal(str)

    app = QApplication([])
    label, edit, button, rows = QLabel(), QLineEdit(), QPushButton("Land"), QListWidget()
    emitter = Emitter()
    seen = []
    emitter.changed.connect(lambda flag: seen.append(1))
    emitter.named.connect(lambda text: None)

    def void_calls():
        for i in range({CALLS}):
            label.setText("ask a1")          # void C++ setter
            edit.setText("answer")
            button.setEnabled(True)          # void setter taking a bool
            label.setVisible(False)
            rows.clear()
            app.processEvents()

    def emits():
        for i in range({CALLS}):
            emitter.changed.emit(True)       # Python-side signal emit
            emitter.named.emit("x")

    def drift(work):
        work()  # warm caches, interned objects, lazily built wrappers
        none0, true0 = sys.getrefcount(None), sys.getrefcount(True)
        work()
        return sys.getrefcount(None) - none0, sys.getrefcount(True) - true0

    out = {{"void": drift(void_calls), "emit": drift(emits), "seen": len(seen)}}
    print(json.dumps(out))
    """
)


def test_qt_calls_and_signal_emits_leave_none_and_true_refcounts_unchanged() -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("None and True are immortal on Python 3.12+: their counts never move")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=240
    )
    assert run.returncode == 0, f"the Qt probe died (exit {run.returncode}): {run.stderr[-2000:]}"
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["seen"] == 2 * CALLS, "the signal probe did not reach its slot"
    none_void, true_void = result["void"]
    none_emit, true_emit = result["emit"]
    # an honest wheel moves each count by a handful at most; the broken one by ~CALLS
    limit = CALLS // 20
    assert abs(none_void) < limit and abs(true_void) < limit, (
        f"{CALLS} void Qt calls moved refcount(None) by {none_void} and refcount(True) by "
        f"{true_void}: this PySide6 wheel leaks or drops references; pin it out in pyproject.toml"
    )
    assert abs(none_emit) < limit and abs(true_emit) < limit, (
        f"{CALLS} signal emits moved refcount(None) by {none_emit} and refcount(True) by "
        f"{true_emit}: this PySide6 wheel leaks or drops references; pin it out in pyproject.toml"
    )
