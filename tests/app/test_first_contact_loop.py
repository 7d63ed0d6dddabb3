"""The first-contact loop with three people, in real `taskpack` processes: Ana (desk
alpha) sends a flat handoff with `--chat`; Bo has only a chat app, and his AI assistant
writes the reply by hand from the message; Ana lands that reply `--into` the passport
that asked. Carol (desk gamma) gets the same message forwarded and answers properly from
her own desk — the second answer arrives as a real receipt."""

from __future__ import annotations

import json
import re
from pathlib import Path

from first_contact_helpers import Machine, asks_of


def _pack_in(message: str) -> dict:  # type: ignore[type-arg]
    """What Bo's assistant does with the message: read the JSON between the fences."""
    body = re.search(r"```json\n(.*?)\n```", message, re.S)
    assert body, message
    value: dict = json.loads(body.group(1))  # type: ignore[type-arg]
    return value


def test_three_people_one_loop(tmp_path: Path) -> None:
    ana = Machine(tmp_path, "alpha", "ana")
    pid: str = ana.json(
        "new", "--title", "Q3 report", "--goal", "Ship the Q3 report", "--state", "part 1 written"
    )["passport"]["id"]
    ana("ask", pid, "--what", "What is the budget?", "--accept", "a number in EUR")
    ana("ask", pid, "--what", "Who signs it off?", "--accept", "a person's name and role")
    ana("next", pid, "write part 2")
    before = ana.open(pid)
    message = ana("pack", pid, "--out", str(tmp_path / "q3.taskpack.json"), "--chat").stdout
    assert "give it to your AI assistant" in message

    # --- Bo: no desk. His assistant writes a receipt by hand from what the message says:
    # kind changed, lineage kept, one answer filled in (status forgotten), no digests, no
    # times, none of the task state, and a sentence around it
    handoff = _pack_in(message)
    inner = handoff["passport"]
    receipt = {
        "taskpack": "0.1",
        "encoding": "flat",
        "passport": {
            "spec": inner["spec"],
            "kind": "receipt",
            "lineage": inner["lineage"],
            "origin": {"actor": "Bo's assistant"},
            "asks": [
                {
                    "id": "a1",
                    "what": "What is the budget?",
                    "accept": "a number in EUR",
                    "status": "open",
                    "answer": "4000 EUR",
                },
                {
                    "id": "a2",
                    "what": "Who signs it off?",
                    "accept": "a person's name and role",
                    "status": "open",
                    "answer": None,
                },
            ],
        },
        "attachments": [{"name": "notes.md", "data": "Budget confirmed by phone.\n"}],
    }
    reply = tmp_path / "bo-reply.md"
    reply.write_text(
        "Here is the completed receipt:\n\n```json\n"
        + json.dumps(receipt, indent=2, ensure_ascii=False)
        + "\n```\n\nI could not find out who signs it off.\n",
        encoding="utf-8",
    )

    out = ana("land", str(reply), "--into", pid).stdout
    assert f"Merged bo-reply.md into {pid}" in out and "answered: a1\n" in out
    assert "repaired: ask a1 has an answer but its status said open" in out
    assert "repaired: the pack declared no packed_at" in out
    assert "repaired: attachment 'notes.md' declared no sha256" in out
    after = ana.open(pid)
    asks = asks_of(after)
    assert asks["a1"]["status"] == "answered" and asks["a1"]["answer"] == "4000 EUR"
    assert asks["a2"]["status"] == "open" and asks["a2"]["answer"] is None
    for key in ("title", "goal", "current_state", "next_steps"):
        assert after["passport"][key] == before["passport"][key], key
    assert [x["name"] for x in after["luggage"]] == ["notes.md"]
    assert after["waiting_on"] == "human"  # a2 is still out

    # --- Carol: Bo forwards the message; her desk lands it from the chat text, she answers
    # a2 and packs a receipt, which Ana merges into the same passport
    carol = Machine(tmp_path, "gamma", "carol")
    forwarded = tmp_path / "forwarded.txt"
    forwarded.write_text("---------- Forwarded message ----------\n" + message, encoding="utf-8")
    landed = carol.json("land", str(forwarded))["passport"]
    carol("answer", landed, "a2", "--answer", "Carol, finance lead")
    carol_msg = carol(
        "pack",
        landed,
        "--kind",
        "receipt",
        "--out",
        str(tmp_path / "carol.taskpack.json"),
        "--chat",
    ).stdout
    assert carol_msg.startswith("carol is sending back the answers to «Q3 report»")
    out = ana("land", "-", "--into", pid, stdin=carol_msg).stdout
    assert "answered: a2" in out and "every ask it was waiting on is answered" in out
    final = ana.open(pid)
    asks = asks_of(final)
    assert asks["a1"]["answer"] == "4000 EUR"  # Bo's answer stands (Carol's a1 was open)
    assert asks["a2"]["answer"] == "Carol, finance lead" and asks["a2"]["status"] == "answered"
    assert final["state"] == "working"
    for key in ("title", "goal", "current_state", "next_steps"):
        assert final["passport"][key] == before["passport"][key], key
