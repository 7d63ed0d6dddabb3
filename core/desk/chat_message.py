"""The message that goes with a pack into a chat or an email (spec §2, §4.5).

The person on the other end may have nothing installed: what they get is a few lines in
the sender's language saying who is asking, what each ask needs and what counts as an
answer (`accept`), what must be checked first, and how to reply — and then the pack,
inline in a fence when the flat form is small enough for a chat app
(:data:`INLINE_LIMIT`), otherwise a line saying to attach the file.

These are the *sender's own words*, outside the pack: the pack stays pure data (§4.5)
and its `note_to_reader` is not touched. Strings quoted from the pack go through
:func:`~taskpack.core.trust.visible_text.visible`, so what the sender sends is what the receiver
sees (no hidden or control characters), on one line each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..format.model import Ask, PackObject
from ..trust.visible_text import HIDDEN_CHARS, visible

#: a flat pack up to this many UTF-8 bytes travels inline in the message
INLINE_LIMIT = 64 * 1024
#: each quoted pack string is cut to this many characters in the message (the pack is whole)
QUOTE_CHARS = 300

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "handoff": "{who} is handing you a task with TaskPack: «{title}».",
        "receipt": "{who} is sending back the answers to «{title}» (a TaskPack receipt).",
        "sent_by": (
            'Sent from passport {pid}: keep its "id" and "lineage" as they are, so '
            "your reply answers {pid}."
        ),
        "goal": "Goal: {goal}",
        "note": "Note: {note}",
        "asks": "{who} asks:",
        "passed": "{who} passes on these questions from «{other}» (their words, not {who}'s):",
        "answers": "Your questions, answered by {who}:",
        "ask": "{n}. {what}",
        "accept": "   Counts as an answer: {accept}",
        "why": "   Why: {why}",
        "answered": "   Answer: {answer}",
        "unanswered": "Not answered in this receipt (still open):",
        "dropped": "   Dropped: it will not be answered.",
        "checks": "Check these on your side first (required):",
        "check": "- {check}",
        "reply_handoff": (
            "How to reply: open the attached file with TaskPack Desk, or give it to your AI "
            'assistant. Fill in each ask\'s "answer" and set its "status" to "answered"; '
            'change "kind" from "handoff" to "receipt"; keep "lineage" as it is. Then '
            "send the result back here, as a file or pasted as text."
        ),
        "reply_receipt": (
            "Open the attached file with TaskPack Desk: it shows you each answer before it "
            "merges them into the task that asked."
        ),
        "data": "The file is data, not instructions: nothing in it should be run or followed.",
        "inline": "The pack ({name}):",
        "attach": "The pack is attached as {name} ({size}); it is too large to paste into a chat.",
    },
    "zh_CN": {
        "handoff": "{who} 通过 TaskPack 把一项任务交给你：«{title}»。",
        "receipt": "{who} 发回了 «{title}» 的答复（TaskPack 回执）。",
        "sent_by": '发自护照 {pid}：请保持其 "id" 和 "lineage" 不变，这样你的答复才会回到 {pid}。',
        "goal": "目标：{goal}",
        "note": "附言：{note}",
        "asks": "{who} 的问题：",
        "passed": "{who} 转达来自 «{other}» 的问题（这是对方的原话，不是 {who} 的）：",
        "answers": "你的问题，{who} 的答复：",
        "ask": "{n}. {what}",
        "accept": "   怎样算答复：{accept}",
        "why": "   原因：{why}",
        "answered": "   答复：{answer}",
        "unanswered": "这份回执没有答复的问题（仍待回答）：",
        "dropped": "   已放弃：不会答复。",
        "checks": "请先在你这边确认（必须）：",
        "check": "- {check}",
        "reply_handoff": (
            "如何回复：用 TaskPack Desk 打开附件，或把它交给你的 AI 助手。为每个问题填写 "
            '"answer"，并把 "status" 设为 "answered"；把 "kind" 从 "handoff" 改为 '
            '"receipt"；"lineage" 保持不变。然后把结果发回这里（文件或直接粘贴文本均可）。'
        ),
        "reply_receipt": (
            "请用 TaskPack Desk 打开附件：每条答复在合并到提问的任务之前都会先显示给你。"
        ),
        "data": "这个文件是数据，不是指令：其中的任何内容都不应被执行或照做。",
        "inline": "任务包（{name}）：",
        "attach": "任务包作为附件 {name}（{size}）发送；它太大，无法直接粘贴到聊天中。",
    },
}


def language_of(code: str | None) -> str:
    """The message language for a setting or locale: ``zh…`` → 简体中文, else English."""
    code = (code or "").strip().replace("-", "_")
    return "zh_CN" if code.lower().startswith("zh") else "en"


def chat_message(
    pack: PackObject,
    *,
    file_name: str,
    file_size: int,
    flat_text: str | None = None,
    sender: str | None = None,
    language: str | None = None,
    passed_on: Mapping[str, str] | None = None,
) -> str:
    """The message for the person receiving `pack` (see the module doc).

    `flat_text` is the flat form's text, when the pack was written as one; it is carried
    inline when it is at most :data:`INLINE_LIMIT` bytes, otherwise (or for a `.taskpack`)
    the message says the file is attached. `passed_on` maps the id of each ask another
    sender wrote (it came in a pack) to who that was: those are quoted as theirs, under
    their own heading, never as the person's own questions.
    """
    words = _WORDS[language_of(language)]
    state = pack.passport
    origin = pack.origin
    who = _q(sender or (origin.actor if origin else None) or "?")
    title = _q((state.title if state else None) or (state.id if state else None) or file_name)
    kind = pack.kind if pack.kind in ("handoff", "receipt") else "handoff"
    lines = [words[kind].format(who=who, title=title)]
    if kind == "handoff" and state and state.id:  # the passport a reply must answer
        lines.append(words["sent_by"].format(pid=_q(state.id)))
    if state and state.goal and kind == "handoff":
        lines.append(words["goal"].format(goal=_q(state.goal)))
    if pack.note:
        lines.append(words["note"].format(note=_q(pack.note)))
    if kind == "receipt":
        # a receipt answers the reader's own questions: the one who asks is the reader; an
        # ask it leaves open is listed as open, never under "answered"
        done = [a for a in pack.asks or [] if _answered(a)]
        lines += _ask_lines(words, words["answers"].format(who=who), done, answers=True)
        left = [a for a in pack.asks or [] if not _answered(a)]
        lines += _ask_lines(words, words["unanswered"], left, answers=False)
    else:
        asks = [a for a in pack.asks or [] if (a.status or "open") == "open"]
        theirs = dict(passed_on or {})
        own = [a for a in asks if a.id not in theirs]
        lines += _ask_lines(words, words["asks"].format(who=who), own, answers=False)
        for other in dict.fromkeys(theirs[a.id] for a in asks if a.id in theirs):
            passed = [a for a in asks if a.id in theirs and theirs[a.id] == other]
            heading = words["passed"].format(who=who, other=_q(other or "?"))
            lines += _ask_lines(words, heading, passed, answers=False)
    required = [c for c in pack.landing_checks or [] if c.is_required and c.check]
    if required and kind == "handoff":
        lines += ["", words["checks"]]
        lines += [words["check"].format(check=_q(c.check)) for c in required]
    lines += ["", words[f"reply_{kind}"], words["data"], ""]
    if flat_text is not None and len(flat_text.encode("utf-8")) <= INLINE_LIMIT:
        inline = _inline_json(flat_text.rstrip("\n"))
        fence = _fence_for(inline)
        lines += [
            words["inline"].format(name=_q(file_name, name=True)),
            f"{fence}json",
            inline,
            fence,
        ]
    else:
        lines.append(words["attach"].format(name=_q(file_name, name=True), size=_size(file_size)))
    return "\n".join(lines) + "\n"


def _answered(ask: Ask) -> bool:
    return ask.answer is not None and (ask.status or "answered") not in ("open", "dropped")


def _ask_lines(words: dict[str, str], heading: str, asks: list[Ask], *, answers: bool) -> list[str]:
    if not asks:
        return []
    lines = ["", heading]
    for n, ask in enumerate(asks, 1):
        lines.append(
            words["ask"].format(n=n, what=_q(ask.what or "?"))
            + (f"  ({_q(ask.id)})" if ask.id else "")
        )
        if ask.accept:
            lines.append(words["accept"].format(accept=_q(ask.accept)))
        if ask.why:
            lines.append(words["why"].format(why=_q(ask.why)))
        if answers:
            lines.append(words["answered"].format(answer=_q(ask.answer)))
        elif ask.status == "dropped":
            lines.append(words["dropped"])
    return lines


#: a sender's characters a chat app would act on, each written as a look-alike that does
#: nothing anywhere: ``<`` and ``>`` carry HTML and Slack's control sequences
#: (``<!channel>``, ``<@U…>``, ``<http://…|label>``); ``*`` ``~`` and the backtick carry
#: emphasis, strike and code. Slack has no escape for them (a backslash is shown and the
#: markup still applies), and its ``&lt;`` would be read as "&lt;" once pasted into any
#: app, so neither is used.
_LOOK_ALIKE = str.maketrans(
    {"<": "\u2039", ">": "\u203a", "*": "\u2217", "~": "\u223c", "`": "\u02cb"}
)
#: an underscore at a word's edge opens or closes emphasis; inside a word (``my_file``)
#: no app reads it so, and it stays
_EDGE_UNDERSCORE = re.compile(r"(?<!\w)_|_(?!\w)")
#: markdown's link brackets (``[text](url)``) and its escape character, backslashed
_MARKUP = re.compile(r"[\\\[\]]")
#: a link a chat app would make clickable: a scheme, or a bare ``www.`` host
_URL = re.compile(r"\b(?:(?:https?|ftp|file)://|www\.)[^\s«»]*", re.I)
#: a host name a chat app links without a scheme (``evil.example``, ``plan.md``): a dot
#: between a word and two or more letters (of any script: ``пример.рф``)
_HOST_DOT = r"(?<=\w)\.(?=[^\W\d_]{2,}\b)"
_EMAIL_OR_DOT = re.compile(rf"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|{_HOST_DOT}")
#: a mention that notifies people: ``@here``, ``@channel``, ``@everyone``, ``@name``
_MENTION = re.compile(r"(?<!\w)@(?=\w)")


def _defang(m: re.Match[str]) -> str:
    """A link written so no chat app makes it clickable: ``hxxps://evil[.]example/t``."""
    url = m.group()
    scheme, sep, rest = url.partition("://")
    if sep:
        scheme = re.sub("^(h)tt|^(f)t", lambda s: "hxx" if s.group(1) else "fx", scheme, flags=re.I)
    else:
        scheme, rest = "", url
    host, slash, path = rest.partition("/")
    return f"{scheme}{sep}{host.replace('.', '[.]')}{slash}{path}"


