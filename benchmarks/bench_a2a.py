"""A2A benchmark: latency of sending a 1 MiB pack to a desk over loopback.

Each send is a real ``POST /message:send`` (ProtoJSON, the pack inline as base64 raw
bytes) to an `A2AServer` on 127.0.0.1: authentication, idempotency record, the pack
read from memory and landed through the desk (a new passport each time: every pack is
distinct), the Task built and returned. Sends go one at a time on a kept-alive
connection, so the numbers are latency, not throughput. With ``--clients N`` (as docs/performance.md measures:
8 clients, a small pack) N clients send at once, each on its own connection, from a
separate process (so their work does not share the server's interpreter): the latency a
sender meets on a busy desk. With ``--processes N`` the desk is served as ``taskpack serve
--processes N`` serves it: N server processes on one address and one desk (the CPU of
the other N - 1 is printed beside this process's).

It prints the load average before and after the sends, the server's CPU per send by
layer (its event-loop thread; in its worker threads the landing, the idempotency record
and the rest), and the context switches a send costs its threads (Linux: the GIL's
hand-offs between the event loop and the workers show there, and each costs CPU on a
VM).

The baseline, measured in the same run on the same machine: the same bodies POSTed to
a trivial Starlette route served the same way (uvicorn on a thread), which reads the
body and answers ``{}``. These machines are noisy; the ratio is the number to watch.

    python benchmarks/bench_a2a.py [--sends 60] [--mib 1] [--clients 1] [--keep DIR]
    python benchmarks/bench_a2a.py --clients 8 --mib 0.01 --sends 160   # the issue's row
    python benchmarks/bench_a2a.py --clients 8 --mib 0.01 --sends 160 --processes 2

The senders use httpx (the issue's measurement); ``--sender http.client`` gives them the
standard library's client instead, which costs the two cores the server shares a fifth of
httpx's CPU a send (0.2-0.3 against 0.6-1.0 ms): what the server's own latency is when the
load generator weighs less on it.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import shutil
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import keyring
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from taskpack.app.a2a import MEDIA_BAG, tokens
from taskpack.app.a2a import serve as a2a_serve
from taskpack.app.a2a.handler import Limits
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.a2a.serve import A2AServer
from taskpack.app.desk import Desk


def make_packs(root: Path, count: int, size: int) -> list[Path]:
    """`count` distinct handoffs, each `size` bytes on disk (one incompressible file)."""
    desk = Desk(root / "sender", machine="bench-sender", actor="bench")
    packs = []
    try:
        for n in range(count):
            lp = desk.new(f"bench {n}", "measure a send")
            desk.add_ask(lp.id, "Does it land?", "yes or no")
            data = root / f"luggage-{n}.bin"
            data.write_bytes(os.urandom(size - 4096))  # the bag's own files make up the rest
            out = root / f"pack-{n}.taskpack"
            desk.pack(lp.id, out, files=[data])
            data.unlink()
            packs.append(out)
    finally:
        desk.close()
    return packs


def body_of(path: Path, n: int) -> bytes:
    message = {
        "messageId": f"bench-{n}",
        "role": "ROLE_USER",
        "parts": [
            {
                "raw": base64.b64encode(path.read_bytes()).decode(),
                "filename": path.name,
                "mediaType": MEDIA_BAG,
            }
        ],
    }
    return json.dumps({"message": message, "configuration": {"returnImmediately": True}}).encode()


class Trivial:
    """A Starlette route that reads the body and answers {} — served like the desk is."""

    def __init__(self) -> None:
        async def sink(request: Request) -> JSONResponse:
            await request.body()
            return JSONResponse({})

        app = Starlette(routes=[Route("/message:send", sink, methods=["POST"])])
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        self.thread = threading.Thread(
            target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])), daemon=True
        )

    def __enter__(self) -> Trivial:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def measure(
    url: str, bodies: list[bytes], headers: dict[str, str], clients: int = 1
) -> list[float]:
    if clients > 1:
        return measure_at_once(url, bodies, headers, clients)
    out = []
    with httpx.Client(headers={**headers, "content-type": "application/json"}, timeout=60) as http:
        http.post(f"{url}/message:send", content=bodies[0])  # warm up the connection
        for body in bodies[1:]:
            t = time.perf_counter()
            r = http.post(f"{url}/message:send", content=body)
            out.append(time.perf_counter() - t)
            if r.status_code != 200:
                raise SystemExit(f"send failed: HTTP {r.status_code} {r.text[:300]}")
    return out


CLIENTS = r"""
import json, sys, threading, time
url, folder, clients = sys.argv[1], sys.argv[2], int(sys.argv[3])
if sys.argv[4] == "httpx":
    import httpx
    Sender = lambda url, headers: httpx.Client(headers=headers, timeout=60)
