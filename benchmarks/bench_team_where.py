"""Where the time of many landings goes on a team desk: the server's side and one client's.

    .venv/bin/python benchmarks/bench_team_where.py [--packs 1000] [--procs 4] [--top 12]

Starts a throwaway PostgreSQL 15 cluster with `pg_stat_statements` loaded (Debian's
postgresql-15 ships it), lands `--packs` small packs (bench_store's) from `--procs`
processes at once into one team desk, as `bench_team.py`'s landing row does, and prints:

* the wall time, and the server time the statements took (pg_stat_statements'
  total_exec_time, summed), against the processes' own CPU time;
* the statements that took the most server time (calls, total, mean, rows);
* a cProfile summary of the landing loop of one of the processes (cumulative time,
  the functions that cost the most).

A measurement, not a goal: it says what to tune first.
"""

from __future__ import annotations

import argparse
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from bench_store import make_packs  # noqa: E402
from postgres_cluster import running_cluster  # noqa: E402
from taskpack.app.team import schema  # noqa: E402

LANDER = r"""
import cProfile, resource, sys, time
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
home, go, profile_to, *packs = sys.argv[1:]
desk = Desk(Path(home), Path(home).name, actor="bench", settings=Settings(gate_allow=["*"]))
print("ready", flush=True)
while not Path(go).exists():
    time.sleep(0.001)
profiler = cProfile.Profile() if profile_to != "-" else None
before = resource.getrusage(resource.RUSAGE_SELF)
if profiler is not None:
    profiler.enable()
for p in packs:
    desk.land(Path(p))
if profiler is not None:
    profiler.disable()
    profiler.dump_stats(profile_to)
after = resource.getrusage(resource.RUSAGE_SELF)
desk.close()
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"done {cpu:.3f}", flush=True)
"""

TOP = """
SELECT calls, total_exec_time, mean_exec_time, rows,
       regexp_replace(query, '\\s+', ' ', 'g')
FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY total_exec_time DESC LIMIT %s
"""


def land(
    procs: int, packs: list[Path], root: Path, url: str, profile_to: Path
) -> tuple[float, float]:
    """(wall seconds from "go" to the last landing, CPU seconds of the landers)."""
    env = dict(os.environ, TASKPACK_NO_PROGRESS="1", TASKPACK_STORE=url)
    go = root / "go"
    running = []
    for n in range(procs):
        prof = str(profile_to) if n == 0 else "-"
        running.append(
            subprocess.Popen(
                [sys.executable, "-c", LANDER, str(root / f"lander-{n}"), str(go), prof]
                + [str(p) for p in packs[n::procs]],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    for p in running:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    t0 = time.perf_counter()
    go.touch()
    cpu = 0.0
    for p in running:
        out, _ = p.communicate(timeout=3600)
        assert p.returncode == 0 and "done" in out, out
        cpu += float(out.split()[-1])
    return time.perf_counter() - t0, cpu


def main(argv: list[str] | None = None) -> int:
    import psycopg

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--packs", type=int, default=1000)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-where-") as tmp, running_cluster() as pg:
        root = Path(tmp)
        with psycopg.connect(pg.admin_url, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        pg.stop("fast")
        pg.start()
        with psycopg.connect(pg.admin_url, autocommit=True) as conn:  # what triggers run, too
            conn.execute("ALTER SYSTEM SET pg_stat_statements.track = 'all'")
            conn.execute("SELECT pg_reload_conf()")
        url = pg.new_database()
        schema.init(url)
        packs = make_packs(root / "packs", args.packs)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION pg_stat_statements")
            conn.execute("SELECT pg_stat_statements_reset()")
        prof = root / "lander-0.prof"
        wall, cpu = land(args.procs, packs, root, url, prof)
        with psycopg.connect(url, autocommit=True) as conn:
            server_ms, calls = conn.execute(
                "SELECT sum(total_exec_time), sum(calls) FROM pg_stat_statements WHERE dbid = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())"
            ).fetchone()  # type: ignore[misc]
            top = conn.execute(TOP, (args.top,)).fetchall()
        print(f"{args.packs} small packs landed from {args.procs} processes into one team desk")
        print(f"  wall {wall:.2f} s ({args.packs / wall:.0f} landings/s)")
        print(f"  landers' CPU (user+sys, all {args.procs}): {cpu:.2f} s")
        print(f"  server statement time (pg_stat_statements, summed): {server_ms / 1000:.2f} s")
        print(f"  statements per landing: {calls / args.packs:.1f}")
        print(f"top {args.top} statements by total server time")
        print(f"  {'calls':>7} {'total ms':>9} {'mean ms':>8} {'rows':>7}  query")
        for calls, total, mean, rows, query in top:
            print(f"  {calls:7d} {total:9.1f} {mean:8.3f} {rows:7d}  {query[:110]}")
        print("one lander's landing loop, cProfile (cumulative, top 25)")
        pstats.Stats(str(prof)).sort_stats("cumulative").print_stats(25)
        print("one lander's landing loop, cProfile (own time, top 20)")
        pstats.Stats(str(prof)).sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
