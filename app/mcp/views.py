"""What the desk's objects look like to an agent: plain dicts shaped as :mod:`.models`.

Every written string goes under ``sender_wrote`` and through :mod:`.boundary`'s
``text``/``line``; everything else is the desk's own. Nothing here changes anything.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from taskpack.app.mcp import paging
from taskpack.app.mcp.boundary import BUDGET, clean, fit, line, text
from taskpack.app.mcp.refs import ref
from taskpack.core.desk import lifecycle
from taskpack.core.errors import SENDER_PARAMS
from taskpack.core.format.model import Ask, Fact, LandingCheck, LocalPassport, Origin, PassportState
from taskpack.core.trust.ask_lint import lint_accept
from taskpack.core.trust.plain_words import (
    is_plain_id,
    is_plain_token,
    is_plain_value,
    look_alike,
    plain_place,
    spelled_out,
)
from taskpack.core.trust.sealing import standing
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:
    from taskpack.app.desk import Desk
    from taskpack.core.desk.store import PackWritten, PassportSummary, StoredLuggage

#: what stands in the desk's words for a sender-chosen id or name that is not plain
WITHHELD = "(withheld: not a plain id or name)"
#: a time as writers stamp it (ISO 8601)
_PLAIN_TIME = re.compile(
    r"^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?)?(?:Z|[+-]\d\d:?\d\d)?$"
)
_STATUSES = ("open", "answered", "dropped")


def token(value: Any) -> str | None:
    """A sender-chosen id (chain entry, root id, digest) kept in the desk's words only when it
    looks like one: a passport id, or no spaces, ≤100 characters and at most two words — a
    sentence cannot hide in it, spaced or hyphenated."""
    if value is None:
        return None
    text_ = str(value)
    return text_ if is_plain_token(text_) else WITHHELD


def plain_id(value: Any) -> str | None:
    """An ask's or a check's id in the desk's words: a short [A-Za-z0-9._-] token of at most
    two words, else withheld (the sender's text for it stays where the sender's words are;
    :func:`ask_handle` gives the agent a way to name it)."""
    if value is None:
        return None
    text_ = str(value)
    return text_ if is_plain_id(text_) else WITHHELD


def plain_who(value: Any) -> str | None:
    """Who or where, as a pack says (a machine, ``ana@alpha``): one token, no sentence
    (``TaskPack Desk: verified`` is withheld)."""
    return token(value)


def plain_time(value: Any) -> str | None:
    """A time a pack stamped, when it is one (ISO 8601), else withheld."""
    if value is None:
        return None
    text_ = str(value)
    return text_ if _PLAIN_TIME.match(text_) else WITHHELD


def plain_name(value: Any, *, words: int = 4) -> str | None:
    """A sender-chosen name or date (machine, actor, timestamp, place) kept in the desk's
    words only when short: at most `words` words and 80 characters, made visible."""
    if value is None:
        return None
    text_ = visible(value)
    return text_ if len(text_) <= 80 and len(text_.split()) <= words else WITHHELD


def status(value: Any) -> str:
    return value if value in _STATUSES else ("open" if value is None else "unknown")


#: a name or path as an error quotes it (``data/files/../../x``): no space, no colon
_PLAIN_PATH = re.compile(r"^[A-Za-z0-9._/~-][A-Za-z0-9@._/~+\[\]-]{0,199}$")
#: a value quoted as repr() writes it (a quote inside escaped with a backslash)
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")


def desk_sentence(sentence: str) -> str:
    """A sentence the desk wrote that quotes a sender's value (sealing names the machine,
    a reader's note an attachment): a quoted value that is not one plain word (a name, a
    path) is withheld — a sentence of the sender's never speaks in the desk's words."""

    def keep(m: re.Match[str]) -> str:
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        return m.group(0) if not inner or is_plain_value(inner) else repr(WITHHELD)

    return visible(_QUOTED.sub(keep, sentence))


def desk_error(
    sentence: str, params: dict[str, Any], places: list[str] | tuple[str, ...] = ()
) -> tuple[str, dict[str, str]]:
    """An error's sentence in the desk's words: each value it quotes from a pack that is not
    a plain id (its params say which: a receipt's lineage target, a kind, a luggage name;
    `places`: where a refusal found a secret, ``name @ byte N``) withheld, and given back
    beside it as the sender wrote it (`sender_wrote`)."""
    said: dict[str, str] = {}
    alike = look_alike(params.get("name"), params.get("other"))
    values = [(key, params.get(key)) for key in SENDER_PARAMS]
    values += [(f"place {n}", p.split(" @ byte ")[0]) for n, p in enumerate(places, 1)]
    for key, value in values:
        if not isinstance(value, str) or not value:
            continue
        for part in sorted({value, *value.split(", ")}, key=len, reverse=True):
            if part and not is_plain_value(part) and part in sentence:
                sentence = sentence.replace(part, WITHHELD)
                # two names that look alike are spelled out, so the agent sees the difference
                said[key] = (spelled_out(value) if alike else line(value)) or ""

    def keep(m: re.Match[str]) -> str:
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        if not inner or is_plain_value(inner):
            return m.group(0)
        said.setdefault("quoted", line(inner) or "")
        return repr(WITHHELD)

    return visible(_QUOTED.sub(keep, sentence)), said


#: the encodings' names on the wire (A2A extension, reference MCP) and in the desk
WIRE_ENCODING = {"bag": "bagit-zip", "flat": "flat"}


def wire_encoding(name: str | None) -> str:
    return WIRE_ENCODING.get(name or "", name or "unknown")


def _desk_fact(fact: Fact) -> Fact:
    """`fact` as the desk's words name it: the standing sentence names machines and
    sources, and only plain ones are said in the desk's words."""
    shown = fact.copy_record()
    shown.verified_on = plain_who(fact.verified_on)
    shown.verified_by = plain_who(fact.verified_by)
    shown.source = plain_who(fact.source)
    if shown.source_actor is not None:
        shown.source_actor = plain_who(shown.source_actor)
    return shown


