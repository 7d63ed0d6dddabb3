"""The endpoint's HTTP/1.1: uvicorn's protocol, plus a deadline and a size bound for each
request's head; and the event loop it runs on.

uvicorn times out a connection only between requests (keep-alive); one that connects
and sends nothing, or trickles its headers a byte at a time, would stay open for good.
Here the head of every request (its line and headers) must be complete within
`header_timeout` of the connection opening (or of the keep-alive wait ending), else the
connection is closed; and a head of more than :data:`MAX_HEAD_BYTES` is answered 400.

uvicorn's httptools protocol (a C parser) when httptools is installed, its pure-Python
h11 protocol otherwise: the same limits either way. uvloop's event loop when installed,
asyncio's otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

#: the most bytes a request's line and headers may take (h11's own bound, kept for both)
MAX_HEAD_BYTES = 16 * 1024


def timed_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with the head deadline (httptools, else h11)."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return _timed_h11(header_timeout)
    return _timed_httptools(header_timeout)


def run_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run `main` to completion on a new event loop (uvloop's when installed)."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    try:
        import uvloop
    except ImportError:
        pass
    else:
        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main)


class _HeadDeadline:
    """The timer both protocols keep for a request's head (each says what is too slow)."""

    loop: asyncio.AbstractEventLoop
    _head_timer: asyncio.TimerHandle | None = None
    _head_too_slow: Callable[[], None]  # each protocol closes its own way

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


#: a write at least this long goes out at once (what is held first), not joined
_SEND_AT_ONCE = 64 * 1024


class CorkedTransport:
    """A connection's transport whose writes in one turn of the event loop go out as one.

    uvicorn writes a response's status line and headers, then its body, each with its own
    `write`: two sends on the socket, two segments, and a client that wakes twice (reads
    the head, then waits for the body) for every response. Here every write made before
    the event loop next turns is joined and sent at that turn (`call_soon`): a response
    answered at once goes out whole; a streamed one goes out as each event is written,
    one turn later. `close` sends what is held first; `abort` drops it, as the socket
    does. Everything else is the transport's own.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if len(data) >= _SEND_AT_ONCE:  # a large body: no copy to join it to its head
            self._send()
            self._transport.write(data)
            return
        if not self._held:
            self._loop.call_soon(self._send)
        self._held.append(bytes(data))

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def _send(self) -> None:
        held, self._held = self._held, []
        if held and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        self._send()
        self._transport.close()

    def abort(self) -> None:
        self._held = []
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:  # is_closing, get_extra_info, pause_reading …
        return getattr(self._transport, name)


def _timed_httptools(header_timeout: float) -> type[asyncio.Protocol]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class TimedHttpTools(_HeadDeadline, HttpToolsProtocol):
        #: the parser waits for a request's head (none begun, or begun and not complete)
        _awaiting_head = True
        #: bytes received towards the head awaited
        _head_bytes = 0

        def _idle(self) -> bool:
            """Waiting for a request's head, with no response owed (the last request's is
            complete: `cycle` is the newest request, even one queued behind another)."""
            return self._awaiting_head and (self.cycle is None or self.cycle.response_complete)

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self._idle() and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            corked = CorkedTransport(transport, self.loop)
            super().connection_made(corked)  # type: ignore[arg-type]
            self._arm(header_timeout)

        def data_received(self, data: bytes) -> None:
            if self._awaiting_head:
                self._head_bytes += len(data)
            super().data_received(data)
            if (
                self._awaiting_head
                and self._head_bytes > MAX_HEAD_BYTES
                and not self.transport.is_closing()
            ):
                if not self._idle():  # a response is being written: no room for a 400
                    self.transport.close()
                    return
                msg = "Invalid HTTP request received."
                self.logger.warning(msg)
                self.send_400_response(msg)

        def on_headers_complete(self) -> None:
            self._awaiting_head = False
            self._head_bytes = 0
            self._disarm()  # the head arrived
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._awaiting_head = True

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._idle():
                self._arm(self.timeout_keep_alive + header_timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedHttpTools


def _timed_h11(header_timeout: float) -> type[asyncio.Protocol]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11(_HeadDeadline, H11Protocol):
        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                with contextlib.suppress(h11.LocalProtocolError):
                    self.conn.send(h11.ConnectionClosed())
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            corked = CorkedTransport(transport, self.loop)
            super().connection_made(corked)  # type: ignore[arg-type]
            self._arm(header_timeout)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()  # the head arrived

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm(self.timeout_keep_alive + header_timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedH11
