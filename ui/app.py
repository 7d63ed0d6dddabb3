"""Starting the desk's window: one QApplication, one window per desk home, files handed on.

`run` is what `taskpack-desk` calls (through `taskpack.app.gui_main`).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from taskpack.ui import i18n, style
from taskpack.ui.single_instance import InstanceServer, hand_off, server_name

#: set by benchmarks/bench_gui_start.py: print when the window is shown, then quit
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

    def hook(kind: type[BaseException], exc: BaseException, tb: object) -> None:
        log.error("unexpected error", exc_info=(kind, exc, tb))  # type: ignore[arg-type]
        sys.__excepthook__(kind, exc, tb)  # type: ignore[arg-type]
        error = getattr(window, "error", None)
        if callable(error):
            error(sentence(exc))

    sys.excepthook = hook


def run(files: list[Path], *, new_instance: bool = False) -> int:
    app = make_application(sys.argv[:1])
    from taskpack.app import paths

    home = paths.home()
    name = server_name(home)
    if not new_instance and hand_off(name, files):
        return 0  # a desk is already running: it has the files now
    from taskpack.app.desk import Desk
    from taskpack.core.errors import TaskPackError
    from taskpack.ui.main_window import MainWindow

    try:
        desk = Desk.open(home)
    except TaskPackError as exc:
        QMessageBox.critical(None, "TaskPack Desk", str(exc))
        return 1
    i18n.install(desk.settings.language)
    window = MainWindow(desk)
    server = InstanceServer(name, window)
    if not new_instance:
        server.listen()
    server.files_received.connect(
        lambda paths_: (
            window.open_files(paths_) if paths_ else None,
            window.showNormal(),
            window.raise_(),
            window.activateWindow(),
        )
    )
    install_excepthook(window)
    window.show()
    # crash leftovers and the daily backup, off the GUI thread
    threading.Thread(target=desk.housekeep, name="taskpack-housekeeping", daemon=True).start()
    if files:
        QTimer.singleShot(0, lambda: window.open_files(files))
    if os.environ.get(EXIT_WHEN_SHOWN):

        def shown() -> None:
            sys.stdout.write(f"shown {time.time():.6f}\n")
            sys.stdout.flush()
            window.close()
            app.quit()

        QTimer.singleShot(0, shown)
    code = app.exec()
    server.close()
    window.shutdown()
    desk.close()
    return code
