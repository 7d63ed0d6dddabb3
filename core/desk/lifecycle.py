"""The task lifecycle (seeds/task-states.md): ten states, 22 moves, nothing else.

A task is in one `state`; while it is ``waiting`` it also says what it waits on
(`waiting_on`: ``owner_approval``, ``human`` or ``agent``), and where a waiting task may
go depends on that. Every move is checked against :data:`MOVES`; a move the table does
not list raises :class:`~taskpack.core.errors.InvalidMove` (code ``invalid_state``) and
the caller changes nothing.

Where a task starts (a choice of this desk, not of the table):

* a passport **made here** starts ``working`` — it is the owner's own work, already taken
  on, so there is nobody to route it to or accept it from;
* a **landed handoff** starts ``requested``; the permission gate then routes it
  (sender on the allow list) or holds it as ``waiting[owner_approval]`` (the default).

The gate and the result shape live here too, because both decide moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import InvalidMove, UsageError

STATES = (
    "requested",
    "routed",
    "accepted",
    "working",
    "waiting",
    "verifying",
    "approval",
    "completed",
    "rejected",
    "cancelled",
)
WAITING_ON = ("owner_approval", "human", "agent")
TERMINAL = frozenset({"completed", "rejected", "cancelled"})

START_MADE_HERE = "working"
START_LANDED = "requested"


@dataclass(frozen=True)
class Move:
    """One allowed move. `from_waiting`/`to_waiting` narrow a ``waiting`` end (else None)."""

    source: str
    target: str
    why: str
    from_waiting: frozenset[str] | None = None
    to_waiting: frozenset[str] | None = None

    def allows(self, state: str, waiting_on: str | None) -> bool:
        if state != self.source:
            return False
        return self.from_waiting is None or waiting_on in self.from_waiting


_OWNER = frozenset({"owner_approval"})
_PEOPLE = frozenset({"human", "agent"})

#: the protocol's full set of allowed moves, in the order the seed lists them
MOVES: tuple[Move, ...] = (
    Move("requested", "routed", "the gate allows it"),
    Move("requested", "waiting", "the gate holds it for the owner", to_waiting=_OWNER),
    Move("waiting", "routed", "the owner approves", from_waiting=_OWNER),
    Move("waiting", "rejected", "the owner denies", from_waiting=_OWNER),
    Move("routed", "accepted", "the assignee takes it on"),
    Move("routed", "rejected", "the assignee declines"),
    Move("accepted", "working", "work starts"),
    Move("working", "waiting", "paused for a person's or an agent's answer", to_waiting=_PEOPLE),
    Move("waiting", "working", "the answer came", from_waiting=_PEOPLE),
    Move("working", "verifying", "a result with evidence was returned"),
    Move("verifying", "completed", "the evidence holds"),
    Move("verifying", "approval", "verified work waits for sign-off"),
    Move("verifying", "working", "the evidence fails"),
    Move("approval", "completed", "signed off"),
    Move("approval", "working", "changes were asked for"),
    Move("approval", "rejected", "sign-off refused"),
    *(
        Move(s, "cancelled", "withdrawn before it finished")
        for s in ("requested", "routed", "accepted", "working", "waiting", "approval")
    ),
)
if len(MOVES) != 22:  # the table in seeds/task-states.md has 22 rows; -O must not hide it
    raise RuntimeError(f"the state table has {len(MOVES)} moves, not the 22 of task-states.md")


def describe(state: str, waiting_on: str | None) -> str:
    """``waiting[human]`` for a waiting task, else the state itself."""
    return f"{state}[{waiting_on}]" if state == "waiting" and waiting_on else state


def allowed_moves(state: str, waiting_on: str | None) -> list[Move]:
    """Every move the table allows from here (empty for a task that has ended)."""
    return [m for m in MOVES if m.allows(state, waiting_on)]


def check_move(
    state: str, waiting_on: str | None, target: str, target_waiting_on: str | None = None
) -> Move:
    """The table's move from (state, waiting_on) to (target, target_waiting_on), or InvalidMove.

    A move into ``waiting`` must say what it waits on; any other target must not.
    """
    here = describe(state, waiting_on)
    there = describe(target, target_waiting_on)
    if target not in STATES:
        raise InvalidMove(
            f"invalid_state: {target!r} is not a task state",
            hint=f"Use one of: {', '.join(STATES)}.",
        )
    if target == "waiting" and target_waiting_on is None:
        wanted = {w for m in allowed_moves(state, waiting_on) if m.to_waiting for w in m.to_waiting}
        options = [w for w in WAITING_ON if w in wanted]
        raise InvalidMove(
            f"invalid_state: a waiting task must say what it waits on (from {here})",
            hint=f"Add --waiting-on {'|'.join(options) or 'human|agent'}.",
        )
    if target != "waiting" and target_waiting_on is not None:
        raise InvalidMove(
            f"invalid_state: only a waiting task waits on something, not {target}",
            hint="Leave out --waiting-on.",
        )
    for move in allowed_moves(state, waiting_on):
        if move.target != target:
            continue
        if move.to_waiting is None or target_waiting_on in move.to_waiting:
            return move
    raise InvalidMove(
        f"invalid_state: a task cannot move from {here} to {there}", hint=_hint(state, waiting_on)
    )


def _hint(state: str, waiting_on: str | None) -> str:
    options = allowed_moves(state, waiting_on)
    if not options:
        return f"A {state} task has ended; nothing moves it on."
    targets: list[str] = []
    for m in options:
        names = (
            [describe(m.target, w) for w in WAITING_ON if w in m.to_waiting]
            if m.to_waiting
            else [m.target]
        )
        targets += [n for n in names if n not in targets]
    return f"From {describe(state, waiting_on)} it can move to: {', '.join(targets)}."


# --- the permission gate ----------------------------------------------------------------


def gate_allows(origin: Mapping[str, Any] | None, allow: Iterable[str]) -> bool:
    """Does the owner's allow list let a handoff from `origin` through without asking?

    An entry matches the sender's actor, its machine, or ``actor@machine`` exactly (case
    ignored); ``*`` allows everyone. An empty list — the default — holds everything for
    the owner. What a pack says about its sender is the sender's word (spec §4.5): the
    allow list decides routing only, never what the desk trusts or runs.
    """
    actor = str((origin or {}).get("actor") or "").strip().casefold()
    machine = str((origin or {}).get("machine") or "").strip().casefold()
    names = {n for n in (actor, machine, f"{actor}@{machine}" if actor and machine else "") if n}
    for entry in allow:
        wanted = entry.strip().casefold()
        if wanted == "*" or (wanted and wanted in names):
            return True
    return False


# --- a returned result ------------------------------------------------------------------

EVIDENCE_KINDS = ("test_output", "screenshot", "link", "pull_request", "commit", "note")
PROVENANCES = ("agent_generated", "from_approved_context", "owner_approved", "owner_instruction")
_SLUG = r"[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38}"
RETURNED_BY_RE = re.compile(rf"^{_SLUG}/{_SLUG}$")
_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
_RESULT_KEYS = ("summary", "evidence", "provenance", "returned_by", "returned_at")
_EVIDENCE_KEYS = ("kind", "summary", "url", "content")


def slug(text: str) -> str:
    """A name squeezed into the seed's ``owner/agent`` slug alphabet (``Zhang Wei`` → ``zhang-wei``)."""
    out = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")
    out = re.sub(r"-{2,}", "-", out)[:39].strip("-")
    return out or "unknown"


