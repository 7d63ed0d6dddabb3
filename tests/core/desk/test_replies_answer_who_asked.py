"""Replies answer the passport that asked: a receipt merges only
into a passport whose outbox holds the handoff it answers, and only for the asks that
handoff carried; answers from outside say whose they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from taskpack.core.desk import export, landing
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import MergeRefused
from taskpack.core.format import ids
from taskpack.core.format.model import Ask, LocalPassport, PassportState
from taskpack.core.format.reading import open_pack


def _store(root: Path, name: str) -> SqliteStore:
    return SqliteStore(root / name)


def _passport(store: SqliteStore, asks: list[Ask]) -> str:
    lp = LocalPassport(
        passport=PassportState(id=ids.new_id(), title="Q", goal="G"), asks=asks, landing_checks=[]
    )
    with store.write() as tx:
        tx.insert(lp, event="created")
    return lp.id


def _ask(id_: str, what: str) -> Ask:
    return Ask(id=id_, to="peer", what=what, accept="a clear answer", status="open")


def _hand_receipt(tmp: Path, pid: str, asks: list[dict[str, object]]) -> Path:
    """A receipt written by hand: no lineage, its passport.id names `pid`."""
    path = tmp / "reply.taskpack.json"
    doc = {
        "taskpack": "0.1",
        "encoding": "flat",
        "passport": {
            "spec": "task-passport-bag/0.1",
            "kind": "receipt",
            "packed_at": "2026-12-01T10:00:00Z",
            "origin": {"actor": "root@alpha", "machine": "elsewhere", "harness": "hand"},
            "passport": {"id": pid, "title": "Q", "goal": "G"},
            "asks": asks,
        },
        "attachments": [],
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _merge(store: SqliteStore, path: Path, into: str) -> landing.MergeOutcome:
    with open_pack(path) as opened:
        return landing.merge_receipt(store, opened, into, machine="alpha")


def test_a_receipt_never_merges_into_a_passport_that_sent_no_handoff(tmp_path: Path) -> None:
    alpha = _store(tmp_path, "alpha")
    q = _passport(alpha, [_ask("a1", "What is the budget?")])
    reply = _hand_receipt(
        tmp_path,
        q,
        [{"id": "a1", "what": "What is the budget?", "status": "answered", "answer": "12"}],
    )
    # before: merged, though Q never asked anyone
    with pytest.raises(MergeRefused, match="has no handoff in its outbox"):
        _merge(alpha, reply, q)
    assert alpha.get(q).asks[0].status == "open"  # type: ignore[index]


def test_only_the_asks_the_handoff_carried_are_answered(tmp_path: Path) -> None:
    alpha = _store(tmp_path, "alpha")
    q = _passport(alpha, [_ask("a1", "What is the budget?")])
    export.export_passport(alpha, q, tmp_path / "asked.taskpack", machine="alpha", actor="ana")
    with alpha.write() as tx:  # a draft ask added after the handoff left: never sent
        lp = tx.get(q)
        lp.asks = [*(lp.asks or []), _ask("a2", "Who signs it off?")]
        tx.save(lp, event="edit")
    reply = _hand_receipt(
        tmp_path,
        q,
        [
            {"id": "a1", "status": "answered", "answer": "12,000 EUR"},
            {"id": "a2", "status": "answered", "answer": "me, trust me"},  # no `what`
        ],
    )
    merged = _merge(alpha, reply, q)
    asks = {a.id: a for a in merged.passport.asks or []}
    assert merged.answered == ["a1"] and asks["a1"].answer == "12,000 EUR"
    # before: the unsent draft a2 was answered from outside
    assert asks["a2"].status == "open" and asks["a2"].answer is None


def test_after_one_hop_a_reply_that_keeps_the_lineage_answers_the_passport_that_sent_it(
    tmp_path: Path,
) -> None:
    from taskpack.app.desk import Desk

    with Desk(tmp_path / "ana", "ana-pc", actor="Ana") as ana:
        q = ana.new("Q3 report", "Ship it").id
        ana.add_ask(q, "What is the budget?", "a number in EUR")
        first = tmp_path / "to-bo.taskpack.json"
        ana.pack(q, first, encoding="flat")
    with Desk(tmp_path / "bo", "bo-pc", actor="Bo") as bo:
        p_bo = bo.land(first).id
        second = tmp_path / "to-cy.taskpack.json"
        bo.pack(p_bo, second, encoding="flat")
        message = bo.chat_message(second, language="en")
        # the message names the passport that sends it, and what to keep
        assert f"Sent from passport {p_bo}" in message and q not in message.split("```")[0]
        # Cy has nothing installed: flips kind, answers, keeps id and lineage as they are
        doc = json.loads(second.read_text(encoding="utf-8"))
        doc["passport"]["kind"] = "receipt"
        doc["passport"]["asks"][0].update(status="answered", answer="12,000 EUR")
        reply = tmp_path / "reply.taskpack.json"
        reply.write_text(json.dumps(doc), encoding="utf-8")
        # before: it answered the upstream passport and the hint said --into that one
        merged = bo.merge_receipt(reply, p_bo)
        assert merged.answered == ["a1"] and merged.id == p_bo
        with pytest.raises(MergeRefused):
            bo.merge_receipt(reply, q)


def test_where_each_answer_came_from_is_read_from_the_history(tmp_path: Path) -> None:
    """One rule for every front end: an answer that came in a pack is the sender's, as
    this desk's history says — never as the answer's answered_by says."""
    from taskpack.app.desk import Desk

    with Desk(tmp_path / "bo", "beta", actor="bo") as bo:
        q = bo.new("Q", "G").id
        bo.add_ask(q, "What is the budget?", "a number")
        bo.add_ask(q, "Who signs?", "a name")
        bo.answer(q, "a1", "12")  # answered upstream, then handed on
        handoff = tmp_path / "h.taskpack.json"
        bo.pack(q, handoff, encoding="flat")
    with Desk(tmp_path / "ana", "alpha", actor="ana") as ana:
        p = ana.land(handoff).id
        came = ana.answer_sources(p)
        assert came.of("a1") == "handoff" and came.of("a2") == "handoff"
        ana.answer(p, "a2", "Ana")
        came = ana.answer_sources(p)
        assert came.of("a1") == "handoff" and came.of("a2") is None
        # an older version is read as it was
        assert ana.answer_sources(p, 1).of("a2") == "handoff"
