"""The desk's A2A v1.0 HTTP+JSON endpoint, startable and stoppable from any thread.

    server = A2AServer(desk, "127.0.0.1", 8788)   # port 0: any free port
    url = server.start()                          # returns once it accepts connections
    ...
    server.stop()                                 # ends streams, closes, joins the thread

What comes from a2a-sdk: the protocol types, the HTTP+JSON routes and their
parsing/serialising/SSE (``create_rest_routes``), the Agent Card route, the §11.6
error bodies. What is ours (see docs/a2a.md for why): the request handler over the
desk (:mod:`.handler`), and this module's gate in front of every route but the card —

* ``Authorization: Bearer <token>`` → principal (401 ``UNAUTHENTICATED`` otherwise);
* ``A2A-Version`` must be 1.0 (a patch level is ignored; missing means 0.3): else
  400 ``VERSION_NOT_SUPPORTED`` — stricter than the SDK, which accepts any 1.x;
* a body larger than `max_body_bytes` is refused with 413 before it is read;
* ``A2A-Extensions`` is echoed with the subset this desk supports (the TaskPack
  extension), on every response including the card.

The SDK's ``/{tenant}/…`` mount is left out: this desk has no tenants, and a made-up
tenant prefix must not reach the same tasks under another name.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from a2a.auth.user import User
from a2a.extensions.common import get_requested_extensions
from a2a.server.context import ServerCallContext
from a2a.server.routes import create_agent_card_routes, create_rest_routes
from a2a.server.routes.common import DefaultServerCallContextBuilder
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from taskpack.app.a2a import (
    BODY_TIMEOUT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    ENCODINGS,
    EXTENSION_URI,
    HEADER_TIMEOUT,
    KEEP_ALIVE_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_CONNECTIONS,
    MAX_INLINE_ATTACHMENT_BYTES,
    MEDIA_BAG,
    MEDIA_FLAT,
    PROTOCOL_VERSION,
    errors,
)
from taskpack.app.a2a.handler import DeskRequestHandler, Limits
from taskpack.app.a2a.hub import Hub
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.a2a.receipts import ReceiptPublisher
from taskpack.app.a2a.tokens import principal_for, token_hash

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

log = logging.getLogger(__name__)

CARD_PATH = "/.well-known/agent-card.json"
SUPPORTED_EXTENSIONS = frozenset({EXTENSION_URI})
VERSION_RE = re.compile(r"^1\.0(\.\d+)?$")
#: how long a client may keep the Agent Card without asking again (A2A §8.6.1)
CARD_MAX_AGE = 300
#: every JSON body of an A2A method — success or error, the SDK's or ours — is labelled
#: with the A2A media type; the Agent Card, a discovery document, is application/json
A2A_JSON = "application/a2a+json"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# --- the Agent Card -----------------------------------------------------------------------


def build_card(url: str, *, name: str, version: str) -> pb.AgentCard:
    card = pb.AgentCard(
        name=name,
        description=(
            "A TaskPack Desk: hand it unfinished work as a TaskPack (.taskpack or "
            ".taskpack.json) and it lands — sealed, idempotent, nothing executed — for a "
            "person to review. Asks come back answered in a receipt."
        ),
        version=version,
        documentation_url="https://taskpack.org",
        default_input_modes=[MEDIA_BAG, MEDIA_FLAT],
        default_output_modes=[MEDIA_BAG, MEDIA_FLAT, "application/json"],
    )
    card.supported_interfaces.add(
        url=url, protocol_binding="HTTP+JSON", protocol_version=PROTOCOL_VERSION
    )
    card.capabilities.streaming = True
    card.capabilities.push_notifications = False
    card.capabilities.extended_agent_card = False
    ext = card.capabilities.extensions.add(
        uri=EXTENSION_URI,
        description="TaskPack 0.1 (spec §5): a file part carries the pack; Task metadata "
        "carries lineage, asks and landing checks; the receipt comes back as an artifact.",
        required=False,
    )
    ext.params.update(
        {
            "encodings": list(ENCODINGS),
            "media_types": [MEDIA_BAG, MEDIA_FLAT],
            "max_inline_attachment_bytes": MAX_INLINE_ATTACHMENT_BYTES,
        }
    )
    scheme = card.security_schemes["bearer"].http_auth_security_scheme
    scheme.scheme = "bearer"
    scheme.description = "A token made on this desk with `taskpack token add NAME`"
    card.security_requirements.add().schemes["bearer"].SetInParent()
    card.skills.add(
        id="land-taskpack",
        name="Receive a TaskPack",
        description="Send one pack per message as a file part. A handoff becomes a new task "
        "(its id is the new passport id); a receipt merges into the passport that asked.",
        tags=["taskpack", "handoff", "receipt"],
        input_modes=[MEDIA_BAG, MEDIA_FLAT],
        output_modes=[MEDIA_BAG, "application/json"],
    )
    return card


# --- the gate (authentication, version, size, extension echo) ------------------------------


def _json(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(body, status_code=status, headers=headers, media_type=A2A_JSON)


def _invalid(message: str, reason: str = "INVALID_REQUEST", code: int = 400) -> Response:
    status = "DEADLINE_EXCEEDED" if code == 408 else "INVALID_ARGUMENT"
    # a request whose body never came leaves the connection in an unknown place: close it
    headers = {"Connection": "close"} if code == 408 else None
    return _json(code, errors.payload(code, status, reason, message), headers)


_STATE_NAMES = [k for k in pb.TaskState.keys() if k != "TASK_STATE_UNSPECIFIED"]  # noqa: SIM118
_TASK_STATES = frozenset(pb.TaskState.keys()) | {str(v) for v in pb.TaskState.values()}
_BOOLEANS = frozenset({"true", "false", "1", "0"})


def _query_refusal(scope: Scope) -> Response | None:
    """`GET /tasks` filters the SDK would silently ignore: an unknown state, a bad flag."""
    from urllib.parse import parse_qs

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    for value in query.get("status", []):
        if value not in _TASK_STATES:
            return _invalid(
                f"status {value[:40]!r} is not a task state (one of {', '.join(_STATE_NAMES)})",
                "INVALID_PARAMS",
            )
    for value in query.get("includeArtifacts", []):
        if value.lower() not in _BOOLEANS:
            return _invalid(
                f"includeArtifacts {value[:40]!r} is not true or false", "INVALID_PARAMS"
            )
    return None


def _http_date(stamp: float) -> str:
    from email.utils import formatdate

    return formatdate(stamp, usegmt=True)


def _not_modified_since(header: str | None, modified: float) -> bool:
    if not header:
        return False
    from email.utils import parsedate_to_datetime

    try:
        return parsedate_to_datetime(header).timestamp() >= int(modified)
    except (TypeError, ValueError, IndexError, OverflowError):
        return False


class Gate:
    """ASGI middleware in front of the A2A routes (see the module doc)."""

    #: a principal found for a token hash is trusted this long; a revoked token stops
    #: working within this many seconds (the lookup is a database read, kept off the loop)
    PRINCIPAL_TTL = 1.0
    #: bodies above this size are parsed (in memory, by the SDK) at most `BIG_AT_ONCE` at a time
    BIG_BODY = 4 << 20
    BIG_AT_ONCE = 2

    def __init__(
        self,
        app: ASGIApp,
        store: A2AStore,
        *,
        max_body_bytes: int = MAX_BODY_BYTES,
        body_timeout: float = BODY_TIMEOUT,
    ) -> None:
        self.app = app
        self.store = store
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout
        self.card_modified = time.time()  # the card is built once per server: its age
        self._principals: dict[str, tuple[float, str | None]] = {}
        self._big: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        echo = sorted(
            get_requested_extensions(headers.getlist("a2a-extensions")) & SUPPORTED_EXTENSIONS
        )
        if echo:
            send = _with_header(send, b"a2a-extensions", ", ".join(echo).encode())
        if scope["path"] == CARD_PATH:
            await self._card(scope, receive, send, headers)
            return
        send = _a2a_media_type(send)
        principal = await self._principal(headers)
        refusal = self._refuse(scope, headers, principal)
        if refusal is None and scope["method"] == "GET" and scope["path"] == "/tasks":
            refusal = _query_refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        size = 0
        if scope["method"] in ("POST", "PUT", "PATCH"):
            try:
                body = await asyncio.wait_for(
                    _read_body(receive, self.max_body_bytes), self.body_timeout
                )
            except TimeoutError:
                response = _invalid(
                    f"The request body did not arrive within {self.body_timeout:g} seconds",
                    code=408,
                )
                await response(scope, receive, send)
                return
            if body is None:
                await self._too_large()(scope, receive, send)
                return
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as exc:
                response = _invalid(
                    f"The request body is not UTF-8 (byte {exc.start}): send ProtoJSON in UTF-8"
                )
                await response(scope, receive, send)
                return
            receive = _replay(body, receive)
            size = len(body)
        if size > self.BIG_BODY:
            if self._big is None:
                self._big = asyncio.Semaphore(self.BIG_AT_ONCE)
            async with self._big:
                await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _card(self, scope: Scope, receive: Receive, send: Send, headers: Headers) -> None:
        """The SDK serves the card with its ETag (304 on If-None-Match) and our
        Cache-Control; this adds Last-Modified and answers If-Modified-Since."""
        modified = self.card_modified
        if "if-none-match" not in headers and _not_modified_since(
            headers.get("if-modified-since"), modified
        ):
            response = Response(
                status_code=304,
                headers={
                    "Last-Modified": _http_date(modified),
                    "Cache-Control": f"public, max-age={CARD_MAX_AGE}",
                },
            )
            await response(scope, receive, send)
            return
        await self.app(
            scope, receive, _with_header(send, b"last-modified", _http_date(modified).encode())
        )

    async def _principal(self, headers: Headers) -> str | None:
        scheme, _, token = headers.get("authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return None
        now = time.monotonic()
        key = token_hash(token)
        hit = self._principals.get(key)
        if hit is not None and now - hit[0] < self.PRINCIPAL_TTL:
            return hit[1]
        principal = await asyncio.to_thread(principal_for, self.store, token)
        if len(self._principals) > 4096:
            self._principals.clear()
        self._principals[key] = (now, principal)
        return principal

    def _refuse(self, scope: Scope, headers: Headers, principal: str | None) -> Response | None:
        if principal is None:
            token = headers.get("authorization", "").partition(" ")[2].strip()
            why = (
                "A bearer token is required" if not token else "The bearer token is not valid here"
            )
            return _json(
                401,
                errors.payload(
                    401,
                    "UNAUTHENTICATED",
                    "UNAUTHENTICATED",
                    f"{why}: ask the desk owner for one (`taskpack token add NAME`)",
                ),
                {"WWW-Authenticate": 'Bearer realm="taskpack-desk"'},
            )
        scope["taskpack.principal"] = principal
        version = (headers.get("a2a-version") or "").strip() or "0.3"
        if not VERSION_RE.match(version):
            return _json(
                400,
                errors.payload(
                    400,
                    "FAILED_PRECONDITION",
                    "VERSION_NOT_SUPPORTED",
                    f"A2A version {version[:20]!r} is not supported: this desk speaks A2A 1.0 "
                    "(send the header A2A-Version: 1.0)",
                    {"supported": PROTOCOL_VERSION},
                ),
            )
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return _json(
                    400,
                    errors.payload(
                        400, "INVALID_ARGUMENT", "INVALID_REQUEST", "Content-Length is not a number"
                    ),
                )
            if int(length) > self.max_body_bytes:
                return self._too_large()
        return None

    def _too_large(self) -> Response:
        return _json(
            413,
            errors.payload(
                413,
                "INVALID_ARGUMENT",
                "INVALID_REQUEST",
                f"The request is larger than {self.max_body_bytes} bytes: send a smaller pack, "
                "or hand this one over as a file",
                {"max_body_bytes": str(self.max_body_bytes)},
            ),
        )


def _with_header(send: Send, name: bytes, value: bytes) -> Send:
    async def wrapped(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = dict(message)
            message["headers"] = [*message.get("headers", []), (name, value)]
        await send(message)

    return wrapped


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, then: Receive) -> Receive:
    """The body read by the gate, once; then the connection's own messages (a disconnect)."""
    sent = False

    async def receive() -> MutableMapping[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()

    return receive


def _a2a_media_type(send: Send) -> Send:
    """Label every JSON body with the A2A media type (the SDK's errors say application/json)."""

    async def wrapped(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            headers = message.get("headers", [])
            if any(
                k.lower() == b"content-type" and v.startswith(b"application/json")
                for k, v in headers
            ):
                message = dict(message)
                message["headers"] = [
                    (k, A2A_JSON.encode())
                    if k.lower() == b"content-type" and v.startswith(b"application/json")
                    else (k, v)
                    for k, v in headers
                ]
        await send(message)

    return wrapped


class _Principal(User):
    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def user_name(self) -> str:
        return self._name


class PrincipalContextBuilder(DefaultServerCallContextBuilder):
    """The SDK's call context, plus the principal the gate found for the bearer token."""

    def build(self, request: Request) -> ServerCallContext:
        context = super().build(request)
        principal = request.scope.get("taskpack.principal")
        if principal:
            context.user = _Principal(principal)
            context.state["principal"] = principal
        return context


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
) -> Gate:
    """The ASGI app of one desk's endpoint (wrapped in its gate)."""
    from taskpack.app.desk import harness_name

    publisher = ReceiptPublisher(desk, store)
    hub = Hub(desk, store, publisher, interval=poll_interval)
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
            return _json(body["error"]["code"], body)
        reason = "METHOD_NOT_FOUND" if code in (404, 405) else "INVALID_REQUEST"
        status = (
            "NOT_FOUND" if code == 404 else "UNIMPLEMENTED" if code == 405 else "INVALID_ARGUMENT"
        )
        return _json(
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
    return Gate(app, store, max_body_bytes=max_body_bytes, body_timeout=body_timeout)


# --- a server on a thread -----------------------------------------------------------------


def _timed_h11(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, plus a deadline for each request's line and headers.

    uvicorn times out a connection only between requests (keep-alive); one that connects
    and sends nothing, or trickles its headers a byte at a time, would stay open for
    good. Here the head of every request must be complete within `header_timeout` of the
    connection opening (or of the keep-alive wait ending), else the connection is closed.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                with contextlib.suppress(h11.LocalProtocolError):
                    self.conn.send(h11.ConnectionClosed())
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
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


class A2AServer:
    """One desk's endpoint, served by uvicorn on a background thread.

    `start()` returns the base URL once the socket accepts connections (a port of 0
    picks a free one); `stop()` ends open streams, shuts uvicorn down and joins the
    thread. Both are safe to call from any thread (the desktop app's Settings call
    them from the GUI thread; neither blocks for long).
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
        self.store: A2AStore | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
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

    def start(self, timeout: float = 15.0) -> str:
        import uvicorn

        with self._lock:
            if self.running:
                return self.url
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
            self.port = sock.getsockname()[1]
            self.store = A2AStore(self.desk.home)
            app = create_app(
                self.desk,
                store=self.store,
                public_url=lambda: self.url,
                limits=self.limits,
                poll_interval=self.poll_interval,
                max_body_bytes=self.max_body_bytes,
                body_timeout=self.body_timeout,
                on_started=self._started,
            )
            config = uvicorn.Config(
                app,
                log_level=self.log_level,
                access_log=False,
                lifespan="on",
                timeout_graceful_shutdown=3,
                timeout_keep_alive=self.keep_alive_timeout,  # type: ignore[arg-type]  # float is fine
                http=_timed_h11(self.header_timeout),
                limit_concurrency=self.max_connections,
                ws="none",
                server_header=False,
            )
            self._server = uvicorn.Server(config)
            self._error = None
            server = self._server

            def run() -> None:
                try:
                    asyncio.run(server.serve(sockets=[sock]))
                except BaseException as exc:  # reported by start(), logged otherwise
                    self._error = exc
                    log.exception("the A2A server stopped with an error")
                finally:
                    sock.close()

            self._thread = threading.Thread(target=run, name="taskpack-a2a", daemon=True)
            self._thread.start()
        deadline = threading.Event()
        waited = 0.0
        while not server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"the A2A server did not start: {self._error!r}")
            deadline.wait(0.01)
            waited += 0.01
            if waited > timeout:
                self.stop()
                raise TimeoutError("the A2A server did not start in time")
        return self.url

    def _started(self, loop: asyncio.AbstractEventLoop, hub: Hub) -> None:
        self._loop = loop
        self._hub = hub

    def stop(self, timeout: float = 10.0) -> None:
        with self._lock:
            thread, server, loop, hub = self._thread, self._server, self._loop, self._hub
            if thread is None or server is None:
                return
            if loop is not None and hub is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(hub.close)
            server.should_exit = True
            thread.join(timeout)
            self._thread = self._server = self._loop = self._hub = None
            if self.store is not None:
                self.store.close()
                self.store = None

    def __enter__(self) -> A2AServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def card_json(url: str) -> str:  # pragma: no cover - a debugging aid
    from google.protobuf.json_format import MessageToDict

    return json.dumps(MessageToDict(build_card(url, name="TaskPack Desk", version="")), indent=2)
