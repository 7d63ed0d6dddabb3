"""A2A streams across servers on one team desk: how soon a subscriber on one `taskpack
serve` sees a change made through another.

    .venv/bin/python benchmarks/bench_team_sse.py [--changes 30]

Starts a throwaway PostgreSQL 15 cluster (tests/postgres_cluster.py), lands `--changes`
handoffs, and runs two `taskpack serve` processes on it (A and B). For each handoff in
turn: a subscriber on A follows the task (SubscribeToTask, SSE), then the task is
cancelled through B (CancelTask), and three clocks are read against the moment the cancel
was asked for:

* the baseline: the change's NOTIFY arriving on a bare psycopg connection that LISTENs
  in this process (the commit through B, plus PostgreSQL's delivery: the floor of any
  listener);
* B's answer to the cancel;
* the cancelled status arriving on A's stream.

Printed: p50/p95 of each, and of stream minus baseline (what A adds after the commit
is known: its change feed, its look at the store, the SSE write). Goal: a stream sees
another server's change within 0.2 s (it used to poll every 1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent / "tests" / "app" / "a2a")]

from postgres_cluster import running_cluster  # noqa: E402
from taskpack.app.team import schema  # noqa: E402
from taskpack.app.team.listen import CHANNEL  # noqa: E402


def serve(home: Path, url: str) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE=home.name, TASKPACK_STORE=url)
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


class Heard:
    """A bare LISTEN on its own thread: when each passport's first notice arrived after
    it was armed."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(f"LISTEN {CHANNEL}")
        self.lock = threading.Lock()
        self.armed: dict[str, threading.Event] = {}
        self.at: dict[str, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def arm(self, passport_id: str) -> threading.Event:
        with self.lock:
            self.armed[passport_id] = threading.Event()
            return self.armed[passport_id]

    def _run(self) -> None:
        while not self.stop.is_set():
            for note in self.conn.notifies(timeout=0.2):
                now = time.perf_counter()
                ids = json.loads(note.payload).get("ids", [])
                with self.lock:
                    for pid in ids:
                        if pid in self.armed and pid not in self.at:
                            self.at[pid] = now
                            self.armed[pid].set()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.conn.close()


def measure(root: Path, url: str, changes: int) -> dict[str, list[float]]:
    import keyring
    from a2a.types import a2a_pb2 as pb
    from a2a_testkit import flat_pack, pack_message, sdk_client, send
    from taskpack.app.a2a import tokens
    from taskpack.app.a2a.ledger import open_ledger

    os.environ["TASKPACK_STORE"] = url
    keyring.set_keyring(tokens.MemoryKeyring())
    try:
        with open_ledger(root / "admin") as ledger:
            token = tokens.add_token(ledger, "bench-sse").token
    finally:
        os.environ.pop("TASKPACK_STORE", None)
    procs = [serve(root / f"serve-{name}", url) for name in ("a", "b")]
    packs = [
        flat_pack(root / f"job-{n}.taskpack.json", title=f"job {n}", sender=f"TP-2222-3{n:03d}")
        for n in range(changes)
    ]
    heard = Heard(url)
    got: dict[str, list[float]] = {"notify": [], "cancel": [], "stream": [], "after": []}

    async def go() -> None:
        async with (
            sdk_client(procs[0][1], token, streaming=True, timeout=120) as a,
            sdk_client(procs[1][1], token, timeout=120) as b,
        ):
            ids = [
                (await send(b, pack_message(p, message_id=f"sse-{n}"))).id
                for n, p in enumerate(packs)
            ]
            for task_id in ids:
                following: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                seen: asyncio.Future[float] = asyncio.get_running_loop().create_future()

                async def follow(
                    task_id: str = task_id,
                    following: asyncio.Future[None] = following,
                    seen: asyncio.Future[float] = seen,
                ) -> None:
                    async for event in a.subscribe(pb.SubscribeToTaskRequest(id=task_id)):
                        if not following.done():
                            following.set_result(None)  # the Task as it is: subscribed
                        if (
                            event.HasField("status_update")
                            and event.status_update.status.state == pb.TaskState.TASK_STATE_CANCELED
                        ):
                            seen.set_result(time.perf_counter())
                            return

                stream = asyncio.ensure_future(follow())
                await asyncio.wait_for(following, 120)
                arrived = heard.arm(task_id)
                t0 = time.perf_counter()
                await b.cancel_task(pb.CancelTaskRequest(id=task_id))
                answered = time.perf_counter()
                at = await asyncio.wait_for(seen, 120)
                await stream
                await asyncio.to_thread(arrived.wait, 120)
                notify = heard.at[task_id]
                got["notify"].append(notify - t0)
                got["cancel"].append(answered - t0)
                got["stream"].append(at - t0)
                got["after"].append(at - notify)

    try:
        asyncio.run(go())
    finally:
        heard.close()
        for p, _ in procs:
            p.send_signal(signal.SIGTERM)
            p.communicate(timeout=60)
    return got


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--changes", type=int, default=30)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-sse-") as tmp, running_cluster() as pg:
        url = pg.new_database()
        schema.init(url)
        got = measure(Path(tmp), url, args.changes)
    print(f"A2A stream on server A, {args.changes} tasks cancelled through server B (ms)")
    rows = [
        ("NOTIFY on a bare LISTEN (baseline)", "notify"),
        ("B answers the cancel", "cancel"),
        ("A's stream shows it", "stream"),
        ("stream minus baseline", "after"),
    ]
    for label, key in rows:
        v = got[key]
        print(
            f"  {label:36s} p50 {pct(v, 0.5):6.1f}  p95 {pct(v, 0.95):6.1f}  "
            f"max {max(v) * 1000:6.1f}  mean {statistics.fmean(v) * 1000:6.1f}"
        )
    p95 = pct(got["stream"], 0.95)
    print(f"  goal: A's stream within 200 ms: p95 {p95:.1f} ms ({p95 / 200:.2f}x the goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
