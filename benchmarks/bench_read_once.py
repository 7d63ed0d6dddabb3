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
descriptor's file), so the interpreter reading its own modules is not counted. The
window is then run again untraced and measured from ``/proc/<pid>/io`` (the helper
processes it spawned are summed in: Linux adds a reaped child's counts to its parent's):
``rchar`` less that of a baseline run of the same path with a 1 KiB pack, and
``read_bytes`` with the pack evicted from the page cache first. Goals: the
commands ≤ 1.15× the pack's size and ≤ 2 opens; the window ≤ 1.3× and ≤ 2 opens (the
review judged in the same pass). Needs `strace` (the Makefile's ci-deps installs it).
"""

from __future__ import annotations

import argparse
import json
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
    """A handoff with one `mib` MiB luggage file (0: one of 1 KiB), as a bag and as flat
    JSON, in the folder `root` (made)."""
    from taskpack.app.desk import Desk

    root.mkdir(parents=True, exist_ok=True)
    blob = root / "footage.bin"
    block = os.urandom(1 << 20)
    with open(blob, "wb") as f:
        for n in range(mib):
            f.write(block[n % 7 :] + block[: n % 7])
        if not mib:
            f.write(block[:1024])
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


_UNFINISHED = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+(\w+)\((.*) <unfinished \.\.\.>$")
_RESUMED = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+<\.\.\. (\w+) resumed>(.*)\)\s+=\s+(-?\d+)")


def count(trace: Path, pack: Path) -> tuple[int, int]:
    """(bytes read from `pack`, opens of it) in an strace log. A call another thread
    interrupted is logged in two lines (``<unfinished ...>``, then ``<... read resumed>``):
    its arguments come from the first, its result from the second."""
    target = os.path.realpath(pack)
    read = opens = 0
    pending: dict[tuple[str, str], str] = {}
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = _UNFINISHED.match(line)
            if m is not None:
                pending[(m.group(1), m.group(2))] = m.group(3)
                continue
            m = _RESUMED.match(line)
            if m is not None:
                args = pending.pop((m.group(1), m.group(2)), "")
                call, result = m.group(2), int(m.group(4))
            else:
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
import json, sys, time
from pathlib import Path


def io():
    # this process and every child it has reaped (the helpers): Linux adds a reaped
    # child's counts to its parent's
    with open("/proc/self/io") as f:
        return {k: int(v) for k, v in (line.split(": ") for line in f.read().splitlines())}


def main():
    from taskpack.ui.app import make_application
    app = make_application(sys.argv[:1])
    from taskpack.app import isolated
    from taskpack.app.desk import Desk
    from taskpack.ui.main_window import MainWindow
    pack, home = Path(sys.argv[1]), Path(sys.argv[2])
    report = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    if len(sys.argv) > 4 and sys.argv[4] == "helper":
        isolated.LARGE_BYTES = 0  # (a baseline that takes the large pack's way: helpers)
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
    judged = window.review_view.reviewed.judged
    window.land_current()
    wait(lambda: window.idle() and len(desk.passports()) == 1, "land")
    window.shutdown()
    window.close()
    desk.close()
    if report is not None:
        report.write_text(json.dumps({"io": io(), "judged": judged}))


if __name__ == "__main__":  # (helper processes are spawned: they import this module)
    main()
"""


def evict(path: Path) -> None:
    """Drop `path`'s pages from the page cache (its bytes are then read from the disk,
    and counted in ``read_bytes``); nothing else's."""
    with open(path, "rb") as f:
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def window_io(
    py: str, script: Path, pack: Path, home: Path, env: dict[str, str], *, helper: bool
) -> tuple[dict[str, int], bool]:
    """The window's drop → review → Land of `pack` as a whole process, untraced: its
    /proc io counters (helper processes summed), and whether the review was judged."""
    out = home.parent / f"io-{home.name}.json"
    evict(pack)
    argv = [py, str(script), str(pack), str(home), str(out), "helper" if helper else "-"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the window failed ({done.returncode}): {done.stderr[-800:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    return data["io"], bool(data["judged"])


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
        small = make_packs(root / "small", 0)
        env = dict(os.environ, TASKPACK_MACHINE="zhang-pc", TASKPACK_ACTOR="Zhang")
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        cli = [py, "-m", "taskpack.app.cli"]
        script = root / "window.py"
        script.write_text(WINDOW_SCRIPT, encoding="utf-8")
        print(f"a {args.mib} MiB pack (one luggage file), bytes read from the pack file ÷ its size")
        print(f"{'encoding':<9} {'what':<30} {'read':>7} {'opens':>6}   goal", flush=True)
        window_rows: list[str] = []
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
                ok = ratio <= goal and opens <= COMMAND_GOAL[1]
                goal_text = (
                    f"≤ {WINDOW_GOAL}×, ≤ {COMMAND_GOAL[1]} opens"
                    if name.startswith("window")
                    else f"≤ {COMMAND_GOAL[0]}×, ≤ {COMMAND_GOAL[1]} opens"
                )
                print(
                    f"{encoding:<9} {name:<30} {ratio:>6.2f}× {opens:>6}   {goal_text} "
                    f"{'ok' if ok else 'OVER'}",
                    flush=True,
                )
            if not args.no_window:
                window_rows.append(
                    window_measure(py, script, pack, small[encoding], root, env, encoding)
                )
        if window_rows:
            print(
                "\nthe window, untraced, from /proc/<pid>/io (helper processes summed): rchar "
                "less a baseline run of the same path\nwith a 1 KiB pack, ÷ the pack's size; "
                "read_bytes (from the disk: the pack evicted from the page cache first) ÷ its size"
            )
            for row in window_rows:
                print(row, flush=True)
    return 0


def window_measure(
    py: str,
    script: Path,
    pack: Path,
    small: Path,
    root: Path,
    env: dict[str, str],
    encoding: str,
) -> str:
    from taskpack.app import isolated

    helper = isolated.pack_is_large(pack)  # the baseline goes the same way (helpers or not)
    size = pack.stat().st_size
    base, _ = window_io(py, script, small, root / f"io-home-small-{encoding}", env, helper=helper)
    big, judged = window_io(py, script, pack, root / f"io-home-big-{encoding}", env, helper=helper)
    rchar = (big["rchar"] - base["rchar"]) / (size - small.stat().st_size)
    disk = big["read_bytes"] / size
    ok = rchar <= WINDOW_GOAL and disk <= WINDOW_GOAL
    return (
        f"{encoding:<9} rchar {rchar:5.2f}×  read_bytes {disk:5.2f}×  "
        f"(judged in the review: {'yes' if judged else 'NO'}; "
        f"{'helper processes' if helper else 'in the window process'})   "
        f"≤ {WINDOW_GOAL}× {'ok' if ok and judged else 'OVER'}"
    )


if __name__ == "__main__":
    sys.exit(main())
