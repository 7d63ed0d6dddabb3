"""A small terminal progress bar for long CLI operations.

Verbs hand a ``progress(done, total)`` callable to the core (``write_pack``,
``OpenedPack.verify``, landing …). :func:`progress_bar` makes one::

    with progress_bar("packing") as progress:
        make_pack(..., progress=progress)

A bar that reaches its total ends its line by itself, so ``progress=progress_bar("…")``
without ``with`` is fine too; ``close()`` only matters when work stops short.

The bar is drawn only for a person watching: when stdout is a terminal *and* the stream
it draws on (stderr by default, so stdout stays clean for ``--json``) is a terminal too.
Anywhere else — a pipe, a file, CI, an agent reading our output — the factory returns a
no-op with the same interface, so callers never test for a TTY themselves.
``TASKPACK_NO_PROGRESS=1`` (or ``TERM=dumb``) switches it off as well.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from types import TracebackType
from typing import Protocol, TextIO

#: redraw at most this often (seconds); the final state is always drawn
MIN_INTERVAL = 0.1


class Progress(Protocol):
    """What every progress callback offers: call it, then close it (or use ``with``)."""

    def __call__(self, done: int, total: int) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Progress: ...

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class NoProgress:
    """The progress callback for when nobody is watching: does nothing."""

    def __call__(self, done: int, total: int) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def human_bytes(n: float) -> str:
    """``1536`` → ``'1.5 KiB'``; bytes stay whole numbers."""
    units = ("B", "KiB", "MiB", "GiB", "TiB")
    i = 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{int(n)} B" if i == 0 else f"{n:.1f} {units[i]}"


class TerminalProgress:
    """A one-line bar redrawn in place with ``\\r``: label, bar, percent, bytes, rate."""

    def __init__(
        self,
        label: str,
        stream: TextIO,
        *,
        unit: str = "bytes",
        width: int | None = None,
    ) -> None:
        self.label = label
        self.stream = stream
        self.unit = unit
        self._width = width
        self._clock = time.monotonic
        self._start = self._clock()
        self._last_draw = -1.0
        self._line_open = False  # a bar is drawn and its line not yet ended
        self._finished_at = -1  # the total of the last bar drawn complete
        self._closed = False

    # -- drawing ---------------------------------------------------------------------

    def _columns(self) -> int:
        if self._width is not None:
            return self._width
        return shutil.get_terminal_size((80, 24)).columns

    def _amount(self, n: int) -> str:
        return human_bytes(n) if self.unit == "bytes" else f"{n}"

    def render(self, done: int, total: int, elapsed: float) -> str:
        """The line for this state, exactly ``columns - 1`` characters wide."""
        cols = max(self._columns() - 1, 20)
        rate = ""
        if self.unit == "bytes":  # a fixed-width field, blank until there is a fair rate
            rate = f"  {human_bytes(done / elapsed) + '/s' if elapsed > 0.5 else '':>12}"
        if total > 0:
            done = min(done, total)
            whole = self._amount(total)
            tail = f" {100 * done // total:3d}%  {self._amount(done):>{len(whole)}} / {whole}{rate}"
        else:  # unknown total: show what is done, no bar
            tail = f"  {self._amount(done)}{rate}"
        head = self.label[: max(cols // 3, 8)]
        room = cols - len(head) - len(tail) - 4
        if total > 0 and room >= 10:
            filled = room * done // total
            bar = f" [{'#' * filled}{'.' * (room - filled)}]"
        else:
            bar = ""
        return f"{head}{bar}{tail}"[:cols].ljust(cols)

    def __call__(self, done: int, total: int) -> None:
        if self._closed:
            return
        now = self._clock()
        finished = total > 0 and done >= total
        if finished and self._finished_at == total:
            return  # already drawn complete; a caller may report the end twice
        if not finished and now - self._last_draw < MIN_INTERVAL:
            return
        if not finished:
            self._finished_at = -1
        self._last_draw = now
        try:
            # a finished bar ends its line at once: callers need not close() it
            end = "\n" if finished else ""
            self.stream.write("\r" + self.render(done, total, now - self._start) + end)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: stop drawing, keep working
            self._closed = True
            return
        self._line_open = not finished
        if finished:
            self._finished_at = total

    def close(self) -> None:
        """End the line, if a bar is still on it, so the next output starts fresh."""
        if self._line_open and not self._closed:
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self._line_open = False
        self._closed = True

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _is_tty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def wanted(stream: TextIO | None = None) -> bool:
    """Is a person watching a terminal? (stdout and the drawing stream are both TTYs.)"""
    if os.environ.get("TASKPACK_NO_PROGRESS") or os.environ.get("TERM") == "dumb":
        return False
    return _is_tty(sys.stdout) and _is_tty(stream if stream is not None else sys.stderr)


def progress_bar(
    label: str, *, stream: TextIO | None = None, unit: str = "bytes"
) -> TerminalProgress | NoProgress:
    """A ``progress(done, total)`` callable: a bar on a terminal, a no-op anywhere else.

    ``unit`` is ``"bytes"`` (sizes and a rate are shown) or any other word for counts.
    """
    target = stream if stream is not None else sys.stderr
    if not wanted(target):
        return NoProgress()
    return TerminalProgress(label, target, unit=unit)


__all__ = [
    "NoProgress",
    "Progress",
    "TerminalProgress",
    "human_bytes",
    "progress_bar",
    "wanted",
]
