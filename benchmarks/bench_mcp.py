"""The agents' server against the command line: `taskpack_open` and `taskpack_list` on a
store of 1,000 passports, over real stdio with the MCP SDK's own client.

    .venv/bin/python benchmarks/bench_mcp.py [--passports 1000] [--calls 200] [--cli-runs 20]

The baseline, measured in the same run on the same store, is what an agent without the
server does: a fresh `taskpack open ID --json` / `taskpack list --json` process per call
(interpreter start, imports, opening the store). Both sides print the same data (the
server's answers also carry the text form with the untrusted-data markers). Reported:
p50 and p99 per call, and the ratio CLI / MCP.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from taskpack.app.desk import Desk


def fill(home: Path, n: int) -> list[str]:
    """n passports, each with a few facts, an ask, a check and next steps."""
    ids: list[str] = []
    with Desk(home, machine="bench", actor="bench") as desk:
        for i in range(n):
            lp = desk.new(f"Task {i}", "Benchmark the agents' server", current_state="half done")
            lp = desk.checkpoint(
                lp.id,
                {
                    "next_steps": ["write part 2", "send it back"],
                    "facts": [
                        {"claim": "the build passes", "scope": "machine", "verified": True},
                        {
                            "claim": "the customer wants a PDF",
                            "scope": "universal",
                            "verified": True,
                        },
                    ],
                    "decisions": [{"what": "PDF only", "why": "asked"}],
                },
                expected_version=lp.version,
            )
            desk.add_ask(lp.id, "What is the budget?", "a number in euros, with its source")
            desk.add_check(lp.id, "can render PDF", how="make pdf")
            ids.append(lp.id)
    return ids


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q / 100 * (len(values) - 1))))
    return values[k]


def env_for(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TASKPACK_HOME": str(home),
        "TASKPACK_MACHINE": "bench",
        "TASKPACK_ACTOR": "bench",
        "TASKPACK_NO_PROGRESS": "1",
    }


def bench_mcp(home: Path, ids: list[str], calls: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"open": [], "list": []}

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "taskpack.app.cli.main", "mcp"], env=env_for(home)
        )
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                await s.call_tool(
                    "taskpack_list", {"limit": 1}
                )  # warm: tool list cached, imports done
                rng = random.Random(7)
                for _ in range(calls):
                    pid = rng.choice(ids)
                    t = time.perf_counter()
                    res = await s.call_tool("taskpack_open", {"id": pid})
                    out["open"].append(time.perf_counter() - t)
                    assert not res.is_error
                    t = time.perf_counter()
                    res = await s.call_tool("taskpack_list", {"limit": 100})
                    out["list"].append(time.perf_counter() - t)
                    assert not res.is_error

    anyio.run(main)
    return out


def bench_cli(home: Path, ids: list[str], runs: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"open": [], "list": []}
    env = env_for(home)
    base = [sys.executable, "-m", "taskpack.app.cli.main"]
    subprocess.run(
        [*base, "list", "--limit", "1"], env=env, capture_output=True, check=True
    )  # warm caches
    rng = random.Random(7)
    for _ in range(runs):
        for verb, args in (
            ("open", ["open", rng.choice(ids), "--json"]),
            ("list", ["list", "--limit", "100", "--json"]),
        ):
            t = time.perf_counter()
            subprocess.run([*base, *args], env=env, capture_output=True, check=True)
            out[verb].append(time.perf_counter() - t)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--passports", type=int, default=1000)
    ap.add_argument("--calls", type=int, default=200, help="MCP calls of each tool")
    ap.add_argument("--cli-runs", type=int, default=20, help="CLI processes of each verb")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as tmp:
        home = Path(tmp) / "home"
        t = time.perf_counter()
        ids = fill(home, args.passports)
        print(f"store: {args.passports} passports in {time.perf_counter() - t:.1f} s")
        mcp = bench_mcp(home, ids, args.calls)
        cli = bench_cli(home, ids, args.cli_runs)
    print(f"{'':40}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}")
    for verb, tool in (("open", "taskpack_open"), ("list", "taskpack_list (100 rows)")):
        for who, values in ((f"MCP {tool}", mcp[verb]), (f"CLI {verb} (fresh process)", cli[verb])):
            print(
                f"{who:<40}{pct(values, 50) * 1e3:>9.1f}{pct(values, 99) * 1e3:>9.1f}"
                f"{statistics.fmean(values) * 1e3:>9.1f}"
            )
        print(
            f"  CLI / MCP at p50: {pct(cli[verb], 50) / pct(mcp[verb], 50):.0f}x, "
            f"at p99: {pct(cli[verb], 99) / pct(mcp[verb], 99):.0f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
