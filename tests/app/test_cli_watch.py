"""`taskpack watch DIR…`: the folder watcher, headless."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from taskpack.app.cli import main
from taskpack.core.encoder import write_pack
from taskpack.core.luggage import LuggageSource

PACK = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": "wei", "machine": "wei-laptop"},
    "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@2"]},
    "passport": {"id": "TP-G6RZ-DS3B", "title": "Fix the invoice export", "version": 2},
    "asks": [{"id": "a1", "what": "which format?", "accept": "csv or xlsx", "status": "open"}],
}


def write(path: Path) -> None:
    encoding = "flat" if path.name.endswith(".json") else "bag"
    write_pack(PACK, [LuggageSource.from_bytes("a.txt", b"hi\n")], path, encoding=encoding)


def test_once_prints_each_pack_and_lands_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_HOME", str(tmp_path / "home"))
    inbox = tmp_path / "in"
    inbox.mkdir()
    write(inbox / "a.taskpack")
    write(inbox / "b.taskpack.json")
    (inbox / "c.taskpack.part").write_bytes(b"half")
    (inbox / "bad.taskpack").write_bytes(b"{not json")
    code = main(["watch", str(inbox), "--once", "--settle", "0", "--json"])
    assert code == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    found = sorted(Path(e["path"]).name for e in events if e["event"] == "found")
    rejected = [Path(e["path"]).name for e in events if e["event"] == "rejected"]
    assert found == ["a.taskpack", "b.taskpack.json"]
    assert rejected == ["bad.taskpack"]
    assert not (tmp_path / "home").exists()  # nothing landed, no store created


def test_missing_folder_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", str(tmp_path / "nope"), "--once"]) == 1
    err = capsys.readouterr().err
    assert "not a folder" in err and len(err.strip().splitlines()) == 1


def test_runs_until_interrupted_and_reports_a_new_file(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli", "watch", str(inbox), "--settle", "0.2",
         "--no-drives"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert proc.stderr is not None and proc.stdout is not None
        assert "watching" in proc.stderr.readline()  # the watcher is running
        write(inbox / "arrived.taskpack")
        line = proc.stdout.readline()
        assert line.startswith(str(inbox / "arrived.taskpack"))
        assert "handoff from «wei@wei-laptop»: «Fix the invoice export», 1 open ask(s)" in line
        time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(120)  # a loaded machine may take a while to stop the observer
    assert code == 0


def test_watch_survives_a_file_with_the_wrong_json_types(tmp_path: Path) -> None:
    # `"spec": []` once raised TypeError in the reader and silently killed `taskpack watch`
    inbox = tmp_path / "in"
    inbox.mkdir()
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli", "watch", str(inbox), "--settle", "0.2",
         "--no-drives", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        made = tmp_path / "made.taskpack.json"
        write(made)
        flat = json.loads(made.read_text())
        flat["passport"]["spec"] = []  # valid JSON, the wrong type
        (inbox / "odd.taskpack.json").write_text(json.dumps(flat))
        first = json.loads(proc.stdout.readline())
        assert first["event"] == "rejected" and first["path"].endswith("odd.taskpack.json")
        assert "Traceback" not in first["error"]
        write(inbox / "arrived.taskpack")
        second = json.loads(proc.stdout.readline())
        assert second["event"] == "found" and second["path"].endswith("arrived.taskpack")
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(120)  # a loaded machine may take a while to stop the observer
    assert code == 0
