"""`make package-windows`: the Windows app and its installer, built and checked here under Wine.

    python packaging/windows/winbuild.py build [--prefix build/wine]
    python packaging/windows/winbuild.py check [--prefix build/wine] [--screenshot PNG]

``build`` runs PyInstaller — the win_amd64 wheel, run by Windows' own CPython in the Wine
environment of ``winenv.py`` (``make windows-env``) — on ``packaging/taskpack-desk.spec``,
which on Windows makes ``dist/windows/taskpack-desk/`` with ``taskpack-desk.exe`` (the
window, no console) and ``taskpack.exe`` (the command line, a console program); then
Debian's NSIS (``makensis``) wraps that folder into the per-user installer
``dist/windows/taskpack-desk-VERSION-setup.exe`` (``taskpack-desk.nsi``).

``check`` runs what a person's Windows would run, in the same Wine prefix:

1. ``taskpack-desk.exe --smoke-test`` with Windows' own Qt platform (drawn through Wine's
   X11 driver on a private Xvfb display): every step must pass;
2. ``taskpack.exe --version``, ``--help`` and ``conformance`` on a pack the source tree
   wrote, with their output going to a pipe, as an agent or a script reads it;
3. the installer, silently (``/S``): the files, the Start-menu entry, both file types
   (``reg query HKCR\\.taskpack`` …), ``taskpack`` on the user's PATH;
4. a pack opened the Windows way, ``start /unix x.taskpack``: the installed desk starts
   and reviews it (``--screenshot`` saves the screen then);
5. the uninstaller, silently: no file, key, PATH entry or shortcut is left.

Every failure prints ``FAIL …`` and the exit code is 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import winenv  # noqa: E402

ROOT = winenv.ROOT
DIST = ROOT / "dist" / "windows"
APP = DIST / "taskpack-desk"
SPEC = ROOT / "packaging" / "taskpack-desk.spec"
NSI = HERE / "taskpack-desk.nsi"
WORK = ROOT / "build" / "pyinstaller-windows"
LIMIT_MIB = 150  # unpacked, as for the Linux build
# beside the package extra (PyInstaller): Pillow turns the PNG icon into the .exe's .ico
BUILD_EXTRAS = ["pillow"]
FILE_TYPES = {
    ".taskpack": ("TaskPack.Pack", "application/vnd.taskpack+zip"),
    ".taskpack.json": ("TaskPack.PackJson", "application/vnd.taskpack+json"),
}
INSTALL_NAME = "TaskPack Desk"
TIMEOUT = 600


def say(text: str) -> None:
    print(text, flush=True)


def version() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return str(project["version"])


def installer() -> Path:
    return DIST / f"taskpack-desk-{version()}-setup.exe"


def size_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def win_path(path: Path) -> str:
    """The Windows name of a Unix path (Wine maps / to drive Z:)."""
    return "Z:" + str(path.resolve()).replace("/", "\\")


# --- build ------------------------------------------------------------------------------


def package_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*winenv._extra(project, "package"), *BUILD_EXTRAS]


def ensure_pyinstaller(layout: winenv.Layout) -> None:
    """PyInstaller's Windows wheels (and Pillow) in Windows' site-packages, cached like
    winenv's own wheels: on winenv's key plus these requirements."""
    base = layout.stamp.read_text().strip() if layout.stamp.exists() else ""
    reqs = package_requirements()
    key = hashlib.sha256(repr([base, *reqs]).encode()).hexdigest()
    stamp = layout.prefix / "stamp-package"
    if stamp.exists() and stamp.read_text().strip() == key:
        return
    wheels = layout.cache / "package-wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    say("package-windows: downloading PyInstaller's win_amd64 wheels (PyPI)")
    winenv.pip(
        ["download", "--quiet", "--only-binary=:all:", "--platform", "win_amd64",
         "--python-version", "3.11", "--implementation", "cp", "--abi", "cp311",
         "--abi", "abi3", "--abi", "none", "-d", str(wheels), *reqs]
    )  # fmt: skip
    for wheel in sorted(wheels.glob("*.whl")):
        winenv.unpack_wheel(wheel, layout.site)
    stamp.write_text(key + "\n")


def build(layout: winenv.Layout) -> int:
    if not layout.python_exe.exists():
        raise SystemExit("package-windows: no Windows Python yet: run `make windows-env` first")
    ensure_pyinstaller(layout)
    stage = [sys.executable, str(ROOT / "packaging" / "stage.py"), str(ROOT / "build/package-site")]
    if subprocess.run(stage).returncode != 0:
        return 1
    shutil.rmtree(APP, ignore_errors=True)
    shutil.rmtree(WORK, ignore_errors=True)
    started = time.monotonic()
    frozen = winenv.run(
        layout,
        ["-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", win_path(DIST), "--workpath", win_path(WORK), win_path(SPEC)],
        timeout=TIMEOUT * 3,
    )  # fmt: skip
    froze = time.monotonic() - started
    if frozen.returncode != 0 or not (APP / "taskpack-desk.exe").is_file():
        say(f"FAIL  PyInstaller under Wine exited {frozen.returncode}")
        return 1
    say(f"package-windows: {APP.relative_to(ROOT)} in {froze:.0f} s, {size_mib(APP):.1f} MiB")
    if shutil.which("makensis") is None:
        say("FAIL  makensis is not installed (Debian package nsis; make ci-deps installs it)")
        return 1
    started = time.monotonic()
    installer().unlink(missing_ok=True)
    made = subprocess.run(
        ["makensis", "-V2", f"-DDIST={APP}", f"-DOUT={DIST}", f"-DVERSION={version()}", str(NSI)]
    )
    if made.returncode != 0 or not installer().is_file():
        say(f"FAIL  makensis exited {made.returncode}")
        return 1
    say(
        f"package-windows: {installer().relative_to(ROOT)} in {time.monotonic() - started:.0f} s, "
        f"{installer().stat().st_size / 2**20:.1f} MiB"
    )
    return 0


# --- check ------------------------------------------------------------------------------


class Check:
    def __init__(self, layout: winenv.Layout, screenshot: Path | None) -> None:
        self.layout = layout
        self.screenshot = screenshot
        self.failures: list[str] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="taskpack-wine-"))
        self.env = winenv.wine_env(layout)
        for name in list(self.env):
            if name.startswith(("TASKPACK_", "QT_")):
                del self.env[name]
        self.env["TASKPACK_NO_PROGRESS"] = "1"
        self.display: winenv._Xvfb | None = None

    def start_display(self) -> None:
        """One X display for every windowed step: Wine's desktop process, started with the
        first window, keeps the display it was started on."""
        self.display = winenv._Xvfb()
        self.env["DISPLAY"] = self.display.display

    def stop_display(self) -> None:
        if self.display is not None:
            self.display.close()
            self.display = None

    def start_wineserver(self) -> None:
        """One wineserver for the whole check, started here with no pipe of ours: a server
        that a `wine` call starts outlives it holding that call's stdout, and reading the
        output to its end would wait for the server to exit."""
        subprocess.run(
            [winenv.wineserver(), "-p"], env=self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip

    def stop_wineserver(self) -> None:
        subprocess.run([winenv.wineserver(), "-k"], env=self.env, timeout=60)
        subprocess.run([winenv.wineserver(), "-w"], env=self.env, timeout=TIMEOUT)

    def fail(self, what: str) -> None:
        self.failures.append(what)
        say(f"FAIL  {what}")

    def wine(
        self, *args: str, env: dict[str, str] | None = None, timeout: float = TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        """A Windows program, its output through pipes (what a script reading it sees).

        The output is read until the program has exited and its pipes are quiet, not to
        their end: services Wine starts along with a program (winedevice, the desktop
        process) inherit its pipes and outlive it."""
        proc = subprocess.Popen(
            ["wine", *args], env=env or self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        streams = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
        deadline = time.monotonic() + timeout
        open_fds = list(streams)
        while open_fds:
            ready, _, _ = select.select(open_fds, [], [], 0.5)
            for fd in ready:
                chunk = os.read(fd, 65536)
                if chunk:
                    streams[fd] += chunk
                else:
                    open_fds.remove(fd)
            if not ready and proc.poll() is not None:
                break  # exited, and nothing more came for half a second
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise subprocess.TimeoutExpired(proc.args, timeout)
        proc.stdout.close()
        proc.stderr.close()
        code = proc.wait()
        out, err = (bytes(b).decode("utf-8", "replace") for b in streams.values())
        return subprocess.CompletedProcess(proc.args, code, out, err)

    def user_dir(self) -> Path:
        users = self.layout.wineprefix / "drive_c" / "users"
        return users / os.environ.get("USER", "root")

    def installed(self) -> Path:
        return self.user_dir() / "AppData" / "Local" / "Programs" / INSTALL_NAME

    def windows_install_dir(self) -> str:
        user = os.environ.get("USER", "root")
        return f"C:\\users\\{user}\\AppData\\Local\\Programs\\{INSTALL_NAME}"

    def start_menu_entry(self) -> Path:
        programs = "AppData/Roaming/Microsoft/Windows/Start Menu/Programs"
        return self.user_dir() / programs / f"{INSTALL_NAME}.lnk"

    def reg(self, key: str, value: str | None = None) -> str | None:
        out = self.wine("reg", "query", key, *(["/v", value] if value else []))
        return out.stdout if out.returncode == 0 else None

    # 1 --------------------------------------------------------------------------------
    def smoke(self) -> None:
        say("== taskpack-desk.exe --smoke-test (Windows' Qt platform, Xvfb)")
        log = self.tmp / "smoke.txt"
        # Wine does not hand QT_* variables to Windows programs: set it in cmd (which
        # waits for the program; `start /wait` would hang under Wine)
        line = (
            f"set QT_QPA_PLATFORM=windows&& {win_path(APP / 'taskpack-desk.exe')} "
            f"--smoke-test --smoke-log={win_path(log)}"
        )
        temp = self.user_dir() / "Temp"
        before = set(temp.glob("taskpack-smoke-*"))
        try:  # the smoke test bounds its own hangs (writing every stack into its log)
            out = self.wine("cmd", "/c", line)
        except subprocess.TimeoutExpired:
            out = subprocess.CompletedProcess(line, "no exit", "", "")
            say(f"    (still running after {TIMEOUT} s: ended)")
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        for line in text.splitlines():
            say(f"    {line}")
        if out.returncode != 0 or "smoke test passed" not in text:
            self.fail(f"taskpack-desk.exe --smoke-test exited {out.returncode}")
        if "Traceback" in text + out.stdout + out.stderr:
            self.fail("the smoke test printed a traceback")
        left = sorted(p.name for p in set(temp.glob("taskpack-smoke-*")) - before)
        if left:
            self.fail(f"the smoke test left its folder in the Windows TEMP: {left}")

    # 2 --------------------------------------------------------------------------------
    def cli(self) -> None:
        say("== taskpack.exe (output to a pipe)")
        exe = str(APP / "taskpack.exe")
        out = self.wine(exe, "--version")
        if out.returncode != 0 or version() not in out.stdout:
            self.fail(f"taskpack.exe --version: exit {out.returncode}: {out.stdout}{out.stderr}")
        else:
            say(f"    {out.stdout.strip()}")
        out = self.wine(exe, "--help")
        if out.returncode != 0 or "exit codes" not in out.stdout.lower():
            self.fail(f"taskpack.exe --help: exit {out.returncode}, no exit codes listed")
        out = self.wine(exe, "conformance", win_path(self.source_pack()))
        if out.returncode != 0 or "Traceback" in out.stdout + out.stderr:
            self.fail(f"taskpack.exe conformance: exit {out.returncode}: {out.stderr.strip()}")
        else:
            say(f"    {out.stdout.strip().splitlines()[0]}")

    def source_pack(self) -> Path:
        """A pack written by this source tree (the Linux side of a handoff)."""
        pack = self.tmp / "from-linux.taskpack"
        if pack.exists():
            return pack
        env = {k: v for k, v in os.environ.items() if not k.startswith("TASKPACK_")}
        env.update(
            TASKPACK_HOME=str(self.tmp / "linux-desk"),
            TASKPACK_MACHINE="linux-box",
            TASKPACK_ACTOR="Wei",
        )
        cli = [sys.executable, "-m", "taskpack.app.cli"]

        def taskpack(*args: str) -> str:
            done = subprocess.run(
                [*cli, *args], env=env, capture_output=True, text=True, timeout=120
            )
            if done.returncode != 0:
                raise SystemExit(f"package-windows: taskpack {args[0]}: {done.stderr.strip()}")
            return done.stdout

        made = taskpack(
            "new", "--title", "Check the Windows build", "--goal", "The desk runs on Windows.",
            "--json",
        )  # fmt: skip
        pid = json.loads(made)["passport"]["id"]
        taskpack(
            "ask", pid, "--what", "Does the landing review show on Windows?",
            "--accept", "A screenshot of it.",
        )  # fmt: skip
        taskpack("pack", pid, "--out", str(pack))
        return pack

    # 3 --------------------------------------------------------------------------------
    def install(self) -> None:
        say(f"== {installer().name} /S (per user)")
        out = self.wine(str(installer()), "/S")
        if out.returncode != 0:
            self.fail(f"the installer exited {out.returncode}")
        where = self.installed()
        for name in ("taskpack-desk.exe", "taskpack.exe", "uninstall.exe"):
            if not (where / name).is_file():
                self.fail(f"the installer put no {name} in {where}")
        if not self.start_menu_entry().is_file():
            self.fail("no Start-menu entry")
        for ext, (progid, mime) in FILE_TYPES.items():
            found = self.reg(f"HKCR\\{ext}")
            if found is None or progid not in found or mime not in found:
                self.fail(f"reg query HKCR\\{ext}: {found!r}")
            else:
                say(f"    HKCR\\{ext} -> {progid} ({mime})")
            command = self.reg(f"HKCR\\{progid}\\shell\\open\\command")
            if command is None or "taskpack-desk.exe" not in command or "%1" not in command:
                self.fail(f"{progid} has no open command: {command!r}")
            verb = self.reg(f"HKCR\\{progid}\\shell\\open")
            if verb is None or f"Open with {INSTALL_NAME}" not in verb:
                self.fail(f"{progid}'s open verb is not called 'Open with {INSTALL_NAME}'")
            icon = self.reg(f"HKCR\\{progid}\\DefaultIcon")
            if icon is None or "taskpack-desk.exe" not in icon:
                self.fail(f"{progid} has no icon")
        path = self.reg("HKCU\\Environment", "Path") or ""
        if self.windows_install_dir().lower() not in path.lower():
            self.fail(f"the install folder is not on the user's PATH: {path!r}")
        found = self.wine("cmd", "/c", "taskpack --version")
        if found.returncode != 0 or version() not in found.stdout:
            self.fail(f"a new terminal does not find taskpack: {found.stdout}{found.stderr}")
        else:
            say(f"    cmd /c taskpack --version: {found.stdout.strip()}")

    # 4 --------------------------------------------------------------------------------
    def open_the_windows_way(self) -> None:
        say("== start /unix x.taskpack (the installed desk, a fresh desk home)")
        pack = self.source_pack()
        home = self.tmp / "windows-desk"
        home.mkdir(exist_ok=True)
        env = dict(self.env, TASKPACK_HOME=win_path(home))
        env.update(TASKPACK_MACHINE="windows-box", TASKPACK_ACTOR="Lena")
        try:
            started = self.wine("start", "/unix", str(pack), env=env)
            if started.returncode != 0:
                self.fail(f"start /unix exited {started.returncode}: {started.stderr.strip()}")
                return
            reviewed = self.wait_for_review(home, pack)
            if not reviewed:
                self.fail("the desk did not open the pack within 180 s")
            else:
                say(f"    the desk opened {pack.name} for review ({reviewed})")
                time.sleep(5)  # the review is read and drawn after the pack is listed
            if self.screenshot is not None and self.display is not None:
                self.grab(self.display.display, self.screenshot)
        finally:
            self.stop_wineserver()  # ends the desk, as logging out would
            self.start_wineserver()

    def wait_for_review(self, home: Path, pack: Path) -> str:
        """The desk records a pack opened from outside its folders in its settings."""
        settings = home / "settings.json"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                text = settings.read_text(encoding="utf-8")
            except OSError:
                text = ""
            if pack.name in text:
                return f"listed in {settings.name}"
            time.sleep(1)
        return ""

    def grab(self, display: str, png: Path) -> None:
        """The whole X screen, through the Linux Qt (the Windows one draws into it)."""
        code = (
            "import sys\n"
            "from PySide6.QtGui import QGuiApplication\n"
            "app = QGuiApplication(['grab', '-platform', 'xcb'])\n"
            "ok = app.primaryScreen().grabWindow(0).save(sys.argv[1], 'PNG')\n"
            "sys.exit(0 if ok else 1)\n"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
        env["DISPLAY"] = display
        png.parent.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(
            [sys.executable, "-c", code, str(png)], env=env, capture_output=True, text=True
        )
        if out.returncode != 0:
            self.fail(f"no screenshot: {out.stderr.strip()[-300:]}")
        else:
            say(f"    screenshot: {png}")

    # 5 --------------------------------------------------------------------------------
    def uninstall(self) -> None:
        say("== uninstall.exe /S")
        where = self.installed()
        uninstaller = where / "uninstall.exe"
        if not uninstaller.is_file():
            self.fail("no uninstaller to run")
            return
        # _?= runs it in place (otherwise it copies itself to TEMP and returns at once)
        out = self.wine(str(uninstaller), "/S", f"_?={self.windows_install_dir()}")
        if out.returncode != 0:
            self.fail(f"the uninstaller exited {out.returncode}")
        deadline = time.monotonic() + 120  # Wine may hand back before the last file is gone
        while where.exists() and time.monotonic() < deadline:
            time.sleep(2)
        if where.exists():
            left = sorted(str(p.relative_to(where)) for p in where.rglob("*"))
            self.fail(f"the install folder is still there: {left[:5]}")
        if self.start_menu_entry().exists():
            self.fail("the Start-menu entry is still there")
        for ext, (progid, _) in FILE_TYPES.items():
            for key in (f"HKCU\\Software\\Classes\\{ext}", f"HKCU\\Software\\Classes\\{progid}"):
                if self.reg(key) is not None:
                    self.fail(f"{key} is still registered")
        if self.reg("HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\TaskPackDesk"):
            self.fail("the Installed-apps entry is still there")
        path = self.reg("HKCU\\Environment", "Path") or ""
        if INSTALL_NAME.lower() in path.lower():
            self.fail(f"the user's PATH still names the desk: {path!r}")

    def run(self) -> int:
        if not (APP / "taskpack-desk.exe").is_file() or not installer().is_file():
            raise SystemExit("package-windows: nothing built yet: run winbuild.py build first")
        size = size_mib(APP)
        say(
            f"== size: {APP.relative_to(ROOT)} {size:.1f} MiB unpacked, installer "
            f"{installer().stat().st_size / 2**20:.1f} MiB"
        )
        if size > LIMIT_MIB:
            self.fail(f"{APP.name} is {size:.1f} MiB unpacked, over {LIMIT_MIB} MiB")
        self.start_display()
        self.start_wineserver()
        try:
            self.smoke()
            self.cli()
            self.install()
            if self.installed().is_dir():
                self.open_the_windows_way()
            self.uninstall()
        finally:
            self.stop_wineserver()
            self.stop_display()
            shutil.rmtree(self.tmp, ignore_errors=True)
        if self.failures:
            say(f"package-windows check FAILED: {len(self.failures)} problem(s)")
            return 1
        say("package-windows check passed")
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="winbuild.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build", "check"])
    parser.add_argument("--prefix", type=Path, default=winenv.DEFAULT_PREFIX)
    parser.add_argument("--screenshot", type=Path, help="save the landing review's screen here")
    opts = parser.parse_args(argv)
    layout = winenv.Layout(opts.prefix)
    if opts.command == "build":
        return build(layout)
    return Check(layout, opts.screenshot).run()


if __name__ == "__main__":
    sys.exit(main())
