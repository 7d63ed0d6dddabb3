"""Reply finder benchmark: how much finding a pack in chat text costs, and that hostile
text stays linear.

Every case is timed as `core.format.pack_in_text.find_pack_in_text` on text of about the same size;
the baseline, measured in the same run, is `json.loads` of a valid flat pack of that size
(the least any reader must pay). Each ratio says "this many times the cost of parsing
that much JSON once". Cases:

- ``fenced``: the pack inside a ```json fence with a greeting and a sign-off;
- ``fences``: 2,000 small fenced JSON examples around the pack;
- ``brace-lines``: one ``{`` per line (each line a failed start; ends in a limit error);
- ``deep``: a line of nested ``{"a":`` repeated (each start runs into the nesting limit);
- ``open-string``: a pack start followed by an unterminated string;
- ``tilde-line``: a 32,000-character line of ``~`` (ending in a backtick) before the pack;
- ``tick-blanks``: a line of three backticks and 32,000 blanks (ending in one) before it;
- ``small-packs``: the text filled with small distinct packs (an ambiguity error, found
  by one canonical digest per pack, not a comparison per pair).

Each case's baseline is ``json.loads`` of a valid pack as large as that case's text.

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


def _small_packs(size: int) -> str:
    one = (
        '{"taskpack": "0.1", "encoding": "flat", "passport": {"spec": '
        '"task-passport-bag/0.1", "kind": "receipt", "asks": [], "n": %d}, "attachments": []}\n'
    )
    return "".join(one % i for i in range(size // len(one % 0)))


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
        "tilde-line": "~" * 32_000 + "`\n```json\n" + _pack(4096) + "\n```\n",
        "tick-blanks": "```" + " " * 32_000 + "`\n```json\n" + _pack(4096) + "\n```\n",
        "small-packs": _small_packs(size),
    }
    bases: dict[int, float] = {}
    for name, text in cases.items():
        mib = max(1, round(len(text) / 65536))  # a baseline per 64 KiB step of size
        if mib not in bases:
            same = pack if mib == round(n / 65536) else _pack(mib * 65536)
            bases[mib] = _time(lambda same=same: json.loads(same), args.repeat)  # type: ignore[misc]
        base = bases[mib]
        t = _time(lambda text=text: find_pack_in_text(text), args.repeat)  # type: ignore[misc]
        print(
            f"{name:>12}: {t * 1000:8.1f} ms  = {t / base:7.2f}× json.loads of as much "
            f"({base * 1000:.2f} ms, {len(text) / (1 << 20):.2f} MiB)"
        )


if __name__ == "__main__":
    main()
