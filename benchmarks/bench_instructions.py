"""Instructions a unit of work costs, counted by valgrind's callgrind: the CPU measure this
host's noise cannot move.

On these VMs the same code's CPU a send swings 1.5–2× within minutes, so a change of a
few percent is lost in any clock. Callgrind counts the instructions a process runs
instead: the same count for the same code and inputs, however busy the machine is.
Each row runs its process twice under callgrind, with `--small` and with `--large`
units of work after the same warm-up, and divides the difference by the difference in
units: the start-up, the warm-up and the shutdown cancel out.

| row | one unit | baseline, measured the same way in the same run |
|---|---|---|
| `send` | an A2A `message:send` of a 10 KiB pack to a one-process server, landed and answered (the senders: `http.client` in a process of their own, not counted) | the same bodies POSTed to a trivial Starlette route served the same way |
| `landing` | `Desk.land` of one such pack, in the process (no HTTP) | the sha256 of the same pack's bytes, in a loop of the same shape |

User-space instructions only: what the kernel does for a process (its syscalls, page
faults, context switches) is not counted, nor is time spent waiting. Each row prints the
two totals it took the difference of. The `landing` row repeats to 0.3 %; the `send` row
to about 1 % (the event loop's and the threads' turns depend on timing, even under
callgrind), and one run in eight here came out far off: run it twice.

    python benchmarks/bench_instructions.py [--rows send landing] [--small 10] [--large 110]

Needs valgrind (Debian's package). A row takes a minute or two: callgrind runs a
program some 50× slower than it runs alone.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_a2a import body_of, make_packs

#: a one-process A2A server on a desk of its own, as `taskpack serve` runs it (heap frozen),
#: or the trivial route; it writes where it listens, and leaves when `<info>.stop` appears
SERVER = r"""
import json, os, sys, tempfile, time
from pathlib import Path
info, kind = Path(sys.argv[1]), sys.argv[2]
if kind == "trivial":
    sys.path.insert(0, sys.argv[3])
    from bench_a2a import Trivial
    served = Trivial()
    served.__enter__()
    info.write_text(json.dumps({"url": served.url, "token": ""}))
    stop = served.__exit__
else:
    import keyring
    from taskpack.app.a2a import serve as a2a_serve
    from taskpack.app.a2a import tokens
    from taskpack.app.a2a.handler import Limits
    from taskpack.app.a2a.ledger import A2AStore
    from taskpack.app.a2a.serve import A2AServer
    from taskpack.app.desk import Desk
    keyring.set_keyring(tokens.MemoryKeyring())  # never the real keyring
    desk = Desk(Path(tempfile.mkdtemp(prefix="bench-instr-")) / "receiver", machine="bench")
    with A2AStore(desk.home) as store:
        token = tokens.add_token(store, "bench").token
    server = A2AServer(desk, "127.0.0.1", 0, limits=Limits(blocking_timeout=0))
    server.start()
    a2a_serve.settle_heap()
    info.write_text(json.dumps({"url": server.url, "token": token}))
    def stop(*_):
        server.stop()
        Path(f"{info}.landed").write_text(str(desk.store.count()))  # the bench checks it
        desk.close()
stopper = Path(f"{info}.stop")
while not stopper.exists():
    time.sleep(0.05)
stop(None, None, None)
"""

#: sends the bodies in `folder` one after another on one kept-alive connection
SENDER = r"""
import http.client, json, sys, urllib.parse
from pathlib import Path
info = json.loads(Path(sys.argv[1]).read_text())
bodies = [p.read_bytes() for p in sorted(Path(sys.argv[2]).iterdir())]
where = urllib.parse.urlsplit(info["url"])
conn = http.client.HTTPConnection(where.hostname, where.port, timeout=600)
headers = {"content-type": "application/json", "A2A-Version": "1.0"}
if info["token"]:
    headers["Authorization"] = "Bearer " + info["token"]
for body in bodies:
    conn.request("POST", "/message:send", body=body, headers=headers)
    r = conn.getresponse()
    text = r.read()
    if r.status != 200:
        raise SystemExit(f"send failed: HTTP {r.status} {text[:300]!r}")
"""

#: lands (or, for the baseline, hashes) the packs in `folder`, one after another
LANDER = r"""
import hashlib, io, sys, tempfile
from pathlib import Path
kind, folder = sys.argv[1], Path(sys.argv[2])
datas = [p.read_bytes() for p in sorted(folder.iterdir())]
if kind == "landing":
    from taskpack.app.desk import Desk
    desk = Desk(Path(tempfile.mkdtemp(prefix="bench-instr-")) / "receiver", machine="bench")
    for data in datas:
        desk.land(
            io.BytesIO(data), name="a2a-bench.taskpack", expect=None, admit=lambda review: None
        )
    desk.close()
