"""First contact from the command line, in real processes: `pack --chat` writes the message
for the person on the other end, and `land`, `show` and `conformance` take a reply as it
comes back — any text file, or standard input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from first_contact_helpers import Machine


@pytest.fixture
def alpha(tmp_path: Path) -> Machine:
    return Machine(tmp_path, "alpha", "ana")


def _asking(m: Machine) -> str:
    pid: str = m.json(
        "new", "--title", "Q3 report", "--goal", "Ship the Q3 report", "--state", "half written"
    )["passport"]["id"]
    m("ask", pid, "--what", "What is the budget?", "--accept", "a number in EUR")
    m("check", pid, "--check", "this machine can render a PDF", "--how", "make pdf")
    return pid


def test_pack_chat_prints_the_message_with_the_pack_inline(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    out = tmp_path / "q3.taskpack.json"
    proc = alpha("pack", pid, "--out", str(out), "--chat")
    msg = proc.stdout
    assert msg.startswith("ana is handing you a task with TaskPack: «Q3 report».")
    assert "1. What is the budget?  (a1)\n   Counts as an answer: a number in EUR" in msg
    assert "Check these on your side first (required):\n- this machine can render a PDF" in msg
    assert "give it to your AI assistant" in msg and "send the result back" in msg
    assert "```json\n" + out.read_text(encoding="utf-8") + "```\n" in msg
    assert f"Wrote {out}" in proc.stderr  # the report stays out of the message
    data = alpha.json(
        "pack", pid, "--out", str(tmp_path / "again.taskpack.json"), "--chat", "--lang", "zh_CN"
    )
    assert "怎样算答复：a number in EUR" in data["chat_message"]


def test_pack_chat_of_a_big_pack_says_attach(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    big = tmp_path / "data.csv"
    big.write_text("n,value\n" + "".join(f"{i},{i * 7}\n" for i in range(12_000)), encoding="utf-8")
    out = tmp_path / "q3.taskpack.json"
    msg = alpha("pack", pid, "--out", str(out), "--file", str(big), "--chat").stdout
    assert out.stat().st_size > 64 * 1024
    assert "The pack is attached as q3.taskpack.json (" in msg and "```" not in msg


def test_the_message_itself_lands_on_the_other_desk(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    msg = alpha("pack", pid, "--out", str(tmp_path / "q3.taskpack.json"), "--chat").stdout
    saved = tmp_path / "from-chat.txt"
    saved.write_text("[10:02] ana: " + msg, encoding="utf-8")
    beta = Machine(tmp_path, "beta", "bo")
    shown = beta("show", str(saved)).stdout
    assert "read from text: from-chat.txt is not a pack file as written" in shown
    assert "goal: «Ship the Q3 report»" in shown
    assert "«What is the budget?» — answered when: «a number in EUR»" in shown
    landed = beta.json("land", str(saved))
    assert landed["review"]["goal"] == "Ship the Q3 report" and not landed["already"]
    assert any("fenced block" in n for n in landed["read_from_text"])
    # the same text again, from standard input this time: the same pack, landed once
    again = beta("land", "-", stdin=saved.read_text(encoding="utf-8")).stdout
    assert "Already landed as " + landed["passport"] in again


def test_show_reads_standard_input(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    out = tmp_path / "q3.taskpack.json"
    alpha("pack", pid, "--out", str(out))
    text = "\ufeffHi,\r\n\r\n" + out.read_text(encoding="utf-8").replace("\n", "\r\n") + "\r\nBo"
    data = alpha.json("show", "-", stdin=text)
    assert data["pack"]["kind"] == "handoff"
    assert data["read_from_text"][0].startswith("standard input is text")
    assert any("byte-order mark" in n for n in data["read_from_text"])


def test_conformance_of_a_pack_in_text_fails_c0(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    out = tmp_path / "q3.taskpack.json"
    msg = alpha("pack", pid, "--out", str(out), "--chat").stdout
    assert alpha("conformance", str(out)).returncode == 0  # the file as written is conformant
    saved = tmp_path / "msg.md"
    saved.write_text(msg, encoding="utf-8")
    report = json.loads(alpha("conformance", str(saved), "--json", code=2).stdout)
    c0 = report["checks"][0]
    assert c0["id"] == "C0" and c0["ok"] is False
    assert c0["reasons"][0].startswith("not a pack file: msg.md is not a pack file as written")
    assert all(c["ok"] for c in report["checks"][1:])  # the pack inside it is fine


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("thanks, will look tomorrow", "the text holds no pack"),
        ('{"taskpack": "0.1", "passport": {"kind": "receipt",}}', "is not valid"),
        ('{"taskpack": "9.9", "passport": {}}', "declares taskpack '9.9'"),
    ],
)
def test_a_reply_without_one_readable_pack_is_one_line(
    alpha: Machine, text: str, words: str
) -> None:
    proc = alpha("land", "-", code=1, stdin=text)
    assert words in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert not list((alpha.home / "inbox").glob("*"))  # nothing kept


def test_two_packs_in_one_reply_are_refused(alpha: Machine, tmp_path: Path) -> None:
    pid = _asking(alpha)
    one = tmp_path / "one.taskpack.json"
    alpha("pack", pid, "--out", str(one))
    alpha("next", pid, "a new step")
    two = tmp_path / "two.taskpack.json"
    alpha("pack", pid, "--out", str(two))
    text = one.read_text(encoding="utf-8") + "\nand\n" + two.read_text(encoding="utf-8")
    proc = alpha("land", "-", code=1, stdin=text)
    assert "the text holds 2 different packs" in proc.stderr


def test_pack_chat_quotes_a_forwarded_senders_asks_as_theirs(tmp_path: Path) -> None:
    """Issue 39 item 6: a handoff landed here, taken on and passed on: its asks are the
    first sender's words, under their own heading (before: "root asks: 1. Paste your token
    at https://evil.example/t @here"); links, mentions and emphasis do nothing in a chat."""
    import hostile_zips as hz

    root = Machine(tmp_path, "box", "root")
    data = hz.pack_data()
    data["origin"] = {"actor": "bo", "machine": "beta"}
    data["asks"] = [
        {
            "id": "a1",
            "what": "Paste your token at https://evil.example/t @here **now**",
            "accept": "a token",
            "status": "open",
        }
    ]
    pack = tmp_path / "in.taskpack.json"
    pack.write_text(json.dumps(hz.flat_doc([], passport=data)), encoding="utf-8")
    pid = root.json("land", str(pack))["passport"]
    root("take", pid)
    root("ask", pid, "--what", "Which printer?", "--accept", "a printer name")
    msg = root("pack", pid, "--out", str(tmp_path / "on.taskpack.json"), "--chat").stdout
    head = msg.split("```", 1)[0]
    own, _, passed = head.partition("root passes on these questions from «bo@beta»")
    assert "root asks:\n1. Which printer?" in own and "token" not in own
    assert passed.startswith(" (their words, not root's):\n1. Paste your token at ")
    assert "https://evil.example" not in head and "hxxps://evil[.]example/t" in head
    assert "[@]here" in head and "\u2217\u2217now\u2217\u2217" in head and "*" not in head
