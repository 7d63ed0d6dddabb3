"""The pack object's field types, checked on raw JSON without building a model.

The judge reads a pack as written and needs only to know which fields have the wrong
type (C2); building the pydantic models (`model`) for that costs more than the rest of
judging a small pack, and importing pydantic more again. So the table of field types
(:data:`RECORDS`) is derived from the models' annotations once, ahead of time, by
:func:`derive` — ``python -m taskpack.core.format.raw_types`` writes it to
`record_types.py`, and `tests/core/format/test_raw_types.py` fails when that file is not
what the models say. `errors` reports what `PackObject.model_validate` would report, as
(field path, message) pairs.

Types are strict, as the models are: a string is a JSON string, a boolean is
``true``/``false``, an integer is a whole JSON number (never ``true``), ``null`` is
allowed for every field. Fields the table does not name are kept, whatever they hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .record_types import RECORDS, Type

__all__ = ["RECORDS", "Type", "derive", "errors", "render"]

#: the records the pack object is made of (each nested one is reached from it)
ROOT = "PackObject"

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


# ---- deriving the table from the models (ahead of time; imports pydantic) --------------


def derive() -> dict[str, dict[str, Type]]:
    """The table of every record the pack object nests, from the models' annotations."""
    from pydantic import BaseModel

    from . import model

    records: dict[str, dict[str, Type]] = {}

    def type_of(annotation: Any) -> Type:
        import types
        import typing

        if annotation is Any:
            return "any"
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
            if len(args) != 1:
                raise TypeError(f"no raw type for {annotation!r}")
            return type_of(args[0])
        if typing.get_origin(annotation) is list:
            (item,) = typing.get_args(annotation)
            return "list" if item is Any else ("list", type_of(item))
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            visit(annotation)
            return annotation.__name__
        return {str: "str", bool: "bool", int: "int"}[annotation]

    def visit(cls: type[BaseModel]) -> None:
        if cls.__name__ in records:
            return
        records[cls.__name__] = {}  # (placed first: the order records are met in)
        records[cls.__name__] = {
            (f.alias or name): type_of(f.annotation) for name, f in cls.model_fields.items()
        }

    visit(getattr(model, ROOT))
    return records


def render(records: dict[str, dict[str, Type]]) -> str:
    """`record_types.py`'s text for `records`."""
    lines = [
        '"""The pack object\'s field types, by record: generated from `model` by',
        "``python -m taskpack.core.format.raw_types``; never edit by hand (see `raw_types`).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        '# a field\'s type: "str", "bool", "int", "any", "list" (of anything),',
        '# ("list", T) or a record name (a JSON object with that record\'s fields)',
        'Type = str | tuple[str, "Type"]',
        "",
        "RECORDS: dict[str, dict[str, Type]] = {",
    ]
    for name, fields in records.items():
        lines.append(f"    {_literal(name)}: {{")
        lines += [f"        {_literal(key)}: {_literal(typ)}," for key, typ in fields.items()]
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _literal(value: Type) -> str:
    """`value` as Python source, in double quotes (as the formatter writes it)."""
    import json

    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v) for v in value) + ")"
    return json.dumps(value)


TABLE = Path(__file__).with_name("record_types.py")

if __name__ == "__main__":
    TABLE.write_text(render(derive()), encoding="utf-8")
