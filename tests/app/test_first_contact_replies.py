"""The replies a colleague with nothing installed sends back, in real `taskpack` processes.

A real flat handoff is packed on alpha (two asks, a required check, a machine fact); each
reply below is written from it the way a person or their AI writes one — fenced, wrapped
in prose, without digests, with `status` left open, without lineage, with `kind` still
`handoff`, naming another passport, adding a machine fact marked verified, with a token
pasted into an answer. Each lands `--into` the asking passport with its repairs listed, or
is refused with the reason and nothing changes; the judge fails C0 on each repaired one.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from first_contact_helpers import Machine, asks_of

TOKEN = "ghp_" + "Zq8Rt2Lm9Xw4Kd7Vb3Nc6Hf1Jp5Sg0Ya2Ue4"


@dataclass
class Alpha:
    machine: Machine
    pid: str
    handoff: dict[str, Any]  # the flat handoff's top-level object, as the colleague got it
    message: str


@pytest.fixture(scope="module")
def alpha_home(tmp_path_factory: pytest.TempPathFactory) -> Alpha:
    root = tmp_path_factory.mktemp("first-contact")
    a = Machine(root, "alpha", "ana")
    pid: str = a.json(
        "new", "--title", "Q3 report", "--goal", "Ship the Q3 report", "--state", "part 1 written"
    )["passport"]["id"]
    a("ask", pid, "--what", "What is the budget?", "--accept", "a number in EUR")
    a("ask", pid, "--what", "Who signs it off?", "--accept", "a person's name and role")
    a("check", pid, "--check", "this machine can render a PDF", "--how", "make pdf")
    a("fact", pid, "--claim", "the customer wants a PDF", "--scope", "universal", "--verified")
    a("next", pid, "write part 2")
    out = root / "q3.taskpack.json"
    message = a("pack", pid, "--out", str(out), "--chat").stdout
    return Alpha(a, pid, json.loads(out.read_text(encoding="utf-8")), message)


@pytest.fixture
def alpha(alpha_home: Alpha, tmp_path: Path) -> Alpha:
    """A fresh copy of alpha's desk for each reply (copying is cheaper than re-packing)."""
    m = Machine(tmp_path, "alpha", "ana")
    shutil.copytree(alpha_home.machine.home, m.home)
    return Alpha(m, alpha_home.pid, copy.deepcopy(alpha_home.handoff), alpha_home.message)


# --- how replies are written ----------------------------------------------------------


def answered(top: dict[str, Any], **answers: str) -> dict[str, Any]:
    """The handoff turned into a receipt by hand: kind changed, answers filled in."""
    top = copy.deepcopy(top)
    inner = top["passport"]
    inner["kind"] = "receipt"
    for ask in inner["asks"]:
        if ask["id"] in answers:
            ask["answer"], ask["status"] = answers[ask["id"]], "answered"
    return top


def fenced(top: dict[str, Any]) -> str:
    return (
        "Hi Ana! Here are the answers, in the format you sent:\n\n```json\n"
        + json.dumps(top, indent=2, ensure_ascii=False)
        + "\n```\n\nLet me know. — Bo\n"
    )


def prose(top: dict[str, Any]) -> str:
    return (
        "Sure, I filled it in.\n"
        + json.dumps(top, ensure_ascii=False)
        + "\nThe budget is final, the sign-off is by Carol.\n"
    )


def both(top: dict[str, Any]) -> dict[str, Any]:
    return answered(top, a1="4000 EUR", a2="Carol, finance lead")