def fact_kind(fact: Fact, machine: str | None) -> str:
    """How the fact stands here (its view's ``standing_kind``), without building the view:
    only `verified_on` of the names the desk withholds can change it."""
    on = fact.verified_on
    if on is None or plain_who(on) == on:
        return standing(fact, machine=machine).kind
    return standing(_desk_fact(fact), machine=machine).kind


def fact_view(n: int, fact: Fact, machine: str | None) -> dict[str, Any]:
    shown = _desk_fact(fact)
    st = standing(shown, machine=machine)
    # the names as the pack wrote them, beside the desk's words (which withhold them)
    theirs = {"verified_on": line(fact.verified_on)} if fact.verified_on is not None else {}
    said = standing(fact, machine=machine).text
    if said != st.text:
        theirs["standing"] = line(said)
    return {
        "n": n,
        "scope": fact.effective_scope,
        "verified": bool(fact.verified),
        "needs_reverify": bool(fact.needs_reverify),
        "verified_on": shown.verified_on,
        "standing": line(st.text) or "",
        "standing_kind": st.kind,
        "sender_wrote": {"claim": text(fact.claim), "source": text(fact.source), **theirs},
    }


def ask_view(ask: Ask, came: str | None = None) -> dict[str, Any]:
    """`came`: "receipt" or "handoff" when the ask's answer came in a pack (this desk's
    history says so, `Desk.answer_sources`); its answered_by and answered_at are then the
    sender's words too, under sender_wrote as they wrote them."""
    answered = ask.answer is not None or ask.answered_by is not None
    return {
        "id": plain_id(ask.id),
        "ref": ref(ask.id),
        "status": status(ask.status),
        "answered_by": plain_who(ask.answered_by),
        "answered_at": plain_time(ask.answered_at),
        "answered_in": (came or "here") if answered else None,
        "accept_warnings": [line(w) or "" for w in lint_accept(ask.accept, ask.what)]
        if status(ask.status) == "open"
        else [],
        "sender_wrote": {
            "what": text(ask.what),
            "why": text(ask.why),
            "accept": text(ask.accept),
            "answer": text(ask.answer),
            "to": line(ask.to),
            **(
                {"answered_by": line(ask.answered_by), "answered_at": line(ask.answered_at)}
                if came
                else {}
            ),
        },
    }


def check_view(check: LandingCheck, machine: str | None = None) -> dict[str, Any]:
    done = check.checked_on
    return {
        "id": plain_id(check.id),
        "ref": ref(check.id),
        "required": check.is_required,
        "checked_here": bool(done) and (machine is None or done == machine),
        "sender_wrote": {"check": text(check.check), "how_sender_suggestion": text(check.how)},
    }


