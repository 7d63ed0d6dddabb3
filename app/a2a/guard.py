"""The guard: ASGI middleware in front of every A2A route but the card.

* ``Authorization: Bearer <token>`` → principal (401 ``UNAUTHENTICATED`` otherwise);
* ``A2A-Version`` must be 1.0 (a patch level is ignored; missing means 0.3): else
  400 ``VERSION_NOT_SUPPORTED`` — stricter than the SDK, which accepts any 1.x;
* a body larger than `max_body_bytes` is refused with 413 before it is read;
* ``A2A-Extensions`` is echoed with the subset this desk supports (the TaskPack
  extension), on every response including the card;
* the Agent Card answers a conditional GET (If-Modified-Since → 304).

The principal the guard found reaches the request handler through
:class:`PrincipalContextBuilder`.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2a.auth.user import User
from a2a.extensions.common import get_requested_extensions
from a2a.server.context import ServerCallContext
from a2a.server.routes.common import DefaultServerCallContextBuilder
from a2a.types import a2a_pb2 as pb
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from taskpack.app.a2a import (
    BODY_TIMEOUT,
    EXTENSION_URI,
    MAX_BODY_BYTES,
    PROTOCOL_VERSION,
    errors,
)
from taskpack.app.a2a.card import CARD_MAX_AGE, CARD_PATH
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.a2a.tokens import principal_for, token_hash
from taskpack.core.errors import TaskPackError

SUPPORTED_EXTENSIONS = frozenset({EXTENSION_URI})
VERSION_RE = re.compile(r"^1\.0(\.\d+)?$")
#: every JSON body of an A2A method — success or error, the SDK's or ours — is labelled
#: with the A2A media type; the Agent Card, a discovery document, is application/json
A2A_JSON = "application/a2a+json"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def json_response(
    status: int, body: dict[str, Any], headers: dict[str, str] | None = None
) -> Response:
    return JSONResponse(body, status_code=status, headers=headers, media_type=A2A_JSON)


def _invalid(message: str, reason: str = "INVALID_REQUEST", code: int = 400) -> Response:
    status = "DEADLINE_EXCEEDED" if code == 408 else "INVALID_ARGUMENT"
    # a request whose body never came leaves the connection in an unknown place: close it
    headers = {"Connection": "close"} if code == 408 else None
    return json_response(code, errors.payload(code, status, reason, message), headers)


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


class Guard:
    """ASGI middleware in front of the A2A routes (see the module doc)."""

    #: a principal found for a token hash is trusted this long; a revoked token stops
    #: working within this many seconds (the lookup is a database read, kept off the loop)
    PRINCIPAL_TTL = 1.0
    #: bodies above this size are parsed (in memory, by the SDK) at most `BIG_AT_ONCE` at a time
    BIG_BODY = 4 << 20
    BIG_AT_ONCE = 2
    #: the clock the principal cache ages by (tests move it instead of sleeping)
    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(
        self,
        app: ASGIApp,
        store: A2AStore,
        *,
        max_body_bytes: int = MAX_BODY_BYTES,
        body_timeout: float = BODY_TIMEOUT,
        out_of_reach: Callable[[], str | None] | None = None,
    ) -> None:
        self.app = app
        self.store = store
        #: why the desk's store cannot be reached now (None: it can), asked per request
        self.out_of_reach = out_of_reach
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
        why = self.out_of_reach() if self.out_of_reach is not None else None
        if why is None:
            try:
                principal = await self._principal(headers)
            except TaskPackError as exc:  # the store is out of reach (a restart, a failover)
                why = str(exc)
        if why is not None:  # say so at once, rather than wait for a connection
            response = json_response(
                503,
                errors.payload(503, "UNAVAILABLE", "STORE_UNAVAILABLE", why),
                {"Retry-After": "5"},
            )
            await response(scope, receive, send)
            return
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
        now = self.clock()
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
            return json_response(
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
            return json_response(
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
                return json_response(
                    400,
                    errors.payload(
                        400, "INVALID_ARGUMENT", "INVALID_REQUEST", "Content-Length is not a number"
                    ),
                )
            if int(length) > self.max_body_bytes:
                return self._too_large()
        return None

    def _too_large(self) -> Response:
        return json_response(
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
    """The body read by the guard, once; then the connection's own messages (a disconnect)."""
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
    """The SDK's call context, plus the principal the guard found for the bearer token."""

    def build(self, request: Request) -> ServerCallContext:
        context = super().build(request)
        principal = request.scope.get("taskpack.principal")
        if principal:
            context.user = _Principal(principal)
            context.state["principal"] = principal
        return context
