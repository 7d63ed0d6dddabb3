"""First contact through the window: the replies a colleague's AI writes by hand, pasted
with Edit → Paste (Ctrl+V) — the same reading and repairs the command line uses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QTextBrowser
from pytestqt.qtbot import QtBot

TOKEN = "ghp_" + "Zq8Rt2Lm9Xw4Kd7Vb3Nc6Hf1Jp5Sg0Ya2Ue4"


def _paste(qtbot: QtBot, window: Any, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.inbox.view.setFocus()
    qtbot.keyClick(window.inbox.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, window)


def _shown(window: Any) -> str:
    """Every text a person can see in the window right now."""
    parts = [window.banner.text()]
    for w in window.findChildren(QLabel) + window.findChildren(QTextBrowser):
        if w.isVisible():
            parts.append(w.toPlainText() if isinstance(w, QTextBrowser) else w.text())
    return "\n".join(parts)


def _handoff(tmp_path: Path, desk: Any) -> tuple[str, dict[str, Any]]:
    pid = desk.new("Q3 report", "Ship the Q3 report", current_state="part 1 written").id
    desk.add_ask(pid, "What is the budget?", "a number in EUR")
    desk.add_ask(pid, "Who signs it off?", "a person's name and role")
    out = desk.pack(pid, tmp_path / "q3.taskpack.json").path
    return pid, json.loads(out.read_text(encoding="utf-8"))


def _reply(top: dict[str, Any], *, kind: str = "receipt", a1: str = "4000 EUR") -> str:
    top = copy.deepcopy(top)
    top["passport"]["kind"] = kind
    for ask in top["passport"]["asks"]:  # answers filled in, status left "open"
        ask["answer"] = {"a1": a1, "a2": "Carol, finance lead"}[ask["id"]]
    return (
        "Hi Ana, answers below.\n\n```json\n"
        + json.dumps(top, indent=2, ensure_ascii=False)
        + "\n```\n— Bo"
    )


def test_a_hand_written_reply_pasted_merges_its_answers(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    alpha = make_desk("alpha", "Ana")
    pid, top = _handoff(tmp_path, alpha)
    before = alpha.get(pid).passport
    window = make_window(alpha)
    _paste(qtbot, window, _reply(top))
    reviewed = window.incoming.view.reviewed
    assert reviewed is not None and reviewed.review.kind == "receipt"
    assert "Opened the pack found in the pasted text" in window.banner.text()
    qtbot.mouseClick(window.incoming.view.land_button, Qt.MouseButton.LeftButton)  # Merge answers
    settle(qtbot, window)
    qtbot.waitUntil(lambda: "The receipt answered: a1, a2." in _shown(window), timeout=20_000)
    asks = {a.id: a for a in alpha.get(pid).asks or []}
    assert asks["a1"].status == "answered" and asks["a1"].answer == "4000 EUR"
    assert asks["a2"].status == "answered"
    after = alpha.get(pid).passport
    assert (after.goal, after.current_state, after.next_steps) == (
        before.goal,
        before.current_state,
        before.next_steps,
    )
    merged = [e for e in alpha.history(pid) if e.event == "merged"][-1]
    assert "ask a1 has an answer but its status said open; it was taken as answered" in (
        merged.detail.get("repairs") or []
    )


def test_a_pasted_token_is_refused_and_never_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    alpha = make_desk("alpha", "Ana")
    pid, top = _handoff(tmp_path, alpha)
    version = alpha.get(pid).version
    window = make_window(alpha)
    _paste(qtbot, window, _reply(top, a1=f"4000 EUR, and the deploy token is {TOKEN}"))
    shown = _shown(window)
    assert "GitHub" in window.banner.text() and "rotate" in window.banner.text()
    assert TOKEN not in shown and TOKEN[:10] not in shown
    assert alpha.get(pid).version == version
    assert not list((alpha.home / "inbox").glob("*"))  # nothing kept on disk either


def test_a_reply_left_as_a_handoff_is_never_merged(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    alpha = make_desk("alpha", "Ana")
    pid, top = _handoff(tmp_path, alpha)
    window = make_window(alpha)
    _paste(qtbot, window, _reply(top, kind="handoff"))
    reviewed = window.incoming.view.reviewed
    assert reviewed is not None and reviewed.review.kind == "handoff"
    assert "Merge" not in window.incoming.view.land_button.text()  # no way to merge it
    asks = {a.id: a for a in alpha.get(pid).asks or []}
    assert asks["a1"].status == "open"  # the pasted answers did not touch the asker
