"""The mutation fuzzer, extended to reply texts: a real pack, as a colleague's
chat app or AI sends it back, mutated — fences of every length, long lines of `~` and
backticks, stray braces and quotes, the pack twice or with `true` for `1`, hidden and
tag characters, truncations, CRLF and BOMs, quote prefixes — and driven through
`find_pack_in_text` and then `open_pack` on what it found. Whatever the text, the answer
is a pack or one line from the desk's error tree; each case is reproducible from its
number (printed with the failure).

    FUZZ_CASES=20000 pytest tests/core/format/test_reply_fuzz.py
"""

from __future__ import annotations

import io
import os
import random
import traceback
from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import TaskPackError
from taskpack.core.format.pack_in_text import find_pack_in_text
from taskpack.core.format.reading import open_pack

CASES = int(os.environ.get("FUZZ_CASES", "600"))
SEED = int(os.environ.get("FUZZ_SEED", "20261201"))


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("reply-seed")
    with Desk(root / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Q3 report", "Ship it", current_state="half written").id
        sender.add_ask(pid, "What is the budget?", "a number in EUR")
        sender.add_fact(pid, "The build passes here", scope="machine", verified=True)
        sender.add_check(pid, "a PDF renders", how="make pdf")
        flat = root / "h.taskpack.json"
        sender.pack(pid, flat, encoding="flat")
    return flat.read_text(encoding="utf-8")


_NOISE = [
    "~" * 5000 + "`",
    "```" + " " * 5000 + "`",
    "`" * 3000,
    "{" * 2000,
    "{\n" * 500,
    '"' * 999,
    '{"taskpack": "0.1", "x": "',
    "> ",
    "\u202e",
    "".join(chr(0xE0000 + ord(c)) for c in "ignore the rules"),
    "\ufeff",
    "\r\n",
    "\x00",
    "[link](http://x) <b>",
    "\u201c\u201d",
    '{"spec": "task-passport-bag/0.1", "kind": "receipt", "asks": []}',
]


def _reply(pack: str, rng: random.Random) -> str:
    """The pack as it may come back: wrapped, then mutated a few times."""
    fence = rng.choice(["", "```json\n", "```\n", "~~~\n", "````\n", "> ```json\n"])
    close = {"": "", "~~~\n": "\n~~~\n", "````\n": "\n````\n"}.get(fence, "\n```\n")
    text = rng.choice(["", "Hi Ana,\n\n", "Sure! Here it is:\n"]) + fence + pack + close
    text += rng.choice(["", "Best, Bo\n", "\n\n-- \nsent from my phone"])
    for _ in range(rng.randint(0, 4)):
        text = _mutate(text, pack, rng)
    return text


def _mutate(text: str, pack: str, rng: random.Random) -> str:
    at = rng.randint(0, len(text))
    how = rng.randrange(9)
    if how == 0:  # a noise run somewhere
        return text[:at] + rng.choice(_NOISE) + text[at:]
    if how == 1:  # a line of noise
        return text[:at] + "\n" + rng.choice(_NOISE) + "\n" + text[at:]
    if how == 2:  # cut
        return text[:at]
    if how == 3:  # delete a span
        return text[:at] + text[at + rng.randint(1, 200) :]
    if how == 4:  # the same pack again, or one that differs only in true / 1
        other = pack if rng.random() < 0.5 else pack.replace("true", "1", 1)
        return text + "\nand again:\n" + other
    if how == 5:  # a character swapped
        if not text:
            return text
        ch = rng.choice(["{", "}", '"', ",", ":", "\\", "\n", "`", "\u201c", "é", "\udc00"])
        return text[:at] + ch + text[at + 1 :]
    if how == 6:  # CRLF everywhere
        return text.replace("\n", "\r\n")
    if how == 7:  # a value swapped for another type
        doc = rng.choice(['"x"', "1", "true", "null", "[]", "{}", '"' + "a" * 3000 + '"'])
        return text.replace('"Q3 report"', doc, 1)
    return rng.choice(["> ", "    "]) + text.replace("\n", "\n> ")  # quoted as in an email


def _drive(text: str, tmp: Path) -> str | None:
    """None when the desk answered with a pack or its own one-line error; else the bug."""
    try:
        found = find_pack_in_text(text)
    except TaskPackError as exc:
        return None if "\n" not in str(exc) else f"a multi-line error: {exc!s:.200}"
    except Exception:
        return traceback.format_exc(limit=3)
    try:
        with open_pack(io.BytesIO(found.flat_bytes), name="reply.taskpack.json") as opened:
            opened.verify()
    except TaskPackError:
        return None
    except Exception:
        return traceback.format_exc(limit=3)
    return None


def test_no_reply_text_escapes_the_error_tree(seed: str, tmp_path: Path) -> None:
    findings: dict[str, str] = {}
    for case in range(CASES):
        rng = random.Random(f"{SEED}/reply/{case}")
        problem = _drive(_reply(seed, rng), tmp_path)
        if problem is not None:
            findings.setdefault(problem.splitlines()[-1], f"case {case}: {problem}")
    assert not findings, "\n\n".join(findings.values())
