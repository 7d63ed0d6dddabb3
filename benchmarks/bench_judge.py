"""Judge benchmark: `taskpack conformance` (C0–C10, every luggage byte scanned for
credentials and transcripts) on a large pack, against `openssl dgst -sha256` over the
same luggage bytes measured in the same run. Each run is a child process, so its peak
RSS is its own.

    python benchmarks/bench_judge.py [--mib 1024]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import sys, time, resource
from taskpack.core.trust.conformance import judge
t = time.perf_counter()
report = judge(sys.argv[1])
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, report.conformant)
"""

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


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mib", type=int, default=1024)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tp-judge-"))
    try:
        big = work / "big.bin"
        with open(big, "wb") as f:
            for _ in range(args.mib):
                f.write(os.urandom(1 << 20))
        for suffix in ("taskpack", "taskpack.json"):
            pack = work / f"big.{suffix}"
            subprocess.run(
                [sys.executable, "-c", MAKE, str(big), str(pack)], check=True, env=CHILD_ENV
            )
            base = []
            for _ in range(2):
                t = time.perf_counter()
                subprocess.run(
                    ["openssl", "dgst", "-sha256", str(big)], check=True, capture_output=True
                )
                base.append(time.perf_counter() - t)
            r = subprocess.run(
                [sys.executable, "-c", CHILD, str(pack)],
                check=True,
                capture_output=True,
                text=True,
                env=CHILD_ENV,
            )
            secs, rss, ok = r.stdout.split()
            b = min(base)
            print(
                f"judge .{suffix:<14} {args.mib} MiB: {float(secs):6.3f} s = {float(secs) / b:4.2f}× openssl "
                f"({b:.3f} s), peak RSS {int(rss) / 1024:.0f} MB, conformant={ok}"
            )
            pack.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
