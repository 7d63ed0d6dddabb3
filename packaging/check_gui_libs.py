"""Before `make run` starts the window: are the X11 libraries Qt's xcb plugin needs here?

PySide6's wheels carry Qt but not every system library its xcb platform plugin loads.
Without libxcb-cursor0 (Qt 6.5 and later) the window does not start, and Qt's own message
("Could not load the Qt platform plugin "xcb"…") does not say what to install. This
prints the exact command for this system's package manager and exits 1; it exits 0 when
the libraries are there, when the window will not use xcb (QT_QPA_PLATFORM says another
platform, or a Wayland session), or on a system that is not Linux.

    python packaging/check_gui_libs.py          # what `make run` does first
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

#: soname → package name for (apt, dnf, pacman, zypper)
LIBRARIES: dict[str, tuple[str, str, str, str]] = {
    "libxcb-cursor.so.0": (
        "libxcb-cursor0",
        "xcb-util-cursor",
        "xcb-util-cursor",
        "libxcb-cursor0",
    ),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm", "libxcb-icccm4"),
    "libxcb-keysyms.so.1": (
        "libxcb-keysyms1",
        "xcb-util-keysyms",
        "xcb-util-keysyms",
        "libxcb-keysyms1",
    ),
    "libxkbcommon-x11.so.0": (
        "libxkbcommon-x11-0",
        "libxkbcommon-x11",
        "libxkbcommon-x11",
        "libxkbcommon-x11-0",
    ),
}
MANAGERS = (
    ("apt-get", "sudo apt-get install"),
    ("dnf", "sudo dnf install"),
    ("pacman", "sudo pacman -S"),
    ("zypper", "sudo zypper install"),
)


def uses_xcb(env: dict[str, str]) -> bool:
    platform = env.get("QT_QPA_PLATFORM", "").strip()
    if platform:
        return platform.split(":")[0].split(";")[0] == "xcb"
    return not env.get("WAYLAND_DISPLAY")  # Qt picks wayland in a Wayland session


def known_libraries() -> str:
    """`ldconfig -p`: the shared libraries the dynamic linker can find."""
    for ldconfig in ("/sbin/ldconfig", "/usr/sbin/ldconfig", shutil.which("ldconfig") or ""):
        if ldconfig and os.path.exists(ldconfig):
            try:
                return subprocess.run(
                    [ldconfig, "-p"], capture_output=True, text=True, timeout=20
                ).stdout
            except (OSError, subprocess.SubprocessError):
                break
    return ""


def missing(ldconfig_output: str) -> list[str]:
    """The sonames of `LIBRARIES` that `ldconfig -p` does not list."""
    listed = {line.split()[0] for line in ldconfig_output.splitlines()[1:] if line.strip()}
    return [so for so in LIBRARIES if so not in listed]


def install_command(sonames: list[str], which: object = shutil.which) -> str:
    for n, (tool, command) in enumerate(MANAGERS):
        if callable(which) and which(tool):
            return command + " " + " ".join(LIBRARIES[so][n] for so in sonames)
    return "install " + ", ".join(LIBRARIES[so][0] for so in sonames) + " with your package manager"


def main(env: dict[str, str] | None = None, ldconfig_output: str | None = None) -> int:
    env = dict(os.environ) if env is None else env
    if not sys.platform.startswith("linux") or not uses_xcb(env):
        return 0
    output = known_libraries() if ldconfig_output is None else ldconfig_output
    if not output:
        return 0  # cannot tell (no ldconfig): let Qt try
    absent = missing(output)
    if not absent:
        return 0
    sys.stderr.write(
        f"The desk's window needs {', '.join(LIBRARIES[so][0] for so in absent)} (X11 libraries "
        "for Qt's xcb platform plugin), which this system does not have. Install with:\n\n"
        f"    {install_command(absent)}\n\nthen run `make run` again.\n"
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