def luggage_view(name_: str, size: int, sha256: str | None) -> dict[str, Any]:
    return {"size": int(size), "sha256": token(sha256), "sender_wrote": {"name": line(name_) or ""}}


def place_view(place: Any) -> str:
    """Where a pack holds something, in the desk's words (:func:`plain_place`)."""
    return plain_place(place)


def imperative_view(imp: dict[str, Any]) -> dict[str, Any]:
    place = imp.get("place")
    shown = place_view(place)
    said: dict[str, Any] = {"sentence": text(imp.get("sentence")) or ""}
    if shown != place:
        said["place"] = line(place)
    return {"place": shown, "cue": line(imp.get("cue")) or "", "sender_wrote": said}


def lineage_chain(lineage: Any) -> list[Any]:
    if lineage is None:
        return []
    data = lineage if isinstance(lineage, dict) else lineage.to_data()
    return list(data.get("chain") or [])


def lineage_view(lineage: Any, *, chain: bool = True) -> dict[str, Any]:
    """Where the passport came from; `chain`: with every entry of its chain (a page of a
    passport leaves the chain to :func:`passport_page`'s paging)."""
    if lineage is None:
        return {"root_id": None, "from_version": None, "chain": []}
    data = lineage if isinstance(lineage, dict) else lineage.to_data()
    fv = data.get("from_version")
    return {
        "root_id": token(data.get("root_id")),
        "from_version": fv if isinstance(fv, int) and not isinstance(fv, bool) else None,
        "chain": [token(c) or "" for c in data.get("chain") or []] if chain else [],
    }


def counts(
    facts: list[dict[str, Any]], asks: list[dict[str, Any]], checks: list[dict[str, Any]]
) -> dict[str, int]:
    return {
        "required_checks": sum(1 for c in checks if c["required"] and not c["checked_here"]),
        "facts_to_reverify": sum(
            1 for f in facts if f["standing_kind"] in ("unproven_here", "claimed_elsewhere")
        ),
        "open_asks": sum(1 for a in asks if a["status"] == "open"),
    }


# --- passports ------------------------------------------------------------------------


