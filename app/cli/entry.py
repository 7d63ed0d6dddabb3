"""The `taskpack` command's entry point: what runs before the command line is imported
(:mod:`.startup`'s one measure), and after the command is done.

The judge's verbs (`conformance`, `verify`) only read; once one has said its verdict
(from bytes it read and hashed itself, nothing computed ahead of it), the process leaves at once
(:func:`_leave`): its output flushed and every exit handler run, but without the
interpreter's teardown, which freed each of the modules the judge imported one by one
(a fifth of a small pack's judging).
"""

from __future__ import annotations

import sys

#: the verbs that read the pack they are given, and write nothing
_READS_ALL = frozenset({"conformance", "verify"})


def main() -> int:
    argv = sys.argv[1:]
    reads_all = len(argv) >= 2 and argv[0] in _READS_ALL
    from taskpack.app.cli.startup import defer_inspect

    defer_inspect()
    from taskpack.app.cli.main import main as run

    code = run()
    if reads_all:
        _leave(code)
    return code


def _leave(code: int) -> None:
    """End the process now with `code`, as `sys.exit` would but for the teardown: what is
    buffered is written, every `atexit` handler runs. Not while another thread that the
    interpreter would wait for still runs (then the caller exits the usual way)."""
    import atexit
    import os
    import threading

    main_thread = threading.main_thread()
    if threading.current_thread() is not main_thread or any(
        t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()
    ):
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away (`| head`), a closed stream
            code = code or 1
    os._exit(code)
