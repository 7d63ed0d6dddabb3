"""Starting the desk's window: one QApplication, one window per desk home, files handed on.

`run` is what `taskpack-desk` calls (through `taskpack.app.gui_main`).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from taskpack.core.errors import TaskPackError
from taskpack.ui import i18n, style
from taskpack.ui.file_open import FileOpenRelay
from taskpack.ui.single_instance import InstanceServer, hand_off, server_name

if TYPE_CHECKING:  # imported where used: the frame is shown before the desk is opened
    from taskpack.app.desk import Desk
    from taskpack.app.settings import Settings
    from taskpack.ui.main_window import MainWindow
    from taskpack.ui.opening import OpeningWindow

#: set by benchmarks/bench_gui_start.py: print "shown <time>" when the frame is painted,
#: "ready <time>" when the desk's window is, then quit
EXIT_WHEN_SHOWN = "TASKPACK_DESK_EXIT_WHEN_SHOWN"


def make_application(argv: list[str]) -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(argv)
    app.setApplicationName("TaskPack Desk")
    app.setOrganizationName("taskpack")
    app.setDesktopFileName("taskpack-desk")
    style.install(app)  # Fusion, with a focus ring a person can see
    app.aboutToQuit.connect(release_clipboard)
    return app


def release_clipboard() -> None:
    """Drop clipboard data we own on the offscreen/minimal platforms before exiting.

    Their clipboard keeps a QMimeData in a global that is destroyed after Python has
    gone, which crashes the process on exit (a real desktop hands it over instead).
    """
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.platformName() in ("offscreen", "minimal"):
        QGuiApplication.clipboard().clear()  # nothing else can read it there anyway


def install_excepthook(window: object) -> None:
    """A bug in a slot shows one sentence in the window (the traceback goes to the log)."""
    import logging

    log = logging.getLogger("taskpack.ui")
    from taskpack.ui.jobs import sentence

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unexpected error", exc_info=(kind, exc, tb))
        sys.__excepthook__(kind, exc, tb)
        error = getattr(window, "error", None)
        if callable(error):
            error(sentence(exc))

    sys.excepthook = hook


def run(files: list[Path], *, new_instance: bool = False) -> int:
    """The desk's window: its frame at once, the desk opened after the frame is painted."""
    app = make_application(sys.argv[:1])
    relay = FileOpenRelay(app)  # macOS: packs opened from Finder or the Dock arrive as events
    app.installEventFilter(relay)
    from taskpack.app import paths

    home = paths.home()
    name = server_name(home)
    if not new_instance and hand_off(name, files):
        return 0  # a desk is already running: it has the files now
    from taskpack.ui.opening import GEOMETRY_KEY, OpeningWindow, after_first_paint

    settings = _settings_or_none(home)
    i18n.install(settings.language if settings is not None else None)
    frame = OpeningWindow(settings.other.get(GEOMETRY_KEY) if settings is not None else None)
    report = os.environ.get(EXIT_WHEN_SHOWN)
    opened: list[tuple[Desk, MainWindow, InstanceServer]] = []  # once the desk is open
    failed: list[BaseException] = []

    def open_desk() -> None:
        if report:
            _say("shown")
        if not frame.isVisible():
            return  # closed while it was opening
        try:
            opened.append(_open_desk(home, name, files, frame, new_instance=new_instance))
            relay.attach(opened[0][1].open_files)
        except TaskPackError as exc:
            QMessageBox.critical(frame, "TaskPack Desk", str(exc))
            app.exit(1)
            return
        except BaseException as exc:  # a bug: raised again from run(), as before the frame
            failed.append(exc)
            app.exit(1)
            return
        window = opened[0][1]
        if report:

            def ready() -> None:
                _say("ready")
                window.close()
                app.quit()

            after_first_paint(window, ready)

    after_first_paint(frame, open_desk)
    frame.show()
    code = app.exec()
    frame.close()
    if failed:
        raise failed[0]
    if not opened:
        return code
    desk, window, server = opened[0]
    server.close()
    window.shutdown()
    desk.close()
    return code


def _settings_or_none(home: Path) -> Settings | None:
    """The settings (for the language and the window's place), or None if they cannot be
    read: opening the desk reads them again and says what is wrong with them."""
    from taskpack.app.settings import Settings

    try:
        return Settings.load(home)
    except (TaskPackError, OSError, UnicodeDecodeError):
        return None


def _open_desk(
    home: Path, name: str, files: list[Path], frame: OpeningWindow, *, new_instance: bool
) -> tuple[Desk, MainWindow, InstanceServer]:
    """Open the desk and build its window in the frame's place; the frame closes."""
    from taskpack.app.desk import Desk
    from taskpack.ui.main_window import MainWindow

    desk = Desk.open(home)
    if i18n.resolve(desk.settings.language) != i18n.current():
        i18n.install(desk.settings.language)
    window = MainWindow(desk)
    window.restoreGeometry(frame.saveGeometry())  # where the person sees the frame now
    server = InstanceServer(name, window)
    if not new_instance:
        server.listen()

    def received(paths_: list[Path]) -> None:
        if paths_:
            window.open_files(paths_)
        window.showNormal()
        window.raise_()
        window.activateWindow()

    server.files_received.connect(received)
    install_excepthook(window)
    window.show()
    frame.close()  # after the window is shown: the application does not quit in between
    # crash leftovers and the daily backup, off the GUI thread
    threading.Thread(target=desk.housekeep, name="taskpack-housekeeping", daemon=True).start()
    if files:
        QTimer.singleShot(0, lambda: window.open_files(files))
    return desk, window, server


def _say(moment: str) -> None:
    sys.stdout.write(f"{moment} {time.time():.6f}\n")
    sys.stdout.flush()
