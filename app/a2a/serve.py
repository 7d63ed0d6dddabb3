"""The desk's A2A v1.0 HTTP+JSON endpoint, startable and stoppable from any thread.

    server = A2AServer(desk, "127.0.0.1", 8788)   # port 0: any free port
    url = server.start()                          # returns once it accepts connections
    ...
    server.stop()                                 # ends streams, closes, joins the thread

What comes from a2a-sdk: the protocol types, the HTTP+JSON routes and their
parsing/serialising/SSE (``create_rest_routes``), the Agent Card route, the §11.6
error bodies. What is ours (see docs/a2a.md for why): the request handler over the
desk (:mod:`.handler`), the Agent Card (:mod:`.card`), the guard in front of every
route but the card (:mod:`.guard`: bearer → principal, A2A-Version 1.0 only, a body
size cap, the extension echo), and this module: the Starlette app and uvicorn on a
thread (:mod:`.http_protocol`: its HTTP protocol, with a deadline for each request's
head, and its event loop).

The SDK's ``/{tenant}/…`` mount is left out: this desk has no tenants, and a made-up
tenant prefix must not reach the same tasks under another name.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import socket
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from a2a.server.routes import create_agent_card_routes, create_rest_routes
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from taskpack.app.a2a import (
    BODY_TIMEOUT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    HEADER_TIMEOUT,
    KEEP_ALIVE_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_CONNECTIONS,
    errors,
)
from taskpack.app.a2a.card import CARD_MAX_AGE, build_card
from taskpack.app.a2a.dealing import Dealer, Taker, serve_accepted
from taskpack.app.a2a.guard import Guard, PrincipalContextBuilder, json_response
from taskpack.app.a2a.handler import DeskRequestHandler, Limits
from taskpack.app.a2a.http_protocol import run_loop, timed_protocol
from taskpack.app.a2a.hub import Hub
from taskpack.app.a2a.ledger import A2AStore, open_ledger
from taskpack.app.a2a.receipts import ReceiptPublisher

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

log = logging.getLogger(__name__)

#: threads for the server's blocking work (store reads, landings, receipts)
WORKER_THREADS = 16


# --- the app ------------------------------------------------------------------------------


def create_app(
    desk: Desk,
    *,
    store: A2AStore,
    public_url: Callable[[], str],
    limits: Limits | None = None,
    poll_interval: float = 1.0,
    max_body_bytes: int = MAX_BODY_BYTES,
    body_timeout: float = BODY_TIMEOUT,
    on_started: Callable[[asyncio.AbstractEventLoop, Hub], None] | None = None,
    shared: bool = False,
    receipts: bool = True,
) -> Guard:
    """The ASGI app of one desk's endpoint (wrapped in its guard). `shared`: other server
    processes serve this desk too; `receipts`: this one packs the receipts (one does)."""
    from taskpack.app.desk import harness_name

    publisher = ReceiptPublisher(desk, store)
    hub = Hub(desk, store, publisher, interval=poll_interval, shared=shared, publishes=receipts)
    handler = DeskRequestHandler(desk, store, hub, publisher, base_url=public_url, limits=limits)

    async def card_for_request(card: pb.AgentCard) -> pb.AgentCard:
        return build_card(
            public_url(), name=f"TaskPack Desk ({desk.machine})", version=harness_name()
        )

    async def download(request: Request) -> Response:
        principal = request.scope.get("taskpack.principal", "")
        found = await asyncio.to_thread(
            handler.artifact_file,
            principal,
            request.path_params["id"],
            request.path_params["artifact"],
        )
        if found is None:
            raise errors.task_not_found(request.path_params["id"])
        path, name, media = found
        return FileResponse(path, media_type=media, filename=name)

    async def not_found(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        if isinstance(exc, A2AError):
            from a2a.utils.error_handlers import build_rest_error_payload

            body = build_rest_error_payload(exc)
            return json_response(body["error"]["code"], body)
        reason = "METHOD_NOT_FOUND" if code in (404, 405) else "INVALID_REQUEST"
        status = (
            "NOT_FOUND" if code == 404 else "UNIMPLEMENTED" if code == 405 else "INVALID_ARGUMENT"
        )
        return json_response(
            code,
            errors.payload(
                code, status, reason, f"No A2A method at {request.method} {request.url.path}"
            ),
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        if on_started is not None:
            on_started(asyncio.get_running_loop(), hub)
        try:
            yield
        finally:
            hub.close()

    routes: list[BaseRoute] = list(
        create_agent_card_routes(
            build_card(public_url(), name="TaskPack Desk", version=harness_name()),
            card_modifier=card_for_request,
            cache_control=f"public, max-age={CARD_MAX_AGE}",
        )
    )
    routes += [
        r
        for r in create_rest_routes(handler, context_builder=PrincipalContextBuilder())
        if not isinstance(r, Mount)
    ]
    routes.append(Route("/tasks/{id}/artifacts/{artifact}", download, methods=["GET"]))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: not_found, A2AError: not_found},
    )
    return Guard(
        app,
        store,
        max_body_bytes=max_body_bytes,
        body_timeout=body_timeout,
        out_of_reach=lambda: _out_of_reach(desk),
    )


def _out_of_reach(desk: Desk) -> str | None:
    """Why the desk's shared store cannot be reached now: its change feed lost the server
    and is not back (a restart, a failover); None when it can, or cannot tell."""
    listener = getattr(desk.store, "listener", None)
    if listener is not None and getattr(listener, "lost", False):
        return f"{desk.store.describe()} cannot be reached now; the desk keeps trying"
    return None


def settle_heap() -> None:
    """For a process that only serves (`taskpack serve`, its other processes): what is alive
    once it serves (the modules, the app, the SDK's tables) lives as long as the process,
    so the cyclic collector stops walking it (`gc.freeze`). A full collection walked all
    of it with the GIL held, long enough that no send of the process moved meanwhile.
    What is made later is collected as before. Not for a
    process that serves on the side (the window): it would keep what it drops later."""
    gc.freeze()


class A2AServer:
    """One desk's endpoint, served by uvicorn on a background thread.

    `start()` returns the base URL once the socket accepts connections (a port of 0
    picks a free one); `stop()` ends open streams, shuts uvicorn down and joins the
    thread. Both are safe to call from any thread (the desktop app's Settings call
    them from the GUI thread; neither blocks for long).

    `processes` > 1 (POSIX): `start()` also starts that many - 1 more processes serving
    the same desk on the same address (:mod:`.server_processes`), and `stop()` ends them;
    this one accepts every connection and deals them out in turn (:mod:`.dealing`).
    `handoff` (a UNIX socket from the first), with `receipts=False`, is how such a process
    is made: it serves the connections handed to it, and leaves packing receipts to the
    first. `shared` (implied by either): other processes serve this desk too.
    """

    def __init__(
        self,
        desk: Desk,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        *,
        public_url: str | None = None,
        limits: Limits | None = None,
        poll_interval: float = 1.0,
        max_body_bytes: int = MAX_BODY_BYTES,
        header_timeout: float = HEADER_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        keep_alive_timeout: float = KEEP_ALIVE_TIMEOUT,
        log_level: str = "warning",
        processes: int = 1,
        handoff: socket.socket | None = None,
        receipts: bool = True,
        shared: bool | None = None,
    ) -> None:
        self.desk = desk
        self.host = host
        self.port = port  # the port actually bound, once started
        self._wanted_port = port
        self._public_url = public_url.rstrip("/") if public_url else None
        self.limits = limits
        self.poll_interval = poll_interval
        self.max_body_bytes = max_body_bytes
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.max_connections = max_connections
        self.keep_alive_timeout = keep_alive_timeout
        self.log_level = log_level
        self.processes = processes
        self._handoff = handoff
        self.receipts = receipts
        #: other processes serve this desk too (so its hub also looks for their work)
        self.shared = (processes > 1 or not receipts) if shared is None else shared
        self._workers: list[Any] = []
        self.store: A2AStore | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
        self._dealer: Dealer | None = None
        self._accepting = threading.Event()  # set once connections are taken
        self._error: BaseException | None = None
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        if self._public_url:
            return self._public_url
        host = self.host
        if host in ("0.0.0.0", ""):
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def worker_pids(self) -> list[int]:
        """The process ids of the other processes serving with this one (`processes`)."""
        return [w.pid for w in self._workers]

    def start(self, timeout: float = 15.0) -> str:
        import uvicorn

        with self._lock:
            if self.running:
                return self.url
            if self.processes > 1:
                from taskpack.app.a2a.server_processes import check_platform

                check_platform()
            sock = None if self._handoff is not None else self._bind()
            if sock is not None:
                self.port = sock.getsockname()[1]
            self.store = open_ledger(self.desk.home, self.desk.settings.store)
            app = create_app(
                self.desk,
                store=self.store,
                public_url=lambda: self.url,
                limits=self.limits,
                poll_interval=self.poll_interval,
                max_body_bytes=self.max_body_bytes,
                body_timeout=self.body_timeout,
                on_started=self._started,
                shared=self.shared,
                receipts=self.receipts,
            )
            config = uvicorn.Config(
                app,
                log_level=self.log_level,
                access_log=False,
                lifespan="on",
                timeout_graceful_shutdown=3,
                timeout_keep_alive=self.keep_alive_timeout,  # type: ignore[arg-type]  # float is fine
                http=timed_protocol(self.header_timeout),
                limit_concurrency=self.max_connections,
                ws="none",
                server_header=False,
            )
            self._server = uvicorn.Server(config)
            self._error = None
            self._accepting.clear()
            server = self._server
            # several processes: connections are dealt out here, not taken by uvicorn
            dealt = self.processes > 1 or self._handoff is not None

            async def serve() -> None:
                loop = asyncio.get_running_loop()
                # its own workers: a quick lookup never queues behind landings waiting
                # for the store (the default pool has only cores + 4 threads)
                loop.set_default_executor(
                    ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="taskpack-a2a-worker")
                )
                listening = [sock] if sock is not None and not dealt else []
                serving = loop.create_task(server.serve(sockets=listening))
                while not (server.started or serving.done()):
                    await asyncio.sleep(0.005)
                taker = None
                if server.started:
                    if dealt:
                        here = serve_accepted(server, loop)
                        if sock is not None:
                            self._dealer = Dealer(loop, sock, here)
                        else:
                            assert self._handoff is not None
                            taker = Taker(loop, self._handoff, here)
                    self._accepting.set()
                try:
                    await serving
                finally:
                    if self._dealer is not None:
                        self._dealer.close()
                    if taker is not None:
                        taker.close()

            def run() -> None:
                try:
                    run_loop(serve())
                except BaseException as exc:  # reported by start(), logged otherwise
                    self._error = exc
                    log.exception("the A2A server stopped with an error")
                finally:
                    if sock is not None:
                        sock.close()

            self._thread = threading.Thread(target=run, name="taskpack-a2a", daemon=True)
            self._thread.start()
        deadline = threading.Event()
        waited = 0.0
        while not self._accepting.is_set():
            if not self._thread.is_alive():
                raise RuntimeError(f"the A2A server did not start: {self._error!r}")
            deadline.wait(0.01)
            waited += 0.01
            if waited > timeout:
                self.stop()
                raise TimeoutError("the A2A server did not start in time")
        if self.processes > 1 and not self._workers:
            from taskpack.app.a2a.server_processes import start_workers

            try:
                self._workers, channels = start_workers(
                    self.desk, count=self.processes - 1, options=self._worker_options()
                )
            except BaseException:
                self.stop()
                raise
            dealer, loop = self._dealer, self._loop
            for channel in channels:  # from now on each is dealt its turn
                if dealer is not None and loop is not None:
                    loop.call_soon_threadsafe(dealer.add, channel)
        return self.url

    def _bind(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so,
        # and without it every response waits ~40 ms for a delayed ACK
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            if os.name == "posix":  # elsewhere it would let another process share the port
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self._wanted_port))
            sock.listen(512)
        except OSError:
            sock.close()
            raise
        return sock

    def _worker_options(self) -> dict[str, Any]:
        """What another process serving beside this one is told (as JSON)."""
        return {
            "public_url": self.url,
            "limits": dataclasses.asdict(self.limits or Limits()),
            "poll_interval": self.poll_interval,
            "max_body_bytes": self.max_body_bytes,
            "header_timeout": self.header_timeout,
            "body_timeout": self.body_timeout,
            "max_connections": self.max_connections,
            "keep_alive_timeout": self.keep_alive_timeout,
            "log_level": self.log_level,
            "receipts": False,
        }

    def _started(self, loop: asyncio.AbstractEventLoop, hub: Hub) -> None:
        self._loop = loop
        self._hub = hub

    def stop(self, timeout: float = 10.0) -> None:
        with self._lock:
            if self._workers:
                from taskpack.app.a2a.server_processes import stop_workers

                workers, self._workers = self._workers, []
                stop_workers(workers, timeout)
            thread, server, loop, hub = self._thread, self._server, self._loop, self._hub
            if thread is None or server is None:
                return
            if loop is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    if self._dealer is not None:  # no new connection while it shuts down
                        loop.call_soon_threadsafe(self._dealer.close)
                    if hub is not None:
                        loop.call_soon_threadsafe(hub.close)
            server.should_exit = True
            thread.join(timeout)
            self._thread = self._server = self._loop = self._hub = self._dealer = None
            if self.store is not None:
                self.store.close()
                self.store = None

    def __enter__(self) -> A2AServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