def check_result(result: Mapping[str, Any]) -> None:
    """Raise UsageError naming the first way `result` breaks the seed's result shape.

    Shape: ``summary`` (1–4000 chars), ``evidence`` (1–20 items of ``{kind, summary,
    url?, content?}``, kind one of :data:`EVIDENCE_KINDS`), ``provenance``,
    ``returned_by`` (``owner/agent`` slugs), ``returned_at`` (RFC 3339), nothing else.
    """

    def bad(what: str) -> UsageError:
        return UsageError(f"the result {what}", hint="Fix it and return the result again.")

    if not isinstance(result, Mapping):
        raise bad("must be an object")
    extra = [k for k in result if k not in _RESULT_KEYS]
    if extra:
        raise bad(f"has fields the shape does not allow: {', '.join(map(str, extra))}")
    summary = result.get("summary")
    if not isinstance(summary, str) or not 1 <= len(summary) <= 4000:
        raise bad("needs a summary of 1 to 4000 characters")
    evidence = result.get("evidence")
    if not isinstance(evidence, list) or not 1 <= len(evidence) <= 20:
        raise bad("needs 1 to 20 pieces of evidence")
    for n, item in enumerate(evidence, 1):
        if not isinstance(item, Mapping):
            raise bad(f"evidence #{n} must be an object")
        extra = [k for k in item if k not in _EVIDENCE_KEYS]
        if extra:
            raise bad(
                f"evidence #{n} has fields the shape does not allow: {', '.join(map(str, extra))}"
            )
        if item.get("kind") not in EVIDENCE_KINDS:
            raise bad(
                f"evidence #{n} has kind {item.get('kind')!r}; use one of {', '.join(EVIDENCE_KINDS)}"
            )
        text = item.get("summary")
        if not isinstance(text, str) or not 1 <= len(text) <= 500:
            raise bad(f"evidence #{n} needs a summary of 1 to 500 characters")
        url = item.get("url")
        if url is not None and (not isinstance(url, str) or not _URI_RE.match(url)):
            raise bad(f"evidence #{n} has a url that is not an absolute URI")
        content = item.get("content")
        if content is not None and (not isinstance(content, str) or len(content) > 8000):
            raise bad(f"evidence #{n} content must be text of at most 8000 characters")
    if result.get("provenance") not in PROVENANCES:
        raise bad(f"provenance must be one of {', '.join(PROVENANCES)}")
    by = result.get("returned_by")
    if not isinstance(by, str) or not RETURNED_BY_RE.match(by):
        raise bad("returned_by must look like owner/agent (lower-case letters, digits, dashes)")
    at = result.get("returned_at")
    if not isinstance(at, str) or not _is_datetime(at):
        raise bad("returned_at must be a date-time such as 2026-08-16T03:11:04Z")


def _is_datetime(text: str) -> bool:
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$", text):
        return False
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
