"""Codec benchmark: pack, verify and convert large and many-file luggage.

Every timing is printed as a ratio against `openssl dgst -sha256` over the same bytes,
measured in the same run (these machines are noisy; absolute seconds mean little).
Each operation runs in its own child process so its peak RSS is its own; each is run
`--repeat` times (best kept, as for the baseline), after `sync` so that one step's
unwritten pages are not charged to the next.

    python benchmarks/bench_codec.py [--big-mib 1024] [--small 10000] [--keep DIR]
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
from pathlib import Path
op, src, out, luggage_dir = sys.argv[1:5]
t = time.perf_counter()
if op == "pack":
    from taskpack.core.format.luggage import luggage_from_paths
    from taskpack.core.format.model import PackObject
    from taskpack.core.trust.pack_writer import make_pack
    names = sorted(Path(luggage_dir).iterdir())
    pack = PackObject.from_data({
        "spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-11-30T12:00:00Z",
        "origin": {"actor": "bench", "machine": "bench-host", "harness": "bench"},
        "lineage": {"root_id": "TP-BENC-H222", "from_version": 1, "chain": ["TP-BENC-H222@1"]},
        "note": "benchmark", "passport": {"id": "TP-BENC-H222", "title": "bench", "version": 1, "facts": []},
        "asks": [], "landing_checks": []})
    make_pack(pack, luggage_from_paths(names), Path(out), machine="bench-host")
elif op == "verify":
    from taskpack.core.format.reading import open_pack
    with open_pack(src) as p:
        p.verify()
elif op == "convert":
    from taskpack.core.trust.pack_writer import convert
    convert(src, out, machine="bench-host")
elif op == "judge":
    from taskpack.core.trust.conformance import judge
    r = judge(src)
    assert r.conformant, r.to_data()
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


# children import with cached bytecode, as an installed copy does (this machine's
# environment sets PYTHONDONTWRITEBYTECODE, which makes every start compile from source)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def openssl_seconds(paths: list[Path]) -> float:
    t = time.perf_counter()
    if len(paths) == 1:
        subprocess.run(
            ["openssl", "dgst", "-sha256", str(paths[0])], check=True, capture_output=True
        )
    else:  # many files: one openssl over the concatenated bytes
        p = subprocess.Popen(
            ["openssl", "dgst", "-sha256"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
        )
        assert p.stdin
        for path in paths:
            p.stdin.write(path.read_bytes())
        p.stdin.close()
        p.wait()
    return time.perf_counter() - t


def run(op: str, src: Path, out: Path, luggage: Path, repeat: int = 1) -> tuple[float, float]:
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        if out != src and out.exists():
            out.unlink()  # replacing a large file makes the file system flush it first
        os.sync()
        best = min(best, _run_once(op, src, out, luggage))
    return best


def _run_once(op: str, src: Path, out: Path, luggage: Path) -> tuple[float, float]:
    r = subprocess.run(
        [sys.executable, "-c", CHILD, op, str(src), str(out), str(luggage)],
        check=True,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
    )
    seconds, rss_kib = r.stdout.split()[-2:]
    return float(seconds), int(rss_kib) / 1024


def make_big(folder: Path, mib: int) -> None:
    folder.mkdir(parents=True)
    with open(folder / "big.bin", "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(1 << 20))


def make_small(folder: Path, n: int) -> None:
    import random

    rng = random.Random(7)
    folder.mkdir(parents=True)
    for i in range(n):
        sub = folder / f"d{i % 50:02d}"
        sub.mkdir(exist_ok=True)
        size = rng.randint(100, 8000)
        text = (f"line {i} " * (size // 8 + 1)).encode()[:size]
        data = text if i % 3 else rng.randbytes(size)
        (sub / f"f{i:05d}.{'txt' if i % 3 else 'bin'}").write_bytes(data)


def bench(label: str, luggage: Path, work: Path, files: list[Path], repeat: int) -> None:
    os.sync()
    base = min(openssl_seconds(files) for _ in range(max(2, repeat)))
    print(
        f"\n== {label}: {sum(f.stat().st_size for f in files) / 2**20:.0f} MiB in {len(files)} file(s)"
    )
    print(f"   baseline openssl dgst -sha256: {base:.3f} s")
    bag1, flat, bag2, flat2 = (
        work / f"{label}.{x}"
        for x in ("taskpack", "taskpack.json", "2.taskpack", "2.taskpack.json")
    )
    rows = [
        ("pack → .taskpack", "pack", bag1, bag1),
        ("verify .taskpack", "verify", bag1, bag1),
        ("convert → .taskpack.json", "convert", bag1, flat),
        ("convert → .taskpack", "convert", flat, bag2),
        ("verify .taskpack.json", "verify", flat, flat),
        ("convert .json → .json via bag", "convert", bag2, flat2),
    ]
    for name, op, src, out in rows:
        secs, rss = run(op, src, out, luggage, repeat)
        print(f"   {name:<32} {secs:7.3f} s  {secs / base:5.2f}× openssl   peak RSS {rss:6.1f} MB")
    same_bag = _same(bag1, bag2)  # streamed: the parent stays small, so children's RSS is theirs
    same_flat = _same(flat, flat2)
    print(f"   round trip .taskpack → .json → .taskpack byte-identical: {same_bag}")
    print(f"   round trip .json → .taskpack → .json byte-identical:     {same_flat}")
    for f in (bag1, flat, bag2, flat2):
        f.unlink()


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 22), fb.read(1 << 22)
            if x != y:
                return False
            if not x:
                return True


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--big-mib", type=int, default=1024)
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each step; the best is kept")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="tp-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if args.big_mib:
            big = work / "big"
            if not big.exists():
                make_big(big, args.big_mib)
            bench("big", big, work, [big / "big.bin"], args.repeat)
        if args.small:
            small = work / "small"
            if not small.exists():
                make_small(small, args.small)
            bench(
                "small",
                small,
                work,
                sorted(p for p in small.rglob("*") if p.is_file()),
                args.repeat,
            )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
