"""Sentences in a pack that read as orders to whoever opens it (spec §4.5 rule 2).

This is a *reporter*, not a refusal: a landing screen lists what it finds as "the sender
wrote this; nothing was done", so the person — not the harness — decides. It is plain
deterministic pattern matching, bounded in the text it reads and the results it returns,
and it never tries to judge intent: "Run the tests" in next_steps is listed just like
"ignore previous instructions" in a fact; the cue says which is which.

Every pattern here runs in time linear in the text it reads (no nested or adjacent
unbounded repeats that can backtrack over the same characters), so a field is read
whole: an order after ten thousand harmless lines is found like one in the first.
Text written in Unicode tag characters (U+E0000–U+E007F, an ASCII letter each that no
screen shows) is reported too, decoded, with the cue ``hidden text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .refusals import holds_credential
from .visible_text import visible

__all__ = ["HIDDEN_TEXT", "MAX_RESULTS", "Imperative", "find_imperatives"]

MAX_RESULTS = 50
MAX_LUGGAGE_CHARS = 256 * 1024  # per luggage text
MAX_TOTAL_CHARS = 4 * 1024 * 1024  # across everything, however many fields a pack has
MAX_SENTENCE = 200
#: the cue of text hidden in tag characters; its sentence reads ``hidden text: …``
HIDDEN_TEXT = "hidden text"


@dataclass(frozen=True)
class Imperative:
    """One sentence that reads as an instruction to the receiver."""

    place: str  # "passport.next_steps[0]", "landing_checks[0].how", "files/run.md (line 12)"
    sentence: str  # as written, whitespace squeezed, at most ~200 characters
    cue: str  # what made it read as an order: "ignore previous instructions", "rm -rf", ...


_I = re.IGNORECASE
_LEAD = r"^(?:(?:please|now|then|first|next|finally|just|also|immediately)[,:]?\s+)*"

# (cue, pattern) — first match wins, so the alarming cues come before the everyday ones
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (cue, re.compile(rx, flags))
    for cue, rx, flags in (
        (
            "ignore previous instructions",
            r"\b(?:ignore|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|"
            r"earlier|preceding|system|existing|original|all|other)\b.{0,40}?\b(?:instructions?|prompts?|"
            r"rules|directions|guidelines|messages?|context)\b",
            _I,
        ),
        ("disregard …", r"\bdisregard\b", _I),
        ("forget …", r"\bforget\s+(?:all|everything|your|the\s+above|previous|prior|what)\b", _I),
        ("rm -rf", r"\brm\s+(?:-(?=[a-z]*r)(?=[a-z]*f)[a-z]+|-r\s+-f|-f\s+-r)\b", _I),
        (
            "download piped into a shell",
            r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|"
            r"\biex\b.{0,40}\b(?:iwr|invoke-webrequest|downloadstring)\b",
            _I,
        ),
        (
            "do not tell …",
            r"\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|mention|reveal|report|"
            r"let\s+\w+\s+know)\b",
            _I,
        ),
        ("as an AI …", r"\bas\s+an?\s+(?:ai|a\.i\.|language\s+model|llm|assistant)\b", _I),
        ("from now on …", r"\bfrom\s+now\s+on\b", _I),
        ("you must …", r"\byou\s+must\b", _I),
        ("you should now …", r"\byou\s+(?:should|need\s+to|have\s+to)\s+(?:now|immediately)\b", _I),
        ("send … to …", _LEAD + r"send\b.{1,120}?\bto\b", _I),
        ("open … and …", _LEAD + r"open\b.{1,120}?\band\b", _I),
        ("run …", _LEAD + r"(?:run|execute|exec)\b", _I),
        ("delete …", _LEAD + r"(?:delete|remove|erase|wipe|drop|purge)\b", _I),
        ("sudo …", r"^\$?\s*sudo\s+\S", _I),
        # Chinese: no word boundaries, so these look for whole phrases
        (
            "忽略之前的指令",
            r"(?:忽略|无视|不要理会)(?:之前|以上|上面|前面|先前|所有|全部|此前)的?(?:所有|全部)?的?"
            r"(?:指令|指示|提示|说明|规则|要求)",
            0,
        ),
        ("不要告诉 …", r"(?:不要|别|不许|不准)(?:告诉|通知|透露|提及)", 0),
        ("你必须 …", r"你(?:必须|务必|一定要|需要立即)", 0),
        ("请执行 …", r"请(?:立即|马上|立刻)?(?:执行|运行|删除|发送|打开)", 0),
        ("执行 / 运行 / 删除 …", r"^(?:立即|马上|立刻|现在)?(?:执行|运行|删除|清空)", 0),
        ("立即 …", r"^(?:立即|马上|立刻)", 0),
        ("发送 … 给 …", r"把.{1,40}?(?:发送|发|传|上传)(?:给|到)", 0),
    )
)

_SPLIT = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")
_BULLET = re.compile(r"^\s*(?:[-*•>#]+|\d{1,3}[.)]|\(\w\))\s*")
_OPENING_QUOTES = re.compile(r"^[`'\"“‘$\s]+")
_CLOSING_QUOTES = frozenset("`'\"”’")


def _unquoted(part: str) -> str:
    """`part` without the quoting around it. The closing run is walked back from the end:
    a regex ending in ``[…\\s]+$`` would try every start inside a long run of spaces."""
    part = _OPENING_QUOTES.sub("", part)
    end = len(part)
    while end and (part[end - 1] in _CLOSING_QUOTES or part[end - 1].isspace()):
        end -= 1
    return part[:end]


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    """(line number, sentence) pairs, bullets and quoting stripped. A line break ends a
    sentence too: notes and commands are written line by line more often than as prose."""
    for number, line in enumerate(text.splitlines(), 1):
        for part in _SPLIT.split(line):
            stripped = _unquoted(_BULLET.sub("", part))
            if stripped:
                yield number, stripped


#: every English cue needs one of these as a whole word (of letters): a cue's pattern puts a
#: word boundary, a space or the text's start before it, and a boundary after it
_CUE_WORDS = frozenset(
    "ignore override bypass disregard forget rm curl wget iwr invoke iex do don dont never "  # noqa: SIM905
    "as from you send open run execute exec delete remove erase wipe drop purge sudo".split()
)
_LETTERS = re.compile(r"[a-z]+")


def _may_cue(sentence: str) -> bool:
    """False only when no cue can match: an ASCII sentence (where ignoring case is plain
    lowercasing) holding none of the cue words. Most field texts are ids, dates and names:
    one pass here instead of 22 regex searches."""
    if not sentence.isascii():
        return True  # the Chinese cues, and case folding beyond ASCII: ask every pattern
    return not _CUE_WORDS.isdisjoint(_LETTERS.findall(sentence.lower()))


def _cue(sentence: str) -> str | None:
    if not _may_cue(sentence):
        return None
    for cue, rx in _CUES:
        if rx.search(sentence):
            return cue
    return None


_SECRETISH = re.compile(r"(?=.*[A-Za-z])(?=.*[0-9=:@/+_\-]).{8,}")


def _short(sentence: str) -> str:
    """Whitespace squeezed, ~200 characters, and never a credential: a sentence holding
    one shows ``[hidden]`` for each word that could be it (or nothing, if that is not enough)."""
    words = sentence.split()
    squeezed = " ".join(words)
    if holds_credential(squeezed):
        squeezed = " ".join("[hidden]" if _SECRETISH.fullmatch(w) else w for w in words)
        if holds_credential(squeezed):
            return "(not shown: it holds a credential)"
    return squeezed if len(squeezed) <= MAX_SENTENCE else squeezed[: MAX_SENTENCE - 1] + "…"


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string in a JSON value with its field path, in document order."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            children = [(v, f"{where}.{k}" if where else str(k)) for k, v in item.items()]
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(reversed([(v, f"{where}[{i}]") for i, v in enumerate(item)]))


_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_FLAG_BASE = "\U0001f3f4"  # a waving black flag: tag letters after it name a region's flag
_FLAG_TAGS = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f")


def _hidden_text(text: str) -> tuple[int, str] | None:
    """(line number, the ASCII it spells) of the text `text` hides in tag characters, or
    None. The tags of a region's flag emoji (England's, Scotland's) hide nothing."""
    if text.isascii():
        return None
    first, spelled = 0, list[str]()
    for m in _TAGS.finditer(text):
        run = m.group()
        if m.start() and text[m.start() - 1] == _FLAG_BASE and _FLAG_TAGS.fullmatch(run):
            continue
        if not spelled:
            first = text.count("\n", 0, m.start()) + 1
        spelled.append("".join(chr(ord(ch) - 0xE0000) for ch in run))
    if not spelled:
        return None
    return first, visible(" … ".join(spelled))


