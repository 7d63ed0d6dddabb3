"""Connections dealt out by the first process (``taskpack serve --processes N``).

The kernel's own way to share a port (SO_REUSEPORT) hashes each connection to one of the
processes: eight kept-alive senders over two processes split four and four only about a
quarter of the time, and seven and one now and then, when one process does nearly all the
work while the other idles (`benchmarks/bench_a2a.py` shows such runs' median far above
even ones'). A socket all the processes accept on is worse: connections that
arrive together go to whichever wakes first. So the first process accepts every
connection and deals them out in turn, itself included, handing each to another process
over a UNIX socket (its descriptor, SCM_RIGHTS); that process serves it as if it had
accepted it. A process that can no longer be reached is dealt no more connections; one
whose channel is full is skipped for that connection.

    dealer = Dealer(loop, listening, serve_here)   # in the first process's event loop
    dealer.add(channel)                            # once another process serves
    Taker(loop, channel, serve_here)               # in that process's event loop
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: what is sent with each descriptor (a message with no byte carries no descriptor)
_TOKEN = b"c"
#: accept errors that say "not now" (out of descriptors or memory): try again in a second,
#: as asyncio's own accept loop does, rather than spin on a socket that stays readable
_NOT_NOW = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def serve_accepted(server: Any, loop: asyncio.AbstractEventLoop) -> Callable[[socket.socket], None]:
    """A function that serves one accepted connection with `server`'s (uvicorn's) own
    protocol, limits and state: what its listening socket would have done with it."""
    config = server.config

    def protocol() -> asyncio.Protocol:
        return config.http_protocol_class(  # type: ignore[no-any-return]
            config=config,
            server_state=server.server_state,
            app_state=server.lifespan.state,
            _loop=loop,
        )

    def serve(conn: socket.socket) -> None:
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no delayed-ACK wait
        task = loop.create_task(loop.connect_accepted_socket(protocol, conn))
        task.add_done_callback(lambda done: _closed_if_failed(done, conn))

    return serve


def _closed_if_failed(done: asyncio.Future[Any], conn: socket.socket) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("a connection could not be served: %s", done.exception())
        conn.close()


class Dealer:
    """Accepts on `listening` and deals each connection to the next process in turn."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        listening: socket.socket,
        serve_here: Callable[[socket.socket], None],
    ) -> None:
        self._loop = loop
        self._listening = listening
        self._serve_here = serve_here
        self._channels: list[socket.socket | None] = [None]  # None: this process
        self._turn = 0
        self._closed = False
        listening.setblocking(False)
        loop.add_reader(listening.fileno(), self._ready)

    def add(self, channel: socket.socket) -> None:
        """Deal to the process at the other end of `channel` too (call in the loop)."""
        if self._closed:
            channel.close()
            return
        channel.setblocking(False)
        self._channels.append(channel)

    def close(self) -> None:
        """Accept no more (the connections already dealt go on being served)."""
        if self._closed:
            return
        self._closed = True
        if self._listening.fileno() >= 0:
            self._loop.remove_reader(self._listening.fileno())
        for channel in self._channels:
            if channel is not None:
                channel.close()
        self._channels = [None]

    def _ready(self) -> None:
        while True:
            try:
                conn, _addr = self._listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in _NOT_NOW:
                    log.warning("cannot accept a connection now (%s); trying again in 1 s", exc)
                    self._loop.remove_reader(self._listening.fileno())
                    self._loop.call_later(1.0, self._resume)
                else:
                    log.warning("accepting a connection failed: %s", exc)
                return
            self._deal(conn)

    def _resume(self) -> None:
        if not self._closed and self._listening.fileno() >= 0:
            self._loop.add_reader(self._listening.fileno(), self._ready)

    def _deal(self, conn: socket.socket) -> None:
        for _ in range(len(self._channels)):
            channel = self._channels[self._turn % len(self._channels)]
            self._turn += 1
            if channel is None:
                break
            try:
                socket.send_fds(channel, [_TOKEN], [conn.fileno()])
            except (BlockingIOError, InterruptedError):
                continue  # its channel is full: the next one takes this connection
            except OSError:  # that process is gone: it is dealt no more
                self._channels.remove(channel)
                channel.close()
                continue
            conn.close()  # (the other process holds its own descriptor of it now)
            return
        self._serve_here(conn)


class Taker:
    """Serves the connections the first process hands over `channel`."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        channel: socket.socket,
        serve_here: Callable[[socket.socket], None],
    ) -> None:
        self._loop = loop
        self._channel = channel
        self._serve_here = serve_here
        channel.setblocking(False)
        loop.add_reader(channel.fileno(), self._ready)

    def close(self) -> None:
        if self._channel.fileno() >= 0:
            self._loop.remove_reader(self._channel.fileno())
            self._channel.close()

    def _ready(self) -> None:
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(self._channel, 64, 64)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                log.warning("the first process's channel failed: %s", exc)
                self.close()
                return
            for fd in fds:
                self._serve_here(socket.socket(fileno=fd))
            if not data and not fds:  # the first process is gone: its stdin tells us to stop
                self.close()
                return
