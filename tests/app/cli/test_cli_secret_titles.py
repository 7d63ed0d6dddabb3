"""A pack carrying a credential, on the command line: `watch`, `show` and
`land --dry-run` name the kind and place and never print the value.
Real processes: what reaches the terminal is what a person would see."""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import hostile_zips


def github_token() -> str:
    rng = random.Random(5)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


SECRET = github_token()


def leaky_pack(path: Path) -> Path:
    data = hostile_zips.pack_data()
    data["passport"]["title"] = f"deploy with {SECRET}"
    data["origin"]["actor"] = f"ana {SECRET}"
    data["note"] = f"the key is {SECRET}"
    data["passport"]["facts"][0]["claim"] = f"CI uses {SECRET}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [hostile_zips.attachment("brief.txt", b"The brief.\n")], passport=data
            )
        )
    )
    return path


def taskpack(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TASKPACK_HOME": str(tmp_path / "home"), "TASKPACK_MACHINE": "zhang-pc"}
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text and SECRET[-12:] not in text and SECRET[4:16] not in text


def test_watch_once_names_the_credential_and_prints_no_secret(tmp_path: Path) -> None:
    leaky_pack(tmp_path / "in" / "leak.taskpack.json")
    run = taskpack(tmp_path, "watch", str(tmp_path / "in"), "--once", "--settle", "0")
    assert run.returncode == 0, run.stderr
    assert_no_secret(run.stdout, run.stderr)
    assert (
        "«(withheld: it contains a credential — GitHub token)»: «(withheld: it contains"
        in run.stdout
    )
    as_json = taskpack(tmp_path, "watch", str(tmp_path / "in"), "--once", "--settle", "0", "--json")
    assert_no_secret(as_json.stdout, as_json.stderr)
    [event] = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert event["event"] == "found"
    assert event["withheld"] == {
        "title": "GitHub token",
        "sender": "GitHub token",
        "note": "GitHub token",
    }
    assert event["title"] == "(withheld: it contains a credential — GitHub token)"


def test_show_lists_the_credentials_and_withholds_the_texts(tmp_path: Path) -> None:
    pack = leaky_pack(tmp_path / "leak.taskpack.json")
    run = taskpack(tmp_path, "show", str(pack))
    assert run.returncode == 0, run.stderr
    assert_no_secret(run.stdout, run.stderr)
    assert "This pack carries a credential, so it cannot land" in run.stdout
    for place in ("origin.actor", "note", "passport.title", "passport.facts[0].claim"):
        assert f"GitHub token at {place}" in run.stdout
    assert "title: «(withheld: it contains a credential — GitHub token)»" in run.stdout
    assert "goal: «Send the Q3 report to finance»" in run.stdout  # clean text is still shown
    as_json = taskpack(tmp_path, "show", str(pack), "--json")
    assert_no_secret(as_json.stdout, as_json.stderr)
    data = json.loads(as_json.stdout)
    assert (
        data["pack"]["passport"]["title"] == "(withheld: it contains a credential — GitHub token)"
    )
    assert {c["place"] for c in data["credentials"]} >= {"passport.title", "origin.actor"}


def test_a_dry_run_is_refused_as_the_landing_would_be(tmp_path: Path) -> None:
    pack = leaky_pack(tmp_path / "leak.taskpack.json")
    for extra in ([], ["--json"]):
        run = taskpack(tmp_path, "land", "--dry-run", str(pack), *extra)
        assert run.returncode == 2, run.stdout + run.stderr
        assert_no_secret(run.stdout, run.stderr)
        assert "Not landing this pack, it carries: GitHub token at" in run.stderr
        assert "would land" not in run.stdout
