"""Windows and Linux desks hand work to each other: Windows' own Python under Wine packs,
the Linux desk lands and answers, the Windows desk merges the receipt — every command's
output going to a file, as a script or an agent would read it. Then the window's smoke
test under Windows' Python, and its folder deleted afterwards (an open store would stop
that on Windows).

Run by ``make test-windows`` (the Windows lane), which makes the Wine environment first;
skipped elsewhere (``packaging/windows/README.md``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging" / "windows"))
import winenv  # noqa: E402

LAYOUT = winenv.Layout(Path(os.environ.get("TASKPACK_WINE_PREFIX", ROOT / "build" / "wine")))
pytestmark = pytest.mark.skipif(
    os.environ.get("TASKPACK_WINDOWS_LANE") != "1" or not LAYOUT.python_exe.exists(),
    reason="the Windows lane's own test: make test-windows runs it under Wine",
)

TITLE = "把报告交给小王 → ✓"
QUESTION = "哪一版可以发给客户？"
ANSWER = "第 3 版 ✓"


def windows_path(path: Path) -> str:
    """How Windows' Python names a Linux path under Wine: drive Z: is the root."""
    return "Z:" + str(path).replace("/", "\\")


class Side:
    """`taskpack …` on one machine, each command's stdout and stderr written to files."""

    def __init__(self, tmp: Path, name: str, *, windows: bool) -> None:
        self.tmp, self.name, self.windows = tmp, name, windows
        self.home = tmp / f"{name}-home"
        self.count = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env.update(
            TASKPACK_HOME=windows_path(self.home) if self.windows else str(self.home),
            TASKPACK_MACHINE=f"{self.name}-pc",
            TASKPACK_ACTOR=self.name,
            TASKPACK_NO_PROGRESS="1",
        )
        return env

    def __call__(self, *args: str) -> str:
        self.count += 1
        out = self.tmp / f"{self.name}-{self.count}-{args[0]}.out"
        err = out.with_suffix(".err")
        if self.windows:  # Wine's python cannot start with a regular file as stdout or
            # stderr (Windows' can): pipes in between, each written to its file whole
            cmd = ["wine", str(LAYOUT.python_exe), "-m", "taskpack.app.cli.main", *args]
            env = winenv.wine_env(LAYOUT, self.env())
            proc = subprocess.run(
                cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=600
            )
            out.write_bytes(proc.stdout)
            err.write_bytes(proc.stderr)
            code = proc.returncode
        else:
            with open(out, "wb") as stdout, open(err, "wb") as stderr:
                code = subprocess.run(
                    [sys.executable, "-m", "taskpack.app.cli.main", *args],
                    env=self.env(),
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    timeout=300,
                ).returncode
        text, problems = out.read_bytes().decode("utf-8"), err.read_bytes().decode("utf-8")
        assert code == 0, (self.name, args, code, text, problems)
        assert "Traceback" not in text + problems, (self.name, args, problems)
        return text


def test_windows_to_linux_and_back_with_every_output_in_a_file(tmp_path: Path) -> None:
    wei = Side(tmp_path, "wei", windows=True)
    ana = Side(tmp_path, "ana", windows=False)
    notes = tmp_path / "会议记录 v2.txt"
    notes.write_text("客户要 PDF。\n", encoding="utf-8")
    handoff, receipt = tmp_path / "交接.taskpack", tmp_path / "回执.taskpack.json"

    pid = json.loads(wei("new", "--title", TITLE, "--goal", "发给客户", "--json"))["passport"]["id"]
    wei("fact", pid, "--claim", "草稿已经写好 ✓", "--scope", "universal")
    wei("ask", pid, "--what", QUESTION, "--accept", "一个版本号")
    wei("attach", pid, windows_path(notes))
    wei("pack", pid, "--out", windows_path(handoff))
    assert TITLE in wei("show", windows_path(handoff))
    assert "C0 ✓" in wei("conformance", windows_path(handoff))

    there = json.loads(ana("land", str(handoff), "--json"))["passport"]
    ana("take", there)
    ana("answer", there, "a1", "--answer", ANSWER)
    ana("pack", there, "--kind", "receipt", "--out", str(receipt))

    merged = wei("land", windows_path(receipt), "--into", pid)
    assert "answered: a1" in merged
    [ask] = json.loads(wei("open", pid, "--json"))["asks"]
    assert ask["answer"] == ANSWER


def windows_temp() -> Path:
    """The Windows user's temporary folder in the prefix: Wine sets TEMP and TMP from the
    registry, whatever the Linux environment says."""
    return LAYOUT.wineprefix / "drive_c" / "users" / os.environ.get("USER", "root") / "Temp"


def test_the_window_smoke_test_passes_and_leaves_nothing_open(tmp_path: Path) -> None:
    """The report is written by the Windows process itself (``--smoke-log``), and Wine's
    own errors and exceptions (``+seh``) go to its stderr: a run that fails says why."""
    log, wine_err = tmp_path / "smoke.log", tmp_path / "wine-stderr.txt"
    before = set(windows_temp().glob("taskpack-smoke-*"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TASKPACK_"))}
    env.update(WINEDEBUG="fixme-all,err+all,+seh", TASKPACK_SMOKE_TRACE="1")
    proc = subprocess.run(
        ["wine", str(LAYOUT.python_exe), "-m", "taskpack.app.gui_main", "--smoke-test",
         f"--smoke-log={windows_path(log)}"],
        env=winenv.wine_env(LAYOUT, env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=900,
    )  # fmt: skip
    wine_err.write_bytes(proc.stderr)
    text = log.read_text(encoding="utf-8") if log.exists() else "(no report written)"
    python_err = "\n".join(
        ln for ln in proc.stderr.decode("utf-8", "replace").splitlines() if ":trace:seh:" not in ln
    )
    why = (
        f"exit {proc.returncode}\n--- report\n{text}\n--- stdout\n"
        f"{proc.stdout.decode('utf-8', 'replace')}\n--- stderr (Python and Wine, "
        f"Wine's exception trace in {wine_err})\n{python_err[-6000:]}"
    )
    assert proc.returncode == 0, why
    assert "Traceback" not in text + python_err and "FAIL" not in text, why
    assert "smoke test passed" in text, why
    assert "  ok    watcher" in text and "  ok    cleanup" in text, why
    left = set(windows_temp().glob("taskpack-smoke-*")) - before
    assert not left, f"the smoke test's folder is still there: {sorted(left)}"
