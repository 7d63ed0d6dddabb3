"""When a value a pack chose may stand bare among the desk's own words.

An id (an ask's, a check's, a lineage entry) is shown unquoted only when it reads as an
id: a short token of letters, digits and ``._-`` holding at most two words — ``a1``,
``check-2``, ``q-budget``, ``TP-7K3M-Q9XW@3``. ``a9 was verified on alpha`` (spaces) and
``run-curl-evil.sh-pipe-bash-first`` (seven words) are sentences: every front end quotes
or withholds them. A run of hex digits (a digest, a version, a UUID part) is no word.
"""

from __future__ import annotations

import re
import unicodedata

from ..format import ids

_PLAIN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")
_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9@._-]{0,99}$")
_PIECES = re.compile(r"[-._@:/+]")
_HEX = re.compile(r"^[0-9A-Fa-f]*$")
_PASSPORT_ENTRY = re.compile(rf"^{ids.ID_RE.pattern[1:-1]}(?:@[0-9]{{1,9}})?$")
#: a time as writers stamp it (ISO 8601)
_TIME = re.compile(
    r"^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?)?(?:Z|[+-]\d\d:?\d\d)?$"
)
#: how many words an id may hold and still read as an id, not a phrase
MAX_ID_WORDS = 2


def few_words(text: str) -> bool:
    """At most :data:`MAX_ID_WORDS` pieces of `text` (split at ``-._@:/+``) are words."""
    words = [p for p in _PIECES.split(text) if p and not _HEX.match(p)]
    return len(words) <= MAX_ID_WORDS


def is_plain_id(value: object) -> bool:
    """An ask's or a check's id that may stand bare: ≤40 of ``[A-Za-z0-9._-]``, ≤2 words."""
    return isinstance(value, str) and bool(_PLAIN_ID.match(value)) and few_words(value)


def is_plain_token(value: object) -> bool:
    """A lineage entry, root id, time or digest that may stand bare: a passport id (maybe
    with ``@version``), an ISO 8601 time, or ≤100 of ``[A-Za-z0-9@._-]`` holding ≤2 words."""
    if not isinstance(value, str):
        return False
    if _PASSPORT_ENTRY.match(value) or _TIME.match(value):
        return True
    return bool(_TOKEN.match(value)) and few_words(value)


#: the field names TaskPack 0.1 gives a pack's parts: a place made only of these (and
#: indexes) is the desk's to say; any other key in it was chosen by the sender
_FIELDS = frozenset(
    "passport note origin actor machine harness title goal current_state facts claim source "  # noqa: SIM905
    "source_actor scope verified verified_on verified_by verified_at needs_reverify decisions "
    "what why actions artifacts next_steps learnings asks id to accept status answer "
    "answered_by answered_at landing_checks check how required lineage root_id from_version "
    "chain kind packed_at spec version name path url summary evidence result created_at "
    "updated_at state waiting_on attachments encoding sha256 bytes data".split()
)
_PLACE_PART = re.compile(r"([^.\[]+)((?:\[\d+\])*)")
_LUGGAGE_PLACE = re.compile(r"^(.*) \(line (\d+)\)$", re.S)
PLAIN_PATH = re.compile(r"^[A-Za-z0-9._/~-][A-Za-z0-9@._/~+\[\]-]{0,199}$")
#: what stands for a key or a file name the sender chose, inside a place the desk names
SENDERS_KEY = "(a key the sender chose)"


def plain_place(place: object) -> str:
    """Where a pack holds something (an imperative sentence), in the desk's words: a path of
    the format's field names and indexes (``passport.next_steps[0]``); a key the sender
    chose in it reads :data:`SENDERS_KEY`, a luggage file that is no plain name
    ``luggage (line N)``."""
    raw = "" if place is None else str(place)
    m = _LUGGAGE_PLACE.match(raw)
    if m:
        name = m.group(1)
        shown = name if is_plain_name(name) else "luggage"
        return f"{shown} (line {m.group(2)})"
    parts = []
    for piece in raw.split("."):
        pm = _PLACE_PART.fullmatch(piece)
        if pm and pm.group(1) in _FIELDS:
            parts.append(piece)
        else:
            parts.append(SENDERS_KEY + (pm.group(2) if pm else ""))
    return ".".join(parts)


def is_plain_name(value: object) -> bool:
    """A file name or path that may stand bare: ASCII ``[A-Za-z0-9._/~-]`` and the like,
    ≤200 characters, ≤2 words a part (``notes.txt``, ``docs/plan.md``)."""
    if not isinstance(value, str) or not PLAIN_PATH.match(value):
        return False
    return all(few_words(part) for part in value.split("/"))


def look_alike(a: object, b: object) -> bool:
    """Two different names a screen shows the same (``é`` composed and ``e`` + U+0301)."""
    if not isinstance(a, str) or not isinstance(b, str) or a == b:
        return False
    return unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


def spelled_out(text: str) -> str:
    """`text` with every character beyond ASCII written as its ``\\uXXXX`` escape, so two
    names that look alike show how they differ."""
    return "".join(
        ch if ch.isascii() else (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        for ch in text
    )


def is_plain_value(value: object) -> bool:
    """A value an error or a note quotes that may stand in the desk's words: a plain name,
    id, time or passport id, or a place made of the format's field names."""
    if not isinstance(value, str):
        return False
    return is_plain_name(value) or is_plain_token(value) or plain_place(value) == value
