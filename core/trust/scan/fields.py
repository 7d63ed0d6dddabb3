"""Field names: does a name instruct the reader (spec §4.5), or name a secret?"""

from __future__ import annotations

import functools
import re

from .verifiers import _NOT_SECRET_BEFORE_RX

_INSTRUCTION_TOKENS = frozenset(
    ["instruction", "instructions", "instr", "directive", "directives", "howto", "jailbreak"]
)
_HOW_TO_VERBS = frozenset(
    [
        "use",
        "read",
        "open",
        "handle",
        "process",
        "treat",
        "interpret",
        "respond",
        "reply",
        "proceed",
        "continue",
        "start",
        "begin",
        "follow",
    ]
)
_TARGETS = frozenset(
    [
        "ai",
        "agent",
        "agents",
        "assistant",
        "llm",
        "receiver",
        "recipient",
        "reader",
        "bot",
        "claude",
        "gpt",
        "chatgpt",
        "gemini",
        "copilot",
        "you",
    ]
)
_NOTE_WORDS = frozenset(
    [
        "readme",
        "note",
        "notes",
        "message",
        "msg",
        "guide",
        "guidance",
        "rules",
        "orders",
        "commands",
        "todo",
        "tips",
        "hint",
        "hints",
        "directions",
        "usage",
        "memo",
        "prompt",
    ]
)
_CJK_INSTRUCTION_PARTS = (
    "使用说明",
    "使用方法",
    "指令",
    "提示词",
    "系统提示",
    "给ai",
    "致ai",
    "操作指南",
    "说明书",
)
_SECRET_KEY_ENDINGS = (
    "password",
    "passwd",
    "passphrase",
    "secret",
    "secret_key",
    "secretkey",
    "secret_access_key",
    "token",
    "api_key",
    "apikey",
)


def _name_tokens(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", spaced)
    return [t for t in _SEPARATORS.split(spaced.lower()) if t]


#: what separates a name's words: anything but 0-9, a-z and U+0080-U+FFFF, spelled as the
#: ranges it is (the negated class was slow to compile, on every start)
_SEPARATORS = re.compile("[\x00-/:-`{-\x7f\U00010000-\U0010ffff]+")


@functools.lru_cache(maxsize=4096)
def is_instruction_field(name: str) -> bool:
    """Does a field name say it instructs the reader (spec §4.5)?

    Flagged: any name with ``instruction(s)`` or ``directive(s)`` in it
    (``instructions_for_ai``, ``agentInstructions``); ``how_to_`` + a verb about using the
    file (``how_to_use``, ``how_to_use_this_file``, ``howToRead``); a prompt
    (``system_prompt``, ``prompt_for_receiver``, ``system_message``); a note/readme/guide
    aimed at a reader (``readme_for_agent``, ``message_to_ai``, ``notes_for_you``); and the
    Chinese ``使用说明`` / ``指令`` / ``提示词`` family. Not flagged: ``how`` (landing
    checks), ``what``, ``accept``, ``prompt`` alone, ``how_to_verify``.
    """
    tokens = _name_tokens(name)
    joined = "".join(tokens)
    if not tokens:
        return False
    if _INSTRUCTION_TOKENS & set(tokens) or "instruction" in joined:
        return True
    if len(tokens) >= 3 and tokens[0] == "how" and tokens[1] == "to" and tokens[2] in _HOW_TO_VERBS:
        return True
    if (
        joined.startswith("howto")
        and tokens[0] != "how"
        and any(joined.startswith("howto" + v) for v in _HOW_TO_VERBS)
    ):
        return True
    if "systemprompt" in joined or "sysprompt" in joined or joined == "systemmessage":
        return True
    if ("system" in tokens and ("message" in tokens or "prompt" in tokens)) or (
        tokens[0] == "prompt" and len(tokens) > 1 and tokens[1] in ("for", "to")
    ):
        return True
    if _NOTE_WORDS & set(tokens) and _TARGETS & set(tokens):
        return True
    return any(part in joined for part in _CJK_INSTRUCTION_PARTS)


@functools.lru_cache(maxsize=4096)
def _is_secret_key_name(name: str) -> bool:
    """A field named like a secret (``db_password``, ``clientSecret``), as the text rule
    reads ``db_password=…``: not a ``next_page_token`` or a ``publicKeyToken``."""
    norm = "_".join(_name_tokens(name))
    for ending in _SECRET_KEY_ENDINGS:
        if norm == ending or norm.endswith("_" + ending):
            before = norm[: len(norm) - len(ending)].encode()[-16:]
            return _NOT_SECRET_BEFORE_RX.search(before) is None
    return False
