"""Object budget benchmark: what a hostile pack object costs each reader (time, peak RSS).

One budget bounds a pack object's JSON (core/format/canonical.py: `ObjectBudget`), for
every reader: the CLI, the window's review helper, A2A and MCP all open packs through
`open_pack`, and a reply's text goes through `find_pack_in_text` first. Each case runs
in a fresh child process and reports its wall time, its peak RSS and the first line it
printed. The baseline, measured in the same run, is the same reader on a real flat
handoff with 100,000 asks (a large pack that must keep working). Cases:

- ``lists-show``: ``taskpack show`` of a 31 MiB flat pack whose passport holds
  ``"x": [[],[],…]`` (10 million empty lists);
- ``lists-reply``: ``taskpack land reply.txt --dry-run`` of the same pack in a chat
  reply (a fence and a greeting around it);
- ``unknown-review``: the window's review (``Desk.review``, what its helper process
  runs) of a 60 MiB flat pack with two unknown top-level keys of 30 MiB each.

    python benchmarks/bench_object_budget.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_REVIEW = """
import resource, sys
from taskpack.app.desk import Desk
from taskpack.core.errors import PackError
desk = Desk(sys.argv[1], "zhang-pc", actor="Zhang")
try:
    r = desk.review(sys.argv[2])
    print("reviewed")
except PackError as exc:
    print(exc)
"""


def _base(root: Path, asks: int) -> dict[str, object]:
    from taskpack.app.desk import Desk

    with Desk(root / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Budget", "A pack as large as a real one gets").id
        sender.add_ask(pid, "Which cut?", "A or B")
        flat = root / "base.taskpack.json"
        sender.pack(pid, flat, encoding="flat")
    doc: dict[str, object] = json.loads(flat.read_text(encoding="utf-8"))
    if asks:
        doc["passport"]["asks"] = [  # type: ignore[index]
            {
                "id": f"a{n}",
                "to": "peer",
                "what": f"Question {n}: which of the two layouts?",
                "why": "The launch needs one.",
                "accept": "A or B",
                "status": "open",
                "answer": None,
            }
            for n in range(1, asks + 1)
        ]
    return doc


def _write(path: Path, doc: dict[str, object], marker: str, raw: str) -> Path:
    path.write_text(json.dumps(doc).replace(json.dumps(marker), raw), encoding="utf-8")
    return path


#: run in the child: the CLI or a snippet, then its own peak RSS from /proc (VmHWM is the
#: process's own high-water mark since exec; ru_maxrss would include the parent's pages
#: the fork copied)
_WRAP = """
import runpy, sys
argv = sys.argv[1:]
try:
    if argv[0] == "-c":
        sys.argv = argv[1:]
        exec(compile(argv[1], "review", "exec"))
    else:
        sys.argv = ["taskpack", *argv]
        runpy.run_module("taskpack.app.cli", run_name="__main__")
except SystemExit:
    pass
finally:
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
    print("@@", hwm, file=sys.stderr)
"""


def _run(argv: list[str], home: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) and first output line of a child process."""
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_NO_PROGRESS="1")
    t = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _WRAP, *argv], capture_output=True, text=True, env=env
    )
    wall = time.perf_counter() - t
    err, _, hwm = done.stderr.rpartition("@@ ")
    said = (done.stdout.strip() or err.strip()).splitlines()
    return wall, int(hwm.split()[0]) / 1024, (said[0] if said else "")[:110]


def main() -> None:
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        root = Path(tmp)
        small = _base(root, 0)
        small["passport"]["x"] = "@@X@@"  # type: ignore[index]
        lists = _write(
            root / "lists.taskpack.json", small, "@@X@@", "[" + "[]," * ((31 << 20) // 3) + "[]]"
        )
        reply = root / "reply.txt"
        reply.write_text("Hi Ana,\n```json\n" + lists.read_text() + "\n```\nBo\n")
        del small["passport"]["x"]  # type: ignore[attr-defined]
        small["u1"], small["u2"] = "a" * (30 << 20), "b" * (30 << 20)
        unknown = root / "unknown.taskpack.json"
        unknown.write_text(json.dumps(small), encoding="utf-8")
        del small
        big = root / "asks.taskpack.json"
        big.write_text(json.dumps(_base(root / "b", 100_000)), encoding="utf-8")
        big_reply = root / "asks-reply.txt"
        big_reply.write_text("Hi,\n```json\n" + big.read_text() + "\n```\n")
        cases = [
            ("lists-show", ["show", str(lists)], ["show", str(big)]),
            (
                "lists-reply",
                ["land", str(reply), "--dry-run"],
                ["land", str(big_reply), "--dry-run"],
            ),
            (
                "unknown-review",
                ["-c", _REVIEW, str(root / "desk"), str(unknown)],
                ["-c", _REVIEW, str(root / "desk"), str(big)],
            ),
        ]
        for name, argv, base_argv in cases:
            bt, brss, _ = _run(base_argv, root / f"home-base-{name}")
            t, rss, said = _run(argv, root / f"home-{name}")
            print(
                f"{name:>15}: {t:7.2f} s, peak {rss:6.0f} MiB  "
                f"(baseline 100,000 asks: {bt:.2f} s, {brss:.0f} MiB; "
                f"×{t / bt:.2f} time, ×{rss / brss:.2f} memory)\n{'':>17}{said}"
            )


if __name__ == "__main__":
    main()
