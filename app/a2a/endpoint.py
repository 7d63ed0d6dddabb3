"""The endpoint as a desktop app holds it: start, restart or stop on demand, and say why
it did not start — without Qt (the window only presents what this reports).

    endpoint = A2AEndpoint(desk)
    url = endpoint.apply(("127.0.0.1", 8788))   # blocks 100-200 ms: call it off the GUI thread
    endpoint.apply(None)                         # stop
    state = EndpointState("failed", error=exc, want=("127.0.0.1", 8788))
    start_failure(exc)                           # "in-use" | "no-such-address" | "not-permitted" | "other"
"""

from __future__ import annotations

import errno
import socket
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from taskpack.app.a2a.serve import A2AServer
    from taskpack.app.desk import Desk

EndpointKind = Literal["off", "starting", "stopping", "serving", "failed"]
Failure = Literal["in-use", "no-such-address", "not-permitted", "other"]


@dataclass(frozen=True)
class EndpointState:
    """What the endpoint is doing, as the window shows it."""

    kind: EndpointKind = "off"
    url: str | None = None  # while serving
    error: BaseException | None = None  # why it failed
    want: tuple[str, int] | None = None  # (host, port) asked for


def start_failure(exc: BaseException) -> Failure:
    """Why `A2AServer.start` failed, by the errno (or on Windows the WSA code)."""
    codes = {getattr(exc, "errno", None), getattr(exc, "winerror", None)}
    if isinstance(exc, OSError) and codes & {errno.EADDRINUSE, 10048}:  # WSAEADDRINUSE
        return "in-use"
    if isinstance(exc, socket.gaierror) or (
        isinstance(exc, OSError) and codes & {errno.EADDRNOTAVAIL, 10049}  # WSAEADDRNOTAVAIL
    ):
        return "no-such-address"
    if isinstance(exc, PermissionError) or (
        isinstance(exc, OSError) and codes & {errno.EACCES, 10013}  # WSAEACCES
    ):
        return "not-permitted"
    return "other"


class A2AEndpoint:
    """This desk's A2A server as the app last asked for it.

    `apply` blocks while uvicorn starts or stops (100–200 ms, more on the first start,
    which imports the server): call it on a worker thread, one call at a time, and once
    more when the app closes. The lock keeps that last call after any other.
    """

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.server: A2AServer | None = None  # while serving
        self.config: tuple[str, int] | None = None
        self._lock = threading.Lock()

    def apply(self, want: tuple[str, int] | None) -> str | None:
        """Serve on `want` (host, port), or stop when it is None; the URL served, or None.

        Raises what `A2AServer.start` raises: OSError when the port is taken or the
        host is not an address of this machine (:func:`start_failure` says which).
        """
        with self._lock:
            if self.server is not None and (want != self.config or not self.server.running):
                server, self.server, self.config = self.server, None, None
                server.stop()
            if want is None:
                return None
            if self.server is None:
                from taskpack.app.a2a.serve import A2AServer

                started = A2AServer(self.desk, *want)
                try:
                    started.start()
                except BaseException:
                    started.stop()  # whatever it opened before failing
                    raise
                self.server, self.config = started, want
            return str(self.server.url)
