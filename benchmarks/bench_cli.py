"""Whole-process CLI benchmark: the `taskpack` command as a user runs it, each against its floor.

Each command runs as its own process, start-up included (the installed `taskpack`
console script next to this interpreter), with its outputs removed and `sync` run
before every run. Each is measured against its OWN floor — the least a program doing
that job must spend — run alternately with it in the same rounds (on this VM the disk's
write speed swings 3–10× between runs, so a ratio to a hash alone says little about a
command that writes):

| command | floor |
|---|---|
| `taskpack conformance` (judge) | `openssl dgst -sha256` of the pack |
| `taskpack pack`, `convert → .taskpack` | the larger of the hash of the bytes and a plain write of them (`dd bs=1M`) |
| `convert → .taskpack.json` | `base64` of the bag into a file |
| `taskpack land` | a durable copy of the pack (`dd bs=1M conv=fsync`) |

Every time is the median of `--repeat` (≥ 3) runs; the table gives the ratio of the
command's median to its floor's median. Peak RSS is each child's own (`wait4`'s rusage).

    python benchmarks/bench_cli.py [--size MIB] [--repeat N] [--reference DIR] [--keep DIR]

`--size 256` gives a quick run. `--reference DIR` is a checkout of the reference
implementation (`task-passport`, Node): the small-pack cold start of `conformance` is
then compared with its CLI judging the same pack; without it, with `python -c pass`. The
cold start is measured twice: this venv's `taskpack` (an editable install: `site` loads
its import hook at every start) and the same checkout installed from its wheel into a
venv of its own (`installed_copy`), as a user's `pip install` has it.
Never commit that checkout: fetch it outside the repository (e.g. /tmp).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

BIN = Path(sys.executable).parent
TASKPACK = str(BIN / "taskpack")
TIME = "/usr/bin/time"  # GNU time: each child's own peak RSS


def child_env(home: Path) -> dict[str, str]:
    # an installed copy imports cached bytecode; this machine's environment may set
    # PYTHONDONTWRITEBYTECODE, which would make every start compile from source
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TASKPACK_HOME=str(home), TASKPACK_MACHINE="bench-host", TASKPACK_ACTOR="bench")
    env.pop("TERM", None)  # no progress bar: output is not a terminal anyway
    return env


def run_once(
    cmd: Sequence[str], env: dict[str, str] | None, ok: Sequence[int] = (0,)
) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one whole process."""
    # through /usr/bin/time: a child forked straight from this process would inherit this
    # process's resident size as its peak (Linux keeps the high-water mark across exec)
    with tempfile.NamedTemporaryFile("r", prefix="tp-rss-") as rss:
        t = time.perf_counter()
        p = subprocess.run(
            [TIME, "-q", "-f", "%M", "-o", rss.name, *cmd],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        seconds = time.perf_counter() - t
        if p.returncode not in ok:
            raise SystemExit(
                f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-2000:]}"
            )
        kib = int(rss.read().split()[-1])
    return seconds, kib / 1024


def measure(
    cmd: Sequence[str],
    env: dict[str, str] | None,
    repeat: int,
    *,
    before: Callable[[], None] | None = None,
    ok: Sequence[int] = (0,),
    baseline: Sequence[str] | None = None,
    baseline_env: dict[str, str] | None = None,
) -> Sample:
    """`repeat` runs of `cmd`, each after `before()` and `sync`; with `baseline`, each run is
    paired with one of the baseline (order alternating), so both see the same load."""
    s = Sample()
    for i in range(repeat):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)) if baseline else (0,):
            if which == 0:
                if before:
                    before()
                os.sync()
                t, r = run_once(cmd, env, ok)
                s.times.append(t)
                s.rss = max(s.rss, r)
            else:
                assert baseline is not None
                os.sync()
                t, r = run_once(baseline, baseline_env)
                s.base.append(t)
                s.base_rss = max(s.base_rss, r)
    return s


def against_floors(
    cmd: Sequence[str],
    env: dict[str, str] | None,
    floors: dict[str, Sequence[str]],
    repeat: int,
    *,
    before: Callable[[], None] | None = None,
    before_floor: Callable[[], None] | None = None,
    ok: Sequence[int] = (0,),
) -> tuple[Sample, dict[str, list[float]]]:
    """`repeat` rounds of `cmd` and each floor command, the order rotating every round so
    each sees the same load; `before()` / `before_floor()` (removing the outputs) and
    `sync` before every run."""
    s = Sample()
    times: dict[str, list[float]] = {name: [] for name in floors}
    order = [None, *floors]
    for i in range(repeat):
        k = i % len(order)
        for name in order[k:] + order[:k]:
            clean = before if name is None else before_floor
            if clean:
                clean()
            os.sync()
            if name is None:
                t, r = run_once(cmd, env, ok)
                s.times.append(t)
                s.rss = max(s.rss, r)
            else:
                t, _ = run_once(floors[name], None)
                times[name].append(t)
    return s, times


