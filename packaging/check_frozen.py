"""Check a frozen build: `python packaging/check_frozen.py dist/taskpack-desk` (make package-test).

Runs the real binaries, as a person or an agent would, and fails (exit 1) when

- `taskpack-desk --smoke-test` exits non-zero (see taskpack.app.smoke for its steps),
  offscreen, and again on a real X server when Xvfb is installed (`make ci-deps`);
- Qt's X11 platform plugin needs a library that is neither in the package nor a host
  library (the build machine lacked it, so PyInstaller could not bundle it);
- `taskpack --version` does not name this source tree's version;
- `taskpack --help` lacks the exit codes, or lists other verbs than the source CLI;
- `taskpack completion bash|zsh` prints no script (when the verb is wired);
- `taskpack conformance` does not judge a pack written by the source tree as conformant;
- `taskpack mcp` does not answer an MCP initialize and list its tools over stdio;
- the desktop files are not in share/ (and the .desktop file does not validate);
- ANY output line carries a traceback, a missing module or a missing library.

It ends by printing the size of the folder and its largest parts.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TASKPACK_", "PYTHON", "VIRTUAL_ENV", "QT_"))
        }
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

    def run(
        self, name: str, *args: str, expect: int | None = 0, env: dict[str, str] | None = None
    ) -> tuple[int, str]:
        exe = self.dist / name
        try:
            p = subprocess.run(
                [str(exe), *args],
                env=env or self.env,
                cwd=self.tmp,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT,
            )
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


#: what to install on a Debian/Ubuntu build machine so the package carries the library
XCB_PACKAGES = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}


def unresolved_libraries(dist: Path, plugin: str) -> list[str]:
    """Shared libraries `plugin` needs that neither the package nor this machine has."""
    internal = dist / "_internal"
    path = internal / "PySide6" / "Qt" / "plugins" / plugin
    if not path.is_file() or shutil.which("ldd") is None:
        return []
    env = {**os.environ, "LD_LIBRARY_PATH": f"{internal}:{internal / 'PySide6' / 'Qt' / 'lib'}"}
    out = subprocess.run(["ldd", str(path)], env=env, capture_output=True, text=True).stdout
    return sorted({line.split()[0] for line in out.splitlines() if "not found" in line})


@contextlib.contextmanager
def x_server(tmp: Path) -> Iterator[str | None]:
    """A throwaway Xvfb display (":N"), or None when Xvfb is not installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield None
        return
    number = next(
        n
        for n in range(90, 200)
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists()
    )
    proc = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=(tmp / "xvfb.log").open("w"),
    )
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        yield f":{number}" if proc.poll() is None else None
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


def _source_cli() -> tuple[str, list[str]]:
    from taskpack.app.cli import main as cli

    parser = cli.build_parser()
    verbs = next(
        a.choices for a in parser._actions if isinstance(getattr(a, "choices", None), dict)
    )
    return cli.version(), sorted(verbs)


def _source_pack(where: Path) -> Path:
    from taskpack.app.desk import Desk

    with Desk(where / "source-desk", "source-machine", actor="check") as desk:
        lp = desk.new("Frozen check", "The frozen CLI judges a pack the source tree wrote")
        out = where / "from-source.taskpack"
        desk.pack(lp.id, out)
    return out


