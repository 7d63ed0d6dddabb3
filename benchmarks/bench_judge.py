"""Judge benchmark: `taskpack conformance` (C0–C10, every luggage byte scanned for
credentials and transcripts) on a large pack, against the sha256 of the same luggage
bytes and of the pack file itself, in the same run.

Whole processes, as a person runs them: the judge and the hashes alternate (`--runs`
times each, medians and bests reported, each file read into the page cache again just
before its timed run), for the bag and for the flat form, at each size of `--mib`
(default 512 and 1024). Three hashes: Python's hashlib (OpenSSL: SHA-NI where the CPU has
it, the judge's own sha256) and coreutils' `sha256sum` (on this machine without SHA-NI, so
a laxer floor) over the luggage, and hashlib over the pack file — what the judge cannot
avoid reading (the flat form's files are base64 in its JSON, a third larger). The goal is
a median ≤ 1.1× that last one. Peak RSS is the judge's own (through /usr/bin/time).
The load average is printed with each row: on a shared machine the numbers mean little
without it.

`--reads MIB`: instead, what `conformance` and `verify` read of a bag of that size, by the
kernel's count (`rchar` of /proc/self/io, reaped children included), less what they read
of a bag without luggage (their modules): goal ≤ 1.15× the pack's size.

    python benchmarks/bench_judge.py [--mib 512 1024] [--runs 3] [--only bag|flat]
    python benchmarks/bench_judge.py --reads 64
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


#: Python's hashlib over the file in CHUNK-sized reads: the hash a judge could not beat
HASHLIB = (
    "import hashlib, sys\n"
    "h = hashlib.sha256()\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    while b := f.read(1 << 20):\n"
    "        h.update(b)\n"
    "print(h.hexdigest())\n"
)


def warm(path: Path) -> None:
    """Read `path` into the page cache again, off the clock, just before a timed run: this
    VM's cache drops pages of a file read minutes ago (1 GiB files, a third of one found
    gone), and a run that meets a cold page pays the disk (2-3 s of system time seen)
    however fast the code is: the same for the hash and for the judge."""
    buf = bytearray(8 << 20)
    with open(path, "rb", buffering=0) as f:
        while f.readinto(buf):
            pass


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mib", type=int, nargs="+", default=[512, 1024])
    ap.add_argument("--runs", type=int, default=3, help="runs of each command, alternating")
    ap.add_argument("--only", choices=("bag", "flat"), help="judge one form only")
    ap.add_argument("--reads", type=int, metavar="MIB", help="count the judge's reads only")
    args = ap.parse_args()
    if args.reads:
        reads(args.reads)
        return
    for mib in args.mib:
        measure(mib, args.runs, args.only)


#: the console script's lines, the kernel's read count written once every exit handler has
#: run (a judging verb leaves through them)
COUNTED = """
import atexit, sys
where = sys.argv[1]
def told():
    with open("/proc/self/io") as f:
        io = dict(line.split(": ") for line in f.read().splitlines())
    with open(where, "w") as out:
        out.write(io["rchar"])
atexit.register(told)
from taskpack.app.cli.entry import main
sys.argv = ["taskpack", *sys.argv[2:]]
sys.exit(main())
"""


def reads(mib: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="tp-reads-"))
    try:
        big, empty = work / "big.bin", work / "empty.bin"
        with open(big, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
        empty.write_bytes(b"")
        packs = {}
        for name, luggage in (("big", big), ("small", empty)):
            packs[name] = work / f"{name}.taskpack"
            subprocess.run(
                [sys.executable, "-c", MAKE, str(luggage), str(packs[name])],
                check=True,
                env=CHILD_ENV,
            )
        told = work / "rchar"
        for verb in ("conformance", "verify"):
            counted = {}
            for name, pack in packs.items():
                subprocess.run(
                    [sys.executable, "-c", COUNTED, str(told), verb, str(pack)],
                    check=True,
                    stdout=subprocess.DEVNULL,
                    env=CHILD_ENV,
                )
                counted[name] = int(told.read_text())
            size = packs["big"].stat().st_size
            ratio = (counted["big"] - counted["small"]) / size
            print(
                f"{verb:<11} of a {mib} MiB bag ({size} bytes): read {ratio:.3f}× its size "
                f"(rchar {counted['big']}, {counted['small']} for a bag without luggage); "
                f"goal ≤ 1.15×: {'ok' if ratio <= 1.15 else 'OVER'}",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(mib: int, runs: int, only: str | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="tp-judge-"))
    try:
        big = work / "big.bin"
        with open(big, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
        forms = {"bag": "taskpack", "flat": "taskpack.json"}
        for form, suffix in forms.items():
            if only and form != only:
                continue
            pack = work / f"big.{suffix}"
            subprocess.run(
                [sys.executable, "-c", MAKE, str(big), str(pack)], check=True, env=CHILD_ENV
            )
            hashes = {
                "hashlib": [sys.executable, "-c", HASHLIB, str(big)],
                "sha256sum": ["sha256sum", str(big)],
                # the floor the judge's own reading sets: the pack's bytes, hashed (for the
                # flat form a third more than the luggage: its files are base64 in the JSON)
                "hashlib of the pack": [sys.executable, "-c", HASHLIB, str(pack)],
            }
            judge = [TASKPACK, "conformance", str(pack)]
            for cmd in hashes.values():  # every file into the page cache once, before any clock
                timed(cmd)
            timed(judge, CHILD_ENV)
            base: dict[str, list[float]] = {name: [] for name in hashes}
            ours: list[float] = []
            rss = 0.0
            for _ in range(runs):
                for name, cmd in hashes.items():
                    warm(pack if name == "hashlib of the pack" else big)
                    base[name].append(timed(cmd)[0])
                warm(pack)
                wall, peak = timed(judge, CHILD_ENV)
                ours.append(wall)
                rss = max(rss, peak)
            o = statistics.median(ours)
            load = os.getloadavg()
            against = ", ".join(
                f"{o / statistics.median(b):4.2f}× {name} (median {statistics.median(b):.3f} s, "
                f"best {min(ours) / min(b):4.2f}×)"
                for name, b in base.items()
            )
            floor = statistics.median(base["hashlib of the pack"])
            print(
                f"judge .{suffix:<14} {mib} MiB: median {o:6.3f} s (best {min(ours):.3f}) = "
                f"{against}; peak RSS {rss:.0f} MB; load {load[0]:.2f} {load[1]:.2f} "
                f"{load[2]:.2f}; goal ≤ 1.1× hashing the pack: "
                f"{'ok' if o / floor <= 1.1 else 'OVER'}",
                flush=True,
            )
            pack.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
