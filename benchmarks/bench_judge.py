"""Judge benchmark: `taskpack conformance` (C0–C10, every luggage byte scanned for
credentials and transcripts) on a large pack, against `openssl dgst -sha256` over the
same luggage bytes, in the same run.

Whole processes, as a person runs them: the two commands alternate (`--runs` times
each, medians and bests reported, page cache warm for both), for the bag and for the
flat form. Peak RSS is the judge's own (through /usr/bin/time). The goal (issue 24):
median ≤ 1.05× the hash at 512 MiB–1 GiB. The load average is printed with each row:
on a shared machine the numbers mean little without it.

    python benchmarks/bench_judge.py [--mib 1024] [--runs 3] [--only bag|flat]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TASKPACK = str(Path(sys.executable).parent / "taskpack")
TIME = "/usr/bin/time"  # GNU time: the child's own peak RSS

MAKE = r"""
import sys
from pathlib import Path
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.trust.pack_writer import make_pack
pack = PackObject.from_data({
    "spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-11-30T12:00:00Z",
    "origin": {"actor": "bench", "machine": "bench-host", "harness": "bench"},
    "lineage": {"root_id": "TP-BENC-H222", "from_version": 1, "chain": ["TP-BENC-H222@1"]},
    "note": "benchmark", "passport": {"id": "TP-BENC-H222", "title": "bench", "version": 1, "facts": []},
    "asks": [], "landing_checks": []})
make_pack(pack, [LuggageSource.from_path(sys.argv[1], "big.bin")], Path(sys.argv[2]), machine="bench-host")
"""


# children import with cached bytecode, as an installed copy does (this machine's
# environment sets PYTHONDONTWRITEBYTECODE, which makes every start compile from source)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one whole process."""
    with tempfile.NamedTemporaryFile("r", prefix="tp-rss-") as rss:
        t = time.perf_counter()
        r = subprocess.run(
            [TIME, "-q", "-f", "%M", "-o", rss.name, *cmd],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wall = time.perf_counter() - t
        if r.returncode != 0:
            raise SystemExit(f"{cmd[0]} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
        return wall, int(rss.read().strip().splitlines()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3, help="runs of each command, alternating")
    ap.add_argument("--only", choices=("bag", "flat"), help="judge one form only")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tp-judge-"))
    try:
        big = work / "big.bin"
        with open(big, "wb") as f:
            for _ in range(args.mib):
                f.write(os.urandom(1 << 20))
        forms = {"bag": "taskpack", "flat": "taskpack.json"}
        for form, suffix in forms.items():
            if args.only and form != args.only:
                continue
            pack = work / f"big.{suffix}"
            subprocess.run(
                [sys.executable, "-c", MAKE, str(big), str(pack)], check=True, env=CHILD_ENV
            )
            openssl = ["openssl", "dgst", "-sha256", str(big)]
            judge = [TASKPACK, "conformance", str(pack)]
            timed(openssl)  # both files into the page cache once, before any clock runs
            timed(judge, CHILD_ENV)
            base: list[float] = []
            ours: list[float] = []
            rss = 0.0
            for _ in range(args.runs):
                base.append(timed(openssl)[0])
                wall, peak = timed(judge, CHILD_ENV)
                ours.append(wall)
                rss = max(rss, peak)
            b, o = statistics.median(base), statistics.median(ours)
            load = os.getloadavg()
            print(
                f"judge .{suffix:<14} {args.mib} MiB: median {o:6.3f} s = {o / b:4.2f}× openssl "
                f"(median {b:.3f} s; best {min(ours):.3f} / {min(base):.3f} = "
                f"{min(ours) / min(base):4.2f}×), peak RSS {rss:.0f} MB, "
                f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
                flush=True,
            )
            pack.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
