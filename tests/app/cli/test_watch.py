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
from taskpack.app.cli.main import main
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack

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


def start_watch(
    tmp_path: Path, inbox: Path, *extra: str, sigint_ignored: bool = False
) -> subprocess.Popen[str]:
    """`taskpack watch` as a person starts it; `sigint_ignored` starts it as a non-interactive
    shell's ``&`` does, with SIGINT ignored (how `make test &` once ran this whole suite)."""
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    argv = [
        sys.executable,
        "-m",
        "taskpack.app.cli.main",
        "watch",
        str(inbox),
        "--settle",
        "0.2",
        "--no-drives",
        *extra,
    ]
    if sigint_ignored:
        argv = ["sh", "-c", 'trap \'\' INT; exec "$0" "$@"', *argv]
    return subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


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
    proc = start_watch(tmp_path, inbox)
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
        proc.communicate(timeout=60)  # the rest of its output; closes the pipes
        code = proc.returncode
    assert code == 0


def test_watch_survives_a_file_with_the_wrong_json_types(tmp_path: Path) -> None:
    # `"spec": []` once raised TypeError in the reader and silently killed `taskpack watch`
    inbox = tmp_path / "in"
    inbox.mkdir()
    proc = start_watch(tmp_path, inbox, "--json")
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
        proc.communicate(timeout=60)  # the rest of its output; closes the pipes
        code = proc.returncode
    assert code == 0


@pytest.mark.parametrize("how", ["ctrl-c with SIGINT inherited ignored", "SIGTERM"])
def test_stops_cleanly_however_it_was_started(tmp_path: Path, how: str) -> None:
    # started from a script's `&`, SIGINT arrives ignored: Ctrl-C (as --help promises) and
    # a supervisor's SIGTERM must both still stop it, with the watcher shut down (exit 0)
    inbox = tmp_path / "in"
    inbox.mkdir()
    ignored = how.startswith("ctrl-c")
    proc = start_watch(tmp_path, inbox, sigint_ignored=ignored)
    try:
        assert proc.stderr is not None
        assert "watching" in proc.stderr.readline()
    finally:
        proc.send_signal(signal.SIGINT if ignored else signal.SIGTERM)
        try:
            proc.communicate(timeout=60)  # the rest of its output; closes the pipes
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"`taskpack watch` ignored {how} for 60 s")
    assert code == 0
