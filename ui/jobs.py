"""Every slow action runs here, off the GUI thread (the Anki "operations" habit).

    runner.run(lambda progress, cancelled: desk.land(path), title=tr("Landing…"),
               on_done=self._landed, on_error=self._show_error)

The function runs on a `QThreadPool` thread and gets two callables that the core
functions accept as they are: ``progress(done, total)`` and ``cancelled() -> bool``.
Its result, its error (as one sentence) or its cancellation comes back to the GUI
thread through queued signals. A progress dialog with a Cancel button appears when the
job takes longer than `delay_ms`; a ``total`` of 0 shows a busy bar.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QLabel, QProgressDialog, QWidget
from taskpack.core.errors import Cancelled, TaskPackError
from taskpack.ui.i18n import tr

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
CancelCheck = Callable[[], bool]
Work = Callable[[Progress, CancelCheck], object]
T = TypeVar("T")

#: progress is forwarded to the GUI at most this often (seconds)
PROGRESS_INTERVAL = 0.05


def sentence(exc: BaseException) -> str:
    """One clear sentence for a person, never a traceback."""
    if isinstance(exc, TaskPackError):
        from taskpack.ui.error_text import (
            error_sentence,  # in the window's language (code + params)
        )

        return error_sentence(exc)
    if isinstance(exc, PermissionError):
        return tr("Permission denied: {path}. Check the file's permissions.").format(
            path=exc.filename or ""
        )
    if isinstance(exc, OSError) and exc.errno in (
        errno.ENOSPC,
        getattr(errno, "EDQUOT", errno.ENOSPC),
    ):
        return tr(
            "The disk is full ({path}); nothing was written. Free some space and try again."
        ).format(path=exc.filename or "")
    if isinstance(exc, FileNotFoundError):
        return tr("The file {path} is no longer there.").format(path=exc.filename or "")
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return tr("The disk said: {error}{where}.").format(error=exc.strerror or exc, where=where)
    return tr("Something went wrong: {error}.").format(
        error=str(exc).rstrip(".") or type(exc).__name__
    )


class Job(QObject):
    """One background action. Signals arrive on the GUI thread."""

    progressed = Signal(object, object)  # done, total (Python ints: may exceed 2**31)
    succeeded = Signal(object)
    failed = Signal(str)
    was_cancelled = Signal()
    finished = Signal()

    def __init__(self, work: Work, title: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.work = work
        self.title = title
        self._cancel = threading.Event()
        self._last = 0.0
        self.result: Any = None
        self.error: str | None = None
        self.done = False

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    # -- on the worker thread --

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last >= PROGRESS_INTERVAL or (total and done >= total):
            self._last = now
            self.progressed.emit(done, total)

    def _run(self) -> None:
        try:
            result = self.work(self._progress, self.is_cancelled)
        except Cancelled:
            self.was_cancelled.emit()
        except Exception as exc:
            if not isinstance(exc, TaskPackError | OSError):
                log.exception("background job %r failed", self.title)
            self.failed.emit(sentence(exc))
        else:
            if self.is_cancelled():
                self.was_cancelled.emit()
            else:
                self.succeeded.emit(result)
        finally:
            self.finished.emit()


class _Runnable(QRunnable):
    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job
        self.setAutoDelete(True)

    def run(self) -> None:
        self.job._run()


class JobRunner(QObject):
    """Runs jobs on its own pool and shows their progress over `window`."""

    def __init__(self, window: QWidget | None = None, *, delay_ms: int = 400) -> None:
        super().__init__(window)
        self.window = window
        self.delay_ms = delay_ms
        self.pool = QThreadPool(self)
        # a long landing must not queue the small reads that keep the window current
        self.pool.setMaxThreadCount(4)
        self._active: set[Job] = set()

    def run(
        self,
        work: Callable[[Progress, CancelCheck], T],
        *,
        title: str,
        on_done: Callable[[T], None] | None = None,
        on_error: Callable[[str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        show_progress: bool = True,
        cancellable: bool = True,
    ) -> Job:
        job = Job(work, title)
        self._active.add(job)
        dialog = self._dialog(job, cancellable) if show_progress else None

        def done(result: T) -> None:
            job.result, job.done = result, True
            if on_done is not None:
                on_done(result)

        def failed(message: str) -> None:
            job.error, job.done = message, True
            if on_error is not None:
                on_error(message)

        def cancelled() -> None:
            job.done = True
            if on_cancelled is not None:
                on_cancelled()

        def finished() -> None:
            if dialog is not None:
                dialog.reset()
                dialog.hide()
                dialog.deleteLater()
            self._active.discard(job)
            job.deleteLater()

        job.succeeded.connect(done, Qt.ConnectionType.QueuedConnection)
        job.failed.connect(failed, Qt.ConnectionType.QueuedConnection)
        job.was_cancelled.connect(cancelled, Qt.ConnectionType.QueuedConnection)
        job.finished.connect(finished, Qt.ConnectionType.QueuedConnection)
        self.pool.start(_Runnable(job))
        return job

    def _dialog(self, job: Job, cancellable: bool) -> QProgressDialog:
        dialog = QProgressDialog(self.window)
        label = QLabel()  # a title may carry a file's name: shown as written, never as HTML
        label.setTextFormat(Qt.TextFormat.PlainText)
        dialog.setLabel(label)
        dialog.setWindowTitle(job.title)
        dialog.setLabelText(job.title)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setRange(0, 0)  # busy until the first progress report
        if cancellable:
            dialog.setCancelButtonText(tr("Cancel"))
            dialog.canceled.connect(job.cancel)
        else:
            dialog.setCancelButton(None)
        dialog.setMinimumDuration(self.delay_ms)
        dialog.setValue(0)

        def progressed(done: int, total: int) -> None:
            if total and total > 0:
                dialog.setRange(0, 1000)
                dialog.setValue(min(1000, int(done * 1000 / total)))
                dialog.setLabelText(f"{job.title}\n{human_size(done)} / {human_size(total)}")
            else:
                dialog.setRange(0, 0)

        job.progressed.connect(progressed, Qt.ConnectionType.QueuedConnection)
        return dialog

    # -- for tests and for closing the window --

    def idle(self) -> bool:
        return not self._active

    def cancel_all(self) -> None:
        for job in list(self._active):
            job.cancel()

    def wait(self, msecs: int = 10_000) -> bool:
        """Cancel nothing; wait for the pool's threads (used when the window closes)."""
        return self.pool.waitForDone(msecs)


def human_size(n: int) -> str:
    """1536 → '1.5 KiB' (binary units, as file managers on Linux show them)."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover
