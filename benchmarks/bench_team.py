"""Team desk benchmark: PostgreSQL against the embedded SQLite desk, in the same run.

    .venv/bin/python benchmarks/bench_team.py [--packs 1000] [--passports 10000] [--sends 200]

Starts a throwaway PostgreSQL 15 cluster (tests/postgres_cluster.py: initdb + pg_ctl,
as the `postgres` user when run as root, fsync off like the tests), then measures:

* landing `--packs` small packs (bench_store's packs) from 1, 2 and 4 processes into one
  team desk, against one process landing them into a fresh SQLite desk — wall time from
  "go" to the last landing. Goal: 4 processes faster than one into SQLite.
* `list` of `--passports` passports (Desk.passports(), best of 5) on both. Goal: the
  team desk within 2x of SQLite.
* `taskpack list` of `--passports` passports as a whole one-shot process (imports,
  connecting, reading, printing), best of 5. Goal: within 1.3x of SQLite.
* one pack of `--files` small files landed (`--only many` runs just this row). Goal:
  within 2x of SQLite.
* A2A `message:send` latency, p50 and p99, with two `taskpack serve` processes on the
  team desk (sends alternate between them), against one server on a SQLite desk.

The numbers print as ratios to the SQLite baseline of the same run. CPU-bound: on a
2-core machine 4 processes share 2 cores with PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent / "tests" / "app" / "a2a")]

from bench_store import make_packs  # noqa: E402
from postgres_cluster import running_cluster  # noqa: E402
from taskpack.app.desk import Desk  # noqa: E402
from taskpack.app.settings import Settings  # noqa: E402
from taskpack.app.team import schema  # noqa: E402
from taskpack.core.format import ids  # noqa: E402
from taskpack.core.format.model import LocalPassport, PassportState  # noqa: E402

LANDER = r"""
import sys, time
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
home, go, *packs = sys.argv[1:]
desk = Desk(Path(home), Path(home).name, actor="bench", settings=Settings(gate_allow=["*"]))
print("ready", flush=True)
while not Path(go).exists():
    time.sleep(0.001)
for p in packs:
    desk.land(Path(p))
desk.close()
print("done", flush=True)
"""


def land_with(procs: int, packs: list[Path], root: Path, url: str | None) -> float:
    env = dict(os.environ, TASKPACK_NO_PROGRESS="1")
    env.pop("TASKPACK_STORE", None)
    if url:
        env["TASKPACK_STORE"] = url
    go = root / f"go-{procs}-{bool(url)}"
    shares = [packs[i::procs] for i in range(procs)]
    running = []
    for n, share in enumerate(shares):
        home = root / f"{'team' if url else 'sqlite'}-{procs}-{n}"
        running.append(
            subprocess.Popen(
                [sys.executable, "-c", LANDER, str(home), str(go), *map(str, share)],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    for p in running:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    t0 = time.perf_counter()
    go.touch()
    for p in running:
        out, _ = p.communicate(timeout=3600)
        assert p.returncode == 0 and "done" in out
    return time.perf_counter() - t0


def fill_and_list(desk: Desk, n: int) -> float:
    batch = 500
    for start in range(0, n, batch):
        with desk.store.write() as tx:
            for i in range(start, min(n, start + batch)):
                state = PassportState(
                    id=ids.new_id(), title=f"Task {i}", goal="list", version=1, facts=[]
                )
                lp = LocalPassport(passport=state, asks=[], landing_checks=[])
                lp.state, lp.waiting_on = "working", None
                tx.insert(lp, event="created")
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        rows = desk.passports()
        runs.append(time.perf_counter() - t0)
    assert len(rows) == n
    return min(runs)


def many_files_pack(root: Path, files: int) -> Path:
    """One pack with `files` small luggage files (each different)."""
    from bench_store import _pack_data
    from taskpack.core.format.luggage import LuggageSource
    from taskpack.core.format.model import PackObject
    from taskpack.core.trust.pack_writer import make_pack

    path = root / f"many-{files}.taskpack"
    luggage = [
        LuggageSource.from_bytes(f"files/f{i:05d}.txt", f"file {i}\n".encode())
        for i in range(files)
    ]
    make_pack(PackObject.from_data(_pack_data(0)), luggage, path, machine="bench-sender")
    return path


def land_many(home: Path, pack: Path, url: str | None) -> float:
    """Wall time of landing one pack of many small files, in this process."""
    if url:
        os.environ["TASKPACK_STORE"] = url
    else:
        os.environ.pop("TASKPACK_STORE", None)
    desk = Desk(home, "bench", actor="bench", settings=Settings(gate_allow=["*"]))
    try:
        t0 = time.perf_counter()
        desk.land(pack)
        return time.perf_counter() - t0
    finally:
        desk.close()
        os.environ.pop("TASKPACK_STORE", None)


def cli_list(home: Path, url: str | None, runs: int = 5) -> float:
    """Best wall time of the one-shot command `taskpack list --json` (a whole process)."""
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE="bench")
    env.pop("TASKPACK_STORE", None)
    if url:
        env["TASKPACK_STORE"] = url
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", "list", "--limit", "100000"],
            env=env,
            capture_output=True,
            text=True,
        )
        best = min(best, time.perf_counter() - t0)
        assert done.returncode == 0, done.stderr
    return best


def serve(home: Path, url: str | None) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE=home.name)
    env.pop("TASKPACK_STORE", None)
    if url:
        env["TASKPACK_STORE"] = url
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "Serving A2A" in line, line
    return proc, line.rsplit(" ", 1)[-1].strip()


def send_latency(root: Path, url: str | None, servers: int, sends: int) -> tuple[float, float]:
    import keyring
    from a2a_testkit import flat_pack, pack_message, sdk_client, send
    from taskpack.app.a2a import tokens
    from taskpack.app.a2a.ledger import open_ledger

    tag = "team" if url else "sqlite"
    homes = [root / f"serve-{tag}-{n}" for n in range(servers)]
    if url:
        os.environ["TASKPACK_STORE"] = url
    keyring.set_keyring(tokens.MemoryKeyring())
    try:
        with open_ledger(homes[0]) as ledger:
            token = tokens.add_token(ledger, f"bench-{tag}").token
    finally:
        os.environ.pop("TASKPACK_STORE", None)
    procs = [serve(h, url) for h in homes]
    packs = [
        flat_pack(root / f"send-{tag}-{n}.taskpack.json", title=f"send {n}", sender=ids.new_id())
        for n in range(sends)
    ]
    times: list[float] = []

    async def go() -> None:
        clients = [sdk_client(u, token, timeout=120) for _, u in procs]
        opened = [await c.__aenter__() for c in clients]
        try:
            for n, path in enumerate(packs):
                msg = pack_message(path, message_id=f"{tag}-{n}")
                t0 = time.perf_counter()
                await send(opened[n % len(opened)], msg)
                times.append(time.perf_counter() - t0)
        finally:
            for c in clients:
                await c.__aexit__(None, None, None)

    try:
        asyncio.run(go())
    finally:
        for p, _ in procs:
            p.send_signal(signal.SIGTERM)
            p.communicate(timeout=60)
    times.sort()
    return statistics.median(times) * 1000, times[max(0, int(len(times) * 0.99) - 1)] * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--packs", type=int, default=1000)
    ap.add_argument("--passports", type=int, default=10000)
    ap.add_argument("--sends", type=int, default=200)
    ap.add_argument("--files", type=int, default=10000, help="small files in one pack")
    ap.add_argument("--only", choices=["many", "list"], help="only the many-files or the list rows")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-team-") as tmp, running_cluster() as pg:
        root = Path(tmp)
        if args.only is None:
            packs = make_packs(root / "packs", args.packs)
            print(f"landing {args.packs} small packs")
            sqlite_s = land_with(1, packs, root, None)
            print(f"  SQLite, 1 process:        {sqlite_s:7.2f} s  (baseline)")
            for procs in (1, 2, 4):
                url = pg.new_database()
                schema.init(url)
                team_s = land_with(procs, packs, root, url)
                print(
                    f"  team desk, {procs} process(es): {team_s:7.2f} s  "
                    f"{sqlite_s / team_s:5.2f}x the SQLite rate"
                )
        if args.only in (None, "list"):
            print(f"list of {args.passports} passports (best of 5)")
            os.environ.pop("TASKPACK_STORE", None)
            local = Desk(root / "list-sqlite", "bench", settings=Settings())
            sqlite_list = fill_and_list(local, args.passports)
            local.close()
            url = pg.new_database()
            schema.init(url)
            os.environ["TASKPACK_STORE"] = url
            team = Desk(root / "list-team", "bench", settings=Settings())
            team_list = fill_and_list(team, args.passports)
            team.close()
            os.environ.pop("TASKPACK_STORE")
            print(f"  SQLite:    {sqlite_list * 1000:7.1f} ms  (baseline)")
            print(
                f"  team desk: {team_list * 1000:7.1f} ms  {team_list / sqlite_list:5.2f}x SQLite"
            )
            print(f"`taskpack list` of {args.passports} passports, a whole process (best of 5)")
            os.environ["TASKPACK_STORE"] = url
            cli_team = cli_list(root / "list-team", url)
            os.environ.pop("TASKPACK_STORE")
            cli_sqlite = cli_list(root / "list-sqlite", None)
            print(f"  SQLite:    {cli_sqlite * 1000:7.1f} ms  (baseline)")
            print(f"  team desk: {cli_team * 1000:7.1f} ms  {cli_team / cli_sqlite:5.2f}x SQLite")
        if args.only in (None, "many"):
            print(f"one pack of {args.files} small files, landed")
            many = many_files_pack(root, args.files)
            many_sqlite = land_many(root / "many-sqlite", many, None)
            url = pg.new_database()
            schema.init(url)
            many_team = land_many(root / "many-team", many, url)
            print(f"  SQLite:    {many_sqlite:7.2f} s  (baseline)")
            print(f"  team desk: {many_team:7.2f} s  {many_team / many_sqlite:5.2f}x SQLite")
        if args.only is None:
            print(f"A2A message:send, {args.sends} sends one after another")
            p50, p99 = send_latency(root, None, 1, args.sends)
            print(f"  SQLite desk, 1 server:     p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  (baseline)")
            url = pg.new_database()
            schema.init(url)
            t50, t99 = send_latency(root, url, 2, args.sends)
            print(
                f"  team desk, 2 servers:      p50 {t50:6.1f} ms  p99 {t99:6.1f} ms  "
                f"({t50 / p50:4.2f}x, {t99 / p99:4.2f}x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
