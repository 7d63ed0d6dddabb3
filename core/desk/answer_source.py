"""Whose answer an ask holds: one written on this desk, or one that came in a pack.

An answer merged from a receipt (or carried in by a landed handoff) says who answered it
in the sender's own words (``answered_by: "root@alpha"``), which can read exactly like an
answer given here — or name this desk's own person. So where an answer came from is
never read from the answer: it is read from this desk's own history of the passport,
the one rule every front end shows (CLI, window, MCP). The latest event that set an
ask's answer decides: an ``answer`` made here, a ``merged`` receipt (the asks it answered
and the ones it adopted), or the ``landed`` handoff the passport began as.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .store import HistoryEntry

#: where an answer came from, when not from this desk
IN_RECEIPT = "receipt"
IN_HANDOFF = "handoff"


@dataclass(frozen=True)
class AnswerSources:
    """Where each ask's answer came from, as this desk's history says."""

    #: ask id -> IN_RECEIPT, IN_HANDOFF, or "" (written here), for asks an event named
    named: dict[str, str] = field(default_factory=dict)
    #: the passport began as a landed handoff: an ask no later event named holds what
    #: the handoff carried
    landed: bool = False

    def of(self, ask_id: str | None) -> str | None:
        """ "receipt" or "handoff" when the ask's answer came in a pack, else None."""
        came = self.named.get(ask_id or "")
        if came is None:
            return IN_HANDOFF if self.landed else None
        return came or None


def answer_sources(history: Iterable[HistoryEntry], version: int | None = None) -> AnswerSources:
    """Where each ask's answer came from, as of `version` (the newest when None)."""
    named: dict[str, str] = {}
    landed = False
    for entry in sorted(history, key=lambda h: h.seq):
        if version is not None and entry.version > version:
            break
        detail = entry.detail if isinstance(entry.detail, dict) else {}
        if entry.event == "landed":
            landed, named = True, {}
        elif entry.event == "merged":
            for key in ("answered", "adopted"):
                for ask_id in _ids(detail.get(key)):
                    named[ask_id] = IN_RECEIPT
        elif entry.event == "answer":  # written here (one ask, or several at once)
            for ask_id in [*_ids([detail.get("ask")]), *_ids(detail.get("answered"))]:
                named[ask_id] = ""
    return AnswerSources(named, landed)


def _ids(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
