"""Before the window starts: can Qt open a window on this computer's X11 display?

Qt's X11 platform plugin (``xcb``) needs a set of system libraries that a minimal or
server install lacks. Without them Qt prints several lines that name one library, often
not the one missing, and aborts. :func:`display_problem` looks first, without Qt: it
loads each library the plugin links (as Qt would, with the same search path) and, when
one cannot load, says which, and the Debian/Ubuntu package that brings it, in one
sentence. It also says so when there is no display at all. No Qt is imported here.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: the system libraries Qt's xcb platform plugin links (``ldd libqxcb.so``, less what
#: every Linux has), and the Debian/Ubuntu package each comes in
XCB_LIBRARIES: tuple[tuple[str, str], ...] = (
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxkbcommon.so.0", "libxkbcommon0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-image.so.0", "libxcb-image0"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-randr.so.0", "libxcb-randr0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxcb-render.so.0", "libxcb-render0"),
    ("libxcb-shape.so.0", "libxcb-shape0"),
    ("libxcb-shm.so.0", "libxcb-shm0"),
    ("libxcb-sync.so.1", "libxcb-sync1"),
    ("libxcb-util.so.1", "libxcb-util1"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0"),
    ("libxcb-xkb.so.1", "libxcb-xkb1"),
    ("libxcb.so.1", "libxcb1"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libX11.so.6", "libx11-6"),
    ("libEGL.so.1", "libegl1"),
    ("libGL.so.1", "libgl1"),
    ("libfontconfig.so.1", "libfontconfig1"),
    ("libfreetype.so.6", "libfreetype6"),
    ("libdbus-1.so.3", "libdbus-1-3"),
)


def uses_xcb(env: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Will Qt start on X11 here? On Linux, when ``QT_QPA_PLATFORM`` says xcb, or says
    nothing and the session is not a Wayland one (Qt then picks xcb)."""
    if not platform.startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].strip()
    if chosen:
        return chosen == "xcb"
    return not (env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland")


def _loads(name: str) -> bool:
    """Does the library load as Qt would load it (a frozen app first from its bundle)?"""
    bundle = getattr(sys, "_MEIPASS", None)
    candidates = [str(Path(bundle) / name)] if bundle and (Path(bundle) / name).exists() else []
    for candidate in [*candidates, name]:
        try:
            ctypes.CDLL(candidate)
        except OSError:
            continue
        return True
    return False


def missing_libraries(loads: Callable[[str], bool] = _loads) -> list[tuple[str, str]]:
    """(library, package) for each library the xcb plugin needs that does not load."""
    return [(lib, package) for lib, package in XCB_LIBRARIES if not loads(lib)]


def display_problem(
    env: Mapping[str, str] | None = None, loads: Callable[[str], bool] = _loads
) -> str | None:
    """Why the window cannot open on this computer, in one sentence; None when it can
    (or when Qt will not use X11, so there is nothing to check here)."""
    env = os.environ if env is None else env
    if not uses_xcb(env):
        return None
    missing = missing_libraries(loads)
    if missing:
        libs = ", ".join(lib for lib, _ in missing)
        packages = " ".join(dict.fromkeys(package for _, package in missing))
        them = "it" if len(missing) == 1 else "them"
        return (
            f"The window cannot open: this computer lacks {libs}, which Qt needs to draw "
            f"on an X11 display; install {them} with `sudo apt install {packages}` and start "
            f"taskpack-desk again (the command line, taskpack, works without {them})."
        )
    display = env.get("DISPLAY", "")
    if not display:
        return (
            "The window cannot open: there is no X11 display (DISPLAY is not set); start "
            "taskpack-desk from a desktop session, or use the command line, taskpack."
        )
    if not connects(display):
        return (
            f"The window cannot open: no X11 display answers at DISPLAY={display}; start "
            "taskpack-desk from a desktop session, or use the command line, taskpack."
        )
    return None


def connects(display: str) -> bool:
    """Does an X server answer at `display`? (Xlib's own connect, closed again at once.)"""
    try:
        xlib = ctypes.CDLL("libX11.so.6")
    except OSError:
        return True  # not ours to say: the library check above has the final word
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    handle = xlib.XOpenDisplay(display.encode("utf-8", "replace"))
    if not handle:
        return False
    xlib.XCloseDisplay(handle)
    return True


__all__ = ["XCB_LIBRARIES", "connects", "display_problem", "missing_libraries", "uses_xcb"]
