"""Passport store benchmark: landing 1,000 small packs, listing 10,000 passports.

    .venv/bin/python benchmarks/bench_store.py [--packs 1000] [--passports 10000]

Each number comes with a baseline measured in the same run on the same disk, so the
ratio says what the desk's own work costs on top of the floor:

* landing — against raw SQLite: one committed transaction per pack (same WAL and
  ``synchronous=FULL``) inserting the same pack JSON, plus writing and fsyncing the same
  luggage bytes. What the ratio buys: reading and checking the pack (digests, refusal
  scan for imperative sentences, sealing), content-addressed blobs, two versions, history,
  the landing record and the lifecycle gate — all in one crash-safe transaction.
* listing — against ``json.loads`` of the same 10,000 summaries, and a raw ``SELECT``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.core.format import ids
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import LocalPassport, PackObject, PassportState
from taskpack.core.trust.pack_writer import make_pack


def _pack_data(i: int) -> dict[str, object]:
    pid = ids.new_id()
    return {
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-08-16T03:11:04Z",
        "origin": {"actor": "bench", "machine": "bench-sender", "harness": "bench"},
        "lineage": {"root_id": pid, "from_version": 3, "chain": [f"{pid}@3"]},
        "note": f"small pack {i}",
        "passport": {
            "id": pid,
            "title": f"Task {i}",
            "goal": "Benchmark the store",
            "version": 3,
            "current_state": "half done",
            "facts": [
                {"claim": "the build passes", "scope": "machine", "verified": True},
                {"claim": "the customer wants a PDF", "scope": "universal", "verified": True},
            ],
            "decisions": [{"what": "PDF only", "why": "asked"}],
            "next_steps": ["write part 2", "send it back"],
        },
        "asks": [
            {
                "id": "a1",
                "to": "peer",
                "what": "Budget?",
                "why": "",
                "accept": "a number",
                "status": "open",
                "answer": None,
            }
        ],
        "landing_checks": [
            {"id": "c1", "check": "can render PDF", "how": "make pdf", "required": True}
        ],
    }


def make_packs(folder: Path, n: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    out = []
    for i in range(n):
        path = folder / f"p{i:05d}.taskpack"
        luggage = [LuggageSource.from_bytes("brief.txt", f"brief {i} {rng.random()}\n".encode())]
        make_pack(PackObject.from_data(_pack_data(i)), luggage, path, machine="bench-sender")
        out.append(path)
    return out


def bench_landing(root: Path, n: int) -> dict[str, float]:
    t0 = time.perf_counter()
    packs = make_packs(root / "packs", n)
    made = time.perf_counter() - t0

    desk = Desk(root / "desk", "bench-box", actor="bench", settings=Settings(gate_allow=["*"]))
    per: list[float] = []
    t0 = time.perf_counter()
    for path in packs:
        s = time.perf_counter()
        desk.land(path)
        per.append(time.perf_counter() - s)
    landed = time.perf_counter() - t0
    assert desk.store.count() == n
    desk.close()

    # baseline: the same JSON and luggage bytes, one committed transaction per pack
    db = sqlite3.connect(root / "raw.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE packs (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
    blobs = root / "raw-blobs"
    blobs.mkdir()
    payloads = [(json.dumps(_pack_data(i)), f"brief {i}\n".encode()) for i in range(n)]
    t0 = time.perf_counter()
    for text, blob in payloads:
        name = blobs / hashlib.sha256(blob).hexdigest()
        with open(name, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO packs (data) VALUES (?)", (text,))
        db.execute("COMMIT")
    raw = time.perf_counter() - t0
    db.close()
    return {
        "packs": n,
        "make_s": made,
        "land_s": landed,
        "raw_s": raw,
        "per_ms_median": statistics.median(per) * 1000,
        "per_ms_p95": sorted(per)[int(len(per) * 0.95) - 1] * 1000,
    }


def bench_listing(root: Path, n: int) -> dict[str, float]:
    desk = Desk(root / "list-desk", "bench-box", actor="bench", settings=Settings())
    t0 = time.perf_counter()
    batch = 500
    for start in range(0, n, batch):
        with desk.store.write() as tx:
            for i in range(start, min(n, start + batch)):
                state = PassportState(
                    id=ids.new_id(),
                    title=f"Task {i}",
                    goal="Benchmark listing",
                    version=1,
                    next_steps=["a", "b"],
                    facts=[],
                )
                lp = LocalPassport(passport=state, asks=[], landing_checks=[])
                lp.state, lp.waiting_on = "working", None
                tx.insert(lp, event="created")
    filled = time.perf_counter() - t0

    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        rows = desk.passports()
        runs.append(time.perf_counter() - t0)
    assert len(rows) == n
    t0 = time.perf_counter()
    page = desk.passports(limit=100)
    first_page = time.perf_counter() - t0
    assert len(page) == 100

    text = [json.dumps(r.to_data()) for r in rows]
    base = []
    for _ in range(5):
        t0 = time.perf_counter()
        decoded = [json.loads(t) for t in text]
        base.append(time.perf_counter() - t0)
    assert len(decoded) == n
    db = sqlite3.connect(root / "list-desk" / "store.sqlite3")
    raw = []
    for _ in range(5):
        t0 = time.perf_counter()
        db.execute("SELECT * FROM passports ORDER BY updated_at DESC, id").fetchall()
        raw.append(time.perf_counter() - t0)
    db.close()
    desk.close()
    return {
        "passports": n,
        "fill_s": filled,
        "list_s": min(runs),
        "first_page_s": first_page,
        "json_loads_s": min(base),
        "raw_select_s": min(raw),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--packs", type=int, default=1000)
    ap.add_argument("--passports", type=int, default=10000)
    ap.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=args.dir) as tmp:
        root = Path(tmp)
        land = bench_landing(root, args.packs)
        print(f"landing {land['packs']:.0f} small packs (bag, 1 luggage file each)")
        print(f"  made the packs first in            {land['make_s']:8.2f} s (not counted)")
        print(
            f"  landed through the desk in          {land['land_s']:8.2f} s "
            f"= {land['packs'] / land['land_s']:7.0f} packs/s "
            f"(median {land['per_ms_median']:.1f} ms, p95 {land['per_ms_p95']:.1f} ms)"
        )
        print(
            f"  baseline: raw sqlite insert + blob  {land['raw_s']:8.2f} s "
            f"= {land['packs'] / land['raw_s']:7.0f} /s"
        )
        print(f"  ratio desk / baseline               {land['land_s'] / land['raw_s']:8.1f} x")
        lst = bench_listing(root, args.passports)
        print(f"listing {lst['passports']:.0f} passports")
        print(f"  filled the store in                 {lst['fill_s']:8.2f} s (not counted)")
        print(f"  desk.passports() all                     {lst['list_s'] * 1000:8.1f} ms")
        print(f"  desk.passports(limit=100)                {lst['first_page_s'] * 1000:8.1f} ms")
        print(
            f"  baseline: json.loads of the same    {lst['json_loads_s'] * 1000:8.1f} ms "
            f"(ratio {lst['list_s'] / lst['json_loads_s']:.2f} x)"
        )
        print(
            f"  baseline: raw SELECT * (sqlite3)    {lst['raw_select_s'] * 1000:8.1f} ms "
            f"(ratio {lst['list_s'] / lst['raw_select_s']:.2f} x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