def no_digests(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    top["attachments"] = [{"name": "budget.csv", "data": "item,eur\ntotal,4000\n"}]
    return top


def status_open(top: dict[str, Any]) -> dict[str, Any]:
    top = copy.deepcopy(top)
    top["passport"]["kind"] = "receipt"
    for ask in top["passport"]["asks"]:
        ask["answer"] = {"a1": "4000 EUR", "a2": "Carol, finance lead"}[ask["id"]]
    return top  # status still "open", as the handoff had it


def lineage_removed(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    del top["passport"]["lineage"]
    return top


def kind_handoff(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    top["passport"]["kind"] = "handoff"
    return top


def other_lineage(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    top["passport"]["lineage"] = {
        "root_id": "TP-ZZZZ-ZZZZ",
        "from_version": 2,
        "chain": ["TP-ZZZZ-ZZZZ@2"],
    }
    return top


def verified_machine_fact(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    top["passport"]["passport"]["facts"].append(
        {"claim": "make pdf works on Bo's laptop", "scope": "machine", "verified": True}
    )
    return top


def credential(top: dict[str, Any]) -> dict[str, Any]:
    top = both(top)
    top["passport"]["asks"][0]["answer"] = f"4000 EUR; the repo token is {TOKEN}"
    return top


def minimal(top: dict[str, Any]) -> dict[str, Any]:
    """What an AI that keeps only what matters writes: no spec, no packed_at, no digests."""
    top = no_digests(top)
    del top["passport"]["spec"], top["passport"]["packed_at"]
    del top["note_to_reader"]
    return top


@dataclass
class Case:
    name: str
    make: Callable[[dict[str, Any]], dict[str, Any]]
    write: Callable[[dict[str, Any]], str]
    #: lands: the repairs expected (words in them); refused: None
    repairs: list[str] | None
    refusal: str = ""
    #: the judge's C0 reasons must name these
    c0: tuple[str, ...] = ()


CASES = [
    Case("fenced", both, fenced, [], c0=("fenced block",)),
    Case("prose-wrapped", both, prose, [], c0=("text before and after the pack",)),
    Case(
        "no digests",
        no_digests,
        fenced,
        [
            "attachment 'budget.csv' declared no sha256; its digest was computed here",
            "attachment 'budget.csv' declared no size",
            "attachment 'budget.csv' declared no encoding",
        ],
        c0=("'budget.csv' declares no sha256",),
    ),
    Case(
        "status left open",
        status_open,
        fenced,
        [
            "ask a1 has an answer but its status said open; it was taken as answered",
            "ask a2 has an answer but its status said open; it was taken as answered",
        ],
        c0=("ask a1 has an answer but its status says open",),
    ),
    Case(
        "lineage removed",
        lineage_removed,
        fenced,
        [
            "the receipt carries no lineage; it was taken to answer {pid}, the passport its "
            "passport.id names"
        ],
        c0=("fenced block",),
    ),
    Case(
        "kind left as handoff",
        kind_handoff,
        fenced,
        None,
        refusal="this looks like answers — ask the sender for a receipt",
    ),
    Case(
        "lineage naming another passport",
        other_lineage,
        fenced,
        None,
        refusal="this receipt answers TP-ZZZZ-ZZZZ, not {pid}",
    ),
    Case(
        "machine fact marked verified",
        verified_machine_fact,
        fenced,
        [],
        c0=("landing would have to seal",),
    ),
    Case("credential in an answer", credential, fenced, None, refusal="GitHub"),
    Case(
        "minimal",
        minimal,
        prose,
        [
            "the pack object declared no spec",
            "the pack declared no packed_at; the landing time",
            "attachment 'budget.csv' declared no sha256",
        ],
        c0=("declares no spec", "'budget.csv' declares no sha256"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_reply_lands_with_its_repairs_or_is_refused(alpha: Alpha, case: Case) -> None:
    a, pid = alpha.machine, alpha.pid
    reply = a.home.parent / f"{case.name.replace(' ', '-')}.txt"
    reply.write_text(case.write(case.make(alpha.handoff)), encoding="utf-8")
    before = a.open(pid)
    proc = a("land", str(reply), "--into", pid, code=None)
    if case.repairs is None:
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert case.refusal.format(pid=pid) in proc.stderr, proc.stderr
        assert TOKEN not in proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
        after = a.open(pid)
        assert after["passport"]["version"] == before["passport"]["version"]  # nothing changed
        assert TOKEN not in json.dumps(after)
        return
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    out = proc.stdout
    assert f"Merged {reply.name} into {pid}" in out
    assert "answered: a1, a2" in out
    for words in case.repairs:
        assert f"repaired: {words.format(pid=pid)}" in out, out
    after = a.open(pid)
    asks = asks_of(after)
    assert asks["a1"]["status"] == "answered" and asks["a1"]["answer"] == "4000 EUR"
    assert asks["a2"]["status"] == "answered"
    for key in ("goal", "current_state", "next_steps"):
        assert after["passport"][key] == before["passport"][key]
    # the words the command printed are the words stored in the history
    merged = [e for e in a.json("history", pid) if e["event"] == "merged"][-1]
    printed = [line.split("repaired: ", 1)[1] for line in out.splitlines() if "repaired: " in line]
    assert merged["detail"].get("repairs", []) == printed
    # landing is lenient, judging is not: the reply as written fails C0, saying why
    report = json.loads(a("conformance", str(reply), "--json", code=2).stdout)
    c0 = report["checks"][0]
    assert c0["id"] == "C0" and c0["ok"] is False
    for words in case.c0:
        assert any(words in r for r in c0["reasons"]), c0["reasons"]


def test_a_verified_machine_fact_arrives_sealed(alpha: Alpha) -> None:
    a, pid = alpha.machine, alpha.pid
    reply = a.home.parent / "fact.txt"
    reply.write_text(fenced(verified_machine_fact(alpha.handoff)), encoding="utf-8")
    out = a("land", str(reply), "--into", pid).stdout
    assert "facts added: 1 (machine facts arrive sealed)" in out
    fact = next(f for f in a.open(pid)["passport"]["facts"] if "Bo's laptop" in f["claim"])
    assert fact["verified"] is False and fact["needs_reverify"] is True


def test_the_credential_is_named_never_shown(alpha: Alpha) -> None:
    a, pid = alpha.machine, alpha.pid
    proc = a("land", "-", "--into", pid, code=2, stdin=fenced(credential(alpha.handoff)))
    assert "GitHub" in proc.stderr and "asks[0].answer" in proc.stderr
    assert "rotate" in proc.stderr and TOKEN not in proc.stderr and TOKEN[:12] not in proc.stderr
    assert not list((a.home / "inbox").glob("*")) or all(
        TOKEN not in p.read_text(encoding="utf-8") for p in (a.home / "inbox").glob("*")
    )


def test_lineage_removed_and_not_ours_is_refused(alpha: Alpha) -> None:
    a, pid = alpha.machine, alpha.pid
    top = lineage_removed(alpha.handoff)
    top["passport"]["passport"]["id"] = "TP-ZZZZ-ZZZZ"
    proc = a("land", "-", "--into", pid, code=2, stdin=fenced(top))
    assert "names no passport it answers" in proc.stderr and "TP-ZZZZ-ZZZZ" in proc.stderr
    # and a receipt with no lineage is never matched by its title
    assert "title" in proc.stderr


def test_the_same_reply_twice_changes_nothing(alpha: Alpha) -> None:
    a, pid = alpha.machine, alpha.pid
    text = fenced(status_open(alpha.handoff))
    a("land", "-", "--into", pid, stdin=text)
    version = a.open(pid)["passport"]["version"]
    again = a("land", "-", "--into", pid, stdin=text.replace("— Bo", "— Bo (resent)")).stdout
    assert f"Already merged into {pid}; nothing changed." in again
    assert a.open(pid)["passport"]["version"] == version


def test_a_partial_reply_then_the_rest(alpha: Alpha) -> None:
    a, pid = alpha.machine, alpha.pid
    first = answered(alpha.handoff, a1="4000 EUR")
    out = a("land", "-", "--into", pid, stdin=fenced(first)).stdout
    assert "answered: a1\n" in out
    asks = asks_of(a.open(pid))
    assert asks["a1"]["status"] == "answered" and asks["a2"]["status"] == "open"
    assert a.open(pid)["waiting_on"] == "human"  # still waiting on a2
    second = answered(alpha.handoff, a2="Carol, finance lead")
    out = a("land", "-", "--into", pid, stdin=prose(second)).stdout
    assert "answered: a2\n" in out and "every ask it was waiting on is answered" in out
    asks = asks_of(a.open(pid))
    assert asks["a1"]["answer"] == "4000 EUR" and asks["a2"]["answer"] == "Carol, finance lead"