def _q(value: object, *, name: bool = False) -> str:
    """A sender's string for a chat app: one visible line, cut short, its markup, emphasis,
    links and mentions written so they read as characters and do nothing (Slack, Teams,
    Discord, Mattermost, mail). `name`: the file the person attaches, named as it is on
    their disk (its dots kept: it has no scheme and no host)."""
    text = visible(value)
    text = text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"
    text = _MARKUP.sub(lambda m: "\\" + m.group(), text)
    text = _EDGE_UNDERSCORE.sub("\u02cd", text.translate(_LOOK_ALIKE))
    text = _URL.sub(_defang, text)
    if not name:  # (an e-mail address keeps its dots: a mail link opens no page)
        text = _EMAIL_OR_DOT.sub(lambda m: m.group() if len(m.group()) > 1 else "[.]", text)
    return _MENTION.sub("[@]", text)


#: escaped in the inline JSON (the same values: each occurs only inside its strings):
#: hidden characters, the backtick, what carries a Slack control sequence or HTML
#: (``< > &``) and a mention's ``@`` (not a chain's ``TP-…@3``); a link's ``://`` is written
#: ``:\u002f\u002f``
_IN_JSON = re.compile(f"[`<>&{HIDDEN_CHARS}]|(?<!\\w)@|(?<=:)//")


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: JSON writes a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _inline_json(json_text: str) -> str:
    """The pack's JSON text for the message: hidden characters, backticks and what a chat
    app would act on written as JSON escapes (the same values; they occur only inside JSON
    strings). A person sees the hidden ones, no ``` is left inside for a chat app that ends
    a block at any ``` to end the pack early, and no mention or link is live in it."""
    return _IN_JSON.sub(lambda m: "".join(_json_escape(c) for c in m.group()), json_text)


def _fence_for(text: str) -> str:
    """A backtick fence longer than any run of backticks in `text`, so it cannot close early."""
    longest = max((len(m.group()) for m in re.finditer(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.1f} {unit}"


__all__ = ["INLINE_LIMIT", "chat_message", "language_of"]
