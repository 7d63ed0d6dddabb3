"""The A2A ledger's rules, written once (app/ledger_rules.py), hold on both ledgers:
a2a.sqlite3 and the team desk's tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from taskpack.app.ledger_rules import A2AStoreError, Conflict, LedgerRules


@pytest.fixture(params=["sqlite", "postgres"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LedgerRules]:
    if request.param == "sqlite":
        from taskpack.app.a2a.ledger import A2AStore

        with A2AStore(tmp_path) as store:
            yield store
    else:
        from taskpack.app.team.a2a_ledger import PgLedger

        with PgLedger(request.getfixturevalue("team_desk_url"), tmp_path) as pg:
            yield pg


def test_a_token_name_taken_twice_is_one_sentence(ledger: LedgerRules) -> None:
    ledger.add_token("accept", "alice", "a" * 64)
    with pytest.raises(A2AStoreError, match="a token named 'alice' already exists"):
        ledger.add_token("accept", "alice", "b" * 64)
    assert [t.name for t in ledger.tokens()] == ["alice"]


def test_one_message_id_is_one_task_and_other_bytes_are_a_conflict(ledger: LedgerRules) -> None:
    root = "TP-ROOT-\ud800"  # a pack's text: a lone surrogate is kept as its escape
    first, grant = ledger.complete(
        "alice", "m-1", "d1", "TP-AAAA-AAAA", kind="handoff", requested_context=None, root_id=root
    )
    again, same = ledger.complete(
        "alice", "m-1", "d1", "TP-BBBB-BBBB", kind="handoff", requested_context=None, root_id=root
    )
    assert again.task_id == first.task_id == "TP-AAAA-AAAA" and same == grant
    with pytest.raises(Conflict):
        ledger.complete(
            "alice",
            "m-1",
            "d2",
            "TP-CCCC-CCCC",
            kind="handoff",
            requested_context=None,
            root_id=None,
        )
    _, sibling = ledger.complete(
        "alice", "m-2", "d3", "TP-DDDD-DDDD", kind="handoff", requested_context=None, root_id=root
    )
    assert sibling.context_id == grant.context_id  # one lineage root, one context


def test_a_receipt_saved_again_replaces_it_with_a_later_number(ledger: LedgerRules) -> None:
    one = ledger.save_receipt("TP-AAAA-AAAA", "k1", version=2, file="a")
    two = ledger.save_receipt("TP-AAAA-AAAA", "k2", version=3, file="b")
    assert two.seq > one.seq
    assert ledger.receipt("TP-AAAA-AAAA") == two
