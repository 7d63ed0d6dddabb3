"""The A2A endpoint as the window shows it: started, restarted or stopped off the GUI thread
when Settings say so; its label (in the status bar) says whether it is serving, and why not.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel
from taskpack.app.a2a.endpoint import A2AEndpoint, EndpointState, start_failure
from taskpack.app.desk import Desk
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import CancelCheck, JobRunner, Progress, sentence
from taskpack.ui.settings_dialog import a2a_wanted
from taskpack.ui.widgets import plain_tip

log = logging.getLogger(__name__)


def a2a_failure(exc: BaseException, host: str, port: int) -> str:
    """Why the endpoint did not start, as one sentence for the status bar."""
    why = start_failure(exc)
    if why == "in-use":
        return tr(
            "Port {port} on {host} is already in use (another desk, or “taskpack serve”?). "
            "Choose another port in Settings."
        ).format(port=port, host=host)
    if why == "no-such-address":
        return tr("{host} is not an address of this machine. Check the host in Settings.").format(
            host=host
        )
    if why == "not-permitted":
        return tr(
            "This desk may not listen on port {port}. Choose a port above 1024 in Settings."
        ).format(port=port)
    return tr("The endpoint did not start: {why}").format(why=sentence(exc))


#: what starting or stopping the endpoint came to: (host, port) wanted, its URL, or why not
Applied = tuple[tuple[str, int] | None, str | None, BaseException | None]


class A2APart(QObject):
    """The endpoint and its label."""

    failed = Signal(str)  # it did not start: one sentence for the banner

    def __init__(self, desk: Desk, jobs: JobRunner, parent: QObject) -> None:
        super().__init__(parent)
        self.desk = desk
        self.jobs = jobs
        self.endpoint = A2AEndpoint(desk)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.state = EndpointState()
        self._busy = False
        self._again = False
        self._closed = False
        self.retranslate()

    def busy(self) -> bool:
        """Starting or stopping (tests wait for this to end)."""
        return self._busy

    def apply(self) -> None:
        """Start, restart or stop the endpoint as the settings say, off the GUI thread."""
        if self._closed:
            return
        if self._busy:
            self._again = True  # the settings changed while it started or stopped
            return
        want = a2a_wanted(self.desk.settings)
        if want is None and self.endpoint.server is None:
            self.state = EndpointState()
            self.retranslate()
            return
        self._busy = True
        self._again = False
        self.state = EndpointState("starting" if want else "stopping", want=want)
        self.retranslate()
        endpoint = self.endpoint

        def work(_progress: Progress, _cancelled: CancelCheck) -> Applied:
            try:
                return want, endpoint.apply(want), None
            except Exception as exc:  # shown as one sentence, in the GUI thread
                log.info("the A2A endpoint did not start on %s: %r", want, exc)
                return want, None, exc

        self.jobs.run(
            work,
            title=tr("Starting the A2A endpoint…") if want else tr("Stopping the A2A endpoint…"),
            on_done=self._applied,
            on_error=self._error,
            show_progress=False,
            cancellable=False,
        )

    def _applied(self, result: Applied) -> None:
        want, url, exc = result
        self._busy = False
        if self._again or want != a2a_wanted(self.desk.settings):
            self.apply()  # the latest settings win
            return
        if exc is not None and want is not None:
            self.state = EndpointState("failed", error=exc, want=want)
            self.failed.emit(a2a_failure(exc, *want))
        elif url:
            self.state = EndpointState("serving", url=url, want=want)
        else:
            self.state = EndpointState()
        self.retranslate()

    def _error(self, message: str) -> None:
        self._busy = False
        self.state = EndpointState(
            "failed", error=RuntimeError(message), want=a2a_wanted(self.desk.settings)
        )
        self.retranslate()

    def retranslate(self) -> None:
        """Say the endpoint's state in the label (in the window's language)."""
        state = self.state
        kind, url, exc, want = state.kind, state.url, state.error, state.want
        if kind == "serving":
            text = tr("A2A: serving {url}").format(url=url)
        elif kind == "starting":
            text = tr("A2A: starting…")
        elif kind == "stopping":
            text = tr("A2A: stopping…")
        elif kind == "failed" and exc is not None and want is not None:
            text = tr("A2A: not serving. {why}").format(why=a2a_failure(exc, *want))
        else:
            text = tr("A2A: off")
        self.label.setText(text)
        self.label.setToolTip(plain_tip(text))

    def status(self) -> str:
        """What the status bar says about the A2A endpoint."""
        return str(self.label.text())

    def shutdown(self) -> None:
        """Stop serving (the desk closes after this)."""
        self._closed = True
        try:
            self.endpoint.apply(None)
        except Exception:  # pragma: no cover - stopping only joins a thread
            log.exception("stopping the A2A endpoint")
