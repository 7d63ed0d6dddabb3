"""The A2A endpoint as the window shows it: started, restarted or stopped off the GUI thread
when Settings say so; the status bar says whether it is serving, and why not.
"""

from __future__ import annotations

import logging
from typing import Any

from taskpack.app.a2a.endpoint import EndpointState, start_failure
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import sentence
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


class A2APanelMixin:
    """The endpoint and its status-bar line (part of `MainWindow`)."""

    def apply_a2a(self) -> None:
        """Start, restart or stop the endpoint as the settings say, off the GUI thread."""
        if getattr(self, "_closed", False):
            return
        if self._a2a_busy:
            self._a2a_again = True  # the settings changed while it started or stopped
            return
        want = a2a_wanted(self.desk.settings)
        if want is None and self.a2a.server is None:
            self._a2a_state = EndpointState()
            self._update_a2a()
            return
        self._a2a_busy = True
        self._a2a_again = False
        self._a2a_state = EndpointState("starting" if want else "stopping", want=want)
        self._update_a2a()
        endpoint = self.a2a

        def work(
            _progress: Any, _cancelled: Any
        ) -> tuple[tuple[str, int] | None, str | None, BaseException | None]:
            try:
                return want, endpoint.apply(want), None
            except Exception as exc:  # shown as one sentence, in the GUI thread
                log.info("the A2A endpoint did not start on %s: %r", want, exc)
                return want, None, exc

        self.jobs.run(
            work,
            title=tr("Starting the A2A endpoint…") if want else tr("Stopping the A2A endpoint…"),
            on_done=self._a2a_applied,
            on_error=self._a2a_error,
            show_progress=False,
            cancellable=False,
        )

    def _a2a_applied(
        self, result: tuple[tuple[str, int] | None, str | None, BaseException | None]
    ) -> None:
        want, url, exc = result
        self._a2a_busy = False
        if self._a2a_again or want != a2a_wanted(self.desk.settings):
            self.apply_a2a()  # the latest settings win
            return
        if exc is not None and want is not None:
            self._a2a_state = EndpointState("failed", error=exc, want=want)
            self.error(a2a_failure(exc, *want))
        elif url:
            self._a2a_state = EndpointState("serving", url=url, want=want)
        else:
            self._a2a_state = EndpointState()
        self._update_a2a()

    def _a2a_error(self, message: str) -> None:
        self._a2a_busy = False
        self._a2a_state = EndpointState(
            "failed", error=RuntimeError(message), want=a2a_wanted(self.desk.settings)
        )
        self._update_a2a()

    def _update_a2a(self) -> None:
        state = self._a2a_state
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
        self.a2a_label.setText(text)
        self.a2a_label.setToolTip(plain_tip(text))

    def a2a_status(self) -> str:
        """What the status bar says about the A2A endpoint."""
        return str(self.a2a_label.text())
