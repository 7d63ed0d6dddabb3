"""`taskpack take ID`: "Take this on" from the command line — the owner, who also does the
work, approves, accepts and starts a task in one step. Real `taskpack` processes."""

from __future__ import annotations

from pathlib import Path

from test_passports import Taskpack


def _landed_handoff(tmp_path: Path) -> tuple[Taskpack, str]:
    """A handoff from Wei, landed on Ana's desk: it waits for her approval there."""
    wei = Taskpack(tmp_path / "wei", "wei-laptop", actor="wei")
    pid = wei.json("new", "--title", "Cut the video", "--goal", "A 90 s cut")["passport"]["id"]
    pack = tmp_path / "video.taskpack"
    wei("pack", pid, "--out", str(pack))
    ana = Taskpack(tmp_path / "ana", "ana-pc", actor="ana")
    landed = ana.json("land", str(pack))
    assert landed["state"] == "waiting[owner_approval]"
    return ana, landed["passport"]


def test_take_moves_a_landed_task_to_working_and_says_so(tmp_path: Path) -> None:
    ana, pid = _landed_handoff(tmp_path)
    out = ana("take", pid).stdout
    assert out.strip().endswith("taken on: now working")
    history = ana.json("history", pid)
    moves = [(e["detail"]["from"], e["detail"]["to"]) for e in history if e["event"] == "moved"]
    assert moves[-3:] == [
        ("waiting[owner_approval]", "routed"),
        ("routed", "accepted"),
        ("accepted", "working"),
    ]
    assert ana.json("open", pid)["state"] == "working"


def test_take_refuses_a_task_already_working_and_changes_nothing(tmp_path: Path) -> None:
    ana, pid = _landed_handoff(tmp_path)
    ana("take", pid)
    before = ana.json("open", pid)["passport"]["version"]
    done = ana("take", pid, code=1)
    assert "nothing to take on" in done.stderr
    assert ana.json("open", pid)["passport"]["version"] == before


def test_take_has_help(tmp_path: Path) -> None:
    out = Taskpack(tmp_path / "h", "m")("take", "--help").stdout
    assert "approve, accept and start it" in out
    assert "take" in Taskpack(tmp_path / "h", "m")("--help").stdout
