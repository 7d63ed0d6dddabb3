"""Finding the one pack in a reply as it arrives from chat or email (spec §2, §2.2).

A colleague with nothing installed answers through their chat app or their AI: what comes
back is text. The pack may be the whole text, sit inside a Markdown fence (```json …```),
or have a greeting before it and a sign-off after it; the text may start with a
byte-order mark, use Windows line endings, or (PowerShell's ``>``) be UTF-16.
:func:`find_pack_in_text` finds the single pack object in it, or says in one sentence
why it cannot::

    found = find_pack_in_text(text)      # FoundPack, or a FormatError / LimitExceeded
    found.flat_bytes                     # a .taskpack.json to open like any other file
    found.notes                          # what reading it from text had to put up with

A *pack object* here is a JSON object with a ``taskpack`` field (the flat form, §2.2), a
retired ``.tpx`` object, or a bare pack object (§3: ``spec`` plus ``kind`` or
``passport``), which is wrapped into the flat form unchanged. Any other JSON in the text
(an example, a config snippet) is not a candidate. Two different packs are ambiguous and
refused; the same pack twice is read once.

Hostile text stays cheap. Only the first ``{`` of each line can start a candidate, so a
line of a million braces costs one attempt; each attempt is one run of the standard
library's C JSON scanner, and the characters all attempts may scan together are capped
at a small multiple of the text's length (deep nesting stops the scanner at its recursion
limit). The input itself is capped at :data:`MAX_TEXT_BYTES`. Nothing here is clever
about JSON syntax: a reply that is not valid JSON is reported with the scanner's line and
column, never "fixed".
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import Cancelled, FormatError, LimitExceeded, PackError, UnsupportedVersion
from ..progress import CancelCheck, Progress
from . import canonical
from .lazy_regex import lazy
from .vocabulary import FLAT_VERSION

#: the largest reply read as text (a pack bigger than this travels as a file anyway)
MAX_TEXT_BYTES = 32 << 20
#: all parse attempts together may scan this many times the text's length (plus a floor)
WORK_FACTOR = 2
WORK_FLOOR = 1 << 20
#: a candidate that fails with no position (nesting too deep) is charged this much
_DEEP_COST = 1 << 18  # unwinding a thousand levels costs as much as reading that much
#: and every attempt at least this much (a line that is only `{` still costs a look)
_MIN_COST = 64

_TYPOGRAPHIC_QUOTES = ("\u201c", "\u201d", "\u201e", "\uff02")


@dataclass(frozen=True)
class FoundPack:
    """The one pack found in a text."""

    #: the flat form's top-level object (a bare pack object arrives wrapped in one)
    top: dict[str, Any]
    #: a `.taskpack.json` holding it: the object's own text as it was written, or the
    #: canonical wrapping of a bare pack object
    flat_bytes: bytes
    #: 1-based line of the text where the pack starts
    line: int
    #: "flat", "tpx" or "bare"
    form: str
    #: what reading it out of text had to put up with, in plain words
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def kind(self) -> str | None:
        inner = self.top.get("passport") if self.form != "tpx" else self.top
        kind = inner.get("kind") if isinstance(inner, dict) else None
        return kind if isinstance(kind, str) else None


def decode_text(raw: bytes) -> tuple[str, list[str]]:
    """Bytes of a text file or stdin as text: UTF-8 (a BOM is allowed), or UTF-16 with a BOM."""
    if len(raw) > MAX_TEXT_BYTES:
        raise LimitExceeded(
            f"the text is larger than {MAX_TEXT_BYTES >> 20} MiB, too large to read as a reply",
            hint="Save the pack as a .taskpack or .taskpack.json file and open that.",
        )
    notes: list[str] = []
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16-le" if raw.startswith(b"\xff\xfe") else "utf-16-be"
        try:
            text = raw[2:].decode(codec)
        except UnicodeDecodeError:
            raise FormatError("the text starts like UTF-16 but is not valid UTF-16") from None
        notes.append("the text was UTF-16; it was read as such")
        return text, notes
    try:
        return raw.decode("utf-8"), notes
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"the text is not UTF-8 (byte {exc.start})",
            hint="Save the reply as UTF-8 text and try again.",
        ) from None


def find_pack_in_text(
    text: str, *, progress: Progress | None = None, cancel: CancelCheck | None = None
) -> FoundPack:
    """The single pack object in `text` (see the module doc), or a one-line error.
    `progress(done, total)` follows the characters read; `cancel()` returning True
    raises Cancelled (the window's Paste has a Cancel button)."""
    if len(text) > MAX_TEXT_BYTES:
        raise LimitExceeded(
            f"the text is larger than {MAX_TEXT_BYTES >> 20} MiB, too large to read as a reply",
            hint="Save the pack as a .taskpack or .taskpack.json file and open that.",
        )
    notes: list[str] = []
    if text.startswith("\ufeff"):
        text = text[1:]
        notes.append("a byte-order mark at the start of the text was ignored")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:  # a lone surrogate cannot be written as UTF-8 (encoding is faster than searching)
        text.encode("utf-8")
        lone = False
    except UnicodeEncodeError:
        lone = True
    if lone:
        raise FormatError(
            "the text contains a broken character (half of a UTF-16 pair)",
            hint="Copy the reply again, or save it as a file and open that.",
        )
    found: list[tuple[int, int, Any]] = []  # (start, end, value) of each pack object
    failures: list[tuple[int, int, str]] = []  # (start, where, why): `{` lines not JSON
    near: list[tuple[int, str]] = []  # pack-like objects we cannot read
    others = 0
    budget = WORK_FACTOR * len(text) + WORK_FLOOR
    skip = [0]  # where the candidate scan resumes: past a pack found, not inside it
    for start in _candidate_starts(text, skip):
        if cancel is not None and cancel():
            raise Cancelled()
        if progress is not None:
            progress(start, len(text))
        value, end, cost, why = _parse_at(text, start)
        budget -= cost
        if budget < 0:
            raise LimitExceeded(
                "the text has too many places where a pack might start to read them all",
                hint="Save the pack as a .taskpack.json file and open that.",
            )
        if why is not None:
            failures.append((start, end, why))
            continue
        skip[0] = end
        form = _form(value)
        if form == "bare?":
            near.append(
                (
                    start,
                    "it looks like a pack object but declares no `spec` and has no "
                    "`taskpack` around it, so its version is unknown (§8)",
                )
            )
        elif form:
            found.append((start, end, value))
        else:
            others += 1
    if not found:
        raise _nothing_found(text, failures, near, others)
    if cancel is not None and cancel():
        raise Cancelled()
    distinct = list(_by_digest(found).values())
    if len(distinct) > 1:
        lines = ", ".join(str(_line_of(text, s)) for s, _, _ in distinct[:5])
        more = f" and {len(distinct) - 5} more" if len(distinct) > 5 else ""
        raise FormatError(
            f"the text holds {len(distinct)} different packs (at lines {lines}{more}); "
            "which one is meant is ambiguous",
            hint="Paste or save only the reply, one pack at a time; nothing was changed.",
        )
    if len(found) > 1:
        notes.append(f"the same pack appears {len(found)} times in the text; it was read once")
    start, end, value = distinct[0]
    canonical.check_depth(value, what="the pack in the text")
    form = _form(value)
    notes.extend(_surroundings(text, start, end))
    if form == "bare":
        notes.append(
            "the text holds a bare pack object (no `taskpack` wrapper); it was read as "
            "the flat form's `passport`"
        )
        top: dict[str, Any] = {
            "taskpack": FLAT_VERSION,
            "encoding": "flat",
            "passport": value,
            "attachments": [],
        }
        flat = canonical.json_bytes(top)
    else:
        top = value
        flat = (text[start:end] + "\n").encode("utf-8")
    return FoundPack(
        top=top, flat_bytes=flat, line=_line_of(text, start), form=form, notes=tuple(notes)
    )


def find_pack_in_file(path: str | os.PathLike[str]) -> FoundPack | None:
    """None when `path` already is a pack file that reads as written; else the pack found
    in its text (a `.txt`, a `.md`, a saved email, a `.json` with prose around it or a
    byte-order mark), its notes starting with the fact that the file was not a pack."""
    from .reading import open_pack, sniff

    p = Path(path)
    try:
        kind: str | None = sniff(p)
    except FormatError:
        kind = None
    if kind == "bag":
        return None
    if kind == "json":
        if p.stat().st_size > MAX_TEXT_BYTES:
            return None  # too big to be a reply: the streaming reader says what is wrong
        try:  # strict=False: whether it reads is all we ask here (the models stay unbuilt)
            with open_pack(p, strict=False):
                return None
        except FormatError:
            pass  # not a pack as written: look for one in its text
    with open(p, "rb") as f:
        raw = f.read(MAX_TEXT_BYTES + 1)
    text, notes = decode_text(raw)
    found = find_pack_in_text(text)
    first = f"{p.name} is not a pack file as written; the pack was read out of its text"
    return replace(found, notes=(first, *notes, *found.notes))


# --- the pieces -------------------------------------------------------------------------


def _candidate_starts(text: str, skip: list[int]) -> Iterator[int]:
    """The first `{` of every line, when it opens a JSON object: where a pack written by
    a person or an AI starts (found by one regex scan, so a million prose lines cost C
    time, not a Python loop each).

    A `{` that follows a JSON key (``"passport": {``) is a value inside a larger object:
    never a pack of its own, even when that larger object turns out to be broken (reading
    the inner object alone would silently drop the wrapper and its attachments).
    `skip[0]` is where the caller wants the scan to resume (past a pack it found).
    """
    pos = 0
    while (m := _LINE_BRACE.search(text, max(pos, skip[0]))) is not None:
        brace = pos = m.end() - 1
        pos += 1
        if not _AFTER_KEY.search(text, max(m.start(), brace - 200), brace):
            yield brace


#: a line's first `{`, when a key or the closing brace follows it (``{name}``, ``{{`` and
#: the like are prose, rejected here without the cost of a failed parse); a key in
#: typographic quotes counts, so that the error can say what the chat app did
_LINE_BRACE = lazy('^[^{\n]*\\{(?=[ \t\n]*["}\u201c\u201d\uff02])', re.M)
_AFTER_KEY = lazy(r'"[ \t]*:[ \t]*$')


_DECODER = json.JSONDecoder(
    object_pairs_hook=canonical._no_duplicates,
    parse_constant=canonical._reject_constant,
    parse_float=canonical._finite_float,
)


#: the first window a candidate is parsed in; it grows 16-fold while the JSON runs past it
_FIRST_WINDOW = 256


def _parse_at(text: str, start: int) -> tuple[Any, int, int, str | None]:
    """Parse the JSON value at `start`: (value, end, cost, None) or (None, where, cost, why).

    The scanner works on a window of the text that grows while the value runs past it,
    so a failed attempt costs about as much as the text it looked at — never the whole
    text (the stdlib's error message counts lines from the start of what it was given).
    """
    window = _FIRST_WINDOW
    cost = 0
    while True:
        piece = text[start : start + window]
        whole = start + window >= len(text)
        canonical.ObjectBudget().items_in(piece)  # before parsing: what it would cost
        try:
            value, end = _DECODER.raw_decode(piece)
        except RecursionError:
            return None, start, cost + _DEEP_COST, "it is nested too deeply"
        except json.JSONDecodeError as exc:
            cut = exc.pos >= len(piece) - 8 or exc.msg.startswith("Unterminated string")
            if cut and not whole:
                cost += len(piece)
                window *= 16
                continue
            why = exc.msg.removesuffix(" at").removesuffix(":")
            return None, start + exc.pos, cost + exc.pos + _MIN_COST, why
        except (FormatError, LimitExceeded) as exc:  # a duplicate key, NaN, 1e999
            return None, start + 1, cost + len(piece), exc.message.rstrip(".")
        except ValueError:  # an integer longer than Python reads
            return None, start + 1, cost + len(piece), "it has a number too long to read"
        return value, start + end, cost + end + _MIN_COST, None


def _form(value: Any) -> str:
    """How a parsed JSON value counts: "flat", "tpx", "bare", "bare?" (no version) or ""."""
    if not isinstance(value, dict):
        return ""
    if "taskpack" in value:
        return "flat"
    if "tpx" in value:
        return "tpx"
    kind = value.get("kind")
    looks = "spec" in value or (
        kind in ("handoff", "receipt") and ("passport" in value or "asks" in value)
    )
    if not looks:
        return ""
    return "bare" if "spec" in value else "bare?"


def _nothing_found(
    text: str, failures: list[tuple[int, int, str]], near: list[tuple[int, str]], others: int
) -> PackError:
    hint = "Paste the whole reply, or save the pack as a .taskpack.json file and open that."
    if near:
        start, why = near[0]
        return UnsupportedVersion(
            f"the text holds no readable pack: the JSON at line {_line_of(text, start)} {why}"
        )
    if failures:
        start, where, why = failures[0]
        # a greeting may hold a stray brace: prefer the first failure that starts like a pack
        for s, at, w in failures:
            if '"taskpack"' in text[s : s + 200] or '"spec"' in text[s : s + 200]:
                start, where, why = s, at, w
                break
        if any(q in text for q in _TYPOGRAPHIC_QUOTES):
            hint = (
                "The text has typographic quotes (“ ”): the chat app may have changed the "
                "JSON. Ask for the reply as a file."
            )
        return FormatError(
            f"the text holds no readable pack: the JSON at line {_line_of(text, start)} is not "
            f"valid ({why} at line {_line_of(text, where)} column {_column_of(text, where)})",
            hint=hint,
        )
    if others:
        return FormatError(
            f"the text holds JSON ({others} object{'s' if others != 1 else ''}) but no pack: "
            'none has a "taskpack" field',
            hint=hint,
        )
    return FormatError("the text holds no pack (no JSON object at all)", hint=hint)


def _by_digest(found: list[tuple[int, int, Any]]) -> dict[bytes, tuple[int, int, Any]]:
    """The distinct packs among `found`, the first appearance of each, keyed by the
    SHA-256 of their canonical compact JSON (keys in their order, no blanks; the C
    encoder, one pass per pack, never a comparison per pair). `true` and `1` stay
    different packs, though Python's `==` calls them equal."""
    if len(found) == 1:
        return {b"": found[0]}
    distinct: dict[bytes, tuple[int, int, Any]] = {}
    for item in found:
        try:
            text = _COMPACT.encode(item[2])
        except RecursionError:  # deeper than the encoder goes: its depth is refused later
            text = f"at {item[0]}"
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
        distinct.setdefault(digest, item)
    return distinct


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class _Fence:
    """A Markdown fence line: where it starts and ends in the text, its marker, its info."""

    start: int
    end: int
    marker: str
    info: str


def _fence_at(text: str, start: int, end: int) -> _Fence | None:
    """The fence on the line text[start:end], if it is one: optional `>` and blanks, three
    or more backticks or tildes, then no backtick (its first word is the info string).

    Plain string operations, each one pass over the line: a 32,000-character line of `~`
    or of backticks and blanks costs its length, not its square (a backtracking pattern
    did)."""
    body = text[start:end].lstrip(" \t>")
    if len(body) < 3 or body[0] not in "`~":
        return None
    run = len(body) - len(body.lstrip(body[0]))
    rest = body[run:]
    if run < 3 or "`" in rest:
        return None
    words = rest.split(None, 1)
    return _Fence(start, end, body[:run], words[0] if words else "")


def _fences(text: str) -> Iterator[_Fence]:
    """Every fence line of `text`, in order."""
    pos = 0
    while True:
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        fence = _fence_at(text, pos, end)
        if fence is not None:
            yield fence
        if nl < 0:
            return
        pos = nl + 1


def _surroundings(text: str, start: int, end: int) -> list[str]:
    """Notes on what sat around the pack: a fence, prose before or after it."""
    notes: list[str] = []
    before, after = text[:start], text[end:]
    earlier = 0  # fences before the last one: an even number makes the last one an opener
    opener: _Fence | None = None
    for fence in _fences(before):
        earlier += opener is not None
        opener = fence
    if opener is not None and not before[opener.end :].strip() and earlier % 2 == 0:
        notes.append(f"the pack was read from a {opener.marker} fenced block{_marked(opener.info)}")
        before = before[: opener.start]
        close = next(_fences(after), None)
        if close is not None and not after[: close.start].strip():
            after = after[close.end :]
    prose = [w for w, t in (("before", before), ("after", after)) if t.strip()]
    if prose:
        notes.append(f"text {' and '.join(prose)} the pack was ignored (it is not part of it)")
    return notes


#: how much of a fence's info string a note quotes (it is the sender's text, any length)
_INFO_SHOWN = 40


def _marked(info: str) -> str:
    """The fence's info string as a note quotes it: quoted (it is the sender's text, never
    part of our sentence), at most `_INFO_SHOWN` characters; nothing when there is none."""
    if not info:
        return ""
    shown = info if len(info) <= _INFO_SHOWN else info[: _INFO_SHOWN - 1] + "…"
    return f" marked {shown!r}"


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _column_of(text: str, pos: int) -> int:
    return pos - (text.rfind("\n", 0, pos) + 1) + 1


__all__ = ["MAX_TEXT_BYTES", "FoundPack", "decode_text", "find_pack_in_file", "find_pack_in_text"]
