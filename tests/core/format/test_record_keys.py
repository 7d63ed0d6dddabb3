"""The keys `to_data` writes and their order: the keys as they arrived (those still set),
then fields set in code in the order they are declared, then unknown keys set in code.

`Record._written_keys` answers most records (read, nothing set since) in one pass; these
tests hold it to the whole rule, written out here, on read records edited in code in
every way landing and repairs edit them."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from taskpack.core.format.model import Fact, PackObject, Received, Record
from test_writing import PROPERTY, pack_objects


def rule(record: Record) -> tuple[str, ...]:
    """The order `to_data` must write, from the rule in the module's docstring."""
    names = {(f.alias or k): k for k, f in type(record).model_fields.items()}
    extra = record.__pydantic_extra__ or {}
    given = record.model_fields_set
    out: dict[str, None] = {}
    for key in record._key_order():
        if key in extra or names.get(key) in given:
            out[key] = None
    for key, name in names.items():
        if name in given:
            out.setdefault(key, None)
    for key in extra:
        out.setdefault(key, None)
    return tuple(out)


def records(value: Any) -> list[Record]:
    """`value` and every record inside it."""
    if isinstance(value, Record):
        found = [value]
        for v in value.__dict__.values():
            found += records(v)
        for v in (value.__pydantic_extra__ or {}).values():
            found += records(v)
        return found
    if isinstance(value, list):
        return [r for v in value for r in records(v)]
    return []


EDITS = st.lists(
    st.sampled_from(["note", "kind", "unknown", "passport-title", "passport-facts", "fact"]),
    max_size=4,
)


def edit(pack: PackObject, what: str) -> None:
    if what == "note":
        pack.note = "set in code"
    elif what == "kind":
        pack.kind = "receipt"
    elif what == "unknown":
        pack.zz_set_in_code = {"a": [1, "b"]}  # type: ignore[attr-defined]
    elif what == "passport-title" and pack.passport is not None:
        pack.passport.title = "set in code"
    elif what == "passport-facts" and pack.passport is not None:
        pack.passport.facts = [Fact(claim="added", scope="org")]
    elif what == "fact" and pack.facts:
        pack.facts[0].verified = True


@PROPERTY
@given(data=pack_objects(), edits=EDITS)
def test_every_record_writes_its_keys_by_the_rule(data: dict, edits: list[str]) -> None:
    pack = PackObject.from_data(data)
    for what in edits:
        edit(pack, what)
    for copy in (pack, pack.copy_record()):
        for record in records(copy):
            assert record._written_keys() == rule(record)
            assert tuple(record.to_data()) == rule(record)


def test_a_field_set_in_code_comes_after_the_keys_as_read() -> None:
    fact = Fact.from_data({"verified": False, "claim": "c", "zz": 1})
    assert tuple(fact.to_data()) == ("verified", "claim", "zz")
    fact.source = "here"  # set in code: after the keys as read
    fact.yy = 2  # type: ignore[attr-defined]  # an unknown key set in code: last
    assert tuple(fact.to_data()) == ("verified", "claim", "zz", "source", "yy")


def test_a_field_read_by_its_name_is_written_by_its_key() -> None:
    # `from` is the key; a record that came with the field's name writes the key, in
    # the place of the fields set in code
    received = Received.from_data({"kind": "handoff", "sender_entry": "bob@1"})
    assert received.to_data() == {"kind": "handoff", "from": "bob@1"}


def test_a_key_with_a_lone_surrogate_and_a_field_set_in_code_are_both_written() -> None:
    # such a key is kept as an unknown one without pydantic knowing it was given
    fact = Fact.from_data({"claim": "c", "odd\ud800": 1})
    fact.source = "here"
    assert tuple(fact.to_data()) == ("claim", "odd\ud800", "source")
    assert fact.copy_record().to_data() == fact.to_data()
