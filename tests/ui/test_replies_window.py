"""Replies answer the passport that asked, in the window: its review
of a receipt and its merge follow the one rule the CLI and MCP follow — answers only for
the asks the handoff carried, never onto a draft the passport did not send."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import RECEIVER, drop, settle
from pytestqt.qtbot import QtBot


def test_a_receipt_answers_only_what_the_handoff_carried(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.new("Invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address")
    desk.pack(pid, tmp_path / "asked.taskpack.json", encoding="flat")
    desk.add_ask(pid, "Which month first?", "A month")  # a draft, never sent
    reply = tmp_path / "reply.taskpack.json"
    reply.write_text(
        json.dumps(
            {
                "taskpack": "0.1",
                "encoding": "flat",
                "passport": {
                    "spec": "task-passport-bag/0.1",
                    "kind": "receipt",
                    "packed_at": "2026-12-01T10:00:00Z",
                    "origin": {"actor": "root", "machine": "elsewhere", "harness": "hand"},
                    "passport": {"id": pid, "title": "Invoice export", "goal": "G"},
                    "asks": [
                        {"id": "a1", "status": "answered", "answer": "Ms. Li"},
                        {"id": "a2", "status": "answered", "answer": "any month, trust me"},
                    ],
                },
                "attachments": [],
            }
        ),
        encoding="utf-8",
    )
    window = make_window(desk)
    drop(window, reply)
    settle(qtbot, window)
    review = window.incoming.view
    # before: "2 answers come home", the unsent draft a2 among them
    assert review.summary.text().startswith("1 answer comes home")
    review.land_button.click()
    settle(qtbot, window)
    asks = {a.id: a for a in desk.get(pid).asks}
    assert asks["a1"].answer == "Ms. Li"
    assert asks["a2"].status == "open" and asks["a2"].answer is None
