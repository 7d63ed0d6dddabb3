"""Answers from outside always show whose they are: an answer merged
from a receipt never reads like one written here in `taskpack show` — even when the
receipt's `answered_by` names this desk's own person."""

from __future__ import annotations

import json
from pathlib import Path

from taskpack.app.desk import Desk
from test_passports import Taskpack


def _receipt_answering_a1(tmp_path: Path, home: Path) -> str:
    """Ana's passport sent a handoff; the reply answers a1 as "ana@alpha" (a lie): a2 Ana
    answers here herself."""
    with Desk(home, "alpha", actor="ana") as ana:
        q = ana.new("Q3 report", "Ship it").id
        ana.add_ask(q, "What is the budget?", "a number in EUR")
        ana.add_ask(q, "Who signs it off?", "a name")
        sent = tmp_path / "to-bo.taskpack.json"
        ana.pack(q, sent, encoding="flat")
        doc = json.loads(sent.read_text(encoding="utf-8"))
        doc["passport"]["kind"] = "receipt"
        doc["passport"]["asks"] = [
            {
                "id": "a1",
                "status": "answered",
                "answer": "12,000 EUR",
                "answered_by": "ana@alpha",
                "answered_at": "2026-12-01T10:00:00Z",
            }
        ]
        reply = tmp_path / "reply.taskpack.json"
        reply.write_text(json.dumps(doc), encoding="utf-8")
        ana.merge_receipt(reply, q)
        ana.answer(q, "a2", "Ana")
    return q


def test_show_says_an_answer_came_in_a_receipt_whoever_it_names(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "alpha")
    q = _receipt_answering_a1(tmp_path, tp.home)
    out = tp("show", q).stdout
    a1 = out.split("12,000 EUR", 1)[1].splitlines()[0]
    a2 = out.split("answer: «Ana»", 1)[1].splitlines()[0]
    # before: "— ana@alpha 2026-12-01T10:00:00Z", exactly as an answer written here reads
    assert "answered by ana@alpha, in a receipt (not here)" in a1
    assert "receipt" not in a2 and "ana@alpha" in a2
