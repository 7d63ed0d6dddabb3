"""More than one server process for one desk (``taskpack serve --processes N``, POSIX).

One interpreter runs one thing at a time: eight senders at once wait for each other's
landing. With N processes, the first binds the address and serves; it starts N - 1 more
(``python -m taskpack.app.a2a.server_processes``), each serving the same desk from its
own interpreter, and deals the connections it accepts out to all of them in turn, itself
included (:mod:`.dealing`: each handed over a UNIX socket the two share).

What several processes on one desk share is the store, the ledger (``a2a.sqlite3``:
tokens, tasks, the idempotency record, receipts) and the files beside them; both
databases are made for several processes (the CLI and the window use them at once), and
a pack landed by two processes at once is one passport. What stays with the first
process: packing receipts (one packer, so a receipt is packed once); the others wake
their streams from the ledger's receipts and the store's poll (:mod:`.hub`).

    workers, channels = start_workers(desk, count=1, options={...})  # each says when it serves
    stop_workers(workers)                                           # ends them, then waits
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.core.errors import TaskPackError, UsageError

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

READY = "serving"

#: what to do when another process does not start
DID_NOT_START = "Its messages are above; serve with one process (leave out --processes) meanwhile."


def check_platform() -> None:
    """UsageError where more than one process cannot share the listening socket."""
    if os.name != "posix":
        raise UsageError(
            "more than one server process needs Linux or macOS",
            hint="Serve with one process (leave out --processes).",
        )
    if getattr(sys, "frozen", False):
        raise UsageError(
            "more than one server process needs TaskPack Desk installed from Python",
            hint="Serve with one process (leave out --processes), or install it with pip.",
        )


def start_workers(
    desk: Desk,
    *,
    count: int,
    options: dict[str, Any],
    timeout: float = 30.0,
) -> tuple[list[subprocess.Popen[str]], list[socket.socket]]:
    """`count` more processes serving `desk` as `options` say, and the channel to each (the
    connections it is to serve are handed over it); returns once each serves (or raises
    TaskPackError, having ended those it started)."""
    workers: list[subprocess.Popen[str]] = []
    channels: list[socket.socket] = []
    try:
        for _ in range(count):
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            channels.append(ours)
            try:
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "taskpack.app.a2a.server_processes",
                        str(theirs.fileno()),
                    ],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    pass_fds=(theirs.fileno(),),
                )
            finally:
                theirs.close()  # (the other process has its own descriptor of it)
            workers.append(proc)
            assert proc.stdin is not None
            desk_of = {"home": str(desk.home), "machine": desk.machine, "actor": desk.actor}
            with contextlib.suppress(BrokenPipeError):  # it ended at once: said just below
                proc.stdin.write(json.dumps({"desk": desk_of, "options": options}) + "\n")
                proc.stdin.flush()
        for proc in workers:
            _wait_ready(proc, timeout)
    except BaseException:
        stop_workers(workers)
        for channel in channels:
            channel.close()
        raise
    return workers, channels


def _wait_ready(proc: subprocess.Popen[str], timeout: float) -> None:
    line: list[str] = []
    assert proc.stdout is not None
    out = proc.stdout
    reader = threading.Thread(target=lambda: line.append(out.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not line or line[0].strip() != READY:
        try:
            status: int | None = proc.wait(1)
        except subprocess.TimeoutExpired:
            status = None
        raise TaskPackError(
            "another server process did not start"
            + (f" (exit status {status})" if status is not None else " in time"),
            hint=DID_NOT_START,
            code="a2a_process_did_not_start",
        )


def stop_workers(workers: list[subprocess.Popen[str]], timeout: float = 10.0) -> None:
    """Ask each to stop (its standard input closes), then wait; kill one that lingers."""
    for proc in workers:
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
    for proc in workers:
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def _stop_now(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _serve(fd: int) -> int:
    """A worker: read what to serve from stdin, serve the connections handed over the
    channel `fd` until stdin closes."""
    from taskpack.app.a2a.handler import Limits
    from taskpack.app.a2a.serve import A2AServer, settle_heap
    from taskpack.app.desk import Desk

    # Ctrl+C reaches the whole process group: the first process stops this one; a service
    # manager's SIGTERM stops it cleanly
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_now)
    told = json.loads(sys.stdin.readline())
    where, options = told["desk"], told["options"]
    desk = Desk(Path(where["home"]), where["machine"], actor=where["actor"])
    limits = Limits(**options.pop("limits"))
    server = A2AServer(desk, limits=limits, handoff=socket.socket(fileno=fd), **options)
    try:
        server.start()
        settle_heap()
        print(READY, flush=True)
        sys.stdin.read()  # until the first process closes it (or dies)
    finally:
        server.stop()
        desk.close()
    return 0


if __name__ == "__main__":
    sys.exit(_serve(int(sys.argv[1])))
