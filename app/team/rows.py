"""Values into and out of the team desk's rows: text PostgreSQL can hold (no NUL, no lone
surrogate; the JSON keeps them as escapes), the same JSON text the embedded desk writes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taskpack.core.desk.sqlite_schema import sql_text


def pg_text(value: str | None) -> str | None:
    """A string a PostgreSQL text column takes (NUL and lone surrogates as escapes)."""
    value = sql_text(value)
    return value.replace("\x00", "\\u0000") if value and "\x00" in value else value


def pg_args(args: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(pg_text(a) if isinstance(a, str) else a for a in args)


def signed(who: str | None, role: str | None) -> str | None:
    """A history row's "who": the name and machine the desk gave, beside the database
    role the server saw sign in (the one a person cannot choose). Rows from before the
    server recorded it (or copied in by `store migrate`) have no role."""
    if not role:
        return who
    return f"{who} (role {role})" if who else f"role {role}"
