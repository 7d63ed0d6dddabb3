"""Flat reader benchmark: escapes, many short lines and whitespace cost a linear scan.

Each case is a `.taskpack.json` verified (open + read every attachment byte + check its
sha256) in a child process, timed on its second run (the first pays for lazy imports). The baseline, measured in the same run, is verifying a
pack of the same luggage size written as base64 (the reader's fastest path: SIMD
base64 straight from the file), so each ratio says "this many times the cost of
base64-decoding as much". Cases:

- ``escapes``: luggage of 4 MiB of newline bytes, written as 8 MiB of ``\\n`` escapes
  (was quadratic: the closing quote was searched again after every backslash);
- ``quotes``: the same with ``\\"`` escapes (a quote after each backslash);
- ``seq``: the output of ``seq 1 300000`` (2 MB of short lines, as our writer packs it);
- ``whitespace``: 4 MiB of spaces and newlines between the keys of each attachment.

    python benchmarks/bench_flat_read.py [--mib 4] [--repeat 5]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import sys, time
from taskpack.core.format.reading import open_pack
with open_pack(sys.argv[1]) as p:  # once untimed: lazy imports and the page cache
    p.verify()
t = time.perf_counter()
with open_pack(sys.argv[1]) as p:
    p.verify()
print(time.perf_counter() - t)
"""
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def pack_data() -> dict[str, object]:
    return {
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-11-30T12:00:00Z",
        "origin": {"actor": "bench", "machine": "bench-host", "harness": "bench"},
        "lineage": {"root_id": "TP-BENC-H222", "from_version": 1, "chain": ["TP-BENC-H222@1"]},
        "note": "benchmark",
        "asks": [],
        "landing_checks": [],
        "passport": {"id": "TP-BENC-H222", "title": "bench", "version": 1, "facts": []},
    }


def write_with_our_writer(path: Path, name: str, data: bytes) -> None:
    from taskpack.core.format.luggage import LuggageSource
    from taskpack.core.format.writing import write_pack

    write_pack(pack_data(), [LuggageSource.from_bytes(name, data)], path, encoding="flat")


def write_by_hand(
    path: Path, name: str, data: bytes, *, encoding: str, text: str, gap: str = "\n"
) -> None:
    """A flat file whose attachment `data` is exactly `text` (already JSON-escaped)."""
    head = json.dumps({"taskpack": "0.1", "encoding": "flat", "passport": pack_data()})[:-1]
    att = (
        f'{{{gap}"name": {json.dumps(name)},{gap}"encoding": "{encoding}",{gap}'
        f'"sha256": "{hashlib.sha256(data).hexdigest()}",{gap}"bytes": {len(data)},{gap}"data": "'
    )
    path.write_text(f'{head}, "attachments": [{att}{text}"{gap}}}]}}\n', encoding="utf-8")


def verify_seconds(path: Path, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        r = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)],
            check=True,
            capture_output=True,
            text=True,
            env=CHILD_ENV,
        )
        best = min(best, float(r.stdout.split()[-1]))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mib", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    size = args.mib << 20
    work = Path(tempfile.mkdtemp(prefix="tp-bench-flat-"))
    try:
        newlines = b"\n" * size
        quotes = b'"' * size
        seq = "".join(f"{i}\n" for i in range(1, 300_001)).encode()
        cases: list[tuple[str, Path, int]] = []

        base = work / "base64.taskpack.json"
        blob = os.urandom(size)
        import base64

        write_by_hand(
            base, "blob.bin", blob, encoding="base64", text=base64.b64encode(blob).decode()
        )
        p = work / "escapes.taskpack.json"
        write_with_our_writer(p, "newlines.txt", newlines)
        cases.append((f"escapes: {args.mib} MiB of \\n", p, size))
        p = work / "quotes.taskpack.json"
        write_with_our_writer(p, "quotes.txt", quotes)
        cases.append((f'quotes: {args.mib} MiB of \\"', p, size))
        p = work / "seq.taskpack.json"
        write_with_our_writer(p, "seq.txt", seq)
        cases.append(("seq 1 300000 (2 MB)", p, len(seq)))
        p = work / "ws.taskpack.json"
        write_by_hand(p, "a.txt", b"hello", encoding="utf8", text="hello", gap=" \n" * (size // 10))
        cases.append((f"whitespace: {args.mib} MiB between keys", p, size))

        b = verify_seconds(base, args.repeat)
        print(
            f"baseline: verify {args.mib} MiB of base64 luggage: {b:.3f} s ({size / b / 2**20:.0f} MiB/s)"
        )
        for label, path, n in cases:
            s = verify_seconds(path, args.repeat)
            print(
                f"  {label:<34} {s:7.3f} s  {s / b * size / n:6.2f}× base64 per byte   ({path.stat().st_size / 2**20:.1f} MiB file)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
