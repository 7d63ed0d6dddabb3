"""A pack is read once on its way to the store: bytes read from the pack file ÷ its size,
and how many times the file is opened, for each command that reads a whole pack.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_read_once.py [--mib 64] [--no-window]

Makes a handoff carrying one luggage file of `--mib` MiB (incompressible), as a bag
(``.taskpack``) and as the flat form (``.taskpack.json``), through a real desk. Then runs,
each as a whole process under ``strace -f`` (helper processes included):

* ``taskpack land``, ``taskpack conformance``, ``taskpack verify`` and
  ``taskpack convert`` (to the other encoding);
* the window: the real `MainWindow` (offscreen), the pack dropped on it (`open_files`),
  its review shown, then Land — the path a person takes, helper processes summed.

For each it counts every successful ``open``/``openat`` of the pack file and every byte
``read``/``pread64``/``readv`` returned from a descriptor on it (``strace -y`` names each
descriptor's file), so the interpreter reading its own modules is not counted. Goals
(issue 20): the commands ≤ 1.15× the pack's size and ≤ 2 opens; the window ≤ 1.3×.
Needs `strace` (the Makefile's ci-deps installs it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: goals: (bytes read ÷ pack size, opens)
COMMAND_GOAL = (1.15, 2)
WINDOW_GOAL = 1.3

_LINE = re.compile(r"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)")
_FD = re.compile(r"^(\d+)<([^>]*)>")


def make_packs(root: Path, mib: int) -> dict[str, Path]:
    """A handoff with one `mib` MiB luggage file, as a bag and as flat JSON."""
    from taskpack.app.desk import Desk

    blob = root / "footage.bin"
    block = os.urandom(1 << 20)
    with open(blob, "wb") as f:
        for n in range(mib):
            f.write(block[n % 7 :] + block[: n % 7])
    out: dict[str, Path] = {}
    with Desk(root / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Edit the launch video", "Cut a 90 s version").id
        sender.add_ask(pid, "Which cut?", "A or B")
        sender.add_fact(pid, "The render farm is idle at night", scope="org")
        for encoding, name in (("bag", "video.taskpack"), ("flat", "video.taskpack.json")):
            out[encoding] = root / name
            sender.pack(pid, out[encoding], files=[blob], encoding=encoding)
    blob.unlink()
    return out


def traced(argv: list[str], pack: Path, trace: Path, env: dict[str, str]) -> tuple[int, int]:
    """Run `argv` under strace; (bytes read from `pack`, opens of `pack`)."""
    cmd = [
        "strace",
        "-f",
        "-qq",
        "-y",
        "-s",
        "0",
        "-e",
        "trace=open,openat,read,pread64,readv,preadv,preadv2",
        "-e",
        "signal=none",
        "-o",
        str(trace),
        *argv,
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])}… failed ({done.returncode}): {done.stderr[-800:]}")
    return count(trace, pack)


def count(trace: Path, pack: Path) -> tuple[int, int]:
    target = os.path.realpath(pack)
    read = opens = 0
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _LINE.match(line)
            if m is None:
                continue
            call, args, result = m.group(1), m.group(2), int(m.group(3))
            if result < 0:
                continue
            if call in ("open", "openat"):
                names = re.findall(r'"([^"]*)"', args)
                if names and os.path.realpath(names[0]) == target:
                    opens += 1
            else:
                fd = _FD.match(args)
                if fd is not None and fd.group(2) == target:
                    read += result
    return read, opens


WINDOW_SCRIPT = r"""
import sys, time
from pathlib import Path


def main():
    from taskpack.ui.app import make_application
    app = make_application(sys.argv[:1])
    from taskpack.app.desk import Desk
    from taskpack.ui.main_window import MainWindow
    pack, home = Path(sys.argv[1]), Path(sys.argv[2])
    desk = Desk(home, "zhang-pc", actor="Zhang")
    window = MainWindow(desk, watch=False)
    window.show()
    def wait(until, what):
        deadline = time.monotonic() + 600
        while not until():
            app.processEvents()
            time.sleep(0.002)
            if time.monotonic() > deadline:
                raise SystemExit(what + ": not done after 10 minutes")
    wait(window.idle, "start")
    window.open_files([pack])
    wait(lambda: window.idle() and window.review_view.reviewed is not None, "review")
    window.land_current()
    wait(lambda: window.idle() and len(desk.passports()) == 1, "land")
    window.shutdown()
    window.close()
    desk.close()


if __name__ == "__main__":  # (helper processes are spawned: they import this module)
    main()
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=64)
    parser.add_argument("--no-window", action="store_true", help="only the CLI commands")
    args = parser.parse_args()
    if shutil.which("strace") is None:
        raise SystemExit("needs strace (apt-get install -y strace)")
    py = sys.executable
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        root = Path(tmp)
        packs = make_packs(root, args.mib)
        env = dict(os.environ, TASKPACK_MACHINE="zhang-pc", TASKPACK_ACTOR="Zhang")
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        cli = [py, "-m", "taskpack.app.cli"]
        print(f"a {args.mib} MiB pack (one luggage file), bytes read from the pack file ÷ its size")
        print(f"{'encoding':<9} {'what':<30} {'read':>7} {'opens':>6}   goal", flush=True)
        for encoding, pack in packs.items():
            size = pack.stat().st_size
            other = "flat.taskpack.json" if encoding == "bag" else "bag.taskpack"
            runs = {
                "land": [*cli, "land", str(pack)],
                "conformance": [*cli, "conformance", str(pack)],
                "verify": [*cli, "verify", str(pack)],
                "convert": [*cli, "convert", str(pack), "--out", str(root / f"out-{other}")],
            }
            if not args.no_window:
                script = root / "window.py"
                script.write_text(WINDOW_SCRIPT, encoding="utf-8")
                runs["window drop → review → Land"] = [py, str(script), str(pack)]
            for n, (name, argv) in enumerate(runs.items()):
                home = root / f"home-{encoding}-{n}"
                if name.startswith("window"):
                    argv = [*argv, str(home)]
                read, opens = traced(
                    argv, pack, root / "trace.txt", dict(env, TASKPACK_HOME=str(home))
                )
                ratio = read / size
                goal = WINDOW_GOAL if name.startswith("window") else COMMAND_GOAL[0]
                ok = ratio <= goal and (name.startswith("window") or opens <= COMMAND_GOAL[1])
                goal_text = (
                    f"≤ {WINDOW_GOAL}×"
                    if name.startswith("window")
                    else f"≤ {COMMAND_GOAL[0]}×, ≤ {COMMAND_GOAL[1]} opens"
                )
                print(
                    f"{encoding:<9} {name:<30} {ratio:>6.2f}× {opens:>6}   {goal_text} "
                    f"{'ok' if ok else 'OVER'}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
