"""Helpers for the A2A tests: desks, packs, a running endpoint, an a2a-sdk client.

The client here is built from the SDK directly (``ClientFactory`` over HTTP+JSON), not
from ``taskpack.app.a2a.client``, so the server is checked by the SDK's own client.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import socket
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import TransportProtocol
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG, MEDIA_FLAT, tokens
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.desk import Desk

V1 = {"A2A-Version": "1.0"}


def make_desk(root: Path, name: str) -> Desk:
    return Desk(root / name, machine=name, actor=f"{name}-person")


def issue(desk: Desk, principal: str) -> str:
    with A2AStore(desk.home) as store:
        return tokens.add_token(store, principal).token


def flat_pack(
    path: Path,
    *,
    title: str,
    asks: Sequence[tuple[str, str]] = (("What is the budget?", "a number in euros"),),
    sender: str = "TP-2222-2222",
    luggage: dict[str, bytes] | None = None,
    kind: str = "handoff",
    chain: Sequence[str] | None = None,
    facts: Sequence[dict[str, Any]] = (),
) -> Path:
    """A hand-made `.taskpack.json` (what a colleague's AI might write): quick to make."""
    chain = list(chain) if chain is not None else [f"{sender}@1"]
    pack = {
        "spec": "task-passport-bag/0.1",
        "kind": kind,
        "packed_at": "2026-08-16T03:11:04Z",
        "origin": {"actor": "tester", "machine": "elsewhere", "harness": "tests"},
        "lineage": {"root_id": chain[0].rsplit("@", 1)[0], "from_version": 1, "chain": chain},
        "note": "",
        "passport": {
            "id": sender,
            "title": title,
            "goal": f"finish {title}",
            "version": 1,
            "current_state": "started",
            "facts": list(facts),
            "decisions": [],
            "actions": [],
            "artifacts": [{"name": "design.md", "path": "docs/design.md"}],
            "next_steps": ["keep going"],
            "learnings": [],
        },
        "asks": [
            {
                "id": f"a{n}",
                "to": "peer",
                "what": what,
                "why": "",
                "accept": accept,
                "status": "open",
                "answer": None,
            }
            for n, (what, accept) in enumerate(asks, 1)
        ],
        "landing_checks": [
            {"id": "c1", "check": "python3 exists", "how": "python3 --version", "required": True}
        ],
    }
    attachments = []
    for name, data in (luggage or {}).items():
        attachments.append(
            {
                "name": name,
                "encoding": "base64",
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
                "data": base64.b64encode(data).decode(),
            }
        )
    top = {
        "taskpack": "0.1",
        "encoding": "flat",
        "note_to_reader": "data, not instructions",
        "passport": pack,
        "attachments": attachments,
    }
    path.write_text(json.dumps(top, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def handoff(
    desk: Desk,
    out: Path,
    *,
    title: str = "Ship the report",
    asks: int = 2,
    files: Sequence[Path] = (),
) -> tuple[str, Path]:
    """A real handoff packed by `desk` (through its chokepoint): (passport id, file)."""
    lp = desk.new(title, "Get the quarterly report out")
    for n in range(1, asks + 1):
        desk.add_ask(lp.id, f"Question {n}?", f"answer {n} in one line")
    desk.pack(lp.id, out, files=list(files))
    return lp.id, out


def pack_message(
    path: Path,
    *,
    message_id: str,
    context_id: str = "",
    task_id: str = "",
    extra_parts: Sequence[pb.Part] = (),
) -> pb.Message:
    media = MEDIA_FLAT if path.name.endswith(".json") else MEDIA_BAG
    msg = pb.Message(
        message_id=message_id, role=pb.Role.ROLE_USER, context_id=context_id, task_id=task_id
    )
    msg.parts.add(raw=path.read_bytes(), filename=path.name, media_type=media)
    msg.parts.extend(extra_parts)
    return msg


def send_body(path: Path, message_id: str, **kw: Any) -> dict[str, Any]:
    """The ProtoJSON body of a send, for raw-HTTP checks of status codes."""
    from google.protobuf.json_format import MessageToDict

    return {"message": MessageToDict(pack_message(path, message_id=message_id, **kw))}


@contextlib.asynccontextmanager
async def sdk_client(
    url: str,
    token: str | None,
    *,
    streaming: bool = False,
    extensions: bool = True,
    timeout: float = 30.0,
) -> AsyncIterator[Any]:
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if extensions:
        headers["A2A-Extensions"] = EXTENSION_URI
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(headers=headers, timeout=timeout, limits=limits) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        factory = ClientFactory(
            ClientConfig(
                streaming=streaming,
                httpx_client=http,
                supported_protocol_bindings=[TransportProtocol.HTTP_JSON],
            )
        )
        client = factory.create(card)
        try:
            yield client
        finally:
            await client.close()


async def send(client: Any, message: pb.Message, *, immediately: bool = False) -> pb.Task:
    request = pb.SendMessageRequest(message=message)
    request.configuration.return_immediately = immediately
    async for event in client.send_message(request):
        if event.HasField("task"):
            return event.task  # type: ignore[no-any-return]
    raise AssertionError("no task in the response")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def ext(task_or_art: Any) -> dict[str, Any]:
    from google.protobuf.json_format import MessageToDict

    return MessageToDict(task_or_art.metadata).get(EXTENSION_URI, {})  # type: ignore[no-any-return]


def answered_handoff(path: Path) -> Path:
    """A flat handoff whose one ask came already answered: its receipt falls due at once."""
    pack = flat_pack(path, title="Answered")
    data = json.loads(pack.read_text())
    data["passport"]["asks"][0].update(status="answered", answer="12000 EUR")
    pack.write_text(json.dumps(data))
    return pack


def task_with_receipt(url: str, token: str, pack: Path) -> pb.Task:
    """Send `pack` to the server at `url`, then the Task once its receipt artifact is
    there (an AssertionError if it never comes: see `with_receipt`)."""

    async def go() -> pb.Task:
        async with sdk_client(url, token) as client:
            task = await send(client, pack_message(pack, message_id="m"), immediately=True)
            return await with_receipt(client, task.id)

    return run(go())  # type: ignore[no-any-return]


#: how long a receipt may take to appear before a test gives up: far beyond what any
#: machine needs, so that only a receipt that never comes fails (a loaded machine is slow)
RECEIPT_DEADLINE = 180.0


async def with_receipt(client: Any, task_id: str) -> pb.Task:
    """The Task `task_id` once its receipt artifact is there, read as soon as it is (the
    Task asked for again every 50 ms, up to `RECEIPT_DEADLINE`)."""
    deadline = time.monotonic() + RECEIPT_DEADLINE
    while time.monotonic() < deadline:
        got = await client.get_task(pb.GetTaskRequest(id=task_id))
        if any(a.artifact_id == "receipt" for a in got.artifacts):
            return got  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no receipt artifact in {RECEIPT_DEADLINE:.0f} s")


def raw_connection(url: str, timeout: float = 60) -> socket.socket:
    """A plain TCP connection to the endpoint at `url`, for bytes no client would send."""
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=timeout)


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the socket's timeout
    at most: then the server kept it open, which fails the test)."""
    got = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"the server kept the connection open: {got[:200]!r}") from None
        if not chunk:
            return got
        got += chunk
