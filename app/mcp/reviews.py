"""A pack under review as an agent reads it (`taskpack_show`, `taskpack_land`): the head
(what kind of pack, counts over every row) and one page of its lists (:mod:`.paging`),
required landing checks first. Like :mod:`.views`, every written string goes under
``sender_wrote``; nothing here changes anything."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from taskpack.app.mcp import paging
from taskpack.app.mcp.boundary import line, text
from taskpack.app.mcp.views import (
    ask_view,
    check_view,
    desk_sentence,
    fact_kind,
    fact_view,
    imperative_view,
    lineage_chain,
    lineage_view,
    luggage_view,
    plain_id,
    plain_time,
    status,
    text_sections,
    token,
    wire_encoding,
)
from taskpack.core.errors import LandingRefused
from taskpack.core.format.model import PassportState

if TYPE_CHECKING:
    from taskpack.app.desk import Desk
    from taskpack.core.desk.review import LandingReview


def unrefused(rv: LandingReview) -> LandingReview:
    """`rv`, unless the pack carries a credential or a chat transcript: then refused as
    landing it would be, named by kind and place, none of its text shown (as the CLI's
    `land --dry-run` and `show` refuse it)."""
    if rv.secrets and not rv.already:
        raise LandingRefused(rv.secrets)
    return rv


def _state(rv: LandingReview) -> PassportState:
    state = PassportState(
        title=rv.title, goal=rv.goal, current_state=rv.current_state, next_steps=list(rv.next_steps)
    )
    extra = getattr(rv, "decisions", None)
    if extra:
        state.decisions = extra
    for name in ("artifacts", "learnings"):
        value = getattr(rv, name, None)
        if value:
            setattr(state, name, value)
    return state


def review_page(desk: Desk, rv: LandingReview, cursor: str | None = None) -> dict[str, Any]:
    """The review of a pack, one page of it (the first, or the one `cursor` names)."""
    machine = desk.machine
    facts, asks, checks = list(rv.facts), list(rv.asks), list(rv.landing_checks)
    state = _state(rv)
    origin = rv.origin or {}
    head: dict[str, Any] = {
        "path": line(str(rv.path)) or "",
        "kind": rv.kind,
        "encoding": wire_encoding(rv.encoding),
        "content_digest": rv.content_digest,
        "already": rv.already,
        "written_here": rv.written_here,
        "counts": {  # nothing in a pack is checked here yet
            "required_checks": sum(1 for c in checks if c.is_required),
            "facts_to_reverify": sum(
                1 for f in facts if fact_kind(f, machine) in ("unproven_here", "claimed_elsewhere")
            ),
            "open_asks": sum(1 for a in asks if status(a.status) == "open"),
        },
        "lineage": lineage_view(rv.lineage, chain=False),
        "packed_at": plain_time(rv.packed_at),
        "sender_wrote": {"title": text(state.title), "goal": text(state.goal)}
        | {"current_state": text(state.current_state)},
        "origin": {
            "sender_wrote": {
                "actor": line(origin.get("actor")),
                "machine": line(origin.get("machine")),
                "harness": line(origin.get("harness")),
                "note": text(rv.note),
            }
        },
    }
    if rv.kind == "receipt":
        head |= {"receipt_target": token(rv.receipt_target), "target_here": rv.target_here}
    else:
        head["initial_state"] = rv.initial_state

    def check(n: int) -> dict[str, Any]:
        return check_view(checks[n]) | {"checked_here": False}

    def bag(n: int) -> dict[str, Any]:
        x = rv.luggage[n]
        return luggage_view(str(x.get("name")), int(x.get("size") or 0), x.get("sha256"))  # type: ignore[arg-type]

    chain = lineage_chain(rv.lineage)
    imps, sealed, notes = list(rv.imperatives), list(rv.sealed), list(rv.notes)
    sections = [
        paging.Section("landing_checks", len(checks), check),  # required first already
        paging.Section("facts", len(facts), lambda n: fact_view(n + 1, facts[n], machine)),
        # (every answer in a pack is the sender's)
        paging.Section("asks", len(asks), lambda n: ask_view(asks[n], rv.kind)),
        paging.Section("imperatives", len(imps), lambda n: imperative_view(imps[n])),
        paging.Section("sealed", len(sealed), lambda n: desk_sentence(sealed[n])),
        paging.Section("luggage", len(rv.luggage), bag),
        paging.Section("reader_notes", len(notes), lambda n: desk_sentence(notes[n])),
        *text_sections(state),
        paging.Section("lineage.chain", len(chain), lambda n: token(chain[n]) or ""),
    ]
    if rv.kind == "receipt":
        answer, adopt = list(rv.would_answer), list(rv.would_adopt)
        sections += [
            paging.Section("would_answer", len(answer), lambda n: plain_id(answer[n]) or ""),
            paging.Section("would_adopt", len(adopt), lambda n: plain_id(adopt[n]) or ""),
        ]
    # the pack's contents name the cursor: one cut from other contents is refused
    stamp = "d" + hashlib.sha256(str(rv.content_digest).encode()).hexdigest()[:16]
    return paging.paged(head, sections, stamp, cursor)
