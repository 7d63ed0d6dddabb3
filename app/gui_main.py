"""`taskpack-desk [FILE…]`: the desktop window.

Files given on the command line are opened for review (a file manager's double-click
lands here). If a desk for the same home folder is already running, the files are
handed to it and this process exits. This is the only `app` module that imports the
Qt layer, and it does so only after parsing the arguments (so `--help` stays instant).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="taskpack-desk",
        description="TaskPack Desk: review, land and answer packs of work handed to you by "
        "file. Nothing in a pack is ever run.",
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help=".taskpack / .taskpack.json / .tpx files to open"
    )
    parser.add_argument(
        "--new-instance",
        action="store_true",
        help="open a separate window instead of handing files to a running one",
    )
    return parser.parse_args(argv)


def build(files: Sequence[Path] = ()) -> tuple[Any, Any]:
    """The QApplication and the main window, not shown, no event loop: for --smoke-test."""
    from taskpack.app.desk import Desk
    from taskpack.ui.app import make_application
    from taskpack.ui.main_window import MainWindow

    return make_application(["taskpack-desk"]), MainWindow(Desk.open())


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen app's helper processes (app/isolated.py) start here
    from taskpack.app.platform.console import use_utf8

    use_utf8()  # the smoke test's report, through a pipe on Windows too
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--smoke-test" in argv:  # the frozen build's self-check (packaging/README.md)
        from taskpack.app.smoke import run as smoke

        return smoke(argv, build=build)
    args = parse_args(argv)
    from taskpack.app.display_check import display_problem

    problem = display_problem()  # before Qt: its own message names the wrong library
    if problem:
        print(f"taskpack-desk: {problem}", file=sys.stderr)
        return 1
    from taskpack.ui.app import run

    return run([Path(f) for f in args.files], new_instance=args.new_instance)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
