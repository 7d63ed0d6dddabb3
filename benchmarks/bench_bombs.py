"""Hostile archives in luggage, judged as a user runs it: `taskpack conformance PACK` as a
whole process (start-up included), its wall time and peak RSS, against the same command
on a small ordinary pack measured in the same run.

The packs are built here (written without the writer's chokepoint, as a hostile sender
would), each with one hostile luggage file:

* ``logs.zip``   — 40 repetitive 2 MiB logs (80 MiB inflated; its zip is a few hundred KB),
                   and the same with a token in the last member (the judge must say C7)
* ``42.zip``     — 42.zip-style: five levels of zips of 16 zips, 1 GiB of zeros in each of
                   the 16**5 bottom members (a petabyte, from tens of kilobytes)
* ``gz x 20``    — 20 small gzip-of-gzip files of 64 MiB each (the per-file budget cost
                   13.8 s; the budget is per pack now)
* ``baseline``   — one 200 KB random file: what the command costs anyway

Then the writer: the same luggage packed by `taskpack pack ID --file FOLDER` (the one
chokepoint, which scans with the judge's scanner), against the same baseline.

Bounds: each hostile pack < 5 s and < 200 MB peak RSS.

    python benchmarks/bench_bombs.py [--repeat 3] [--bottom-mib 1024]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack

PACK = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-12-01T12:00:00Z",
    "origin": {"actor": "bench", "machine": "bench-host", "harness": "bench"},
    "lineage": {"root_id": "TP-BENC-H333", "from_version": 1, "chain": ["TP-BENC-H333@1"]},
    "note": "benchmark",
    "passport": {"id": "TP-BENC-H333", "title": "bench", "version": 1, "facts": []},
    "asks": [],
    "landing_checks": [],
}

# one child per measurement, so RUSAGE_CHILDREN is that command's own peak RSS
MEASURE = r"""
import resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True)
secs = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(secs, rss, done.returncode)
"""


def token() -> bytes:
    """A GitHub-token-shaped string made at run time (the repository holds no secrets)."""
    rng = random.Random("bench-token")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return ("ghp_" + "".join(rng.choice(alphabet) for _ in range(36))).encode()


def logs_zip(secret_in_last: bool = False) -> bytes:
    rng = random.Random(40)
    lines = [
        b"2026-12-01T10:%02d:%02dZ INFO worker-%d job done in %d ms\n"
        % (rng.randrange(60), rng.randrange(60), rng.randrange(4), rng.randrange(999))
        for _ in range(16)
    ]
    block = b"".join(lines)
    log = (block * ((2 << 20) // len(block) + 1))[: 2 << 20]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for i in range(40):
            if secret_in_last and i == 39:
                log = log[: 1 << 20] + b"\n" + token() + b"\n" + log[1 << 20 :]
            z.writestr(f"log{i:02d}.txt", log)
    return out.getvalue()


def _raw_zip(entries: list[tuple[str, bytes, int, int]]) -> bytes:
    """A zip of already deflated members: (name, deflated bytes, crc, inflated size)."""
    out, central = io.BytesIO(), io.BytesIO()
    for name, data, crc, size in entries:
        offset = out.tell()
        n = name.encode()
        out.write(
            struct.pack(
                "<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(data), size, len(n), 0
            )
            + n
            + data
        )
        central.write(
            struct.pack(
                "<4sHHHHHHIIIHHHHHII",
                b"PK\x01\x02",
                20,
                20,
                0,
                8,
                0,
                0x21,
                crc,
                len(data),
                size,
                len(n),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + n
        )
    cd = central.getvalue()
    at = out.tell()
    out.write(
        cd
        + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(cd), at, 0)
    )
    return out.getvalue()


def bomb_42(bottom_mib: int) -> bytes:
    """Five levels of 16, `bottom_mib` MiB of zeros at the bottom (built in seconds: the
    bottom stream is deflated once and reused)."""
    zeros = bytes(1 << 20)
    c, crc = zlib.compressobj(9, zlib.DEFLATED, -15), 0
    parts = []
    for _ in range(bottom_mib):
        parts.append(c.compress(zeros))
        crc = zlib.crc32(zeros, crc)
    parts.append(c.flush())
    bottom = b"".join(parts)
    size = bottom_mib << 20
    level = _raw_zip([(f"{i:x}.dat", bottom, crc, size) for i in range(16)])
    for depth in range(4):
        deflated = zlib.compressobj(9, zlib.DEFLATED, -15)
        data = deflated.compress(level) + deflated.flush()
        name = "lib" if depth == 3 else ("book", "chapter", "doc", "page")[3 - depth]
        level = _raw_zip(
            [(f"{name}{i:x}.zip", data, zlib.crc32(level), len(level)) for i in range(16)]
        )
    return level


def gz_twenty() -> list[tuple[str, bytes]]:
    inner = gzip.compress(gzip.compress(bytes(64 << 20), 9), 9)
    return [(f"g{i:02d}.gz", inner) for i in range(20)]


def make(work: Path, name: str, files: list[tuple[str, bytes]]) -> tuple[Path, Path]:
    """(the pack, a folder holding its luggage files) for the judge and the writer."""
    out = work / f"{name}.taskpack"
    write_pack(PACK, [LuggageSource.from_bytes(n, b) for n, b in files], out, encoding="bag")
    folder = work / f"{name}-files"
    folder.mkdir()
    for n, b in files:
        (folder / n).write_bytes(b)
    return out, folder


def measure(
    cmd: list[str], repeat: int, *, env: dict[str, str] | None = None, remove: Path | None = None
) -> tuple[float, float, float, int]:
    """(best s, median s, peak RSS MB, exit code) of `cmd` run `repeat` times."""
    times, rss, code = [], 0, 0
    for _ in range(repeat):
        if remove is not None:
            remove.unlink(missing_ok=True)
        r = subprocess.run(
            [sys.executable, "-c", MEASURE, *cmd],
            check=True,
            capture_output=True,
            text=True,
            env=env or CHILD_ENV,
        )
        secs, peak, code_text = r.stdout.split()
        times.append(float(secs))
        rss = max(rss, int(peak))
        code = int(code_text)
    times.sort()
    return times[0], times[len(times) // 2], rss / 1024, code


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bottom-mib", type=int, default=1024)
    args = ap.parse_args()
    exe = shutil.which("taskpack") or str(Path(sys.executable).with_name("taskpack"))
    work = Path(tempfile.mkdtemp(prefix="tp-bombs-"))
    try:
        t = time.perf_counter()
        zipped = logs_zip()
        bomb = bomb_42(args.bottom_mib)
        packs = {
            "baseline (200 KB random)": make(
                work, "base", [("r.bin", random.Random(1).randbytes(200_000))]
            ),
            f"logs.zip ({len(zipped) // 1024} KB, 80 MiB inflated)": make(
                work, "logs", [("logs.zip", zipped)]
            ),
            "the same, a token in member 40 (C7 fails)": make(
                work, "logs-token", [("logs.zip", logs_zip(True))]
            ),
            f"42.zip-style ({len(bomb) // 1024} KB, 16^5 x {args.bottom_mib} MiB)": make(
                work, "42", [("42.zip", bomb)]
            ),
            "20 gzip-of-gzip files (64 MiB each)": make(work, "gz20", gz_twenty()),
        }
        print(f"(packs built in {time.perf_counter() - t:.1f} s)")
        base = None
        print(
            f"{'judge: taskpack conformance PACK':<44} {'pack':>8} {'best s':>7} {'median':>7} "
            f"{'×base':>6} {'RSS MB':>7} {'×base':>6} exit"
        )
        for label, (pack, _folder) in packs.items():
            best, median, rss, code = measure([exe, "conformance", str(pack)], args.repeat)
            if base is None:
                base = (best, rss)
            print(
                f"{label:<44} {pack.stat().st_size // 1024:>6}KB {best:7.2f} {median:7.2f} "
                f"{best / base[0]:6.2f} {rss:7.0f} {rss / base[1]:6.2f} {code}"
            )
        # the writer: the same luggage packed through the chokepoint (refused when it holds a token)
        home = work / "home"
        env = {**CHILD_ENV, "TASKPACK_HOME": str(home), "TASKPACK_ACTOR": "bench"}
        made = subprocess.run(
            [exe, "new", "--title", "bench", "--goal", "measure", "--json"],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        pid = json.loads(made.stdout)["passport"]["id"]
        base = None
        print(
            f"\n{'writer: taskpack pack ID --file FOLDER':<44} {'':>8} {'best s':>7} {'median':>7} "
            f"{'×base':>6} {'RSS MB':>7} {'×base':>6} exit"
        )
        for label, (_pack, folder) in packs.items():
            out = work / "out.taskpack"
            cmd = [exe, "pack", pid, "--out", str(out), "--file", str(folder)]
            best, median, rss, code = measure(cmd, args.repeat, env=env, remove=out)
            if base is None:
                base = (best, rss)
            print(
                f"{label:<44} {'':>8} {best:7.2f} {median:7.2f} "
                f"{best / base[0]:6.2f} {rss:7.0f} {rss / base[1]:6.2f} {code}"
            )
        print("bounds: every hostile pack < 5 s and < 200 MB peak RSS")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