else:
    for data in datas:
        hashlib.sha256(data).hexdigest()
"""


def callgrind(cmd: list[str], work: Path, tag: str) -> tuple[subprocess.Popen[str], Path]:
    out = work / f"callgrind.{tag}.out"
    log = work / f"callgrind.{tag}.log"
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--log-file={log}", *cmd],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    return proc, log


def collected(log: Path) -> int:
    """The instruction total callgrind logged for its process."""
    found = re.search(r"Collected : (\d+)", log.read_text())
    if not found:
        raise SystemExit(f"callgrind printed no total (see {log})")
    return int(found.group(1))


def folder_of(items: list[bytes], where: Path) -> Path:
    where.mkdir(parents=True)
    for n, item in enumerate(items):
        (where / f"{n:06d}").write_bytes(item)
    return where


def served(kind: str, bodies: list[bytes], warm: int, work: Path, tag: str) -> int:
    """Instructions of a server process that answered `warm` + len(bodies) sends."""
    info = work / f"{tag}.json"
    proc, log = callgrind(
        [sys.executable, "-c", SERVER, str(info), kind, str(Path(__file__).resolve().parent)],
        work,
        tag,
    )
    deadline = time.monotonic() + 600
    while not info.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the {kind} server did not start (see {log})")
        time.sleep(0.2)
    for part, items in (("warm", bodies[:warm]), ("timed", bodies[warm:])):
        folder = folder_of(items, work / f"{tag}-{part}")
        subprocess.run([sys.executable, "-c", SENDER, str(info), str(folder)], check=True)
    Path(f"{info}.stop").touch()
    proc.wait(600)
    landed = Path(f"{info}.landed")
    if kind == "desk" and (not landed.exists() or int(landed.read_text()) != len(bodies)):
        # (a send answered from the idempotency record would cost a fraction of a landing)
        raise SystemExit(
            f"the server landed {landed.read_text() if landed.exists() else 'no'} "
            f"passports for {len(bodies)} sends"
        )
    return collected(log)


def landed(kind: str, datas: list[bytes], warm: int, work: Path, tag: str) -> int:
    """Instructions of a process that landed (or hashed) `datas`, the first `warm` too."""
    folder = folder_of(datas, work / f"{tag}-packs")
    proc, log = callgrind([sys.executable, "-c", LANDER, kind, str(folder)], work, tag)
    if proc.wait(3600) != 0:
        raise SystemExit(f"the {kind} run failed (see {log})")
    return collected(log)


Run = Callable[[str, list[bytes], int, Path, str], int]


def per_unit(
    run: Run, kind: str, items: list[bytes], args: argparse.Namespace, work: Path
) -> float:
    """Instructions a unit: the longer run less the shorter, over the units between them."""
    warm = args.warm
    small = run(kind, items[: warm + args.small], warm, work, f"{kind}-small")
    large = run(kind, items[: warm + args.large], warm, work, f"{kind}-large")
    print(
        f"  ({kind}: {small / 1e6:.1f} M with {args.small}, {large / 1e6:.1f} M with {args.large})"
    )
    return (large - small) / (args.large - args.small)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="+", choices=("send", "landing"), default=["send", "landing"])
    ap.add_argument("--small", type=int, default=10, help="units in the shorter run")
    ap.add_argument("--large", type=int, default=110, help="units in the longer run")
    ap.add_argument("--warm", type=int, default=20, help="units before either count matters")
    args = ap.parse_args()
    if args.large <= args.small:
        raise SystemExit("--large must be more than --small")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    work = Path(tempfile.mkdtemp(prefix="bench-instr-"))
    try:
        count = args.warm + args.large
        packs = make_packs(work / "made", count, 10 * 1024)
        datas = [p.read_bytes() for p in packs]
        print(f"{count} packs of {len(datas[0])} bytes; valgrind counting, each row ~1-2 min")
        for row in args.rows:
            if row == "send":
                bodies = [body_of(p, n) for n, p in enumerate(packs)]
                ours = per_unit(served, "desk", bodies, args, work)
                base = per_unit(served, "trivial", bodies, args, work)
                what, floor = "A2A send, landed and answered", "a trivial POST of the same body"
            else:
                ours = per_unit(landed, "landing", datas, args, work)
                base = per_unit(landed, "copy", datas, args, work)
                what, floor = "landing (Desk.land)", "the sha256 of the pack"
            print(
                f"{what:32} {ours / 1e6:7.3f} M instructions a unit = {ours / base:5.1f}× "
                f"{floor} ({base / 1e6:.3f} M)",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the children import cached bytecode
    main()
