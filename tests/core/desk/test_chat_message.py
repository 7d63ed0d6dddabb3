"""The message that goes with a pack into a chat: whatever a sender wrote, nothing in it
is live in Slack, Teams, Discord or mail — no mention, no link, no control sequence, no
emphasis — and the pack inline still reads back as the same data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.desk import chat_message, export
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.format import ids
from taskpack.core.format.model import Ask, LocalPassport, PassportState
from taskpack.core.format.pack_in_text import find_pack_in_text
from taskpack.core.format.reading import open_pack

#: pieces a hostile sender would build from: Slack's control sequences, mentions, links,
#: markdown and mrkdwn emphasis, and plain words around them
_PIECES = [
    *"<>!@#&|*_~`:/.[]()\\ -^",
    "channel",
    "here",
    "everyone",
    "U024BE7LH",
    "subteam",
    "http",
    "https",
    "ftp",
    "file",
    "www",
    "evil",
    "example",
    "com",
    "рф",
    "пример",
    "ana",
    "click",
    "\u202e",
    "\u00a0",
    "\n",
]
hostile = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)

#: what a chat app would act on in the message's text (the fenced pack aside)
_MENTION = re.compile(r"(?<!\w)@\w")
_LINK = re.compile(r"\b(?:https?|ftp|file)://|\bwww\.|\w\.[^\W\d_]{2,}\b", re.I)
_LIVE_CHARS = re.compile(r"[<>*~`]")
_EDGE_UNDERSCORE = re.compile(r"(?<!\w)_|_(?!\w)")
#: an e-mail address keeps its dots (a mail link opens no page)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    tmp = tmp_path_factory.mktemp("chat")
    store = SqliteStore(tmp / "alpha")
    state = PassportState(id=ids.new_id(), title="Q3", goal="ship", next_steps=["go"])
    ask = Ask(id="a1", to="peer", what="Budget?", accept="a number", status="open")
    lp = LocalPassport(passport=state, asks=[ask], landing_checks=[])
    lp.checks_to_send = [{"id": "c1", "check": "pdf renders", "required": True}]  # type: ignore[assignment]
    with store.write() as tx:
        tx.insert(lp, event="created")
    out = tmp / "h.taskpack.json"
    export.export_passport(store, lp.id, out, machine="alpha", actor="ana")
    store.close()
    with open_pack(out) as opened:
        return opened.pack, out.read_text(encoding="utf-8")


def _hostile_pack(base: tuple[Any, str], s: str) -> tuple[Any, str]:
    pack, text = base
    asks = [a.model_copy(update={"what": s, "accept": s, "why": s}) for a in pack.asks]
    checks = [c.model_copy(update={"check": s}) for c in pack.landing_checks]
    hostile_pack = pack.model_copy(
        update={
            "note": s,
            "asks": asks,
            "landing_checks": checks,
            "passport": pack.passport.model_copy(update={"title": s, "goal": s}),
        }
    )
    doc = json.loads(text)
    doc["passport"]["passport"]["title"] = s
    doc["passport"]["asks"][0]["what"] = s
    return hostile_pack, json.dumps(doc, ensure_ascii=False, indent=2)


def _parts(msg: str) -> tuple[str, str]:
    head, _, rest = msg.partition("```json\n")
    return head, rest.rsplit("\n```", 1)[0]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=hostile, sender=hostile)
def test_no_sender_string_makes_a_live_mention_link_or_markup(
    base: tuple[Any, str], s: str, sender: str
) -> None:
    pack, flat = _hostile_pack(base, s)
    msg = chat_message.chat_message(
        pack,
        file_name="h.taskpack.json",
        file_size=len(flat),
        flat_text=flat,
        sender=sender or None,
        passed_on={"a1": sender or "bo"},
    )
    head, inline = _parts(msg)
    # before: "\<!channel\>", "\*now\*": Slack has no backslash escape, both were live
    assert not _LIVE_CHARS.search(head), head
    assert not _EDGE_UNDERSCORE.search(head), head
    assert not _MENTION.search(head), head
    assert not _LINK.search(_EMAIL.sub("", head.replace("h.taskpack.json", ""))), head
    # the pack inline: nothing for a chat app to act on, and the same data
    assert not re.search(r"[<>&`]|(?<!\w)@|://", inline), inline
    assert json.loads(inline) == json.loads(flat)


def test_slacks_control_sequences_and_emphasis_read_as_characters(
    base: tuple[Any, str],
) -> None:
    said = (
        "<!channel> <@U024BE7LH> <http://evil.example|the report> *now* _all_ ~x~ `y` my_file "
        "zhang@example.com evil.example/t"
    )
    pack, flat = _hostile_pack(base, said)
    head, inline = _parts(
        chat_message.chat_message(pack, file_name="h.taskpack.json", file_size=1, flat_text=flat)
    )
    assert (
        "\u2039!channel\u203a \u2039[@]U024BE7LH\u203a \u2039hxxp://evil[.]example|the report\u203a "
        "\u2217now\u2217 \u02cdall\u02cd \u223cx\u223c \u02cby\u02cb my_file "
        "zhang@example.com evil[.]example/t"
    ) in head
    assert "\\u003c!channel\\u003e" in inline and "http:\\u002f\\u002fevil" in inline
    assert find_pack_in_text(head + "```json\n" + inline + "\n```\n").top == json.loads(flat)
