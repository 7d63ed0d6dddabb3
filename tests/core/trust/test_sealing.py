"""Sealing (spec §4.2) and the C6 check: a ✓ does not cross a machine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.errors import RestoreRefused
from taskpack.core.format.model import Fact, PackObject
from taskpack.core.trust.sealing import can_restore, restore, seal_facts, unsealed_facts


def _pack(facts: list[dict[str, Any]], actor: str | None = "ana@laptop") -> PackObject:
    data: dict[str, Any] = {"spec": "task-passport-bag/0.1", "kind": "handoff"}
    if actor is not None:
        data["origin"] = {"actor": actor, "machine": "m1"}
    data["passport"] = {"id": "TP-2345-6789", "facts": facts}
    return PackObject.from_data(data)


def _facts(pack: PackObject) -> list[dict[str, Any]]:
    return [f.to_data() for f in pack.facts]


def test_a_verified_machine_fact_is_sealed_with_where_it_was_proven() -> None:
    pack = _pack(
        [
            {"claim": "port 8080 is free", "scope": "machine", "verified": True},
            {"claim": "the build passes", "verified": True},  # no scope counts as machine
            {"claim": "odd", "scope": "galaxy", "verified": True},  # unknown scope too
        ]
    )
    notes = seal_facts(pack, machine="m1")
    assert _facts(pack) == [
        {
            "claim": "port 8080 is free",
            "scope": "machine",
            "verified": False,
            "needs_reverify": True,
            "verified_on": "m1",
        },
        {
            "claim": "the build passes",
            "verified": False,
            "needs_reverify": True,
            "verified_on": "m1",
        },
        {
            "claim": "odd",
            "scope": "galaxy",
            "verified": False,
            "needs_reverify": True,
            "verified_on": "m1",
        },
    ]
    assert notes == [
        f"sealed passport.facts[{i}]: it was verified on 'm1' and must be re-verified on the "
        "machine that lands it"
        for i in range(3)
    ]


def test_an_existing_verified_on_is_kept() -> None:
    pack = _pack([{"claim": "x", "verified": True, "verified_on": "builder-7"}])
    seal_facts(pack, machine="m1")
    assert _facts(pack)[0]["verified_on"] == "builder-7"


def test_org_facts_keep_their_tick_and_name_who_vouched() -> None:
    pack = _pack(
        [
            {"claim": "we deploy on Fridays", "scope": "org", "verified": True},
            {"claim": "said by Bo", "scope": "org", "verified": True, "source_actor": "bo@desk"},
        ]
    )
    notes = seal_facts(pack, machine="m1")
    assert _facts(pack) == [
        {
            "claim": "we deploy on Fridays",
            "scope": "org",
            "verified": True,
            "source_actor": "ana@laptop",
        },
        {"claim": "said by Bo", "scope": "org", "verified": True, "source_actor": "bo@desk"},
    ]
    assert notes == [
        "annotated passport.facts[0]: it holds inside the organisation of 'ana@laptop'"
    ]


def test_universal_and_unverified_facts_travel_as_written() -> None:
    facts = [
        {"claim": "the customer wants PDF", "scope": "universal", "verified": True},
        {"claim": "maybe the port is free", "scope": "machine", "verified": False},
        {"claim": "not checked yet"},
    ]
    pack = _pack(json.loads(json.dumps(facts)))
    assert seal_facts(pack, machine="m1") == []
    # an unverified fact gets no verified_on: it was never proven anywhere
    assert _facts(pack) == facts


def test_without_an_origin_actor_org_facts_are_not_annotated() -> None:
    pack = _pack([{"claim": "x", "scope": "org", "verified": True}], actor=None)
    assert seal_facts(pack, machine="m1") == []
    assert "source_actor" not in _facts(pack)[0]


fact_dicts = st.fixed_dictionaries(
    {"claim": st.text(max_size=20)},
    optional={
        "scope": st.sampled_from(["universal", "org", "machine", "Machine", "", "weird"]),
        "verified": st.booleans(),
        "needs_reverify": st.booleans(),
        "verified_on": st.sampled_from(["", "m1", "m2", "builder"]),
        "source_actor": st.sampled_from(["bo@desk", ""]),
        "source": st.text(max_size=5),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(fact_dicts, max_size=6),
    st.sampled_from(["ana@laptop", None]),
    st.sampled_from(["m1", "m9"]),
)
def test_sealing_is_idempotent_and_leaves_nothing_unsealed(
    facts: list[dict[str, Any]], actor: str | None, machine: str
) -> None:
    pack = _pack(facts, actor)
    seal_facts(pack, machine=machine)
    once = json.dumps(pack.to_data(), ensure_ascii=False)
    assert seal_facts(pack, machine=machine) == []
    assert json.dumps(pack.to_data(), ensure_ascii=False) == once  # byte-identical
    reread = PackObject.from_data(json.loads(once))  # as the receiver reads it
    assert seal_facts(reread, machine="elsewhere") == []
    assert json.dumps(reread.to_data(), ensure_ascii=False) == once
    assert unsealed_facts(json.loads(once)) == []
    for before, after in zip(facts, pack.facts, strict=True):
        assert after.claim == before["claim"]  # sealing never rewrites what was claimed
        if after.effective_scope != "machine":
            assert after.verified == before.get("verified")


# --- C6, read strictly -----------------------------------------------------------------


def test_unsealed_facts_names_every_tick_that_would_cross() -> None:
    data = {
        "passport": {
            "facts": [
                {"claim": "a", "scope": "machine", "verified": True},
                {"claim": "b", "verified": True},  # no scope: machine
                {"claim": "c", "scope": "universal", "verified": True},
                {"claim": "d", "scope": "org", "verified": True},
                {"claim": "e", "scope": "machine", "verified": False, "needs_reverify": True},
                {"claim": "f", "scope": "unknown", "verified": True},
                {"claim": "g", "verified": "true"},  # not JSON true: not a tick (and not repaired)
                "not a fact",
            ]
        }
    }
    assert unsealed_facts(data) == ["passport.facts[0]", "passport.facts[1]", "passport.facts[5]"]


@pytest.mark.parametrize("data", [{}, {"passport": None}, {"passport": {"facts": "x"}}, []])
def test_unsealed_facts_on_odd_shapes_is_empty_not_an_error(data: Any) -> None:
    assert unsealed_facts(data) == []


def test_unsealed_facts_does_not_repair_its_input() -> None:
    data = {"passport": {"facts": [{"claim": "a", "verified": True}]}}
    before = json.dumps(data)
    assert unsealed_facts(data) == ["passport.facts[0]"]
    assert json.dumps(data) == before


# --- restoring a tick --------------------------------------------------------------------

SEALED = {
    "claim": "x",
    "scope": "machine",
    "verified": False,
    "needs_reverify": True,
    "verified_on": "m1",
}


def test_restore_is_allowed_on_the_same_machine_for_a_fact_sealed_here() -> None:
    fact = Fact.from_data(dict(SEALED))
    ok, reason = can_restore(fact, this_machine="m1", sealed_here=True)
    assert ok and reason
    restore(fact)
    assert fact.verified is True and fact.needs_reverify is False
    assert fact.verified_on == "m1"


@pytest.mark.parametrize(
    ("fact", "machine", "sealed_here", "says"),
    [
        (SEALED, "m2", True, "not on this machine"),
        (SEALED, "m1", False, "no record of proving it here"),
        ({**SEALED, "verified_on": None}, "m1", True, "does not say where"),
        ({**SEALED, "needs_reverify": False}, "m1", True, "not sealed"),
        ({"claim": "x", "verified": True}, "m1", True, "not sealed"),
    ],
)
def test_restore_is_refused_with_a_reason_a_person_understands(
    fact: dict[str, Any], machine: str, sealed_here: bool, says: str
) -> None:
    ok, reason = can_restore(
        Fact.from_data(dict(fact)), this_machine=machine, sealed_here=sealed_here
    )
    assert not ok
    assert says in reason
    assert reason.endswith(".") and "\n" not in reason


def test_restoring_a_fact_that_is_not_sealed_raises() -> None:
    fact = Fact.from_data({"claim": "x", "verified": False})
    with pytest.raises(RestoreRefused):
        restore(fact)
    assert fact.verified is False


def test_standing_says_where_a_fact_is_proven() -> None:
    from taskpack.core.trust.sealing import standing

    def of(**fact: Any) -> str:
        return standing(Fact.from_data(fact), machine="alpha").text

    # recorded here with a ✓ (no verified_on: made on this desk), or verified on alpha
    assert of(claim="c", scope="machine", verified=True) == "✓ proven here (alpha)"
    assert of(claim="c", verified=True, verified_on="alpha") == "✓ proven here (alpha)"
    # a restored ✓ is proven here too
    fact = Fact.from_data(
        {"claim": "c", "verified": False, "needs_reverify": True, "verified_on": "alpha"}
    )
    assert standing(fact, machine="alpha").kind == "unproven_here"
    restore(fact)
    assert standing(fact, machine="alpha").text == "✓ proven here (alpha)"
    assert standing(fact, machine="beta").kind == "claimed_elsewhere"
    assert (
        of(claim="c", verified=False, needs_reverify=True, verified_on="beta")
        == "⚠ unproven here (verified on beta)"
    )
    assert of(claim="c", scope="universal", verified=True).startswith("✓ carried (universal fact")
    assert of(claim="c", scope="org", verified=True, source="it-dept").endswith(
        "; source: it-dept)"
    )
    assert of(claim="c") == "· not verified (machine fact)"


def test_sealing_a_working_copy_never_changes_the_pack_as_read() -> None:
    """Landing seals a copy that shares the pack's records (100,000 facts are not copied
    twice): a fact is copied before sealing changes it, and the others stay shared."""
    from taskpack.core.desk.review import working_copy
    from taskpack.core.format.model import PackObject
    from taskpack.core.trust.sealing import seal_facts

    read = PackObject.from_data(
        {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "origin": {"actor": "Wei", "machine": "a"},
            "passport": {
                "id": "TP-1",
                "facts": [
                    {
                        "claim": "builds here",
                        "scope": "machine",
                        "verified": True,
                        "verified_on": "a",
                    },
                    {"claim": "CSV stays", "scope": "org"},
                    {"claim": "agreed", "scope": "universal", "verified": True},
                ],
            },
        }
    )
    before = read.to_data()
    copy = working_copy(read)
    assert copy.to_data() == before and list(copy.to_data()) == list(before)
    notes = seal_facts(copy, machine="a")
    assert len(notes) == 2
    assert read.to_data() == before  # the pack as read: untouched
    assert copy.facts[0].verified is False and copy.facts[0].needs_reverify is True
    assert copy.facts[1].source_actor == "Wei"
    assert copy.facts[2] is read.facts[2]  # what sealing did not change is shared, not copied
    assert copy.passport is not read.passport and copy.passport.facts is not read.passport.facts