else:  # the standard library's client: a sender that costs the shared cores less
    import http.client, types, urllib.parse

    class Sender:
        def __init__(self, url, headers):
            where = urllib.parse.urlsplit(url)
            self.conn = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
            self.headers = headers

        def post(self, url, content):
            self.conn.request("POST", urllib.parse.urlsplit(url).path, body=content, headers=self.headers)
            r = self.conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            return types.SimpleNamespace(status_code=r.status, text=text)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.conn.close()
headers = json.loads(sys.stdin.readline())
names = sorted(__import__("os").listdir(folder))
bodies = [open(f"{folder}/{n}", "rb").read() for n in names]
out, failed = [], []
cpu = []  # this process's CPU clock once all are ready, and once all are done
machine = []  # and the machine's: busy, idle (with iowait), taken by the host (Linux)

def clocks():
    cpu.append(time.process_time())
    with open("/proc/stat") as f:
        t = [int(x) for x in f.readline().split()[1:9]]
    machine.append((t[0] + t[1] + t[2] + t[5] + t[6], t[3] + t[4], t[7]))

go = threading.Barrier(clients, action=clocks)

def client(mine):
    with Sender(url, headers) as http:
        http.post(f"{url}/message:send", content=mine[0])  # warm up the connection
        go.wait()
        for body in mine[1:]:
            t = time.perf_counter()
            r = http.post(f"{url}/message:send", content=body)
            out.append(time.perf_counter() - t)
            if r.status_code != 200:
                failed.append(f"HTTP {r.status_code} {r.text[:300]}")

