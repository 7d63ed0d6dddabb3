"""The pack object's field types, checked on raw JSON without building a model.

The judge reads a pack as written and needs only to know which fields have the wrong
type (C2); building the pydantic models (`model`) for that costs more than the rest of
judging a small pack. This table says the same thing as the models' annotations —
`tests/core/format/test_raw_types.py` holds the two together — and `errors` reports what
`PackObject.model_validate` would report, as (field path, message) pairs.

Types are strict, as the models are: a string is a JSON string, a boolean is
``true``/``false``, an integer is a whole JSON number (never ``true``), ``null`` is
allowed for every field. Fields the table does not name are kept, whatever they hold.
"""

from __future__ import annotations

from typing import Any

# a field's type: "str", "bool", "int", "any", "list" (of anything), ("list", T) or a
# record name (a JSON object with that record's fields)
Type = str | tuple[str, "Type"]

RECORDS: dict[str, dict[str, Type]] = {
    "Fact": {
        "claim": "str",
        "scope": "str",
        "verified": "bool",
        "needs_reverify": "bool",
        "verified_on": "str",
        "source": "str",
        "verified_by": "str",
        # annotations this desk writes (a pack's value is taken as sent)
        "source_actor": "any",
        "landing_check": "any",
    },
    "Decision": {"what": "str", "why": "str"},
    "Ask": {
        "id": "str",
        "to": "str",
        "what": "str",
        "why": "str",
        "accept": "str",
        "status": "str",
        "answer": "any",
        "answered_by": "str",
        "answered_at": "str",
    },
    "LandingCheck": {
        "id": "str",
        "check": "str",
        "how": "str",
        "required": "bool",
        "checked_on": "any",
        "checked_by": "any",
        "checked_at": "any",  # written by this desk
    },
    "Origin": {"actor": "str", "machine": "str", "harness": "str"},
    "Lineage": {"root_id": "str", "from_version": "int", "chain": ("list", "str")},
    "PassportState": {
        "id": "str",
        "title": "str",
        "goal": "str",
        "version": "int",
        "machine_id": "str",
        "harness": "str",
        "scope": "str",
        "created_at": "str",
        "updated_at": "str",
        "current_state": "str",
        "facts": ("list", "Fact"),
        "decisions": ("list", "Decision"),
        "actions": "list",
        "artifacts": "list",
        "verification": "any",
        "next_steps": "list",
        "learnings": "list",
    },
    "PackObject": {
        "spec": "str",
        "kind": "str",
        "packed_at": "str",
        "origin": "Origin",
        "lineage": "Lineage",
        "note": "str",
        "passport": "PassportState",
        "asks": ("list", "Ask"),
        "landing_checks": ("list", "LandingCheck"),
    },
}

_MESSAGES = {
    "str": "Input should be a valid string",
    "bool": "Input should be a valid boolean",
    "int": "Input should be a valid integer",
    "list": "Input should be a valid list",
}


def errors(data: Any, record: str = "PackObject") -> list[tuple[str, str]]:
    """(field path, message) for every field of `data` whose type is wrong."""
    out: list[tuple[str, str]] = []
    _check(data, record, (), out)
    return out


def _check(value: Any, typ: Type, path: tuple[str, ...], out: list[tuple[str, str]]) -> None:
    if isinstance(typ, tuple):
        if not isinstance(value, list):
            out.append((".".join(path), _MESSAGES["list"]))
            return
        for i, item in enumerate(value):  # a list's elements are never null
            _check(item, typ[1], (*path, str(i)), out)
        return
    if typ == "any":
        return
    if typ == "str":
        ok = isinstance(value, str)
    elif typ == "bool":
        ok = isinstance(value, bool)
    elif typ == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif typ == "list":
        ok = isinstance(value, list)
    else:
        if not isinstance(value, dict):
            out.append((".".join(path), f"Input should be a valid dictionary or instance of {typ}"))
            return
        for key, field_type in RECORDS[typ].items():
            v = value.get(key)
            if v is not None:
                _check(v, field_type, (*path, key), out)
        return
    if not ok:
        out.append((".".join(path), _MESSAGES[typ]))
