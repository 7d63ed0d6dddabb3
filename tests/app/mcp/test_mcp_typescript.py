"""`taskpack mcp` through the official MCP TypeScript SDK (`Client` +
`StdioClientTransport`, @modelcontextprotocol/sdk 1.32), the client Claude Code, Cursor
and the inspector use. `make test` installs it (`npm ci` in
tests/app/mcp/ts); the test does not skip when it is missing, it fails.

The SDK checks every structured result against the tool's output schema: an error that
carried a structured part of another shape reached the agent as "Structured content does
not match the tool's output schema", never as the desk's sentence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TS = Path(__file__).parent / "ts"


def _node() -> str:
    node = shutil.which("node")
    assert node, "node is needed for the MCP TypeScript SDK tests (apt-get install nodejs)"
    assert (TS / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir(), (
        "the MCP TypeScript SDK is not installed: run `npm ci --prefix tests/app/mcp/ts` "
        "(make test does)"
    )
    return node


def ts_client(home: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Run the scenario through the TypeScript SDK against a real `taskpack mcp`."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home.parent),
        "TASKPACK_HOME": str(home),
        "TASKPACK_MACHINE": "alpha",
        "TASKPACK_ACTOR": "ana",
        "TASKPACK_NO_PROGRESS": "1",
        "PYTHONIOENCODING": "utf-8",
    }
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    scenario = {
        "command": sys.executable,
        "args": ["-m", "taskpack.app.cli.main", "mcp"],
        "env": env,
        "cwd": str(home.parent),
        "calls": calls,
    }
    done = subprocess.run(
        [_node(), str(TS / "client.mjs")],
        input=json.dumps(scenario),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=TS,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "alpha"


def _new(home: Path) -> str:
    out = ts_client(home, [("taskpack_new", {"title": "Q3 report", "goal": "Ship it"})])
    call = out["calls"][0]
    assert not call.get("isError") and "thrown" not in call, call
    pid: str = call["structuredContent"]["id"]
    return pid


def test_errors_reach_a_typescript_agent_as_the_desks_sentence(home: Path, tmp_path: Path) -> None:
    pid = _new(home)
    existing = tmp_path / "exists.taskpack"
    existing.write_bytes(b"keep me")
    out = ts_client(
        home,
        [
            ("taskpack_checkpoint", {"id": pid, "expected_version": 1, "current_state": "a"}),
            ("taskpack_checkpoint", {"id": pid, "expected_version": 1, "current_state": "b"}),
            ("taskpack_open", {"id": "TP-AAAA-AAAA"}),
            ("taskpack_pack", {"id": pid, "out": str(existing)}),
            ("taskpack_land", {"path": str(tmp_path / "nothing.taskpack")}),
        ],
    )
    assert {"taskpack_checkpoint", "taskpack_open", "taskpack_pack", "taskpack_land"} <= set(
        out["tools"]
    )
    ok, stale, missing, exists, absent = out["calls"]
    assert "thrown" not in ok and not ok["isError"]
    for call in (stale, missing, exists, absent):
        assert "thrown" not in call, call  # before: the schema check failed in the SDK
        assert call["isError"] and call["structuredContent"] is None
        assert "\n" not in call["text"] and call["text"].endswith(".")
    assert stale["text"] == (
        f"passport {pid} is at version 2, not 1. Someone else changed it first: read it "
        "again and retry with the new version."
    )
    assert missing["text"].startswith("no passport TP-AAAA-AAAA in this desk")
    assert "already exists; nothing was written" in exists["text"]
    assert existing.read_bytes() == b"keep me"


def test_wrong_argument_types_are_one_plain_sentence(home: Path) -> None:
    pid = _new(home)
    out = ts_client(
        home,
        [
            ("taskpack_checkpoint", {"id": pid, "expected_version": "5", "current_state": "x"}),
            ("taskpack_open", {"id": 5}),
            ("taskpack_checkpoint", {"id": pid, "expected_version": True}),
            ("taskpack_list", {"state": "nonsense"}),
            ("taskpack_open", {}),
        ],
    )
    quoted, number, boolean, enum, missing = out["calls"]
    for call in out["calls"]:
        assert "thrown" not in call and call["isError"], call
        assert "\n" not in call["text"] and "validation error" not in call["text"], call
        assert "input_value" not in call["text"] and "pydantic" not in call["text"]
    # before: "5" was taken for 5 and the checkpoint was written
    assert quoted["text"] == (
        "`expected_version` of taskpack_checkpoint must be an integer; see the tool's input schema."
    )
    assert number["text"] == "`id` of taskpack_open must be a string; see the tool's input schema."
    assert "`expected_version` of taskpack_checkpoint must be an integer" in boolean["text"]
    assert enum["text"].startswith("`state` of taskpack_list must be one of ")
    assert missing["text"] == "taskpack_open needs the argument `id`; see the tool's input schema."
    after = ts_client(home, [("taskpack_open", {"id": pid})])["calls"][0]
    assert after["structuredContent"]["version"] == 1  # nothing was written


def test_pack_writes_only_to_a_pack_name_in_a_folder_that_exists(
    home: Path, tmp_path: Path
) -> None:
    pid = _new(home)
    out = ts_client(
        home,
        [
            ("taskpack_pack", {"id": pid, "out": str(tmp_path / "x.txt")}),
            ("taskpack_pack", {"id": pid, "out": str(tmp_path / "new" / "dir" / "y.taskpack")}),
            ("taskpack_pack", {"id": pid, "out": str(tmp_path / "z.json")}),
            ("taskpack_pack", {"id": pid, "out": str(tmp_path / "ok.taskpack.json")}),
        ],
    )
    txt, folder, json_name, good = out["calls"]
    assert txt["isError"] and txt["text"].startswith("x.txt is not a pack file name")
    assert folder["isError"] and "does not exist; nothing was written" in folder["text"]
    assert json_name["isError"] and json_name["text"].startswith("z.json is not a pack file name")
    # before: a zip was written to x.txt and the missing folders were made
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "new").exists()
    assert not (tmp_path / "z.json").exists()
    assert not good["isError"], good
    assert good["structuredContent"]["encoding"] == "flat"
    assert (tmp_path / "ok.taskpack.json").is_file()


def test_a_typescript_agent_does_the_work_with_the_new_tools(home: Path, tmp_path: Path) -> None:
    """Issue 39 item 7, through the official SDK (which checks every result against the
    tool's output schema): confirm a landing check, answer an ask by its handle, save the
    luggage, attach, return a result, finish, read the history; an unknown tool is -32602."""
    import hostile_zips as hz

    data = hz.pack_data()
    data["asks"] = [{"id": "问题1", "what": "Which region?", "accept": "a code", "status": "open"}]
    pack = tmp_path / "p.taskpack.json"
    doc = hz.flat_doc([hz.attachment("docs/plan.md", b"# plan")], passport=data)
    pack.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "log.txt").write_text("ok\n")
    landed = ts_client(home, [("taskpack_land", {"path": str(pack)})])["calls"][0]
    pid = landed["structuredContent"]["passport_id"]
    opened = ts_client(home, [("taskpack_open", {"id": pid})])["calls"][0]["structuredContent"]
    handle = opened["asks"][0]["ref"]
    assert handle.startswith("#")
    calls = [
        ("taskpack_take", {"id": pid}),
        ("taskpack_confirm_check", {"id": pid, "check": "c1"}),
        ("taskpack_answer", {"id": pid, "ask_id": handle, "answer": "eu-west"}),
        ("taskpack_save_luggage", {"id": pid, "folder": str(out)}),
        ("taskpack_attach", {"id": pid, "files": [str(tmp_path / "log.txt")]}),
        (
            "taskpack_result",
            {"id": pid, "summary": "done", "evidence": [{"kind": "note", "summary": "ok"}]},
        ),
        ("taskpack_move", {"id": pid, "state": "completed"}),
        ("taskpack_history", {"id": pid, "limit": 3}),
        ("taskpack_open", {"id": pid}),
        ("taskpack_list", {"limit": 3}),
        ("taskpack_nothing", {}),
    ]
    result = ts_client(home, calls)
    assert {name for name, _ in calls[:-1]} <= set(result["tools"])
    *done, unknown = result["calls"]
    for (name, _), call in zip(calls, done, strict=False):
        assert "thrown" not in call and not call["isError"], (name, call)
    assert unknown["code"] == -32602 and "Unknown tool" in unknown["thrown"]
    after = done[8]["structuredContent"]
    assert after["state"] == "completed" and after["counts"]["required_checks"] == 0
    assert after["asks"][0]["status"] == "answered"
    assert (out / "docs" / "plan.md").read_bytes() == b"# plan"
    assert done[7]["structuredContent"]["next_offset"] == 3


def test_a_typescript_agent_reads_a_large_passport_page_by_page(home: Path) -> None:
    """The SDK checks each page against taskpack_open's output schema (its `page` too)."""
    from taskpack.app.desk import Desk

    desk = Desk(home, "alpha", actor="ana")
    try:
        lp = desk.new("big", "many facts")
        facts = [
            {"claim": f"fact {n}", "scope": "universal", "verified": True} for n in range(3000)
        ]
        pid = desk.checkpoint(lp.id, {"facts": facts}, expected_version=lp.version).id
    finally:
        desk.close()
    first = ts_client(home, [("taskpack_open", {"id": pid})])["calls"][0]
    assert "thrown" not in first and not first["isError"], first
    page = first["structuredContent"]["page"]
    assert page["next_cursor"] and len(json.dumps(first["structuredContent"])) <= 40_000
    second = ts_client(home, [("taskpack_open", {"id": pid, "cursor": page["next_cursor"]})])
    call = second["calls"][0]
    assert "thrown" not in call and not call["isError"], call
    shown = len(first["structuredContent"]["facts"])
    assert call["structuredContent"]["facts"][0]["n"] == shown + 1
