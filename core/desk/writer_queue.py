"""Writers of one SQLite database in several processes, queued by the kernel.

SQLite makes a writer that finds the database locked sleep and try again (its busy
handler: 1, 2, 5, 10, 15 … up to 100 ms between tries), so with writers in two processes
(`taskpack serve --processes 2` on one desk) a write that waits often waits well past
the moment the other commits: the tail of every landing's latency. Before its
``BEGIN IMMEDIATE`` a writer here takes an exclusive ``flock`` on a file beside the
database (``store.sqlite3-writer``; :mod:`taskpack.core.portable.locking`), trying again every few hundred microseconds, so it
starts the moment the other one is done.

The queue orders writers; it is not what keeps them apart — SQLite's own locking still
does that. So a writer that cannot have the queue in `timeout` seconds (or on a system
or file system without file locks) goes on without it, and SQLite decides, as before.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from ..portable.locking import open_lock_file, try_lock_file, unlock_file

#: the longest pause between two tries for the queue, for its first `_QUICK_FOR` seconds of
#: waiting. A writer that finds the queue taken competes with the next writer of the
#: process that has it, which tries the moment the last one is done: with longer pauses it
#: lost that race too often, which lengthened the tail of A2A sends to `--processes 2`
#: (`benchmarks/bench_a2a.py`), at no cost in CPU a send
_QUICK_PAUSE = 0.0003
#: a writer that waits longer (another process in a long transaction) tries less often:
#: trying at the quick pace for long would cost a waiting process a noticeable part of a core
_QUICK_FOR = 0.1
_MOST_PAUSE = 0.002
#: the clock and the pause the waiting goes by (a test gives its own)
_clock, _sleep = time.monotonic, time.sleep


class WriterQueue:
    """The queue of writers to the database at `db_path` (one per connection that
    writes; its caller's own lock keeps its threads apart, so `held` may nest)."""

    def __init__(self, db_path: Path | str, *, timeout: float) -> None:
        self._path = f"{db_path}-writer"
        self._timeout = timeout
        self._fd: int | None = None
        self._depth = 0
        self._usable = str(db_path) != ":memory:"

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """This writer's turn: wait (up to `timeout`) until no other process writes."""
        self._depth += 1
        got = self._depth == 1 and self._take()
        try:
            yield
        finally:
            self._depth -= 1
            if got:
                assert self._fd is not None
                unlock_file(self._fd)

    def _take(self) -> bool:
        if not self._usable:
            return False
        try:
            if self._fd is None:
                self._fd = open_lock_file(self._path)
            start = _clock()
            deadline, patient = start + self._timeout, start + _QUICK_FOR
            pause = 0.0002
            while True:
                if try_lock_file(self._fd):
                    return True
                now = _clock()
                if now >= deadline:
                    return False
                _sleep(pause)
                pause = min(pause * 2, _QUICK_PAUSE if now < patient else _MOST_PAUSE)
        except OSError:  # no flock here (a network file system): SQLite's lock alone
            self._usable = False
            return False

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