def find_imperatives(
    data: dict[str, Any], luggage_texts: Iterable[tuple[str, str]] = ()
) -> list[Imperative]:
    """Imperative sentences anywhere in the pack object's text, then in text luggage.

    Every string field is read whole (the note, goal, current state, fact claims,
    decisions, landing checks' `check` and `how`, asks' `what`, next steps…), and each
    luggage text up to 256 KiB, 4 MiB in all; at most :data:`MAX_RESULTS` are returned,
    one per sentence, and one per field or text that hides text in tag characters
    (cue :data:`HIDDEN_TEXT`, first). `luggage_texts` are ``(name, text)`` pairs; places
    read ``name (line N)``.
    """
    found: list[Imperative] = []
    budget = [MAX_TOTAL_CHARS]

    def scan(name: str, text: str, *, luggage: bool) -> bool:
        limit = min(MAX_LUGGAGE_CHARS, budget[0]) if luggage else budget[0]
        budget[0] -= min(len(text), limit)
        if limit <= 0:
            return False
        text = text[:limit]
        hidden = _hidden_text(text)
        if hidden is not None:
            line, spelled = hidden
            place = f"{name} (line {line})" if luggage else name
            found.append(Imperative(place, _short(f"{HIDDEN_TEXT}: {spelled}"), HIDDEN_TEXT))
            if len(found) >= MAX_RESULTS:
                return False
        if not _may_cue(text):  # (a sentence's words are words of its text: none can cue)
            return True
        for line, sentence in _sentences(text):
            cue = _cue(sentence)
            if cue is not None:
                place = f"{name} (line {line})" if luggage else name
                found.append(Imperative(place, _short(sentence), cue))
                if len(found) >= MAX_RESULTS:
                    return False
        return True

    for where, text in _strings(data, ""):
        if not scan(where, text, luggage=False):
            return found
    for name, text in luggage_texts:
        if not scan(name, text, luggage=True):
            return found
    return found
