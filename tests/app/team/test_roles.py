"""The admin's walk-through in docs/team-desk.md, run word for word against a real
cluster (only its host and port are this cluster's), then what it promises: members
work as themselves, history names the role that signed in, a member cannot mint or
revoke the tokens peers present, and an upgrade keeps every member's rights."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from taskpack.app.team import schema

DOC = Path(__file__).resolve().parents[3] / "docs" / "team-desk.md"


def walkthrough() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Setting one up") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the walk-through's shell block is missing"
    return [line for line in block.group(1).splitlines() if line.strip()]


def run_walkthrough(
    cluster: Any, tmp_path: Path
) -> list[tuple[str, subprocess.CompletedProcess[str]]]:
    env = dict(os.environ)
    env.pop("TASKPACK_STORE", None)
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        TASKPACK_HOME=str(tmp_path / "home"),
        TASKPACK_MACHINE="alpha",
        TASKPACK_NO_PROGRESS="1",
    )
    done = []
    for line in walkthrough():
        line = line.replace("db.example", "127.0.0.1").replace("5432", str(cluster.port))
        if line.startswith("#"):
            continue
        if line.startswith("export "):
            for pair in shlex.split(line)[1:]:
                key, _, value = pair.partition("=")
                env[key] = value
            continue
        done.append(
            (
                line,
                subprocess.run(
                    ["bash", "-c", line], env=env, capture_output=True, text=True, timeout=300
                ),
            )
        )
    return done


def test_the_walkthrough_runs_word_for_word_and_keeps_its_promises(
    own_postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for line, proc in run_walkthrough(own_postgres, tmp_path):
        if line.endswith("# refused"):
            assert proc.returncode != 0, line
            assert "does not let this role do that" in proc.stderr, proc.stderr
            assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        else:
            assert proc.returncode == 0, (line, proc.stderr)
    url = own_postgres.url("taskpack")
    with psycopg.connect(url) as conn:
        who = conn.execute("SELECT who, role FROM taskpack.history").fetchall()
        assert [role for _, role in who] == ["wei"]  # the server's word, not the desk's
        tokens = conn.execute("SELECT name FROM taskpack.a2a_tokens").fetchall()
        assert tokens == [("partner-agent",)]  # the member's revoke changed nothing

    # an upgrade: a migration makes a table; members may use it without a new grant
    upgraded = (
        *schema.MIGRATIONS,
        (
            schema.LATEST + 1,
            "a table a later release adds",
            ("CREATE TABLE taskpack.later (id bigserial PRIMARY KEY, note text)",),
        ),
    )
    monkeypatch.setattr(schema, "MIGRATIONS", upgraded)
    monkeypatch.setattr(schema, "LATEST", schema.LATEST + 1)
    assert schema.init(url.replace("postgres@", "ana@")) == (schema.LATEST - 1, schema.LATEST)
    with psycopg.connect(url.replace("postgres@", "bo@"), autocommit=True) as bo:
        bo.execute("INSERT INTO taskpack.later (note) VALUES ('kept')")
        assert bo.execute("SELECT note FROM taskpack.later").fetchall() == [("kept",)]


def test_a_member_writes_history_under_its_own_role_whatever_it_calls_itself(
    own_postgres: Any, tmp_path: Path
) -> None:
    run_walkthrough(own_postgres, tmp_path)
    env = dict(
        os.environ,
        TASKPACK_HOME=str(tmp_path / "wei"),
        TASKPACK_MACHINE="beta",
        TASKPACK_ACTOR="ana",  # wei's desk claims to be ana
        TASKPACK_STORE=f"postgresql://wei@127.0.0.1:{own_postgres.port}/taskpack",
        TASKPACK_NO_PROGRESS="1",
    )
    env.pop("PGHOST", None)
    cli = [sys.executable, "-m", "taskpack.app.cli.main"]
    listed = subprocess.run([*cli, "list", "--json"], env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    with psycopg.connect(own_postgres.url("taskpack")) as conn:
        pid = conn.execute("SELECT id FROM taskpack.passports").fetchone()[0]  # type: ignore[index]
    added = subprocess.run(
        [*cli, "fact", pid, "--claim", "the export runs nightly", "--scope", "org"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert added.returncode == 0, added.stderr
    history = subprocess.run([*cli, "history", pid], env=env, capture_output=True, text=True)
    assert history.returncode == 0, history.stderr
    assert "ana@beta (role wei)" in history.stdout
    wei = own_postgres.url("taskpack").replace("postgres@", "wei@")
    with psycopg.connect(wei) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("UPDATE taskpack.history SET who = 'bo@gamma'")


def test_grant_says_what_is_missing_in_one_sentence_and_twice_is_nothing(
    team_url: str, tmp_path: Path
) -> None:
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / "h"), TASKPACK_MACHINE="m")
    env.pop("TASKPACK_STORE", None)

    def grant(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "taskpack.app.cli.main",
                "store",
                "grant",
                *args,
                "--url",
                team_url,
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    early = grant("postgres")
    assert early.returncode != 0 and "taskpack store init" in early.stderr
    schema.init(team_url)
    nobody = grant("no_such_role_here")
    assert nobody.returncode != 0 and "has no role no_such_role_here" in nobody.stderr
    assert len(nobody.stderr.strip().splitlines()) == 1
    with psycopg.connect(team_url, autocommit=True) as conn:
        conn.execute(
            "DO $$ BEGIN CREATE ROLE lin LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
    first, again = grant("lin"), grant("lin")
    assert first.returncode == 0 and first.stdout.startswith("Made lin members of"), first.stderr
    assert again.returncode == 0 and "already" in again.stdout
