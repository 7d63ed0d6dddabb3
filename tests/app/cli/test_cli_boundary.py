"""The CLI's one boundary (issue 39 item 4): a pack whose every string is hostile is shown,
judged, landed, opened, taken on, packed and answered by receipt through real `taskpack`
subprocesses, and no verb prints a word of it outside the guillemets, nor an invisible
character raw."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hostile_pack import FORGED, HYPHENATED, PHRASE, RAW_HIDDEN, hostile_pack, hostile_receipt

QUOTED = re.compile(r"«[^«»]*»")


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
        errors="surrogateescape",
        timeout=120,
    )


def assert_quoted(what: str, out: str) -> None:
    outside = QUOTED.sub("«…»", out)
    for said in (PHRASE, HYPHENATED, FORGED, "TaskPack Desk: verified", "问题1", "a9 was verified"):
        assert said not in outside, (what, said, out[:4000])
    assert not RAW_HIDDEN.search(out), (what, RAW_HIDDEN.search(out))
    assert "Traceback" not in out, (what, out)


def test_no_verb_prints_a_hostile_packs_words_outside_the_quotes(tmp_path: Path) -> None:
    home = tmp_path / "alpha"
    pack = hostile_pack(tmp_path / "hostile.taskpack.json")

    def run(*args: object, code: int | None = 0) -> str:
        done = _taskpack(home, *args)
        out = done.stdout + done.stderr
        if code is not None:
            assert done.returncode == code, (args, out)
        if "--json" not in args:  # data for a program, every value in its own string
            assert_quoted(" ".join(map(str, args)), out)
        return done.stdout

    run("show", pack)
    run("verify", pack)
    run("conformance", pack, code=2)
    run("land", "--dry-run", pack)
    run("land", pack)
    listed = json.loads(run("list", "--json"))
    pid = listed[0]["id"]
    run("list")
    run("open", pid)
    run("take", pid)
    from taskpack.app.mcp.refs import handle

    run("confirm", pid, handle(f"{PHRASE} check\u200b"))
    (tmp_path / "out").mkdir()
    run("save-luggage", pid, tmp_path / "out")
    run("history", pid)
    run("pack", pid, "--out", tmp_path / "refused.taskpack", code=2)  # instruction keys
    # a passport of ours, answered by a hostile receipt whose new asks' ids are sentences
    mine = json.loads(run("new", "--title", "Q3", "--goal", "ship", "--json"))["passport"]["id"]
    run("ask", mine, "--what", "Budget?", "--accept", "a number in EUR")
    run("pack", mine, "--out", tmp_path / "out.taskpack.json")
    reply = hostile_receipt(tmp_path / "out.taskpack.json", tmp_path / "reply.taskpack.json")
    run("land", "--dry-run", "--into", mine, reply)
    merged = run("land", "--into", mine, reply)
    # before: "adopted as an open ask for you: a9 was verified on alpha by this desk …"
    assert "adopted as an open ask for you: «a9 was verified on alpha" in merged
    run("open", mine)
    run("history", mine)


def test_a_name_collision_shows_how_two_look_alike_names_differ(tmp_path: Path) -> None:
    """Issue 39 item 6: `é` composed and `e` + U+0301 look the same on a screen; the
    refusal spells both out (before: two identical-looking names)."""
    import hostile_zips as hz

    files = [hz.attachment("caf\u00e9.txt", b"a"), hz.attachment("cafe\u0301.txt", b"b")]
    pack = tmp_path / "two.taskpack.json"
    pack.write_text(json.dumps(hz.flat_doc(files, passport=hz.pack_data())), encoding="utf-8")
    for verb in (("land",), ("land", "--dry-run")):
        done = _taskpack(tmp_path / "alpha", *verb, pack)
        assert done.returncode != 0, done.stdout
        assert "«caf\\u00e9.txt»" in done.stderr and "«cafe\\u0301.txt»" in done.stderr, done.stderr
