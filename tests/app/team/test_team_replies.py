"""Replies answer the passport that asked, and answers from outside say whose they are
, on both stores: the outbox rule and the history rule read the
same on the embedded desk and the team desk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from taskpack.core.errors import MergeRefused


def _reply_from(sent: Path, out: Path) -> Path:
    doc = json.loads(sent.read_text(encoding="utf-8"))
    doc["passport"]["kind"] = "receipt"
    doc["passport"]["asks"] = [
        {"id": "a1", "status": "answered", "answer": "12", "answered_by": "ana@alpha"}
    ]
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


def test_a_receipt_answers_only_a_passport_that_sent_and_says_whose_it_is(
    make_desk: Any, tmp_path: Path
) -> None:
    desk = make_desk("alpha", "ana")
    q = desk.new("Q", "G").id
    desk.add_ask(q, "What is the budget?", "a number")
    never = desk.new("Never sent", "G").id
    desk.add_ask(never, "What is the budget?", "a number")
    sent = tmp_path / "asked.taskpack.json"
    desk.pack(q, sent, encoding="flat")
    reply = _reply_from(sent, tmp_path / "reply.taskpack.json")
    doc = json.loads(reply.read_text(encoding="utf-8"))
    del doc["passport"]["lineage"]  # a hand-written reply naming `never` by its id
    doc["passport"]["passport"]["id"] = never
    hand = tmp_path / "hand.taskpack.json"
    hand.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(MergeRefused, match="has no handoff in its outbox"):
        desk.merge_receipt(hand, never)
    merged = desk.merge_receipt(reply, q)
    assert merged.answered == ["a1"]
    assert desk.answer_sources(q).of("a1") == "receipt"  # though it names ana@alpha
    desk.answer(q, "a1", "13, said here")
    assert desk.answer_sources(q).of("a1") is None
