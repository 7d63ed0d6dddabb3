"""`taskpack store init` on databases as organisations have them: a table of the
organisation's own in another schema does not make it refuse, and four starters at
once make the schema once — one says "Made", the others that it is up to date."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg


def _init(tmp_path: Path, url: str, n: int) -> subprocess.Popen[str]:
    env = dict(os.environ, TASKPACK_HOME=str(tmp_path / f"h{n}"), TASKPACK_MACHINE=f"m{n}")
    env.pop("TASKPACK_STORE", None)
    return subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli.main", "store", "init", "--url", url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_table_in_another_schema_is_none_of_the_desks_business(
    team_url: str, tmp_path: Path
) -> None:
    with psycopg.connect(team_url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA audit")
        conn.execute("CREATE TABLE audit.log (at timestamptz, what text)")
    proc = _init(tmp_path, team_url, 0)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith("Made the team desk schema")
    with psycopg.connect(team_url) as conn:
        assert conn.execute("SELECT count(*) FROM audit.log").fetchone() == (0,)


def test_four_starters_at_once_make_the_schema_once(team_url: str, tmp_path: Path) -> None:
    from taskpack.app.team.schema import LOCK_KEY

    waiting = (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    with psycopg.connect(team_url, autocommit=True) as holder:
        # all four find no schema, then queue for the lock: exactly the race
        holder.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        procs = [_init(tmp_path, team_url, n) for n in range(4)]
        for _ in range(1200):
            if holder.execute(waiting).fetchone() == (4,):
                break
            time.sleep(0.1)
        holder.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    said = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, said
    made = [out for out, _ in said if out.startswith("Made")]
    assert len(made) == 1, said
    assert sum("up to date" in out for out, _ in said) == 3, said
