"""`taskpack watch DIR…`: the desk's folder watcher, headless.

Prints one line (or one JSON object per line with ``--json``) for every pack that
arrives in the folders and is stable and readable, and one line on stderr for a file
that has a pack's name but does not open. Nothing is landed: a person (or the agent
reading this output) decides what to do with each file.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, StopSignals, json_line, warn
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:  # imported when the verb runs: other verbs start without it
    from taskpack.app.watcher import FoundPack


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "watch",
        help="watch folders for incoming packs and print each one (lands nothing)",
        description="Watch folders (default: Downloads and the chat apps' download "
        "folders that exist) for .taskpack, .taskpack.json and .tpx files. A file is "
        "reported once it is complete (renamed into place or closed by its writer, else "
        "once its size and time have settled) and it opens as a pack; temporary "
        "names (.part, .crdownload, .tmp, .download) are ignored until renamed. Removable "
        "drives mounted while it runs are scanned once at their top level. Nothing is "
        "landed or run. Stop with Ctrl-C.",
    )
    p.add_argument("folders", nargs="*", metavar="DIR", help="folders to watch")
    p.add_argument("--once", action="store_true", help="scan the folders once and exit")
    p.add_argument("--json", action="store_true", help="print one JSON object per line")
    p.add_argument(
        "--settle",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="how long a file still being written must stay unchanged before it is read "
        "(default 1)",
    )
    p.add_argument("--no-drives", action="store_true", help="do not scan newly mounted drives")
    p.set_defaults(handler=cmd_watch)


def _line(found: FoundPack, as_json: bool) -> str:
    """One line per pack found; every part of it came from the pack or its file name."""
    if as_json:
        return json_line({"event": "found", **found.to_data()})
    asks = f", {found.open_asks} open ask(s)" if found.open_asks else ""
    return (
        f"{visible(found.path)}\t{visible(found.kind)} from «{visible(found.sender)}»: "
        f"«{visible(found.title)}»{asks}"
    )


def cmd_watch(args: argparse.Namespace) -> int:
    from taskpack.app.watcher import FolderWatcher, default_folders

    folders = [Path(f).expanduser() for f in args.folders] or default_folders()
    missing = [f for f in folders if not f.is_dir()]
    if args.folders and missing:
        warn(f"not a folder: {missing[0]}. Check the path and try again.")
        return EXIT_ERROR
    folders = [f for f in folders if f.is_dir()]
    lock = threading.Lock()

    def found(item: FoundPack) -> None:
        with lock:
            sys.stdout.write(_line(item, args.json) + "\n")
            sys.stdout.flush()

    def rejected(path: Path, why: str) -> None:
        with lock:
            if args.json:
                event = {"event": "rejected", "path": str(path), "error": why}
                sys.stdout.write(json_line(event) + "\n")
                sys.stdout.flush()
            else:
                warn(f"{visible(path)}: {why}")

    def trouble(sentence: str) -> None:
        with lock:
            if args.json:
                sys.stdout.write(json_line({"event": "restarted", "error": sentence}) + "\n")
                sys.stdout.flush()
            else:
                warn(sentence)

    watcher = FolderWatcher(
        folders,
        found,
        rejected,
        settle=max(args.settle, 0.0),
        mount_roots=[] if (args.once or args.no_drives) else None,
        on_trouble=trouble,
    )
    if args.once:
        watcher.scan_once()
        return EXIT_OK
    with StopSignals() as signals:
        watcher.start()
        if not args.json:
            live = watcher.live_folders
            if live:
                warn("watching " + ", ".join(str(f) for f in live) + " (Ctrl-C to stop)")
            rescanned = [f for f in watcher.folders if f not in live]
            if rescanned:
                every = f"{watcher.rescan_every:g}"
                warn(
                    f"checking {', '.join(str(f) for f in rescanned)} every {every} s: no "
                    "change events reach this desk from there (Ctrl-C to stop)"
                )
        try:
            signals.wait()
        finally:
            watcher.stop()
    return EXIT_OK
