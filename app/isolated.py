"""Run one desk action in a helper process, so the caller's process stays responsive.

A window's worker thread shares the interpreter lock with the GUI thread. Reviewing or
landing a pack with 100,000 asks, or a 10 MB note, is seconds of core work made of long
single calls that hold that lock (``json.loads`` of a 16 MB value, validating the asks,
and the cyclic garbage collector walking the hundreds of thousands of objects they
become): the GUI thread stalls for hundreds of milliseconds at a time, whatever the
switch interval. Run in a child process instead, that work holds another interpreter's
lock; this process only waits on a pipe.

    result = isolated.call(desk, some_module.function, path, progress=p, cancel=c)

runs ``function(desk_there, path, progress, cancelled)`` in a fresh (spawned) process on
a desk opened on the same home, machine, actor and settings, and returns its result
(pickled back: the function should return something compact, e.g. asks as
:class:`~taskpack.core.format.record_pages.AskPages`). ``progress(done, total)`` is forwarded (at most
every 50 ms), ``cancel()`` is polled: the child is told and, if it does not stop within
a few seconds, ended. An error raised there is raised here with the same class, code,
params and sentence. The store is SQLite in WAL mode, safe for two processes; the
caller's desk is told what a helper changed there (:meth:`Desk.report_changes`).

:func:`pack_is_large` and ``Desk.passport_size`` tell when it is worth it: a helper
process costs ~0.5 s to start, so ordinary packs stay on the worker thread.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar, TypeVarTuple, cast

from taskpack.core.errors import Cancelled, TaskPackError
from taskpack.core.progress import CancelCheck, Progress

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from taskpack.app.desk import Desk

#: a pack object (or stored passport) of more JSON bytes than this is handled in a helper
#: process: ~2,000 asks. Tests lower it to send small packs through the helper.
LARGE_BYTES = 1 << 20
#: progress is sent from the child at most this often (seconds)
PROGRESS_EVERY = 0.05
#: the helper runs at this lower priority (os.nice): it is background work for a person
NICE = 10
#: after cancel, how long the child may take to stop before it is ended
CANCEL_GRACE = 5.0


def pack_is_large(path: Path | str | BinaryIO) -> bool:
    """The pack object in this file is over `LARGE_BYTES` (a flat pack: the file is).

    `path` may be the file already open (binary, seekable): it is answered from that
    descriptor, which is left at its start, so the caller reads the pack from the same one.
    The zip's directory is read with the reader's own limits (`SafeZip`: entry count and
    directory size checked before anything is built), never with a bare `zipfile`, whose
    directory of a hostile file could cost gigabytes before this even answers.
    """
    if isinstance(path, (str, os.PathLike)):
        try:
            with open(path, "rb") as opened:
                return pack_is_large(opened)
        except OSError:
            return False  # the reader on the worker thread says what is wrong with it
    from taskpack.core.format.zip_archive import SafeZip

    f = path
    try:
        size = os.fstat(f.fileno()).st_size
        if size <= LARGE_BYTES:
            return False
        f.seek(0)
        if f.read(2) != b"PK":
            return True  # a flat pack (or not a pack: the reader on the worker thread says so)
        z = SafeZip(f, size)
        try:
            return (
                sum(i.file_size for i in z.infos if i.filename.endswith("passport.json"))
                > LARGE_BYTES
            )
        finally:
            z.close()
    except (OSError, TaskPackError, ValueError):
        return False  # the reader on the worker thread says what is wrong with it
    finally:
        with contextlib.suppress(OSError, ValueError):
            f.seek(0)


@contextlib.contextmanager
def opened(path: Path | str) -> Iterator[BinaryIO | None]:
    """The pack file at `path`, opened once for a whole action: whether it is large
    (:func:`pack_is_large`) and its reading — here, or in a helper (:func:`handed`) —
    then use this one descriptor. None when it is not a regular file that opens (a named
    pipe is not waited on): the reader, given the path, then says what is wrong."""
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        yield None
        return
    with os.fdopen(fd, "rb") as f:
        yield f if stat.S_ISREG(os.fstat(fd).st_mode) else None


class Handed:
    """An open file handed to a helper process: the helper reads the caller's open file
    (no second open of the path). Give it to :func:`call` among the arguments; the
    function there receives the descriptor as an int (its own copy, to close).

    Only where a spawned process can inherit a descriptor (POSIX): see :func:`handed`."""

    def __init__(self, f: BinaryIO) -> None:
        self._fd = f.fileno()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        from multiprocessing.reduction import DupFd

        # pickled as the helper is spawned: the descriptor is passed to the new process
        return (_detach, (DupFd(self._fd),))


def _detach(dup: Any) -> int:
    return int(dup.detach())


def handed(f: BinaryIO | None) -> Handed | None:
    """`f`, to hand a helper process (:class:`Handed`); None when it cannot be handed
    over (no file, or not POSIX: the helper then opens the path itself)."""
    if f is None or os.name != "posix":
        return None
    return Handed(f)


@dataclass(frozen=True)
class _DeskSpec:
    home: Path
    machine: str
    actor: str
    harness: str
    settings: Any
    repairs: bool

    @classmethod
    def of(cls, desk: Desk) -> _DeskSpec:
        return cls(
            desk.home,
            desk.machine,
            desk.actor,
            desk.harness,
            desk.settings,
            desk.repair is not None,
        )

    def open(self) -> Desk:
        from taskpack.app.desk import Desk

        desk = Desk(
            self.home, self.machine, actor=self.actor, settings=self.settings, harness=self.harness
        )
        if not self.repairs:
            desk.repair = None
        return desk


def _pickled_error(exc: BaseException) -> bytes:
    """An exception as (class, args, attributes): rebuilt without calling its __init__,
    whose signature differs between error classes."""
    state = {k: v for k, v in vars(exc).items()}
    try:
        return pickle.dumps((type(exc), exc.args, state))
    except Exception:  # an attribute that does not pickle: keep the sentence
        return pickle.dumps((RuntimeError, (str(exc),), {}))


def _error_from(blob: bytes) -> BaseException:
    cls, args, state = pickle.loads(blob)
    exc: BaseException = cls.__new__(cls)
    BaseException.__init__(exc, *args)
    exc.__dict__.update(state)
    return exc


#: glibc's mallopt parameter: blocks at least this large are their own mappings
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 1 << 20


def steady_malloc() -> None:
    """Large blocks (≥ 1 MiB) get mappings of their own, returned to the system when freed.

    glibc raises its mmap threshold each time such a block is freed (up to 32 MiB), after
    which a job's 17 MB JSON texts come from the heap, which fragments and is not given
    back: a 100,000-ask landing then peaks ~110 MB higher than what it holds (measured:
    523 → 449 MB landing without a review, 354 → 313 MB from a held one). Setting the
    threshold fixes it where it is. Anywhere but glibc this does nothing."""
    with contextlib.suppress(Exception):  # no glibc (macOS, Windows, musl): nothing to tune
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        if hasattr(libc, "mallopt"):
            libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def _child(
    conn: Connection,
    cancel_flag: Any,
    spec: _DeskSpec,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
) -> None:
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or (total and done >= total):
            last[0] = now
            conn.send(("progress", done, total))

    with contextlib.suppress(AttributeError, OSError):  # POSIX: the window's process goes first
        os.nice(NICE)  # (on 2 busy cores the helper would otherwise take the GUI thread's turns)
    steady_malloc()
    # one job, then the process ends: its garbage is freed by reference counting, and the
    # cyclic collector's walks over the hundreds of thousands of objects 100,000 asks become
    # would cost a third of a landing's time (whatever cycles remain go when it exits)
    gc.disable()
    try:
        desk = spec.open()
        try:
            result = fn(desk, *args, progress, cancel_flag.is_set)
        finally:
            desk.close()
        conn.send_bytes(b"ok" + pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException as exc:  # every error goes back to the caller
        conn.send_bytes(b"er" + _pickled_error(exc))
    finally:
        conn.close()


T = TypeVar("T")
Args = TypeVarTuple("Args")

_context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt threads
_start_lock = threading.Lock()


def call(
    desk: Desk,
    fn: Callable[[Desk, *Args, Progress, CancelCheck], T],
    *args: *Args,
    progress: Progress,
    cancel: CancelCheck,
) -> T:
    """``fn(desk_there, *args, progress, cancelled)`` in a helper process; see the module."""
    ours, theirs = _context.Pipe(duplex=False)
    flag = _context.Event()
    child = _context.Process(
        target=_child,
        args=(theirs, flag, _DeskSpec.of(desk), fn, args),
        name="taskpack-helper",
        daemon=True,
    )
    with _start_lock:  # spawn is not safe to start from two threads at once
        child.start()
    theirs.close()
    asked_to_stop: float | None = None
    try:
        while True:
            if asked_to_stop is None and cancel():
                flag.set()
                asked_to_stop = time.monotonic()
            if asked_to_stop is not None and time.monotonic() - asked_to_stop > CANCEL_GRACE:
                raise Cancelled()
            if not ours.poll(0.05):
                if not child.is_alive() and not ours.poll(0):
                    raise RuntimeError(f"the helper process stopped (exit code {child.exitcode})")
                continue
            try:
                message = ours.recv_bytes()
            except EOFError:
                raise RuntimeError(
                    f"the helper process stopped (exit code {child.exitcode})"
                ) from None
            if message[:2] == b"ok":  # (a view: a large result is not copied once more)
                # what `fn` returned, pickled there (pickle's own type says nothing)
                return cast(T, pickle.loads(memoryview(message)[2:]))
            if message[:2] == b"er":
                raise _error_from(message[2:])
            _, done, total = pickle.loads(message)
            progress(done, total)
    finally:
        ours.close()
        child.join(timeout=CANCEL_GRACE)
        if child.is_alive():
            child.terminate()
            child.join(timeout=CANCEL_GRACE)
