"""How each database spells the queries both stores share.

A query is written once, with ``?`` for each parameter and ``{name}`` for each table; a
:class:`Dialect` turns it into the text its database runs — SQLite's (``?``, plain table
names) or PostgreSQL's (``%s``, each table in the ``taskpack`` schema, the A2A binding's
tables prefixed). No shared query holds a literal ``?``, ``%``, ``{`` or ``}``. What the
two databases do differently (a sequence against ``max() + 1``, advisory locks, ``FOR
UPDATE``) stays in each store; only the words that are the same are written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: the store's tables, and the A2A binding's (in a2a.sqlite3 of their own on SQLite)
STORE_TABLES = (
    "meta",
    "passports",
    "versions",
    "history",
    "luggage",
    "packs_written",
    "landings",
    "blobs",
    "blob_chunks",
    "claims",
)
A2A_TABLES = ("tokens", "contexts", "tasks", "messages", "receipts", "sent")


class Dialect:
    """One database's spelling of the shared queries; each spelled once, then remembered."""

    def __init__(
        self, name: str, *, param: str, tables: Mapping[str, str], no_limit: int | None
    ) -> None:
        self.name = name
        self.param = param
        #: what ``LIMIT ?`` takes to mean "no limit"
        self.no_limit = no_limit
        self.tables = MappingProxyType(dict(tables))
        self._said: dict[str, str] = {}

    def __call__(self, query: str) -> str:
        said = self._said.get(query)
        if said is None:
            said = query.format_map(self.tables)
            if self.param != "?":
                said = said.replace("?", self.param)
            self._said[query] = said
        return said


SQLITE = Dialect(
    "sqlite",
    param="?",
    tables={**{t: t for t in (*STORE_TABLES, *A2A_TABLES)}, "a2a_meta": "meta"},
    no_limit=-1,
)
POSTGRES = Dialect(
    "postgres",
    param="%s",
    tables={
        **{t: f"taskpack.{t}" for t in STORE_TABLES},
        **{t: f"taskpack.a2a_{t}" for t in A2A_TABLES},
        "a2a_meta": "taskpack.meta",
    },
    no_limit=None,
)
