"""Many writers at once on one team desk, as real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from taskpack.app.team.pg_store import PgStore
from team_helpers import sender_pack

LANDER = r"""
import sys
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
home, machine, pack, times = sys.argv[1:]
desk = Desk(Path(home), machine, actor=machine, settings=Settings(gate_allow=["*"]))
go = Path(home).parent / "go"
print("ready", flush=True)
while not go.exists():
    pass
ids = [desk.land(Path(pack)).passport.id for _ in range(int(times))]
print(" ".join(sorted(set(ids))), flush=True)
desk.close()
"""

CHECKPOINTER = r"""
import sys
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.core.errors import VersionConflict
home, machine, pid, times = sys.argv[1:]
desk = Desk(Path(home), machine, actor=machine)
go = Path(home).parent / "go"
print("ready", flush=True)
while not go.exists():
    pass
won = lost = 0
while won < int(times):
    lp = desk.get(pid)
    try:
        desk.checkpoint(pid, {"current_state": f"{machine} {won}"}, expected_version=lp.version)
        won += 1
    except VersionConflict:
        lost += 1
print(won, lost, flush=True)
desk.close()
"""


def _start(script: str, args: list[str], url: str) -> subprocess.Popen[str]:
    env = dict(os.environ, TASKPACK_STORE=url, TASKPACK_NO_PROGRESS="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


def _finish(procs: list[subprocess.Popen[str]]) -> list[str]:
    out = []
    for p in procs:
        text, _ = p.communicate(timeout=300)
        assert p.returncode == 0
        out.append(text.strip())
    return out


def test_twenty_landings_of_one_pack_from_four_processes_are_one_passport(
    team_desk_url: str, tmp_path: Path
) -> None:
    pack = sender_pack(tmp_path, luggage=b"carried bytes" * 10_000)
    procs = [
        _start(LANDER, [str(tmp_path / f"h{n}"), f"box{n}", str(pack), "5"], team_desk_url)
        for n in range(4)
    ]
    (tmp_path / "go").touch()
    ids = set(_finish(procs))
    assert len(ids) == 1
    with PgStore(team_desk_url, home=tmp_path / "t", who="t@t", listen=False) as team:
        assert team.count() == 1
        [pid] = ids
        assert [h.event for h in team.history(pid)].count("landed") == 1
        assert len(team.luggage(pid)) == 1
        assert team.check(hash_blobs=True) == []


def test_racing_checkpoints_lose_no_change(team_desk_url: str, tmp_path: Path) -> None:
    from taskpack.app.desk import Desk

    os.environ["TASKPACK_STORE"] = team_desk_url
    try:
        desk = Desk(tmp_path / "maker", "maker")
        pid = desk.new("Shared task", "everyone checkpoints it").id
        desk.close()
    finally:
        del os.environ["TASKPACK_STORE"]
    procs = [
        _start(CHECKPOINTER, [str(tmp_path / f"h{n}"), f"box{n}", pid, "10"], team_desk_url)
        for n in range(4)
    ]
    (tmp_path / "go").touch()
    results = [tuple(map(int, line.split())) for line in _finish(procs)]
    assert sum(won for won, _ in results) == 40
    with PgStore(team_desk_url, home=tmp_path / "t", who="t@t", listen=False) as team:
        assert team.get(pid).version == 41  # every win is one version; no change lost
        assert [h.version for h in team.history(pid)] == list(range(1, 42))


def test_a_migration_under_load_copies_everything(team_desk_url: str, tmp_path: Path) -> None:
    from taskpack.app.desk import Desk
    from taskpack.app.team.migrate import migrate

    home = tmp_path / "local"
    local = Desk(home, "local-box")
    made = [local.new(f"Task {n}", "to be copied").id for n in range(30)]
    local.close()
    pack = sender_pack(tmp_path, luggage=b"load" * 1000)
    procs = [
        _start(LANDER, [str(tmp_path / f"h{n}"), f"box{n}", str(pack), "3"], team_desk_url)
        for n in range(2)
    ]
    (tmp_path / "go").touch()
    with PgStore(team_desk_url, home=tmp_path / "t", who="migrate", listen=False) as team:
        done = migrate(home, team)
        landed = set(_finish(procs))
        assert sorted(done.copied) == sorted(made)
        assert team.count() == 31 and len(landed) == 1
        assert team.check(hash_blobs=True) == []
        assert migrate(home, team).copied == []


PAUSED_LANDER = r"""
import sys, time
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.app.team import pg_tx
home, pack = sys.argv[1:]
original = pg_tx.PgTx.record_landing
def record_landing(self, *a, **k):
    original(self, *a, **k)
    print("in-tx", flush=True)
    time.sleep(3)          # the connection is cut meanwhile
pg_tx.PgTx.record_landing = record_landing
desk = Desk(Path(home), "cut-box", settings=Settings(gate_allow=["*"]))
print("ready", flush=True)
desk.land(Path(pack))
"""


def test_a_connection_lost_mid_landing_loses_nothing(team_desk_url: str, tmp_path: Path) -> None:
    import psycopg

    pack = sender_pack(tmp_path, luggage=b"in flight" * 1000)
    proc = _start(PAUSED_LANDER, [str(tmp_path / "cut"), str(pack)], team_desk_url)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "in-tx"
    with psycopg.connect(team_desk_url, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    with PgStore(team_desk_url, home=tmp_path / "t", who="t@t", listen=False) as team:
        assert team.count() == 0  # the landing did not happen, not half of it
        env = dict(os.environ, TASKPACK_STORE=team_desk_url, TASKPACK_HOME=str(tmp_path / "cut"))
        env.update(TASKPACK_MACHINE="cut-box", TASKPACK_NO_PROGRESS="1")
        again = subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", "land", str(pack)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0, again.stderr
        assert team.count() == 1
        assert team.check(hash_blobs=True) == []
