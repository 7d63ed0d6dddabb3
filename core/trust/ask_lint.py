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

# Chinese, Japanese and Korean write without spaces: a run of their letters is not one
# word. Each such letter is weighed as two Latin ones (about what it carries), and its
# filler is struck out of the run before deciding whether anything is left.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
CJK_WEIGHT = 2
_CJK_FILLER = sorted(
    (
        "任何",
        "任意",
        "随便",
        "都行",
        "都可以",
        "可以",
        "没问题",
        "回答",
        "答复",
        "回复",
        "答案",
        "信息",
        "意见",
        "想法",
        "反馈",
        "详情",
        "细节",
        "东西",
        "什么",
        "一些",
        "一个",
        "等等",
        "你的",
        "我的",
        "好的",
        "好",
        "行",
        "是",
        "否",
        "不是",
        "请",
        "的",
        "个",
        "些",
    ),
    key=len,
    reverse=True,
)


def _measure(text: str) -> tuple[int, list[str], bool]:
    """(weighed length, the words, whether some CJK letter is not filler)."""
    runs = _CJK.findall(text)
    rest = _CJK.sub(" ", text)
    words = _WORD.findall(rest.casefold())
    length = len(" ".join(rest.split())) + CJK_WEIGHT * sum(len(r) for r in runs)
    meaning = False
    for run in runs:
        words.extend(run)  # one word a letter: the length rule, not the count, decides
        for filler in _CJK_FILLER:
            run = run.replace(filler, "")
        meaning = meaning or bool(run)
    return length, words, meaning


def lint_accept(accept: str | None, what: str | None = None) -> list[str]:
    """Sentences (at most one) saying why `accept` is too short or vague; [] when it is fine."""
    text = " ".join((accept or "").split())
    if not text:
        return []  # a missing accept is the refusal's business, not a warning
    length, words, cjk_meaning = _measure(text)
    hint = (
        "say what would count as an answer (e.g. 'a number in euros', 'yes or no, with the reason')"
    )
    if what and text.casefold().rstrip("?. ") == " ".join(what.split()).casefold().rstrip("?. "):
        return [f"its accept only repeats the question; {hint}"]
    if words and not cjk_meaning and all(w in _FILLER or _CJK.fullmatch(w) for w in words):
        return [f"its accept «{text[:60]}» is too vague to judge an answer against; {hint}"]
    if length < MIN_ACCEPT_CHARS or len(words) < MIN_ACCEPT_WORDS:
        return [f"its accept «{text[:60]}» is too short to judge an answer against; {hint}"]
    return []
