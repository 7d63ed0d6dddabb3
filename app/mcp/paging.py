"""One answer within the budget, however many rows the thing it shows holds.

A passport (or a pack under review) can carry thousands of facts, asks or next steps; an
agent harness refuses a result past ~25,000 tokens. So an answer is its head (ids, state,
counts over everything) plus *pages* of its lists, taken in a fixed order — required
landing checks first — until :data:`~.boundary.BUDGET` is spent. Rows are built only for
the page shown, so a hostile 100,000-fact passport costs one page of memory, not 100,000
views.

The answer's ``page`` says, per list, how many rows it holds in all and which of them are
shown; when more remain it gives ``next_cursor``, which the agent passes back as
``cursor``. A cursor names the version it was cut from: one from an older version is
refused in one sentence (the rows may have moved), never silently misread; so is one
cut from a pack whose contents have changed since.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taskpack.app.mcp.boundary import BUDGET, fit
from taskpack.core.errors import UsageError

#: how much of the budget a page fills (head and rows): its text repeats it more loosely
#: (indented, with the markers), and the two together stay under ~25,000 tokens
_FILL = BUDGET // 2
#: the least room a page gives its rows, however large its head is (fit cuts the rest)
_LEAST_ROOM = BUDGET // 8
_CURSOR = re.compile(r"^([a-z][0-9a-f]{1,16})((?:\.\d{1,12}){1,40})$")


@dataclass(frozen=True)
class Section:
    """A list in the answer: where it sits (``facts``, ``sender_wrote.next_steps``), how
    many rows it holds, and how to build row `n` (only the rows shown are built)."""

    name: str
    total: int
    row: Callable[[int], Any]


def cursor_of(stamp: str, offsets: list[int]) -> str:
    """Where each list goes on from, for what they were read from (`stamp`: ``v3``, the
    passport's version; ``d`` and the first hex digits of a pack's content digest)."""
    return f"{stamp}." + ".".join(str(n) for n in offsets)


def _cut_from(stamp: str) -> str:
    return f"version {stamp[1:]}" if stamp.startswith("v") else "a pack of other contents"


def parse_cursor(cursor: str | None, stamp: str, sections: list[Section]) -> list[int]:
    """The row each section goes on from (all 0 for no cursor)."""
    if not cursor:
        return [0] * len(sections)
    m = _CURSOR.match(cursor)
    offsets = [int(n) for n in m.group(2)[1:].split(".")] if m else []
    if not m or len(offsets) != len(sections):
        raise UsageError(
            "that cursor is not one this desk gave",
            hint="Pass the `page.next_cursor` of the previous answer unchanged, or no cursor.",
        )
    if m.group(1) != stamp:
        raise UsageError(
            f"that cursor was cut from {_cut_from(m.group(1))}; this is {_cut_from(stamp)} now",
            hint="Read it again from the first page (no cursor): its rows may have moved.",
        )
    if any(n > s.total for n, s in zip(offsets, sections, strict=True)):
        raise UsageError(
            "that cursor is past the end of a list",
            hint="Pass the `page.next_cursor` of the previous answer unchanged, or no cursor.",
        )
    return offsets


def _put(data: dict[str, Any], name: str, rows: list[Any]) -> None:
    *outer, last = name.split(".")
    node = data
    for key in outer:
        node = node.setdefault(key, {})
    node[last] = rows


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False))


class _Filler:
    """The rows of one page: each list first gets a fair share of the room (so one list of
    10,000 rows does not hide the three asks after it), then what is left goes to the
    lists in order."""

    def __init__(self, sections: list[Section], offsets: list[int], room: int) -> None:
        self.sections, self.room = sections, room
        self.next = list(offsets)
        self.rows: list[list[Any]] = [[] for _ in sections]
        self.used = 0
        self._built: dict[int, tuple[Any, int]] = {}

    def _row(self, i: int) -> tuple[Any, int]:
        if i not in self._built:
            row = fit({"x": self.sections[i].row(self.next[i])})["x"]  # one row alone fits
            self._built[i] = (row, _size(row) + 2)
        return self._built[i]

    def take(self, i: int, limit: int, force: bool = False) -> None:
        """Rows of section `i` while they fit in `limit` (the section's or the page's)."""
        spent = 0
        while self.next[i] < self.sections[i].total:
            row, cost = self._row(i)
            too_big = spent + cost > limit or self.used + cost > self.room
            if too_big and not (force and not any(self.rows)):  # (a page shows one row at least)
                return
            del self._built[i]
            self.rows[i].append(row)
            self.next[i] += 1
            spent += cost
            self.used += cost
            force = False

    def fill(self) -> None:
        left = [i for i, s in enumerate(self.sections) if self.next[i] < s.total]
        if not left:
            return
        for i in left:
            self.take(i, self.room // len(left))
        for i in left:
            self.take(i, self.room, force=True)


def paged(
    head: dict[str, Any], sections: list[Section], stamp: str, cursor: str | None
) -> dict[str, Any]:
    """`head` with each section's rows for the page `cursor` names, and ``page``."""
    offsets = parse_cursor(cursor, stamp, sections)
    data = dict(head)
    for s in sections:
        _put(data, s.name, [])
    filler = _Filler(sections, offsets, max(_FILL - _size(fit(data)), _LEAST_ROOM))
    filler.fill()
    spans: list[dict[str, Any]] = []
    for s, first, rows in zip(sections, offsets, filler.rows, strict=True):
        _put(data, s.name, rows)
        if s.total:
            spans.append({"list": s.name, "total": s.total, "from": first, "shown": len(rows)})
    done = all(n >= s.total for n, s in zip(filler.next, sections, strict=True))
    data["page"] = {
        "cursor": cursor,
        "next_cursor": None if done else cursor_of(stamp, filler.next),
        "complete": done and not cursor,
        "lists": spans,
    }
    return data


def page_note(data: dict[str, Any], what: str = "passport", via: str | None = None) -> str:
    """The desk's sentence about a page: empty when the answer shows everything."""
    page = data.get("page") or {}
    if page.get("complete", True):
        return ""
    parts = []
    for span in page["lists"]:
        if span["shown"]:
            parts.append(
                f"{span['list']} {span['from'] + 1}–{span['from'] + span['shown']} "
                f"of {span['total']}"
            )
    shown = "; ".join(parts) or "no rows"
    if page["next_cursor"]:
        tool = f" to {via}" if via else ""
        more = f' More follows: pass cursor "{page["next_cursor"]}"{tool} to read on.'
    else:
        more = " This is the last page."
    return f" This answer is one page of a large {what} ({shown}).{more}"
