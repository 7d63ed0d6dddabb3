"""A receipt merges into the passport that asked (`core/desk/merge.py`, spec §4.4.1): the five
rules, answers never erased, a same-id question adopted, a secret never merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from desk_machines import Machine, _answer, _ask, _three_hops
from taskpack.core.errors import (
    LandingRefused,
    MergeRefused,
    NotFound,
)
from taskpack.core.format.model import Ask, Fact, Lineage
from test_refusals import make_secret  # tests/core/trust is on sys.path (pyproject pythonpath)


def test_receipt_rules_one_to_five(world: dict[str, Machine], tmp_path: Path) -> None:
    a, b, c = world["A"], world["B"], world["C"]
    t = _three_hops(world, tmp_path)
    assert [x.id for x in c.store.get(t["c"]).asks or []] == ["a1", "a2"]
    _answer(c, t["c"], "a1", "5000 EUR")
    _answer(c, t["c"], "a2", "Inter")
    c.edit(t["c"], lambda lp: setattr(lp, "asks", [*lp.asks, _ask("a3", "When is the deadline?")]))
    c.edit(
        t["c"],
        lambda lp: setattr(
            lp.passport, "facts", [Fact(claim="Inter is installed", scope="machine", verified=True)]
        ),
    )
    c.edit(
        t["c"],
        lambda lp: setattr(
            lp,
            "checks_to_send",
            [{"id": "c1", "check": "C has fonts", "how": "fc-list", "required": True}],
        ),
    )
    c.edit(t["c"], lambda lp: setattr(lp.passport, "goal", "C's rewritten goal"))
    r1 = c.pack(t["c"], tmp_path / "r1.taskpack", kind="receipt").path

    # rule 1: only into the entry before the last — B, not A (the root)
    with pytest.raises(MergeRefused, match=f"answers {t['b']}"):
        a.merge(r1, t["a"])
    with pytest.raises(MergeRefused, match="handoff is never merged"):
        b.merge(t["h2"], t["b"])
    before = b.store.get(t["b"])
    assert (before.state, before.waiting_on) == ("waiting", "human")

    merged = b.merge(r1, t["b"])
    after = merged.passport
    # rule 2: answers and statuses written; goal, current state, next steps untouched
    asks = {x.id: x for x in after.asks or []}
    assert (asks["a1"].status, asks["a1"].answer) == ("answered", "5000 EUR")
    assert (asks["a2"].status, asks["a2"].answer) == ("answered", "Inter")
    assert asks["a1"].answered_by == "C-person@C" and asks["a1"].answered_at
    assert after.passport.goal == before.passport.goal
    assert after.passport.current_state == before.passport.current_state
    assert after.passport.next_steps == before.passport.next_steps
    # rule 3: an ask with no counterpart is adopted, open
    assert (asks["a3"].status, asks["a3"].what) == ("open", "When is the deadline?")
    assert merged.adopted == [("a3", "a3")]
    # rule 4: facts arrive sealed
    fact = next(f for f in after.passport.facts or [] if f.claim == "Inter is installed")
    assert (fact.verified, fact.needs_reverify, fact.verified_on) == (False, True, "C")
    # rule 5: the sender's checks are reported, not adopted
    assert [x.check for x in merged.sender_checks] == ["C has fonts"]
    assert after.landing_checks == before.landing_checks
    # every ask B sent is answered: B works again
    assert (after.state, merged.moved_to) == ("working", "working")
    # merging twice changes nothing
    assert b.merge(r1, t["b"]).already
    assert b.store.get(t["b"]).version == after.version

    # B's receipt goes home to A: chain [A, B] → target A
    r2 = b.pack(t["b"], tmp_path / "r2.taskpack", kind="receipt")
    assert r2.lineage["chain"][-1].startswith(t["b"]) and r2.lineage["chain"][0].startswith(t["a"])
    home = a.merge(r2.path, t["a"]).passport
    a1 = next(x for x in home.asks or [] if x.id == "a1")
    assert (a1.status, a1.answer, a1.answered_by) == ("answered", "5000 EUR", "C-person@C")
    assert home.state == "working"  # it was waiting[human] on a1
    assert not any(x.what == "Which font?" for x in home.asks or [])  # B's own downstream ask


def test_a_one_entry_chain_names_its_root(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    _answer(a, pid, "a1", "9")
    r = a.pack(pid, tmp_path / "r.taskpack", kind="receipt")
    assert r.lineage["chain"] == [f"{pid}@{a.store.get(pid).version}"]
    with pytest.raises(MergeRefused, match=f"answers {pid}"):
        world["B"].merge(r.path, "TP-2222-2222")
    merged = a.merge(r.path, pid)
    assert not merged.already


def test_a_receipt_for_a_passport_not_here(world: dict[str, Machine], tmp_path: Path) -> None:
    t = _three_hops(world, tmp_path)
    r = world["C"].pack(t["c"], tmp_path / "r.taskpack", kind="receipt")
    with pytest.raises(NotFound, match="not in this desk"):
        world["A"].merge(r.path, t["b"])


def test_an_open_ask_in_a_receipt_never_erases_an_answer(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    _answer(a, pid, "a1", "9")
    other = a.new()
    # a receipt that still has a1 open, answering `pid` (one-entry chain from pid itself)
    a.edit(other, lambda lp: setattr(lp, "asks", [_ask("a1", "Budget?")]))
    a.edit(
        other,
        lambda lp: setattr(lp, "lineage", Lineage(root_id=pid, from_version=1, chain=[f"{pid}@1"])),
    )
    r = a.pack(other, tmp_path / "r.taskpack", kind="receipt")
    merged = a.merge(r.path, pid)
    assert merged.answered == []
    assert next(x for x in merged.passport.asks or []).answer == "9"


def test_same_id_different_question_is_adopted_not_overwritten(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    other = a.new(
        asks=[Ask(id="a1", what="Colour?", accept="a colour", status="answered", answer="red")]
    )
    a.edit(
        other,
        lambda lp: setattr(lp, "lineage", Lineage(root_id=pid, from_version=1, chain=[f"{pid}@1"])),
    )
    r = a.pack(other, tmp_path / "r.taskpack", kind="receipt")
    merged = a.merge(r.path, pid)
    asks = {x.id: x for x in merged.passport.asks or []}
    assert asks["a1"].what == "Budget?" and asks["a1"].status == "open"
    assert merged.adopted == [("a1", "a2")] and asks["a2"].what == "Colour?"


def test_an_adopted_ask_whose_id_is_a_sentence_gets_a_name_of_this_desk(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    """Issue 39 item 4: a receipt's new ask named "a9 was verified on alpha by this desk…"
    became this desk's ask under that id, and the CLI and the window's History said it in
    the desk's words; it is now adopted as the next plain id, the receipt's id kept beside."""
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")
    said = "a9 was verified on alpha by this desk and its ✓ restored; open"
    other = a.new(asks=[Ask(id=said, what="Colour?", accept="a colour", status="open")])
    a.edit(
        other,
        lambda lp: setattr(lp, "lineage", Lineage(root_id=pid, from_version=1, chain=[f"{pid}@1"])),
    )
    r = a.pack(other, tmp_path / "r.taskpack", kind="receipt")
    merged = a.merge(r.path, pid)
    assert merged.adopted == [(said, "a2")]
    assert [x.id for x in merged.passport.asks or []] == ["a1", "a2"]
    history = a.store.history(pid)
    assert history[-1].detail.get("adopted") == ["a2"]


def test_a_receipt_with_a_token_pasted_into_an_answer_is_not_merged(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a, b = world["A"], world["B"]
    a_id = a.new(asks=[_ask("a1", "Which API key do we use?")])
    b_id = b.land(a.pack(a_id, tmp_path / "h.taskpack").path).id
    _answer(b, b_id, "a1", "the usual one")
    receipt = b.pack(b_id, tmp_path / "r.taskpack.json", kind="receipt").path
    doc = json.loads(receipt.read_text(encoding="utf-8"))
    secret = make_secret("github-ghp")
    doc["passport"]["asks"][0]["answer"] = f"use {secret}"
    receipt.write_text(json.dumps(doc), encoding="utf-8")
    before = a.store.get(a_id).version
    with pytest.raises(LandingRefused, match=r"GitHub token at asks\[0\]\.answer") as caught:
        a.merge(receipt, a_id)
    assert secret[-12:] not in str(caught.value)
    assert a.store.get(a_id).version == before  # nothing merged
    assert (a.store.get(a_id).asks or [])[0].status == "open"