def check_packaged_install(c: Checker) -> None:
    """The frozen app's own install-desktop.sh, into a throwaway XDG home."""
    script = c.dist / "share" / "desktop" / "install-desktop.sh"
    if not script.is_file():
        return
    home = c.tmp / "xdg"
    env = {k: v for k, v in c.env.items() if k not in ("XDG_CURRENT_DESKTOP", "DESKTOP_SESSION")}
    env.update(
        HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config")
    )
    r = subprocess.run(
        ["sh", str(script), "--bin-dir", str(home / "bin")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if r.returncode != 0:
        c.fail(f"share/desktop/install-desktop.sh failed: {(r.stderr or r.stdout).strip()}")
        return
    launcher = (home / "data/applications/taskpack-desk.desktop").read_text(encoding="utf-8")
    if f"Exec={c.dist / 'taskpack-desk'} %F" not in launcher:
        c.fail("the installed launcher does not start this package's taskpack-desk")
    if not (home / "data/bash-completion/completions/taskpack").is_file():
        c.fail("install-desktop.sh did not install the bash completion")
    linked = subprocess.run(
        [str(home / "bin" / "taskpack"), "--version"], env=env, capture_output=True, text=True
    )
    if linked.returncode != 0 or not linked.stdout.startswith("taskpack "):
        c.fail(
            f"taskpack linked into --bin-dir does not run the CLI: {linked.stdout}{linked.stderr}"
        )
    answer = "(xdg-mime not installed)"
    if shutil.which("xdg-mime") and shutil.which("mimetype"):
        sample = c.tmp / "x.taskpack"
        sample.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
        answer = subprocess.run(
            ["xdg-mime", "query", "filetype", str(sample)], env=env, capture_output=True, text=True
        ).stdout.strip()
        if answer != "application/vnd.taskpack+zip":
            c.fail(f"after the packaged install, xdg-mime calls x.taskpack {answer!r}")
    print(
        f"    share/desktop/install-desktop.sh: launcher, icons, completion, bin links; x.taskpack is {answer}"
    )


def check_mcp(c: Checker) -> None:
    """The frozen `taskpack mcp` speaks MCP over stdio: initialize, then tools/list."""
    import json

    print("== taskpack mcp (stdio)")
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "check_frozen", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    try:
        p = subprocess.Popen(
            [str(c.dist / "taskpack"), "mcp"],
            env=c.env,
            cwd=c.tmp,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        c.fail(f"taskpack mcp: {exc}")
        return
    assert p.stdin is not None and p.stdout is not None
    answers: dict[int, dict] = {}
    try:
        for msg in messages:
            p.stdin.write((json.dumps(msg) + "\n").encode())
            p.stdin.flush()
            if "id" in msg:
                line = p.stdout.readline()
                answers[msg["id"]] = json.loads(line) if line else {}
        p.stdin.close()
        err = p.stderr.read().decode("utf-8", "replace") if p.stderr else ""
        p.wait(timeout=TIMEOUT)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        p.kill()
        c.fail(f"taskpack mcp: {exc}")
        return
    for line in err.splitlines():
        if BAD_LINES.search(line):
            c.fail(f"taskpack mcp: {line.strip()}")
    tools = [t.get("name") for t in (answers.get(2, {}).get("result") or {}).get("tools", [])]
    server = ((answers.get(1, {}).get("result") or {}).get("serverInfo") or {}).get("name")
    if server != "taskpack-desk" or "taskpack_land" not in tools:
        c.fail(f"taskpack mcp answered {answers!r}")
    else:
        print(f"    {server}: {len(tools)} tools")
    _, out = c.run("taskpack", "mcp", "--print-config", "claude")
    if '"mcpServers"' not in out:
        c.fail("taskpack mcp --print-config claude printed no configuration")
    _, out = c.run("taskpack", "mcp", "--print-skill")
    if "name: taskpack" not in out:
        c.fail("taskpack mcp --print-skill did not print resources/agents/SKILL.md")


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

    print("== Qt's X11 platform plugin")
    missing_libs = unresolved_libraries(dist, "platforms/libqxcb.so")
    for lib in missing_libs:
        pkg = XCB_PACKAGES.get(lib, "the package that provides it")
        c.fail(
            f"libqxcb.so needs {lib}, which the package lacks: install {pkg} on the build "
            "machine (make ci-deps does) and run make package again"
        )
    if not missing_libs:
        print("    every library it needs is in the package or is a host library")

    with x_server(c.tmp) as display:
        if display is None:
            print(
                "== taskpack-desk --smoke-test on X11: skipped (no Xvfb; `make ci-deps` installs it)"
            )
        else:
            print(f"== taskpack-desk --smoke-test on X11 (Xvfb {display})")
            code, out = c.run(
                "taskpack-desk",
                "--smoke-test",
                env={**c.env, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display},
            )
            window = [ln for ln in out.splitlines() if " window " in ln]
            sys.stdout.write(_indent("\n".join(window) or out[-2000:]))
            if code == 0 and not any("shown on xcb" in ln for ln in window):
                c.fail("the window did not show on the X server")

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

    if "mcp" in src_verbs:
        check_mcp(c)

    print("== desktop files")
    share = dist / "share"
    for rel in (
        "desktop/taskpack-desk.desktop",
        "desktop/taskpack-desk.xml",
        "desktop/install-desktop.sh",
        "icons/taskpack-desk.svg",
        "completion/taskpack.bash",
        "completion/_taskpack",
    ):
        if not (share / rel).is_file():
            c.fail(f"share/{rel} is missing from the package")
    validator = subprocess.run(
        ["which", "desktop-file-validate"], capture_output=True, text=True
    ).stdout.strip()
    if validator and (share / "desktop/taskpack-desk.desktop").is_file():
        v = subprocess.run(
            [validator, str(share / "desktop/taskpack-desk.desktop")],
            capture_output=True,
            text=True,
        )
        if v.returncode != 0 or v.stdout.strip():
            c.fail(f"the packaged .desktop file does not validate: {v.stdout.strip()}")
    print("    share/desktop, share/icons, share/completion present")
    check_packaged_install(c)

    print("== " + size_report(dist).replace("\n", "\n", 1))
    if c.failures:
        print(f"package-test FAILED: {len(c.failures)} problem(s)")
        return 1
    print("package-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
