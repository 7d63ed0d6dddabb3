"""`taskpack confirm` and `taskpack save-luggage` (issue 39 item 7), the CLI's twins of
the agents' taskpack_confirm_check and taskpack_save_luggage, as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import hostile_zips as hz


def _taskpack(home: Path, *args: object) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TASKPACK_HOME=str(home),
        TASKPACK_MACHINE="alpha",
        TASKPACK_ACTOR="ana",
        TASKPACK_NO_PROGRESS="1",
        PYTHONIOENCODING="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def test_confirm_a_check_and_save_the_luggage(tmp_path: Path) -> None:
    home = tmp_path / "alpha"
    data = hz.pack_data()
    data["landing_checks"].append({"id": "检查 2", "check": "the printer is on", "required": True})
    files = [hz.attachment("docs/plan.md", b"# plan"), hz.attachment("keep.txt", b"theirs")]
    pack = tmp_path / "p.taskpack.json"
    pack.write_text(json.dumps(hz.flat_doc(files, passport=data)), encoding="utf-8")
    landed = _taskpack(home, "land", pack, "--json")
    pid = json.loads(landed.stdout)["passport"]
    done = _taskpack(home, "confirm", pid, "c1")
    assert done.returncode == 0, done.stderr
    assert "landing check c1 confirmed on alpha; 1 required check(s) left" in done.stdout
    from taskpack.app.mcp.refs import handle

    done = _taskpack(home, "confirm", pid, handle("检查 2"))
    assert "0 required check(s) left" in done.stdout, done.stderr
    wrong = _taskpack(home, "confirm", pid, "c9")
    assert wrong.returncode == 1 and "has no landing check c9" in wrong.stderr
    opened = json.loads(_taskpack(home, "open", pid, "--json").stdout)
    assert all(c["checked_on"] == "alpha" for c in opened["landing_checks"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_bytes(b"mine")
    saved = _taskpack(home, "save-luggage", pid, out)
    assert saved.returncode == 0, saved.stderr
    assert "saved docs/plan.md (6 bytes)" in saved.stdout
    assert "skipped keep.txt: a file of that name is already there" in saved.stderr
    assert (out / "docs" / "plan.md").read_bytes() == b"# plan"
    assert (out / "keep.txt").read_bytes() == b"mine"
    missing = _taskpack(home, "save-luggage", pid, tmp_path / "nowhere")
    assert missing.returncode == 1 and not (tmp_path / "nowhere").exists()


def test_answer_takes_the_handle_of_an_ask_whose_id_is_not_plain(tmp_path: Path) -> None:
    from taskpack.app.mcp.refs import handle

    home = tmp_path / "alpha"
    data = hz.pack_data()
    data["asks"] = [{"id": "问题 1", "what": "Which region?", "accept": "a code", "status": "open"}]
    pack = tmp_path / "p.taskpack.json"
    pack.write_text(json.dumps(hz.flat_doc([], passport=data)), encoding="utf-8")
    pid = json.loads(_taskpack(home, "land", pack, "--json").stdout)["passport"]
    done = _taskpack(home, "answer", pid, handle("问题 1"), "--answer", "eu-west")
    assert done.returncode == 0, done.stderr
    assert "ask «问题 1» answered" in done.stdout
    opened = json.loads(_taskpack(home, "open", pid, "--json").stdout)
    assert opened["asks"][0]["answer"] == "eu-west"
    wrong = _taskpack(home, "answer", pid, "a9", "--answer", "x")
    assert wrong.returncode == 1 and "has no ask a9" in wrong.stderr