class Sample:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.base: list[float] = []
        self.rss = 0.0
        self.base_rss = 0.0

    @property
    def best(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def line(self, label: str, base_label: str = "") -> str:
        text = f"  {label:<36} {self.best:7.3f} s / {self.median:7.3f} s"
        if self.base:
            b, m = min(self.base), statistics.median(self.base)
            text += f"   {self.best / b:5.2f}× / {self.median / m:5.2f}×{base_label}"
        return text + f"   peak RSS {self.rss:6.1f} MB"


def rm(*paths: Path) -> Callable[[], None]:
    def go() -> None:
        for p in paths:
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()

    return go


def make_luggage(path: Path, mib: int) -> None:
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(1 << 20))


def new_passport(env: dict[str, str]) -> str:
    r = subprocess.run(
        [TASKPACK, "new", "--title", "bench", "--goal", "measure", "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return str(json.loads(r.stdout)["passport"]["id"])


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--size", type=int, default=1024, help="MiB of random luggage (default 1024)")
    ap.add_argument(
        "--repeat", type=int, default=3, help="runs of each command (median; at least 3)"
    )
    ap.add_argument("--cold-repeat", type=int, default=15, help="runs of each small cold start")
    ap.add_argument(
        "--reference", type=Path, help="a checkout of the reference implementation (its cli.js)"
    )
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    ap.add_argument(
        "--only", help="comma-separated subset: pack,flat,bag,judge,judge-flat,land,cold"
    )
    args = ap.parse_args()
    if args.repeat < 3:
        ap.error("--repeat must be at least 3 (a median of fewer says little here)")
    only = set(args.only.split(",")) if args.only else None
    work = args.keep or Path(tempfile.mkdtemp(prefix="tp-bench-cli-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        sender, receiver = work / "sender-home", work / "receiver-home"
        env = child_env(sender)
        luggage = work / "luggage.bin"
        if not luggage.exists() or luggage.stat().st_size != args.size << 20:
            make_luggage(luggage, args.size)
        bag, flat, bag2 = work / "out.taskpack", work / "out.taskpack.json", work / "out2.taskpack"
        scratch = work / "floor.out"  # what a floor command writes

        def sha(path: Path) -> list[str]:
            return ["openssl", "dgst", "-sha256", str(path)]

        def write(path: Path, *, durable: bool = False) -> list[str]:
            cmd = ["dd", f"if={path}", f"of={scratch}", "bs=1M", "status=none"]
            return [*cmd, "conv=fsync"] if durable else cmd

        print(
            f"luggage: {args.size} MiB random. Each command and its floor: median of {args.repeat} "
            "runs, run alternately in the same rounds\n"
        )
        pid = new_passport(env)
        table: list[tuple[str, float, str, float, float]] = []

        def row(
            label: str,
            key: str,
            cmd: Sequence[str],
            floors: Callable[[], dict[str, Sequence[str]]],
            out: Path | None = None,
            renv: dict[str, str] | None = None,
        ) -> None:
            before = rm(out) if out is not None else None
            if only is not None and key not in only:
                if key in ("pack", "flat", "bag"):  # a later command reads its output
                    if before:
                        before()
                    run_once(cmd, renv or env)
                return
            # floors are built once the inputs exist (a floor reads the command's input)
            sample, floor_times = against_floors(
                cmd, renv or env, floors(), args.repeat, before=before, before_floor=rm(scratch)
            )
            medians = {name: statistics.median(t) for name, t in floor_times.items()}
            floor = max(medians, key=lambda name: medians[name])
            ratio = sample.median / medians[floor]
            extra = ", ".join(f"{name} {t:.3f} s" for name, t in medians.items())
            print(
                f"  {label:<36} {sample.median:7.3f} s   floor ({extra})   "
                f"{ratio:5.2f}×   peak RSS {sample.rss:6.1f} MB",
                flush=True,
            )
            table.append((label, sample.median, floor, medians[floor], ratio))

        row(
            "taskpack pack (1 file)",
            "pack",
            [TASKPACK, "pack", pid, "--out", str(bag), "--file", str(luggage)],
            lambda: {"hash": sha(luggage), "write": write(luggage)},
            bag,
        )
        row(
            "taskpack convert → .taskpack.json",
            "flat",
            [TASKPACK, "convert", str(bag), "-o", str(flat)],
            lambda: {"base64": ["sh", "-c", f'base64 "{bag}" > "{scratch}"']},
            flat,
        )
        row(
            "taskpack convert → .taskpack",
            "bag",
            [TASKPACK, "convert", str(flat), "-o", str(bag2)],
            lambda: {"hash": sha(bag), "write": write(bag)},
            bag2,
        )
        row(
            "taskpack conformance .taskpack",
            "judge",
            [TASKPACK, "conformance", str(bag)],
            lambda: {"hash": sha(bag)},
        )
        row(
            "taskpack conformance .taskpack.json",
            "judge-flat",
            [TASKPACK, "conformance", str(flat)],
            lambda: {"hash": sha(flat)},
        )
        row(
            "taskpack land .taskpack",
            "land",
            [TASKPACK, "land", str(bag)],
            lambda: {"durable copy": write(bag, durable=True)},
            receiver,
            child_env(receiver),
        )
        if table:
            print(
                "\n| command | median | its floor | floor median | ratio |\n|---|---|---|---|---|"
            )
            for label, t, floor, ft, ratio in table:
                print(f"| {label} | {t:.3f} s | {floor} | {ft:.3f} s | **{ratio:.2f}×** |")
        if bag2.exists() and bag.exists():
            print(f"  bag → flat → bag byte-identical: {_same(bag, bag2)}")
        for p in (bag, flat, bag2, scratch):
            rm(p)()
        rm(receiver)()

        if only is None or "cold" in only:
            cold(work, env, args)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def cold(work: Path, env: dict[str, str], args: argparse.Namespace) -> None:
    """Small-pack cold start: `taskpack conformance` against the reference (or `python -c pass`)."""
    note = work / "note.txt"
    note.write_text("a small luggage file\n")
    pid = new_passport(env)
    small = work / "small.taskpack"
    subprocess.run(
        [TASKPACK, "pack", pid, "--out", str(small), "--file", str(note)],
        env=env,
        check=True,
        capture_output=True,
    )
    n = args.cold_repeat
    ours = [TASKPACK, "conformance", str(small)]
    cli = args.reference / "cli.js" if args.reference else None
    if cli and cli.exists():
        ref, ref_env, label = (
            ["node", str(cli), "conformance", str(small)],
            None,
            "the reference CLI",
        )
    else:
        if args.reference:
            print(f"  (no cli.js under {args.reference}; comparing with python -c pass)")
        ref, ref_env, label = [sys.executable, "-c", "pass"], env, "python -c pass"
    print(
        f"\nsmall pack ({small.stat().st_size} bytes), cold start: best / median of {n} runs, run "
        f"alternately with {' '.join(Path(ref[0]).name if i == 0 else Path(a).name for i, a in enumerate(ref[:3]))}"
    )
    sample = measure(ours, env, n, baseline=ref, baseline_env=ref_env)
    base = Sample()
    base.times, base.rss = sample.base, sample.base_rss
    print(base.line(label))
    print(sample.line("taskpack conformance", f" {label}"))
    installed = installed_copy(work)
    if installed is not None:
        again = measure(
            [str(installed), "conformance", str(small)], env, n, baseline=ref, baseline_env=ref_env
        )
        base.times, base.rss = again.base, again.base_rss
        print(base.line(label))
        print(again.line("  … installed from its wheel", f" {label}"))
    for what, cmd in (
        ("taskpack --version", [TASKPACK, "--version"]),
        ("taskpack --help", [TASKPACK, "--help"]),
    ):
        print(
            measure(cmd, env, n, baseline=[sys.executable, "-c", "pass"], baseline_env=env).line(
                what, " python -c pass"
            )
        )


def installed_copy(work: Path) -> Path | None:
    """The `taskpack` command of this checkout installed as a user installs it: its wheel
    in a venv of its own, bytecode compiled, the dependencies borrowed from this venv
    (a `.pth` line; no download). This venv's copy is an editable install, whose import
    hook (the `__editable__` finder `site` loads at every start) a user's copy does not
    have; both are measured. None when the wheel cannot be built here."""
    venv, wheels = work / "installed-venv", work / "wheel"
    root = Path(__file__).resolve().parent.parent
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        site = next((venv / "lib").glob("python3*/site-packages"))
        borrowed = [p for p in sys.path if p.endswith("site-packages")]
        (site / "borrowed-deps.pth").write_text("\n".join(borrowed) + "\n")
        quiet = {"check": True, "capture_output": True}
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(root)], **quiet)  # type: ignore[call-overload]
        wheel = next(wheels.glob("taskpack_desk-*.whl"))
        subprocess.run(  # type: ignore[call-overload]
            [*pip, "install", "--no-deps", "--target", str(site), str(wheel)], **quiet
        )
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(site / "taskpack")], **quiet)  # type: ignore[call-overload]
        script = venv / "bin" / "taskpack"
        script.write_text(
            f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom taskpack.app.cli.entry import main\n"
            "sys.exit(main())\n"
        )
        script.chmod(0o755)
        return script
    except (subprocess.CalledProcessError, StopIteration, OSError) as exc:
        print(f"  (no installed copy measured: {exc})")
        return None


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 22), fb.read(1 << 22)
            if x != y:
                return False
            if not x:
                return True


if __name__ == "__main__":
    main()
