"""Cold start of the desk window: process start → main window shown.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui_start.py [--runs 7]

Starts the real `taskpack-desk` entry point (a fresh interpreter each time, a fresh
home folder, so the store is created too) with TASKPACK_DESK_EXIT_WHEN_SHOWN set: the
window prints the moment its first event-loop turn runs after `show()` and quits. The
clock starts just before the process is spawned, so interpreter start-up, imports,
opening the store and building the window are all counted. Reports min / median / max.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def entry_point() -> list[str]:
    script = Path(sys.executable).parent / "taskpack-desk"
    return [str(script)] if script.exists() else [sys.executable, "-m", "taskpack.app.gui_main"]


def one_run(home: Path, with_samples: bool) -> tuple[float, float]:
    """(wall seconds to window shown, CPU seconds the whole process used)."""
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_DESK_EXIT_WHEN_SHOWN="1")
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    argv = [*entry_point(), "--new-instance"]
    if with_samples:
        argv += [str(p) for p in sorted((ROOT / "resources" / "samples").glob("*.taskpack*"))]
    cpu_before = _children_cpu()
    start = time.time()
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    proc.wait(30)
    if not line.startswith("shown "):
        raise SystemExit(f"the window did not report being shown (exit {proc.returncode})")
    return float(line.split()[1]) - start, _children_cpu() - cpu_before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", action="store_true", help="open the three sample packs at start")
    args = parser.parse_args()
    times, cpus = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            wall, cpu = one_run(Path(tmp) / "home", args.files)
        times.append(wall)
        cpus.append(cpu)
    times.sort()
    print(
        f"cold start to window shown ({args.runs} runs, {'with' if args.files else 'no'} files): "
        f"min {times[0]:.3f} s, median {statistics.median(times):.3f} s, max {times[-1]:.3f} s; "
        f"CPU per start (whole process) median {statistics.median(cpus):.3f} s; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
