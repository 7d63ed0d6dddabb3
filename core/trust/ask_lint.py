"""Ask lint: an `accept` that nobody could judge an answer against (spec §4.3).

An ask without `accept` is refused at pack time; one whose `accept` says almost nothing
("yes", "ok", "an answer", "anything") passes the rule but leaves the receiver guessing
what would count. This warns — it never refuses — so the asker can say what shape the
answer takes (a number and its unit, a file, a yes/no with the reason, a date …).
"""

from __future__ import annotations

import re

__all__ = ["MIN_ACCEPT_CHARS", "MIN_ACCEPT_WORDS", "lint_accept"]

#: shorter than this many characters or words, an `accept` cannot describe an answer
MIN_ACCEPT_CHARS = 10
MIN_ACCEPT_WORDS = 2

# words that carry no criterion on their own; an accept made only of these is vague
_FILLER = frozenset(
    (
        "a",
        "an",
        "the",
        "any",
        "some",
        "anything",
        "something",
        "whatever",
        "answer",
        "answers",
        "reply",
        "replies",
        "response",
        "responses",
        "info",
        "information",
        "details",
        "detail",
        "input",
        "feedback",
        "thoughts",
        "opinion",
        "ok",
        "okay",
        "yes",
        "no",
        "fine",
        "good",
        "great",
        "sure",
        "done",
        "it",
        "this",
        "that",
        "please",
        "just",
        "your",
        "my",
        "our",
        "tbd",
        "todo",
        "n/a",
        "na",
        "none",
        "?",
        "!",
        "whatever's",
        "works",
        "work",
        "something's",
        "stuff",
        "things",
        "thing",
        "etc",
        "more",
        "help",
    )
)
_WORD = re.compile(r"[^\W_]+(?:['’/-][^\W_]+)*|[?!]", re.UNICODE)


def lint_accept(accept: str | None, what: str | None = None) -> list[str]:
    """Sentences (at most one) saying why `accept` is too short or vague; [] when it is fine."""
    text = " ".join((accept or "").split())
    if not text:
        return []  # a missing accept is the refusal's business, not a warning
    words = _WORD.findall(text.casefold())
    hint = (
        "say what would count as an answer (e.g. 'a number in euros', 'yes or no, with the reason')"
    )
    if what and text.casefold().rstrip("?. ") == " ".join(what.split()).casefold().rstrip("?. "):
        return [f"its accept only repeats the question; {hint}"]
    if words and all(w in _FILLER for w in words):
        return [f"its accept «{text[:60]}» is too vague to judge an answer against; {hint}"]
    if len(text) < MIN_ACCEPT_CHARS or len(words) < MIN_ACCEPT_WORDS:
        return [f"its accept «{text[:60]}» is too short to judge an answer against; {hint}"]
    return []
