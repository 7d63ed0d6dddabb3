"""The CLI's one way to print what a pack chose: quoted, or bare only when it is a plain id.

A person reading a terminal tells the desk's words from a sender's by the guillemets:
every string that came from a pack is printed between « and » (made visible on one line
first, a credential withheld by kind), and a guillemet inside it is escaped, so no text
can close the quote early and go on in the desk's voice. An id stands bare only when it
reads as one (:mod:`taskpack.core.trust.plain_words`).
"""

from __future__ import annotations

import re
from typing import Any

from taskpack.core.errors import SENDER_PARAMS, Finding, Refused, TaskPackError
from taskpack.core.trust.plain_words import (
    is_plain_id,
    is_plain_name,
    is_plain_token,
    is_plain_value,
    look_alike,
    plain_place,
    spelled_out,
)
from taskpack.core.trust.visible_text import visible


def quoted(value: Any) -> str:
    """A sender's text between « and », on one line; a credential in it withheld."""
    from taskpack.core.trust.refusals import shown_text

    text = visible(shown_text("" if value is None else str(value)))
    return "«" + text.replace("«", "\\u00ab").replace("»", "\\u00bb") + "»"


def ident(value: Any) -> str:
    """An ask's or a check's id: bare when plain (``a1``), else quoted."""
    return str(value) if is_plain_id(value) else quoted(value)


def name(value: Any) -> str:
    """A file name a pack chose (luggage): bare when plain (``notes.txt``), else quoted."""
    return str(value) if is_plain_name(value) else quoted(value)


def token(value: Any) -> str:
    """A lineage entry, kind, time or digest: bare when plain, else quoted."""
    from taskpack.core.trust.refusals import holds_credential

    if value is not None and not isinstance(value, str):
        value = str(value)
    return value if is_plain_token(value) and not holds_credential(value) else quoted(value)


def place(value: Any) -> str:
    """Where in a pack: the format's field names bare, a key or a file name the sender
    chose named as such (the place as the pack spells it follows, quoted)."""
    shown = plain_place(value)
    return shown if shown == value else f"{shown} {quoted(value)}"


#: history detail keys whose values the desk wrote (states, its reasons, field names)
_DESK_KEYS = frozenset({"why", "move", "changed"})
#: a lifecycle state as the desk says it (``working``, ``waiting[human]``)
_STATE = re.compile(r"^[a-z_]+(?:\[[a-z_]+\])?$")


def history_detail(words: dict[str, Any]) -> str:
    """A history entry's detail on one line: the desk's own values as they are, each value
    that may have come from a pack bare only when plain."""
    return ", ".join(
        f"{k}={visible(v) if k in _DESK_KEYS or _is_state(v) else detail_value(v)}"
        for k, v in words.items()
        if v not in (None, [], "")
    )


def _is_state(value: Any) -> bool:
    return isinstance(value, str) and bool(_STATE.match(value))


def standing_words(fact: Any, machine: str) -> str:
    """How a fact stands here: the machines and people it names as the pack does are
    quoted unless plain."""
    from taskpack.core.trust.sealing import standing

    shown = fact.copy_record()
    for attr in ("verified_on", "verified_by", "source", "source_actor"):
        if getattr(shown, attr, None) is not None:
            setattr(shown, attr, token(getattr(shown, attr)))
    return standing(shown, machine=machine).text


def detail_value(value: Any) -> str:
    """A value in a history entry: plain tokens bare, anything else quoted."""
    if isinstance(value, list):
        return "[" + ", ".join(detail_value(v) for v in value) + "]"
    if isinstance(value, bool | int | float):
        return str(value)
    return token(value)


def error_line(exc: TaskPackError) -> str:
    """An error's one line, each value in it that a pack chose quoted (or, for a place,
    named as a key the sender chose): the params and findings say which values."""
    sentence = str(exc)
    values: list[str] = []
    for key in SENDER_PARAMS:
        value = exc.params.get(key)
        if isinstance(value, str) and value:
            values += [value, *value.split(", ")]
    findings = exc.findings if isinstance(exc, Refused) else []
    places = [f.place.split(" @ byte ")[0] for f in findings]
    alike = look_alike(exc.params.get("name"), exc.params.get("other"))
    marks: list[str] = []
    for value in sorted({*values, *places}, key=len, reverse=True):
        if value in sentence and not is_plain_value(value):
            shown = place(value) if value in places else quoted(value)
            if alike and value in (exc.params.get("name"), exc.params.get("other")):
                shown = quoted(spelled_out(value))  # show how the look-alikes differ
            sentence = sentence.replace(value, f"\ue000{len(marks)}\ue001")
            marks.append(shown)
    sentence = visible(sentence)
    for n, shown in enumerate(marks):
        sentence = sentence.replace(f"\ue000{n}\ue001", shown)
    return sentence


def finding_line(finding: Finding) -> str:
    at, sep, byte = finding.place.partition(" @ byte ")
    return f"{visible(finding.kind)} at {place(at)}{sep}{byte}"


#: a value quoted as repr() writes it (a quote inside escaped with a backslash)
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")


def desk_sentence(sentence: str) -> str:
    """A sentence the desk wrote about a pack (a repair, a reader's note, a sealed fact):
    its words as they are, each value it quotes that is not a plain name in guillemets."""

    def keep(m: re.Match[str]) -> str:
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        return m.group(0) if not inner or is_plain_value(inner) else quoted(inner)

    return visible(_QUOTED.sub(keep, sentence))


def answered_words(ask: Any, came: str | None) -> str:
    """Who answered: an answer that came in a pack says so, whatever its answered_by says."""
    if not came:
        return f"{token(ask.answered_by)} {token(ask.answered_at)}"
    when = f", {token(ask.answered_at)}" if ask.answered_at else ""
    return f"answered by {token(ask.answered_by or 'someone')}, in a {came} (not here){when}"


def ask_named(desk: Any, passport_id: str, given: str) -> str:
    """The id of the ask `given` names: its id, or the ``#`` handle of one that is not plain
    (the agents' tools give the same handles)."""
    from taskpack.app.mcp import refs

    asks = desk.get(passport_id).asks or []
    return refs.resolve(given, (a.id for a in asks), "ask", passport_id)
