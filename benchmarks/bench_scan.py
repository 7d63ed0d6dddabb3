"""Can the judge scan luggage as fast as it hashes it?

Writes SIZE of random bytes (default 1 GiB) to a temporary file, then times, on that same
file and in this same run:

* ``openssl dgst -sha256``                 — the yardstick
* hashlib sha256 alone                      — what the judge pays anyway
* StreamScanner alone                       — credentials + transcripts (C7, C8)
* scan + sha256 in one read                 — scan_luggage_stream(..., digest=)
* scan ∥ sha256 on two threads              — both release the GIL; one read

and prints each one's ratio to openssl and the process's peak RSS. Each timing is the
best of --repeat runs, from the page cache (the file was just written).

    python benchmarks/bench_scan.py [--size 1G] [--chunk 4M] [--engine hyperscan|re]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from taskpack.core.trust.refusals import (
    DEFAULT_CHUNK_SIZE,
    StreamScanner,
    available_engines,
    scan_luggage_stream,
)


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def make_file(path: Path, size: int) -> None:
    block = 16 << 20
    with path.open("wb") as out:
        left = size
        while left:
            n = min(block, left)
            out.write(os.urandom(n))
            left -= n


def best(runs: int, fn: Callable[[], object]) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def openssl(path: Path) -> str:
    out = subprocess.run(
        ["openssl", "dgst", "-sha256", str(path)], check=True, capture_output=True, text=True
    ).stdout
    return out.rsplit(" ", 1)[-1].strip()


def hash_only(path: Path, chunk: int) -> str:
    digest = hashlib.sha256()
    buf = bytearray(chunk)
    view = memoryview(buf)
    with path.open("rb", buffering=0) as f:
        while n := f.readinto(buf):
            digest.update(view[:n])
    return digest.hexdigest()


def scan_only(path: Path, chunk: int, engine: str) -> int:
    with path.open("rb", buffering=0) as f:
        return len(scan_luggage_stream("files/big.bin", f, chunk, engine=engine))


def scan_and_hash(path: Path, chunk: int, engine: str) -> str:
    digest = hashlib.sha256()
    with path.open("rb", buffering=0) as f:
        found = scan_luggage_stream("files/big.bin", f, chunk, digest=digest, engine=engine)
    assert found == [], found
    return digest.hexdigest()


def scan_parallel_hash(path: Path, chunk: int, engine: str) -> str:
    """One read; each chunk is hashed on a worker thread while this thread scans it."""
    digest = hashlib.sha256()
    bufs = [bytearray(chunk), bytearray(chunk)]
    with (
        path.open("rb", buffering=0) as f,
        concurrent.futures.ThreadPoolExecutor(1) as pool,
        StreamScanner("files/big.bin", engine=engine) as scanner,
    ):
        pending: concurrent.futures.Future[None] | None = None
        i = 0
        while n := f.readinto(bufs[i]):
            view = memoryview(bufs[i])[:n]
            if pending is not None:
                pending.result()  # the other buffer is free again
            pending = pool.submit(digest.update, view)
            scanner.feed(view)
            i ^= 1
        if pending is not None:
            pending.result()
        assert scanner.finish() == []
    return digest.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1G", help="bytes of luggage, e.g. 256M, 1G (default 1G)")
    ap.add_argument("--chunk", default=str(DEFAULT_CHUNK_SIZE), help="read size (default 4M)")
    ap.add_argument("--engine", default=available_engines()[0], choices=available_engines())
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None, help="where to write the file (default: a temp dir)")
    args = ap.parse_args()
    size, chunk = parse_size(args.size), parse_size(args.chunk)
    if shutil.which("openssl") is None:
        print("openssl not found on PATH", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "luggage.bin"
        t0 = time.perf_counter()
        make_file(path, size)
        print(
            f"wrote {size / (1 << 30):.2f} GiB of random bytes in {time.perf_counter() - t0:.1f} s"
        )
        print(f"engine: {args.engine}, chunk: {chunk >> 10} KiB, best of {args.repeat}")

        t_ssl, ref = best(args.repeat, lambda: openssl(path))
        rows = [("openssl dgst -sha256", t_ssl)]
        t, got = best(args.repeat, lambda: hash_only(path, chunk))
        assert got == ref
        rows.append(("hashlib sha256", t))
        t, _ = best(args.repeat, lambda: scan_only(path, chunk, args.engine))
        rows.append(("StreamScanner", t))
        t, got = best(args.repeat, lambda: scan_and_hash(path, chunk, args.engine))
        assert got == ref
        rows.append(("scan + sha256, one read", t))
        t, got = best(args.repeat, lambda: scan_parallel_hash(path, chunk, args.engine))
        assert got == ref
        rows.append(("scan ∥ sha256, two threads", t))

    gib = size / (1 << 30)
    print(f"{'':28} {'seconds':>8} {'s/GiB':>7} {'× openssl':>10}")
    for name, seconds in rows:
        print(f"{name:28} {seconds:8.3f} {seconds / gib:7.3f} {seconds / t_ssl:10.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"peak RSS of this process: {peak / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
