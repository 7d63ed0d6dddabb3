"""Reply finder benchmark: how much finding a pack in chat text costs, and that hostile
text stays linear.

Every case is timed as `core.reply.find_pack_in_text` on text of about the same size;
the baseline, measured in the same run, is `json.loads` of a valid flat pack of that size
(the least any reader must pay). Each ratio says "this many times the cost of parsing
that much JSON once". Cases:

- ``fenced``: the pack inside a ```json fence with a greeting and a sign-off;
- ``fences``: 2,000 small fenced JSON examples around the pack;
- ``brace-lines``: one ``{`` per line (each line a failed start; ends in a limit error);
- ``deep``: a line of nested ``{"a":`` repeated (each start runs into the nesting limit);
- ``open-string``: a pack start followed by an unterminated string.

    python benchmarks/bench_reply.py [--mib 4] [--repeat 5]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections.abc import Callable

from taskpack.core.errors import PackError
from taskpack.core.format.pack_in_text import find_pack_in_text


def _pack(size: int) -> str:
    lines = "".join(f"{i},{i * 7}\n" for i in range(size // 10))
    top = {
        "taskpack": "0.1",
        "encoding": "flat",
        "passport": {"spec": "task-passport-bag/0.1", "kind": "receipt", "asks": []},
        "attachments": [{"name": "data.csv", "encoding": "utf8", "data": lines}],
    }
    return json.dumps(top, indent=2)


def _time(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        with contextlib.suppress(PackError):  # hostile cases end in a one-line error
            fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=float, default=4)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    size = int(args.mib * (1 << 20))
    pack = _pack(size)
    n = len(pack)
    cases = {
        "fenced": "Hi Ana,\n\n```json\n" + pack + "\n```\nBest, Bo\n",
        "fences": '```json\n{"example": true}\n```\n' * 2000 + "```json\n" + pack + "\n```\n",
        "brace-lines": "{\n" * (n // 2),
        "deep": ('{"a":' * 60 + "\n") * (n // 301),
        "open-string": '{"taskpack": "0.1", "x": "' + "a" * n,
    }
    base = _time(lambda: json.loads(pack), args.repeat)
    print(f"baseline json.loads of {n / (1 << 20):.1f} MiB: {base * 1000:.1f} ms")
    for name, text in cases.items():
        t = _time(lambda text=text: find_pack_in_text(text), args.repeat)  # type: ignore[misc]
        print(
            f"{name:>12}: {t * 1000:8.1f} ms  = {t / base:5.2f}× json.loads  ({len(text) / (1 << 20):.1f} MiB)"
        )


if __name__ == "__main__":
    main()
