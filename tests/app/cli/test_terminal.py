"""Nothing in a pack acts on the terminal that shows it.

A hostile sender puts escape sequences (clear the screen, set the window title, paint
a fake green line), the one-byte C1 CSI (U+009B), bidi overrides (U+202E) and lone
surrogates into every string a pack carries and into its file name. Each verb that
prints them is run as a real `taskpack` subprocess; what reaches the terminal shows
those characters as ``\\uXXXX`` and obeys none of them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack

ESC = "\x1b]0;pwned\x07\x1b[2J\x1b[32m"
# what must never reach a terminal raw: C0 but \t \n, DEL, C1, bidi controls, lone surrogates
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

HOSTILE = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": f"wei{ESC}", "machine": "wei-laptop\u202e"},
    "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@2"]},
    "passport": {"id": "TP-G6RZ-DS3B", "title": f"Fix the export{ESC} PASS", "version": 2},
    "asks": [
        {"id": f"a1{ESC}", "what": "which format?", "accept": "csv or xlsx", "status": "open"}
    ],
    "landing_checks": [{"id": "c\x9b31m", "check": "run the tests", "required": True}],
}
NAMES = ["report\u202etxt.exe", "x\x9by.txt"]


def taskpack(home: Path, *args: str | Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {
        "TASKPACK_HOME": str(home),
        "TASKPACK_MACHINE": "laptop",
        "TASKPACK_ACTOR": "me",
        "TASKPACK_NO_PROGRESS": "1",
        "PYTHONIOENCODING": "utf-8",
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=120,
    )
    assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
    return proc


def shown(proc: subprocess.CompletedProcess[str]) -> str:
    """Everything the terminal got, checked for anything raw; returned for more checks."""
    text = proc.stdout + proc.stderr
    raw = RAW.findall(text)
    assert not raw, f"raw control characters reached the terminal: {raw!r}\n{text}"
    return text


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    src = tmp_path / "in" / "h.taskpack"
    src.parent.mkdir()
    files = [LuggageSource.from_bytes(n, b"hi\n") for n in NAMES]
    write_pack(HOSTILE, files, src, encoding="bag")
    return src


def test_show_file_shows_names_ids_and_text_escaped(hostile: Path, tmp_path: Path) -> None:
    out = shown(taskpack(tmp_path / "home", "show", hostile))
    assert "report\\u202etxt.exe" in out and "x\\u009by.txt" in out  # the names, as they are
    assert "a1\\u001b]0;pwned\\u0007\\u001b[2J" in out  # the ask id
    assert "c\\u009b31m" in out  # the check id
    assert "Fix the export\\u001b]0;pwned" in out


def test_watch_shows_sender_and_title_escaped(hostile: Path, tmp_path: Path) -> None:
    out = shown(taskpack(tmp_path / "home", "watch", hostile.parent, "--once", "--settle", "0"))
    assert "wei\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[32m" in out
    assert "wei-laptop\\u202e" in out
    assert "Fix the export\\u001b" in out


def test_land_and_open_show_ask_and_check_ids_escaped(hostile: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    landed = shown(taskpack(home, "land", hostile))
    assert "a1\\u001b]0;pwned" in landed
    pid = json.loads(taskpack(home, "list", "--json").stdout)[0]["id"]
    for verb in ("open", "show"):
        out = shown(taskpack(home, verb, pid))
        assert "a1\\u001b]0;pwned\\u0007\\u001b[2J" in out
        assert "[«c\\u009b31m»]" in out  # escaped, and quoted: no plain id
        assert "report\\u202etxt.exe" in out


def test_an_error_message_quoting_a_hostile_file_name_is_escaped(tmp_path: Path) -> None:
    bad = tmp_path / f"evil{ESC}\ntaskpack: ok.taskpack.json"  # a newline would forge a line
    bad.write_text('{"taskpack": "9.9", "encoding": "flat"}', encoding="utf-8")
    for verb in ("verify", "show", "land", "conformance"):
        err = shown(taskpack(tmp_path / "home", verb, bad, code=1))
        assert "evil\\u001b]0;pwned" in err, (verb, err)
        assert len(err.strip().splitlines()) == 1


def test_a_lone_surrogate_is_printed_as_its_escape_and_json_keeps_it(tmp_path: Path) -> None:
    """`"a\\udbffb"` is valid JSON: printing it must not crash the UTF-8 stream, and
    --json must still say exactly what the pack says."""
    data = json.loads(json.dumps(HOSTILE))
    data["note"] = "NOTE"
    src = tmp_path / "s.taskpack.json"
    write_pack(data, [], src, encoding="flat")
    src.write_text(
        src.read_text(encoding="utf-8").replace('"NOTE"', '"a\\udbffb"'), encoding="utf-8"
    )
    home = tmp_path / "home"
    assert "«a\\udbffb»" in shown(taskpack(home, "show", src))
    assert json.loads(taskpack(home, "show", src, "--json").stdout)["pack"]["note"] == "a\udbffb"
    shown(taskpack(home, "land", src))