threads = [threading.Thread(target=client, args=(bodies[i::clients],)) for i in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
clocks()
tick = __import__("os").sysconf("SC_CLK_TCK")
spent = [(b - a) / tick for a, b in zip(*machine)]
print(json.dumps({"times": out, "failed": failed[:1], "cpu": cpu[-1] - cpu[0], "machine": spent}))
"""


def measure_at_once(
    url: str, bodies: list[bytes], headers: dict[str, str], clients: int
) -> list[float]:
    """`clients` senders at once, in their own process, each on its own connection."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory(prefix="bench-a2a-bodies-") as folder:
        for n, body in enumerate(bodies):
            Path(folder, f"{n:06d}").write_bytes(body)
        r = subprocess.run(
            [sys.executable, "-c", CLIENTS, url, folder, str(clients), SENDER[0]],
            input=json.dumps({**headers, "content-type": "application/json"}) + "\n",
            capture_output=True,
            text=True,
            check=True,
        )
    result = json.loads(r.stdout)
    if result["failed"]:
        raise SystemExit(f"send failed: {result['failed'][0]}")
    SENDERS_CPU.append(result["cpu"])
    MACHINE.append(tuple(result["machine"]))
    return list(result["times"])


#: the HTTP client the senders use (`--sender`)
SENDER = ["httpx"]
#: the senders' process's CPU seconds over each `measure_at_once` (start-up left out)
SENDERS_CPU: list[float] = []
#: and the machine's (busy, idle, taken by the host) CPU seconds over the same span
MACHINE: list[tuple[float, float, float]] = []


class CpuSplit:
    """Where the server's CPU goes, per send: its event-loop thread (HTTP, the A2A SDK's
    parsing and serialising, the gate) and its worker threads, and there the landing
    (`Desk.land`) and the idempotency record (`A2AStore.message` / `complete`), each
    measured with the CPU clock of the thread that runs it."""

    THREADS = (("taskpack-a2a-worker", "worker threads"), ("taskpack-a2a", "event-loop thread"))
    TIMED = ((Desk, "land", "landing (Desk.land)"), (A2AStore, "message", "idempotency record"))
    TIMED += ((A2AStore, "complete", "idempotency record"),)

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.lock = threading.Lock()
        self.threads: dict[str, float] = {}
        self.saved = [(cls, name, getattr(cls, name)) for cls, name, _ in self.TIMED]
        for cls, name, label in self.TIMED:
            setattr(cls, name, self._timed(getattr(cls, name), label))

    def _timed(self, fn: Any, label: str) -> Any:
        def timed(*args: Any, **kw: Any) -> Any:
            t = time.thread_time()
            try:
                return fn(*args, **kw)
            finally:
                with self.lock:
                    self.spent[label] = self.spent.get(label, 0.0) + time.thread_time() - t

        return timed

    def _thread_cpu(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for t in threading.enumerate():
            label = next(
                (lb for prefix, lb in self.THREADS if (t.name or "").startswith(prefix)), None
            )
            if label is not None and t.ident is not None:
                with contextlib.suppress(OSError):
                    cpu = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
                    out[label] = out.get(label, 0.0) + cpu
        return out

    def start(self) -> None:
        self.spent.clear()
        self.threads = self._thread_cpu()

    def stop(self) -> dict[str, float]:
        """CPU seconds by layer since `start` (call before the server stops)."""
        now = self._thread_cpu()
        out = {k: v - self.threads.get(k, 0.0) for k, v in now.items()}
        worker = out.pop("worker threads", 0.0)
        out.update(self.spent)
        out["the rest of the workers (the Task, lookups, receipts)"] = worker - sum(
            self.spent.values()
        )
        for cls, name, fn in self.saved:
            setattr(cls, name, fn)
        return out


def processes_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes `pids` have used so far (Linux /proc)."""
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def context_switches(pids: list[int]) -> int | None:
    """Context switches (voluntary and not) of every thread of the processes `pids` so
    far (Linux /proc; None elsewhere). Threads that have ended are not counted: the
    server's threads live as long as it serves."""
    total = 0
    try:
        for pid in pids:
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(FileNotFoundError):
                    for line in (task / "status").read_text().splitlines():
                        if "ctxt_switches:" in line:  # voluntary_… and nonvoluntary_…
                            total += int(line.split(":", 1)[1])
    except OSError:
        return None
    return total


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sends", type=int, default=60)
    ap.add_argument("--mib", type=float, default=1.0)
    ap.add_argument("--clients", type=int, default=1, help="senders at once (default 1)")
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on the one desk (`taskpack serve --processes`; default 1)",
    )
    ap.add_argument("--keep", type=Path, help="keep the work folder here")
    ap.add_argument(
        "--sender",
        choices=("httpx", "http.client"),
        default="httpx",
        help="the senders' HTTP client with --clients > 1 (default httpx; the standard "
        "library's costs the cores the server shares less CPU a send)",
    )
    args = ap.parse_args()
    SENDER[0] = args.sender
    keyring.set_keyring(tokens.MemoryKeyring())  # never the real keyring
    root = Path(tempfile.mkdtemp(prefix="bench-a2a-")) if not args.keep else args.keep
    root.mkdir(parents=True, exist_ok=True)
    size = int(args.mib * (1 << 20))
    try:
        t = time.perf_counter()
        packs = make_packs(root, args.sends + 1, size)
        bodies = [body_of(p, n) for n, p in enumerate(packs)]
        print(
            f"made {len(packs)} packs of {packs[0].stat().st_size} bytes "
            f"(bodies {len(bodies[0])} bytes) in {time.perf_counter() - t:.1f} s"
        )

        with Trivial() as trivial:
            base = measure(trivial.url, bodies, {}, args.clients)

        desk = Desk(root / "receiver", machine="bench-receiver")
        with A2AStore(desk.home) as store:
            token = tokens.add_token(store, "bench").token
        # `processes` only when asked: the script also measures trees from before it existed
        more = {"processes": args.processes} if args.processes > 1 else {}
        server = A2AServer(desk, "127.0.0.1", 0, limits=Limits(blocking_timeout=0), **more)
        split = CpuSplit()
        server.start()
        # as `taskpack serve` does once it serves (trees from before it: nothing to do)
        getattr(a2a_serve, "settle_heap", lambda: None)()
        try:
            headers = {"Authorization": f"Bearer {token}", "A2A-Version": "1.0"}
            load_before = os.getloadavg()
            split.start()
            pids = server.worker_pids if more else []
            others = processes_cpu(pids)
            switches = context_switches([os.getpid(), *pids])
            cpu = time.process_time()
            a2a = measure(server.url, bodies, headers, args.clients)
            cpu = time.process_time() - cpu  # this process: the server (and a lone client)
            senders = SENDERS_CPU[-1] if args.clients > 1 else 0.0  # their own process's
            others = processes_cpu(pids) - others
            after = context_switches([os.getpid(), *pids])
            switched = None if switches is None or after is None else after - switches
            layers = split.stop()
        finally:
            server.stop()
            landed = desk.store.count()
            desk.close()
        assert landed == len(bodies), f"{landed} passports for {len(bodies)} sends"
        load = os.getloadavg()
        print(
            f"{args.clients} client(s) at once; load average (1, 5, 15 min) before the sends "
            f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
            f"after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
        )

        print(f"\n{'':28}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
        for name, xs in (("baseline (trivial POST)", base), ("A2A send + landing", a2a)):
            print(
                f"{name:28}{pct(xs, 50) * 1e3:10.1f}{pct(xs, 99) * 1e3:10.1f}"
                f"{statistics.mean(xs) * 1e3:10.1f}"
            )
        print(
            f"\nratio A2A/baseline: p50 {pct(a2a, 50) / pct(base, 50):.1f}x, "
            f"p99 {pct(a2a, 99) / pct(base, 99):.1f}x  ({len(a2a)} sends each)"
        )
        who = "the server's" if args.clients > 1 else "server and client"
        if args.processes > 1:
            print(
                f"{args.processes} server processes; CPU per send in the other "
                f"{args.processes - 1}: {others / len(bodies) * 1e3:.1f} ms (not split below)"
            )
        if args.clients > 1:
            print(
                f"CPU per send of the senders' own process: {senders / len(a2a) * 1e3:.1f} ms "
                "(on the same cores as the server; its start-up left out)"
            )
        if args.clients > 1:
            busy, idle, stolen = (t / len(a2a) * 1e3 for t in MACHINE[-1])
            print(
                f"the machine's CPU per send while they send (all processes, the kernel): "
                f"{busy:.1f} ms busy, {idle:.1f} ms idle, {stolen:.1f} ms taken by the host "
                f"({os.cpu_count()} cores)"
            )
        if switched is not None:
            alone = " (and the lone client's)" if args.clients == 1 else ""
            print(
                f"context switches per send, all the server's threads{alone}: "
                f"{switched / len(bodies):.0f}"
            )
        print(f"CPU per send ({who}, this process): {cpu / len(bodies) * 1e3:.1f} ms, of it")
        for label, spent in layers.items():
            print(f"  {label:54}{spent / len(bodies) * 1e3:6.2f} ms")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
