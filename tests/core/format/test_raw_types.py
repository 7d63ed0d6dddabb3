"""`raw_types` (the judge's model-free type check) says what the pydantic models say."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from taskpack.core.format import model, raw_types


def test_the_table_is_what_the_models_say() -> None:
    """`record_types.py` is `derive`'s output, as `render` writes it: regenerate it with
    ``python -m taskpack.core.format.raw_types`` when a model changes."""
    assert raw_types.TABLE.read_text(encoding="utf-8") == raw_types.render(raw_types.derive())
    assert set(raw_types.RECORDS) == {
        "PackObject",
        "Origin",
        "Lineage",
        "PassportState",
        "Fact",
        "Decision",
        "Ask",
        "LandingCheck",
    }


def test_a_changed_model_changes_the_table(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The table follows the models, field by field (not a copy kept beside them)."""
    field = model.Fact.model_fields["verified"]
    monkeypatch.setattr(field, "annotation", int | None)
    assert raw_types.derive()["Fact"]["verified"] == "int"


_any_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _value(typ: raw_types.Type, depth: int = 0) -> st.SearchStrategy[Any]:
    """Mostly the right type, sometimes any JSON at all (often wrong)."""
    if isinstance(typ, tuple):
        right: st.SearchStrategy[Any] = st.lists(_value(typ[1], depth + 1), max_size=2)
    elif typ in raw_types.RECORDS and depth < 3:
        right = _record(typ, depth + 1)
    elif typ == "str":
        right = st.text(max_size=3)
    elif typ == "bool":
        right = st.booleans()
    elif typ == "int":
        right = st.integers(-3, 3)
    elif typ == "list":
        right = st.lists(_any_json, max_size=2)
    else:
        right = _any_json
    return st.one_of(right, right, st.none(), _any_json)


def _record(name: str, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    fields = raw_types.RECORDS[name]
    return st.fixed_dictionaries(
        {}, optional={k: _value(t, depth) for k, t in fields.items()} | {"x-extra": _any_json}
    )


@settings(max_examples=400, deadline=None)
@given(_record("PackObject"))
def test_the_same_fields_are_wrong_as_pydantic_finds(data: dict[str, Any]) -> None:
    try:
        model.PackObject.model_validate(data)
        expected: set[str] = set()
    except ValidationError as exc:
        expected = {".".join(str(p) for p in e["loc"]) for e in exc.errors()}
    assert {place for place, _ in raw_types.errors(data)} == expected


def test_messages_name_the_type_wanted() -> None:
    errs = dict(
        raw_types.errors(
            {
                "kind": 3,
                "lineage": {"from_version": True},
                "passport": {"facts": [None, {"verified": "yes"}]},
            }
        )
    )
    assert errs == {
        "kind": "Input should be a valid string",
        "lineage.from_version": "Input should be a valid integer",
        "passport.facts.0": "Input should be a valid dictionary or instance of Fact",
        "passport.facts.1.verified": "Input should be a valid boolean",
    }
