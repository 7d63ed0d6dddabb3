"""The `taskpack` command line: the agent's interface to the desk.

Verbs live in small modules (``cli_codec``, ``cli_store``, ``cli_a2a`` …); each exposes
``register(subparsers)`` and its handlers take the parsed ``argparse.Namespace`` and
return an exit code. This module owns the plumbing every verb shares: one-line errors,
exit codes, ``--json`` output.

Exit codes:
  0  ok / conformant
  1  error: the file is broken or hostile, or the command was used wrongly
  2  not conformant, or refused by the rules (credentials, transcript, ask without accept)
  130 interrupted
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from taskpack.core.errors import EXIT_ERROR, EXIT_REFUSED, Refused, TaskPackError, sentence
from taskpack.core.format.lazy_regex import lazy
from taskpack.core.trust.visible_text import visible

EXIT_OK = 0
__all__ = ["EXIT_ERROR", "EXIT_OK", "EXIT_REFUSED", "emit_json", "json_line", "main", "say", "warn"]

#: verb modules, in the order their verbs appear in --help
VERB_MODULES = (
    "taskpack.app.cli.pack_files",
    "taskpack.app.cli.passports",
    "taskpack.app.cli.watch",
    "taskpack.app.cli.a2a",
    "taskpack.app.cli.agents",
    "taskpack.app.cli.doctor",
    "taskpack.app.cli.store",
    "taskpack.app.cli.completion",
)

#: the module that registers each verb: running a verb imports that module alone (start-up
#: is what a person waits for on every command); a verb missing here still runs, through
#: the whole parser, only slower (tests/app/cli/test_startup.py holds the two to agree)
VERB_HOMES = {
    verb: f"taskpack.app.cli.{module}"
    for module, verbs in (
        ("pack_files", "convert show verify conformance"),
        (
            "passports",
            "new list open fact decide next checkpoint ask check answer attach pack land "
            "restore move take result history settings confirm save-luggage",
        ),
        ("watch", "watch"),
        ("a2a", "serve token send fetch-receipt"),
        ("agents", "mcp outbox"),
        ("doctor", "doctor"),
        ("store", "store"),
        ("completion", "completion"),
    )
    for verb in verbs.split()
}

Handler = Callable[[argparse.Namespace], int]


def version() -> str:
    from taskpack.app import __version__

    return __version__


def json_line(value: Any, *, indent: int | None = None) -> str:
    """JSON for machines: UTF-8, no ASCII escaping, except a lone surrogate (valid in a
    pack's JSON, but not encodable as UTF-8), which is written as its escape."""
    return _LONE_SURROGATE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False, indent=indent)
    )


_LONE_SURROGATE = lazy("[\ud800-\udfff]")


def emit_json(value: Any) -> None:
    """Print data for machines: one JSON document (see `json_line`)."""
    sys.stdout.write(json_line(value, indent=2) + "\n")


def say(text: str) -> None:
    """A line for a person. Pack text in it is already quoted by the caller; whatever
    control, bidi or zero-width character still got this far is shown, not obeyed."""
    sys.stdout.write(visible(text, multiline=True) + "\n")


def warn(text: str) -> None:
    """One line on stderr; error messages quote pack values, so they are made visible too."""
    sys.stderr.write(f"taskpack: {visible(text, multiline=True)}\n")


class _VersionAction(argparse.Action):
    """--version (the version is a constant: no package metadata is read to print it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        sys.stdout.write(f"taskpack {version()}\n")
        parser.exit()


#: signals that end a long-running verb (`watch`, `serve`) cleanly (and Ctrl-Break in a
#: Windows console)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, *filter(None, [getattr(signal, "SIGBREAK", None)]))


class StopSignals:
    """Ctrl-C and SIGTERM, caught for a long-running verb from before it says it is ready.

    Both are handled explicitly, whatever this process inherited: a process started by a
    non-interactive shell's ``&`` (or any parent that ignores SIGINT) inherits SIGINT
    *ignored*, and Python then installs no KeyboardInterrupt, so such a watcher never heard
    its Ctrl-C; a parent may also hand down a mask that blocks them. Enter this before the
    "ready" line: a supervisor that signals as soon as it reads that line is heard too.
    Handlers and mask are put back on the way out. Off the main thread (a verb run
    in-process by a test) no handler can be set, and `wait` only polls.
    """

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._previous: dict[int, Any] = {}
        self._mask: set[signal.Signals] | None = None

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            self._previous = {s: signal.signal(s, self._on_signal) for s in STOP_SIGNALS}
            if hasattr(signal, "pthread_sigmask"):  # POSIX: a parent may hand down a mask
                self._mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
        for s, handler in self._previous.items():
            signal.signal(s, handler)

    def _on_signal(self, signum: int, frame: object) -> None:
        self._stop.set()

    def wait(self, still_running: Callable[[], bool] = lambda: True, *, wake: float = 0.25) -> bool:
        """Block until a stop signal (True) or until `still_running()` turns false (False).

        The main thread wakes every `wake` seconds: a signal the kernel hands to another
        thread is only acted on when the main thread next runs Python.
        """
        while not self._stop.wait(wake):
            if not still_running():
                return False
        return True


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; or, given a `verb` in `VERB_HOMES`, one that registers only that
    verb's module (it parses that verb's command line exactly as the whole one does)."""
    home = VERB_HOMES.get(verb or "")
    parser = argparse.ArgumentParser(
        prog="taskpack",
        description="Hand unfinished work between people, machines and AI agents by file "
        "(TaskPack 0.1: .taskpack and .taskpack.json). Nothing in a pack is ever executed.",
        epilog="Exit codes: 0 ok, 1 error (broken or hostile file, wrong usage), "
        "2 not conformant or refused by the rules, 130 interrupted.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True
    for name in (home,) if home else VERB_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that verb module is not part of this build
                if home:
                    return build_parser()
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from taskpack.app.platform.console import use_utf8

    use_utf8()  # ✓, → and pack titles print through a pipe on Windows too
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv == ["--version"]:  # as the whole parser answers it, without importing every verb
        sys.stdout.write(f"taskpack {version()}\n")
        return EXIT_OK
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except TaskPackError as exc:  # each class says its exit code (core/errors.py)
        from taskpack.app.cli.boundary import error_line, finding_line

        warn(error_line(exc))  # one line, whatever pack text it names quoted
        if isinstance(exc, Refused):
            for finding in exc.findings[3:]:
                warn(f"  also: {finding_line(finding)}")
        return exc.exit_code
    except KeyboardInterrupt:
        warn("interrupted; nothing was left half-written.")
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except OSError as exc:
        from pathlib import Path

        from taskpack.core.files import disk_full, is_disk_full

        if is_disk_full(exc):
            warn(str(disk_full(Path(exc.filename or "."))))
            return EXIT_ERROR
        warn(sentence(exc))
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
