"""Transcripts: role-prefixed turns and chat messages, and when two of them make one.

A transcript is two turns (or messages) of different roles within ``TRANSCRIPT_SPAN``;
``_turn_at`` and ``_message_at`` read a window of bytes, ``_message_class`` a JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...format.lazy_regex import lazy
from .triggers import _CJK_ROLE_WORDS, _FULLWIDTH_COLON, _TURN_PREFIX

TRANSCRIPT_SPAN = 64 * 1024  # two turns further apart than this are not one conversation


_ROLE_CLASS = {
    b"user": "user",
    b"human": "user",
    b"q": "user",
    "用户".encode(): "user",
    "问".encode(): "user",
    b"assistant": "assistant",
    b"ai": "assistant",
    b"a": "assistant",
    "助手".encode(): "assistant",
    "答".encode(): "assistant",
    b"system": "system",
    b"model": "assistant",
    b"bot": "assistant",
    b"developer": "system",
}
_ROLE_RX = lazy(
    rb"(?:(?i:(user|human|assistant|system|ai|q|a))|(" + b"|".join(_CJK_ROLE_WORDS) + rb"))"
    rb"(?:\*\*)?(?:(:)|" + _FULLWIDTH_COLON + rb")"
)
_LINE_PREFIX_RX = lazy(rb"(?:>[ \t]*)*(?:\*\*)?")
_MSG_RX = lazy(
    rb"[\"'](role|sender)\\?[\"'][ \t]*:[ \t]*\\?[\"']"
    rb"(?i:(user|human|assistant|ai|model|bot|system|developer))\\?[\"']"
)
_CONTENT_KEY = rb"[\"'](?:content|text|parts)\\?[\"'][ \t]*:[ \t]*(?:\\?[\"']|\[|\{)"
_CONTENT_AFTER_RX = lazy(rb"[^{}]{0,800}?" + _CONTENT_KEY)
_CONTENT_RX = lazy(_CONTENT_KEY)
_AUTHOR_BEFORE_RX = lazy(rb"[\"']author\\?[\"'][ \t]*:[ \t]*\{[ \t\r\n]*\\?\Z")


def _turn_at(w: bytes, at: int, sos: bool) -> tuple[str, int] | None:
    """A role-prefixed turn whose role word starts at `at` or `at + 1`: (role class, where)."""
    starts = [at] if sos and at == 0 else []
    if at < len(w) and w[at] in _TURN_PREFIX:
        starts.append(at + 1)
    for s in starts:
        m = _ROLE_RX.match(w, s)
        if m is None:
            continue
        if m.group(3) is not None and w[m.end() : m.end() + 1] not in (
            b"",
            b" ",
            b"\t",
            b"\r",
            b"\n",
            b"*",
        ):
            continue  # "user:x:1000" is a record, not a turn
        line_start = w.rfind(b"\n", max(0, s - 16), s) + 1
        if line_start == 0 and not (sos and s <= 16):
            continue
        if _LINE_PREFIX_RX.fullmatch(w, line_start, s) is None:
            continue
        word = (m.group(1) or m.group(2)).lower()
        return _ROLE_CLASS[word], s
    return None


def _message_at(w: bytes, at: int) -> str | None:
    """A chat message in JSON (or a Python repr of one) whose role key starts at `at`."""
    m = _MSG_RX.match(w, at)
    if m is None:
        return None
    key, role = m.group(1), m.group(2).lower()
    if key == b"sender":
        return _ROLE_CLASS[role] if role in (b"human", b"assistant") else None
    if _AUTHOR_BEFORE_RX.search(w, max(0, at - 48), at) is not None:
        return _ROLE_CLASS[role]
    if _CONTENT_AFTER_RX.match(w, m.end()) is not None:
        return _ROLE_CLASS[role]
    before = w[max(0, at - 500) : at]
    opening = before.rfind(b"{")
    if opening >= 0 and before.rfind(b"}") < opening and _CONTENT_RX.search(before, opening):
        return _ROLE_CLASS[role]
    return None


@dataclass
class _Transcript:
    """Two turns of different roles within TRANSCRIPT_SPAN of each other."""

    last: dict[str, int] = field(default_factory=dict)
    found: tuple[int, str, str] | None = None

    def add(self, offset: int, role: str) -> None:
        if self.found is None:
            for other, at in self.last.items():
                if other != role and offset - at <= TRANSCRIPT_SPAN:
                    a, b = sorted((other, role))
                    self.found = (at, a, b)
                    break
        self.last[role] = offset


def _message_class(d: dict[str, Any]) -> str | None:
    """The role class of a chat message written as a JSON object, or None."""
    role = d.get("role")
    if isinstance(role, str) and "content" in d:
        return _ROLE_CLASS.get(role.lower().encode())
    sender = d.get("sender")
    if (
        isinstance(sender, str)
        and sender.lower() in ("human", "assistant")
        and ("text" in d or "content" in d)
    ):
        return _ROLE_CLASS[sender.lower().encode()]
    author = d.get("author")
    if isinstance(author, dict) and isinstance(author.get("role"), str) and "content" in d:
        return _ROLE_CLASS.get(author["role"].lower().encode())
    return None
