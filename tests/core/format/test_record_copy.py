"""`copy_record` makes what writing the record out and reading it back makes (`to_data`,
then `from_data`), without that round trip for plain records: the same values, the same
key order (now and after later edits), the same fields set, and nothing shared that is
not asked to be shared."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from taskpack.core.format.model import Ask, Fact, PackObject, Record
from taskpack.core.format.record_pages import AskPages
from test_writing import PROPERTY, pack_objects


def round_trip(record: Record, sharing: tuple[str, ...] = ()) -> Record:
    """The copy as `copy_record` made it before it had a direct path."""
    shared = [n for n in sharing if n in record.model_fields_set and getattr(record, n) is not None]
    copy = type(record).from_data(record.to_data_with({n: [] for n in shared}))
    for name in shared:
        setattr(copy, name, list(getattr(record, name)))
    return copy


def text(record: Record) -> str:
    """Every value and every key's place: what a pack written from it would hold."""
    return json.dumps(record.to_data(), ensure_ascii=False)


def fields_set(value: Any) -> Any:
    if isinstance(value, Record):
        return (
            sorted(value.model_fields_set),
            {k: fields_set(v) for k, v in value.__dict__.items()},
        )
    if isinstance(value, list):
        return [fields_set(v) for v in value]
    return None


def edit(pack: PackObject) -> None:
    """What landing and repairs do to a copy: fields set in code, records added."""
    pack.note = "edited"
    if pack.passport is not None:
        pack.passport.machine_id = "here"
        pack.passport.facts = [*(pack.passport.facts or []), Fact(claim="added", scope="org")]


@PROPERTY
@given(data=pack_objects())
def test_a_copy_is_what_the_round_trip_makes(data: dict) -> None:
    pack = PackObject.from_data(data)
    edit(pack)  # fields set in code come after the keys as read
    for sharing in ((), ("asks",)):
        copy, expected = pack.copy_record(sharing=sharing), round_trip(pack, sharing)
        assert text(copy) == text(expected) == text(pack)
        assert fields_set(copy) == fields_set(expected)
        # the keys the copy remembers place later edits as the round trip's do
        copy.kind, expected.kind = "receipt", "receipt"
        copy.origin, expected.origin = None, None
        edit(copy)
        edit(expected)
        assert text(copy) == text(expected)


@PROPERTY
@given(data=pack_objects())
def test_a_copy_shares_nothing_it_was_not_asked_to(data: dict) -> None:
    pack = PackObject.from_data(data)
    before = text(pack)
    copy = pack.copy_record(sharing=("asks",))
    assert (copy.asks is None) == (pack.asks is None)
    if pack.asks:
        assert copy.asks is not pack.asks and all(
            a is b for a, b in zip(copy.asks, pack.asks, strict=True)
        )
    if copy.passport is not None:
        assert copy.passport is not pack.passport
        copy.passport.title = "changed"
        for fact in copy.passport.facts or []:
            fact.claim = "changed"
        for value in (copy.passport.next_steps or []) + (copy.passport.artifacts or []):
            if isinstance(value, (dict, list)):
                value.clear()  # a JSON value of the copy's own
    for key in list(copy.__pydantic_extra__ or {}):
        value = copy.__pydantic_extra__[key]  # type: ignore[index]
        if isinstance(value, (dict, list)):
            value.clear()
    assert text(pack) == before


def test_a_record_holding_pages_of_asks_is_copied_by_the_round_trip() -> None:
    """Asks kept as pages of JSON text are not plain values: the copy converts them as it
    always has (into records of their own), unless they are shared."""
    asks = [Ask(id=f"a{n}", what=f"question {n}", accept="yes") for n in range(3)]
    pages = AskPages.of(asks)
    pack = PackObject(spec="task-passport-bag/0.1", kind="handoff", note="n")
    pack.asks = pages  # type: ignore[assignment]
    copy = pack.copy_record()
    assert isinstance(copy.asks, list) and [a.id for a in copy.asks] == ["a0", "a1", "a2"]
    assert text(copy) == text(round_trip(pack))
    assert pack.copy_record(sharing=("asks",)).asks is pages
