"""Three machines, three stores, real `taskpack` processes: A → B → C, then the receipts
come home C → B → A, with every rule of spec §4.4.1 checked on the way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest


def _base_env() -> dict[str, str]:
    """The caller's environment, but letting the many short `taskpack` processes share
    compiled bytecode (kept outside the source tree)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "taskpack-test-pycache")
    return env


class Machine:
    def __init__(self, root: Path, name: str, actor: str) -> None:
        self.home, self.name, self.actor = root / name, name, actor

    def __call__(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {
            **_base_env(),
            "TASKPACK_HOME": str(self.home),
            "TASKPACK_MACHINE": self.name,
            "TASKPACK_ACTOR": self.actor,
            "PYTHONIOENCODING": "utf-8",
        }
        proc = subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", *args],
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert proc.returncode == code, (self.name, args, proc.stdout, proc.stderr)
        return proc

    def json(self, *args: str, code: int = 0) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)

    def open(self, pid: str) -> dict[str, Any]:
        data: dict[str, Any] = self.json("open", pid)
        return data


def _asks(lp: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in lp.get("asks") or []}


@pytest.mark.slow
def test_three_hops_and_two_receipts_home(tmp_path: Path) -> None:
    a = Machine(tmp_path, "laptop-ana", "ana")
    b = Machine(tmp_path, "desk-bo", "bo")
    c = Machine(tmp_path, "server-cy", "cy")
    files = tmp_path / "files"
    files.mkdir()
    (files / "brief.txt").write_text("Customer wants the Q3 report as a PDF.\n", encoding="utf-8")

    # --- A starts the work and hands it to B -------------------------------------------
    a_id = a.json("new", "--title", "Q3 report", "--goal", "Ship the Q3 report")["passport"]["id"]
    a("fact", a_id, "--claim", "make pdf works here", "--scope", "machine", "--verified")
    a("fact", a_id, "--claim", "the customer wants a PDF", "--scope", "universal", "--verified")
    a("ask", a_id, "--what", "What is the budget?", "--accept", "a number in EUR")
    a("check", a_id, "--check", "this machine can render a PDF", "--how", "make pdf")
    a("next", a_id, "write part 2")
    h1 = a.json(
        "pack", a_id, "--out", str(tmp_path / "h1.taskpack"), "--file", str(files / "brief.txt")
    )
    assert h1["lineage"] == {"root_id": a_id, "from_version": 6, "chain": [f"{a_id}@6"]}
    assert h1["asks_sent"] == ["a1"] and h1["moved_to"] == "waiting[human]"
    assert a.open(a_id)["waiting_on"] == "human"

    # --- B lands it (B's gate allows ana), works, adds its own ask, hands it to C ------
    b("settings", "set", "gate.allow", "ana")
    landed = b.json("land", str(tmp_path / "h1.taskpack"))
    b_id = landed["passport"]
    assert b_id != a_id and landed["state"] == "routed" and not landed["already"]
    assert b.json("land", str(tmp_path / "h1.taskpack"))["already"]  # idempotent
    lp_b = b.open(b_id)
    assert lp_b["lineage"] == {"root_id": a_id, "from_version": 6, "chain": [f"{a_id}@6"]}
    assert lp_b["passport"]["next_steps"][0].startswith(
        "Landing check (required): this machine can render a PDF"
    )
    assert "«make pdf»" in lp_b["passport"]["next_steps"][0]
    assert lp_b["passport"]["next_steps"][1] == "write part 2"
    sealed = {f["claim"]: f for f in lp_b["passport"]["facts"]}
    assert sealed["make pdf works here"]["verified"] is False
    assert sealed["make pdf works here"]["verified_on"] == "laptop-ana"
    assert sealed["the customer wants a PDF"]["verified"] is True
    assert [x["name"] for x in lp_b["luggage"]] == ["brief.txt"]
    b("move", b_id, "accepted")
    b("move", b_id, "working")
    b("ask", b_id, "--what", "Which font?", "--accept", "a font name")
    h2 = b.json("pack", b_id, "--out", str(tmp_path / "h2.taskpack.json"))
    v_b = h2["version"]
    assert h2["lineage"]["chain"] == [f"{a_id}@6", f"{b_id}@{v_b}"]
    assert h2["lineage"]["root_id"] == a_id and h2["lineage"]["from_version"] == v_b
    assert h2["asks_sent"] == ["a1", "a2"]

    # --- C lands it (held by its gate until C's owner approves), answers, sends a receipt
    c_land = c.json("land", str(tmp_path / "h2.taskpack.json"))
    c_id = c_land["passport"]
    assert c_land["state"] == "waiting[owner_approval]"
    for state in ("routed", "accepted", "working"):
        c("move", c_id, state)
    lp_c = c.open(c_id)
    assert lp_c["lineage"]["chain"] == [f"{a_id}@6", f"{b_id}@{v_b}"]
    assert [x["name"] for x in lp_c["luggage"]] == ["brief.txt"]  # luggage travels on
    c("answer", c_id, "a1", "--answer", "5000 EUR")
    c("answer", c_id, "a2", "--answer", "Inter")
    c("ask", c_id, "--what", "When is the deadline?", "--accept", "a date")
    c(
        "fact",
        c_id,
        "--claim",
        "Inter is installed on the render box",
        "--scope",
        "machine",
        "--verified",
    )
    c("check", c_id, "--check", "the render box has Inter", "--how", "fc-list | grep Inter")
    r1 = c.json("pack", c_id, "--kind", "receipt", "--out", str(tmp_path / "r1.taskpack"))
    assert r1["lineage"]["chain"][-1].startswith(f"{c_id}@")

    # rule 1: a receipt from C answers B (the entry before the last), never the root A
    wrong = a("land", str(tmp_path / "r1.taskpack"), "--into", a_id, code=2)
    assert f"answers {b_id}" in wrong.stderr
    assert a.open(a_id)["passport"]["version"] == 7  # nothing changed
    handoff = b("land", str(tmp_path / "h2.taskpack.json"), "--into", b_id, code=2)
    assert "never merged" in handoff.stderr
    before = b.open(b_id)
    assert before["state"] == "waiting" and before["waiting_on"] == "human"
    dry = b.json("land", str(tmp_path / "r1.taskpack"), "--into", b_id, "--dry-run")
    assert (
        dry["would_answer"] == ["a1", "a2"]
        and b.open(b_id)["passport"]["version"] == before["passport"]["version"]
    )

    merged = b.json("land", str(tmp_path / "r1.taskpack"), "--into", b_id)
    assert merged["answered"] == ["a1", "a2"] and merged["adopted"] == [{"from": "a3", "as": "a3"}]
    after = b.open(b_id)
    # rule 2: answers and statuses written, with who and when; the task itself untouched
    asks = _asks(after)
    assert (asks["a1"]["status"], asks["a1"]["answer"]) == ("answered", "5000 EUR")
    assert (asks["a2"]["status"], asks["a2"]["answer"]) == ("answered", "Inter")
    assert asks["a1"]["answered_by"] == "cy@server-cy" and asks["a1"]["answered_at"].endswith("Z")
    for key in ("goal", "current_state", "next_steps", "title"):
        assert after["passport"].get(key) == before["passport"].get(key), key
    # rule 3: C's own question is adopted as an open ask for B
    assert (asks["a3"]["status"], asks["a3"]["what"]) == ("open", "When is the deadline?")
    # rule 4: C's machine fact arrives sealed
    fact = next(
        f for f in after["passport"]["facts"] if f["claim"].startswith("Inter is installed")
    )
    assert (fact["verified"], fact["needs_reverify"], fact["verified_on"]) == (
        False,
        True,
        "server-cy",
    )
    # rule 5: C's landing checks are reported, not adopted
    assert [x["check"] for x in merged["sender_checks"]] == ["the render box has Inter"]
    assert after["landing_checks"] == before["landing_checks"]
    assert "the render box has Inter" not in json.dumps(after["passport"]["next_steps"])
    # every ask B sent is answered: B is working again
    assert merged["moved_to"] == "working" and after["state"] == "working"
    assert b.json("land", str(tmp_path / "r1.taskpack"), "--into", b_id)["already"]

    # --- B's receipt goes home to A ---------------------------------------------------
    r2 = b.json("pack", b_id, "--kind", "receipt", "--out", str(tmp_path / "r2.taskpack.json"))
    assert r2["lineage"]["chain"][0] == f"{a_id}@6" and len(r2["lineage"]["chain"]) == 2
    c_wrong = c("land", str(tmp_path / "r2.taskpack.json"), "--into", c_id, code=2)
    assert f"answers {a_id}" in c_wrong.stderr
    a_before = a.open(a_id)
    home = a.json("land", str(tmp_path / "r2.taskpack.json"), "--into", a_id)
    assert home["answered"] == ["a1"] and home["moved_to"] == "working"
    a_after = a.open(a_id)
    a1 = _asks(a_after)["a1"]
    assert (a1["status"], a1["answer"], a1["answered_by"]) == (
        "answered",
        "5000 EUR",
        "cy@server-cy",
    )
    for key in ("goal", "current_state", "next_steps"):
        assert a_after["passport"].get(key) == a_before["passport"].get(key), key
    assert "Which font?" not in json.dumps(
        a_after["asks"]
    )  # B's own downstream question stays at B
    # A still holds its own ✓ for its own machine fact; B's sealed copy did not overwrite it
    own = [f for f in a_after["passport"]["facts"] if f["claim"] == "make pdf works here"]
    assert len(own) == 1 and own[0]["verified"] is True
    events = [e["event"] for e in a.json("history", a_id)]
    assert events[-3:] == ["moved", "merged", "moved"]

    # --- restore: only where the fact was proven AND the pack was written by this desk
    back = a.json("land", str(tmp_path / "h1.taskpack"))["passport"]  # A lands its own pack
    assert a.json("open", back)["passport"]["facts"][0]["verified"] is False
    a("restore", back, "1", code=1)  # allowed, but needs the person's explicit --yes
    restored = a.json("restore", back, "1", "--yes")
    assert restored["passport"]["facts"][0]["verified"] is True
    assert a.json("history", back)[-1]["event"] == "restored"
    refused = b("restore", b_id, "1", "--yes", code=2)
    assert "laptop-ana" in refused.stderr