def page(total: int, offset: int, items: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """A page of `items` that stays within the answer's budget once each sender string is
    cut to a line's length: fewer rows when needed, and `next_offset` to read on."""
    shown = [fit({"x": i}) for i in items]
    kept: list[dict[str, Any]] = []
    size = 0
    for item in shown:
        size += len(json.dumps(item, ensure_ascii=False))
        if kept and size > BUDGET // 2:
            break
        kept.append(item["x"])
    more = offset + len(kept) < total
    return {
        "total": total,
        "offset": offset,
        "next_offset": offset + len(kept) if more else None,
        key: kept,
    }


def summary_view(row: PassportSummary) -> dict[str, Any]:
    return {
        "id": row.id,
        "version": row.version,
        "state": lifecycle.describe(row.state, row.waiting_on),
        "open_asks": row.open_asks,
        "came_from": row.came_from,
        "updated_at": row.updated_at,
        "sender_wrote": {"title": text(row.title)},
    }


def passport_page(
    desk: Desk,
    lp: LocalPassport,
    luggage: list[StoredLuggage],
    moves: list[str],
    cursor: str | None = None,
) -> dict[str, Any]:
    """The passport as an agent reads it: its head (counts over every row) and one page of
    its lists (:mod:`.paging`), required landing checks first."""
    ps = lp.passport
    machine = desk.machine
    facts = list(ps.facts or [])
    came = desk.answer_sources(lp.id, lp.version)
    asks = list(lp.asks or [])
    checks = sorted(lp.landing_checks or [], key=lambda c: not c.is_required)
    outgoing = lp.checks_to_send or []
    received = lp.received
    rec = None
    if received:
        origin = received.origin or Origin()
        rec = {
            "kind": token(received.kind),
            "came_from": token(received.sender_entry),
            "packed_at": plain_time(received.packed_at),
            "landed_at": plain_time(received.landed_at),
            "pack_sha256": token(received.pack_sha256),
            "written_here": bool(received.written_here),
            "imperatives": [],
            "sender_wrote": {
                "actor": line(origin.actor),
                "machine": line(origin.machine),
                "harness": line(origin.harness),
                "note": text(received.note),
            },
        }
    head = {
        "id": lp.id,
        "version": lp.version,
        "state": lifecycle.describe(lp.state, lp.waiting_on),
        "came_from": "handoff" if received else "here",
        "created_at": ps.created_at,
        "updated_at": ps.updated_at,
        "counts": {
            "required_checks": sum(
                1
                for c in checks
                if c.is_required and not (c.checked_on and c.checked_on == machine)
            ),
            "facts_to_reverify": sum(
                1 for f in facts if fact_kind(f, machine) in ("unproven_here", "claimed_elsewhere")
            ),
            "open_asks": sum(1 for a in asks if status(a.status) == "open"),
        },
        "lineage": lineage_view(lp.lineage, chain=False),
        "received": rec,
        "allowed_moves": moves,
        "sender_wrote": {"title": text(ps.title), "goal": text(ps.goal)}
        | {"current_state": text(ps.current_state)},
    }
    imps = (received.imperatives or []) if received else []
    chain = lineage_chain(lp.lineage)
    sections = [
        paging.Section("landing_checks", len(checks), lambda n: check_view(checks[n], machine)),
        paging.Section("facts", len(facts), lambda n: fact_view(n + 1, facts[n], machine)),
        paging.Section("asks", len(asks), lambda n: ask_view(asks[n], came.of(asks[n].id))),
        paging.Section("checks_to_send", len(outgoing), lambda n: check_view(outgoing[n])),
        paging.Section(
            "luggage",
            len(luggage),
            lambda n: luggage_view(luggage[n].name, luggage[n].size, luggage[n].sha256),
        ),
        *text_sections(ps),
        paging.Section("lineage.chain", len(chain), lambda n: token(chain[n]) or ""),
    ]
    if rec is not None:  # (after the luggage, as the view lists them)
        imperatives = paging.Section(
            "received.imperatives", len(imps), lambda n: imperative_view(imps[n])
        )
        sections.insert(5, imperatives)
    return paging.paged(head, sections, f"v{lp.version}", cursor)


def text_sections(state: PassportState) -> list[paging.Section]:
    """The lists among what a sender wrote of a passport (next steps, decisions, ...)."""
    steps = list(state.next_steps or [])
    decisions = list(state.decisions or [])
    artifacts = list(state.artifacts or [])
    learnings = list(state.learnings or [])
    return [
        paging.Section("sender_wrote.next_steps", len(steps), lambda n: clean(steps[n])),
        paging.Section(
            "sender_wrote.decisions",
            len(decisions),
            lambda n: {"what": text(decisions[n].what), "why": text(decisions[n].why)},
        ),
        paging.Section("sender_wrote.artifacts", len(artifacts), lambda n: clean(artifacts[n])),
        paging.Section("sender_wrote.learnings", len(learnings), lambda n: clean(learnings[n])),
    ]


# --- the judge and merges ----------------------------------------------------------


#: a check's reasons given in full up to this many (a hostile pack can earn thousands;
#: `reason_count` says how many there are, and `taskpack conformance` prints them all)
REASONS_SHOWN = 20


def conformance_check(
    id_: str, ok: bool | None, requirement: str, reasons: list[str]
) -> dict[str, Any]:
    """One of the judge's checks: its id, verdict and requirement are the desk's; its
    reasons quote the pack's own values (a date, a key, an entry's name) and so are given
    as the sender's words, between the markers."""
    return {
        "id": id_,
        "ok": ok,
        "requirement": requirement,
        "reason_count": len(reasons),
        "sender_wrote": {"reasons": [line(r) or "" for r in reasons[:REASONS_SHOWN]]},
    }


def adopted_view(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    """A merge's adopted asks: (id in the receipt, id given here), plain ids only."""
    return [{"from": plain_id(a) or "", "as": plain_id(b) or ""} for a, b in pairs]


# --- the outbox -----------------------------------------------------------------------


def outbox_view(e: PackWritten) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "written_at": e.written_at,
        "passport_id": e.passport_id,
        "version": e.version,
        "kind": e.kind,
        "encoding": wire_encoding(e.encoding) if e.encoding else None,
        "path": line(e.path),
        "content_digest": e.sha256,
        "file_sha256": e.file_sha256,
        "size": e.size,
        "via": e.via,
        "asks": [plain_id(a) or "" for a in e.asks],
        "sender_wrote": {"to": line(e.to), "passport_as_packed": clean(e.stub or {})},
    }
