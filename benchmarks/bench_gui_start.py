"""Cold start of the desk window: process start → the window shown (its frame painted).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui_start.py [--runs 7]

Starts the real `taskpack-desk` entry point (a fresh interpreter each time, a fresh
home folder, so the store is created too) with TASKPACK_DESK_EXIT_WHEN_SHOWN set. The
window prints "shown <time>" on the event-loop turn after its frame was first painted
(a paint event reached the window: it is mapped and drawn), and "ready <time>" when the
desk's own window, with the store read and the inbox listed, has been painted; then it
quits. The clock starts just before the process is spawned, so interpreter start-up,
imports, opening the store and building the window are all counted.

The baseline, measured in the same run and alternating with the desk, is the least a
PySide6 window can cost: a fresh interpreter that imports QtWidgets, shows an empty
QMainWindow and reports its first paint the same way. Bytecode is written on the first
(discarded) run of each, as an installed package has it. Reports medians (min–max).
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

#: the baseline: an empty PySide6 main window, its first paint reported like the desk's
BARE_WINDOW = """
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

def painted():
    sys.stdout.write(f"shown {time.time():.6f}\\n"); sys.stdout.flush(); app.quit()

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self); QTimer.singleShot(0, painted)
        return False

app = QApplication(sys.argv)
window = QMainWindow()
window.setWindowTitle("TaskPack Desk")
window.resize(1180, 760)
watcher = FirstPaint(window)
window.installEventFilter(watcher)
window.show()
app.exec()
"""


def desk_argv(with_samples: bool) -> list[str]:
    script = Path(sys.executable).parent / "taskpack-desk"
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "taskpack.app.gui_main"]
    argv.append("--new-instance")
    if with_samples:
        argv += [str(p) for p in sorted((ROOT / "resources" / "samples").glob("*.taskpack*"))]
    return argv


def one_run(argv: list[str], home: Path) -> tuple[dict[str, float], float]:
    """({"shown": s, "ready": s} after the spawn, CPU seconds the whole process used)."""
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_DESK_EXIT_WHEN_SHOWN="1")
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its bytecode
    cpu_before = _children_cpu()
    start = time.time()
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    out, _ = proc.communicate(timeout=60)
    moments = {}
    for line in out.splitlines():
        word, _, when = line.partition(" ")
        if word in ("shown", "ready"):
            moments[word] = float(when) - start
    if "shown" not in moments:
        raise SystemExit(
            f"{argv[0]}: the window did not report being shown (exit {proc.returncode})"
        )
    return moments, _children_cpu() - cpu_before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def spread(values: list[float]) -> str:
    values = sorted(values)
    return f"median {statistics.median(values):.3f} s ({values[0]:.3f}–{values[-1]:.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", action="store_true", help="open the three sample packs at start")
    args = parser.parse_args()
    desk = desk_argv(args.files)
    bare = [sys.executable, "-c", BARE_WINDOW]
    shown, ready, cpus, baseline = [], [], [], []
    loads = [os.getloadavg()[0]]
    for round_ in range(args.runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            base, _ = one_run(bare, Path(tmp) / "bare")
            moments, cpu = one_run(desk, Path(tmp) / "home")
        if round_ == 0:
            continue  # the warm-up: bytecode written, files in the page cache
        baseline.append(base["shown"])
        shown.append(moments["shown"])
        ready.append(moments.get("ready", moments["shown"]))
        cpus.append(cpu)
        loads.append(os.getloadavg()[0])
    ratio = statistics.median(shown) / statistics.median(baseline)
    print(
        f"cold start ({args.runs} runs, {'with' if args.files else 'no'} files, alternating):\n"
        f"  window shown (frame painted):           {spread(shown)}  = {ratio:.2f}x the baseline\n"
        f"  desk ready (store read, inbox painted): {spread(ready)}\n"
        f"  baseline, an empty PySide6 window:      {spread(baseline)}\n"
        f"  CPU per desk start (whole process): median {statistics.median(cpus):.3f} s; "
        f"load average {min(loads):.1f}–{max(loads):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
