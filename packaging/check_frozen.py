"""Check a frozen build: `python packaging/check_frozen.py dist/taskpack-desk` (make package-test).

Runs the real binaries, as a person or an agent would, and fails (exit 1) when

- `taskpack-desk --smoke-test` exits non-zero (see taskpack.app.smoke for its steps);
- `taskpack --version` does not name this source tree's version;
- `taskpack --help` lacks the exit codes, or lists other verbs than the source CLI;
- `taskpack completion bash|zsh` prints no script (when the verb is wired);
- `taskpack conformance` does not judge a pack written by the source tree as conformant;
- the desktop files are not in share/ (and the .desktop file does not validate);
- ANY output line carries a traceback, a missing module or a missing library.

It ends by printing the size of the folder and its largest parts.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BAD_LINES = re.compile(
    r"Traceback \(most recent call last\)|ModuleNotFoundError|No module named|ImportError"
    r"|missing module|Failed to execute script|PackageNotFoundError"
    r"|could not (load|find) the Qt platform plugin|cannot open shared object file",
    re.IGNORECASE,
)
TIMEOUT = 300


class Checker:
    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self.failures: list[str] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="taskpack-frozen-"))
        home = self.tmp / "home"
        home.mkdir()
        # a clean, throwaway environment: no user's desk, no display needed
        self.env = {
            k: v for k, v in os.environ.items()
            if not k.startswith(("TASKPACK_", "PYTHON", "VIRTUAL_ENV", "QT_"))
        }  # fmt: skip
        self.env.update(
            HOME=str(home),
            XDG_DATA_HOME=str(home / ".local/share"),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_RUNTIME_DIR=str(self.tmp),
            TASKPACK_HOME=str(self.tmp / "desk"),
            TASKPACK_MACHINE="frozen-check",
            QT_QPA_PLATFORM="offscreen",
            TASKPACK_NO_PROGRESS="1",
        )

    def fail(self, what: str) -> None:
        self.failures.append(what)
        print(f"FAIL  {what}")

    def run(self, name: str, *args: str, expect: int | None = 0) -> tuple[int, str]:
        exe = self.dist / name
        try:
            p = subprocess.run(
                [str(exe), *args], env=self.env, cwd=self.tmp, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            self.fail(f"{name} {' '.join(args)}: {exc}")
            return -1, ""
        out = p.stdout.decode("utf-8", "replace")
        shown = " ".join((name, *args))
        for line in out.splitlines():
            if BAD_LINES.search(line):
                self.fail(f"{shown}: {line.strip()}")
        if expect is not None and p.returncode != expect:
            self.fail(f"{shown}: exit code {p.returncode}, expected {expect}")
            sys.stdout.write(_indent(out[-4000:]))
        return p.returncode, out


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


def _source_cli() -> tuple[str, list[str]]:
    from taskpack.app import cli

    parser = cli.build_parser()
    verbs = next(a.choices for a in parser._actions if isinstance(getattr(a, "choices", None), dict))
    return cli.version(), sorted(verbs)


def _source_pack(where: Path) -> Path:
    from taskpack.app.desk import Desk

    with Desk(where / "source-desk", "source-machine", actor="check") as desk:
        lp = desk.new("Frozen check", "The frozen CLI judges a pack the source tree wrote")
        out = where / "from-source.taskpack"
        desk.pack(lp.id, out)
    return out


def size_report(dist: Path) -> str:
    total = 0
    parts: dict[str, int] = {}
    for p in dist.rglob("*"):
        if p.is_file() and not p.is_symlink():
            n = p.stat().st_size
            total += n
            rel = p.relative_to(dist).parts
            key = "/".join(rel[:3]) if rel[0] == "_internal" and len(rel) > 3 else "/".join(rel[:2])
            parts[key] = parts.get(key, 0) + n
    top = sorted(parts.items(), key=lambda kv: -kv[1])[:8]
    lines = [f"size of {dist}: {total / 2**20:.1f} MiB unpacked"]
    lines += [f"    {n / 2**20:6.1f} MiB  {k}" for k, n in top]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    dist = Path(argv[1] if len(argv) > 1 else "dist/taskpack-desk").resolve()
    c = Checker(dist)
    for exe in ("taskpack-desk", "taskpack"):
        if not (dist / exe).is_file():
            c.fail(f"{dist / exe} is missing: run `make package` first")
    if c.failures:
        return 1

    print("== taskpack-desk --smoke-test")
    code, out = c.run("taskpack-desk", "--smoke-test")
    sys.stdout.write(_indent(out))
    if code == 0 and "smoke test passed" not in out:
        c.fail("taskpack-desk --smoke-test exited 0 but did not run the smoke test")

    print("== taskpack (the command line)")
    src_version, src_verbs = _source_cli()
    _, out = c.run("taskpack", "--version")
    if out.strip() != f"taskpack {src_version}":
        c.fail(f"taskpack --version printed {out.strip()!r}, expected 'taskpack {src_version}'")
    _, out = c.run("taskpack", "--help")
    if "Exit codes" not in out:
        c.fail("taskpack --help does not document the exit codes")
    missing = [v for v in src_verbs if not re.search(rf"^\s+{re.escape(v)}\b", out, re.MULTILINE)]
    if missing:
        c.fail(f"verbs of the source CLI missing from the frozen one: {', '.join(missing)}")
    print(f"    taskpack {src_version}; verbs: {' '.join(src_verbs)}")
    if "completion" in src_verbs:
        for shell in ("bash", "zsh"):
            _, out = c.run("taskpack", "completion", shell)
            if "taskpack" not in out or len(out) < 200:
                c.fail(f"taskpack completion {shell} printed no script")
    if "conformance" in src_verbs:
        try:
            pack = _source_pack(c.tmp)
        except Exception as exc:  # the source tree cannot pack: say so, do not crash
            c.fail(f"the source tree could not write a pack to judge: {exc}")
        else:
            _, out = c.run("taskpack", "conformance", str(pack))
            print(_indent(out.strip().splitlines()[0] if out.strip() else "(no output)"), end="")
            c.run("taskpack", "conformance", str(c.tmp / "absent.taskpack"), expect=1)

    print("== desktop files")
    share = dist / "share"
    for rel in ("desktop/taskpack-desk.desktop", "desktop/taskpack-desk.xml",
                "desktop/install-desktop.sh", "icons/taskpack-desk.svg",
                "completion/taskpack.bash", "completion/_taskpack"):
        if not (share / rel).is_file():
            c.fail(f"share/{rel} is missing from the package")
    validator = subprocess.run(["which", "desktop-file-validate"], capture_output=True, text=True).stdout.strip()
    if validator and (share / "desktop/taskpack-desk.desktop").is_file():
        v = subprocess.run([validator, str(share / "desktop/taskpack-desk.desktop")], capture_output=True, text=True)
        if v.returncode != 0 or v.stdout.strip():
            c.fail(f"the packaged .desktop file does not validate: {v.stdout.strip()}")
    print("    share/desktop, share/icons, share/completion present")

    print("== " + size_report(dist).replace("\n", "\n", 1))
    if c.failures:
        print(f"package-test FAILED: {len(c.failures)} problem(s)")
        return 1
    print("package-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
