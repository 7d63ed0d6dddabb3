"""Sending a pack to another desk (or any A2A agent declaring the TaskPack extension),
and bringing its receipt home — with the a2a-sdk client over HTTP+JSON.

    result = send_file(desk, store, "work.taskpack", "http://127.0.0.1:8788", token=...)
    fetched = fetch_receipts(desk, store, passport_id="TP-…")   # merges into the asker

`send` reads the Agent Card first and refuses an agent that does not declare the
extension. The messageId is derived from the file's bytes, so sending the same file
again is a retry: the other desk answers with the Task it already made. What was sent
is remembered in ``a2a.sqlite3`` (table ``sent``): the remote Task, and the local
passport the pack was made from (the last entry of its lineage chain) — the only
passport its receipt may merge into.

The receipt comes back as the Task's artifact ``receipt`` (a ``.taskpack`` file part).
It is read as a stream (inline bytes from memory; a download spooled as it arrives) and
merged through the desk's one landing path (`Desk.land`, spec §4.4.1); nothing in it
is run. A receipt offered by URL is
fetched only from the same origin as the agent, with the same token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast
from urllib.parse import urlsplit

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.client.errors import A2AClientError, AgentCardResolutionError
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import TransportProtocol
from a2a.utils.errors import A2AError, UnsupportedOperationError
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG, MEDIA_FLAT, PROTOCOL_VERSION
from taskpack.app.a2a import errors as _errors  # registers DUPLICATE_MESSAGE_ID with the SDK client
from taskpack.app.a2a.ledger import A2AStore, SentRow
from taskpack.core.errors import NotFound, TaskPackError, UsageError
from taskpack.core.format import vocabulary
from taskpack.core.format.reading import open_pack
from taskpack.core.format.streams import hash_file

if TYPE_CHECKING:
    from taskpack.app.desk import Desk
    from taskpack.core.desk.landing import MergeOutcome

del _errors

#: a pack bigger than this is not sent inline (hand it over as a file instead)
MAX_SEND_BYTES = 48 << 20


class RemoteError(TaskPackError):
    """The other desk (or the network) said no; the message says what it said."""

    hint = "Nothing was changed here."


@dataclass
class SendResult:
    url: str
    task: pb.Task
    sent: SentRow | None

    @property
    def task_id(self) -> str:
        return self.task.id

    @property
    def state(self) -> str:
        return str(pb.TaskState.Name(self.task.status.state))

    def to_data(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "task_id": self.task.id,
            "context_id": self.task.context_id,
            "state": self.state,
            "local_passport": self.sent.local_passport if self.sent else None,
            "status": _status_text(self.task),
        }


@dataclass
class FetchResult:
    url: str
    remote_task_id: str
    local_passport: str | None
    state: str
    merged: bool = False
    already: bool = False
    answered: list[str] = field(default_factory=list)
    adopted: list[str] = field(default_factory=list)
    note: str = ""
    error: str | None = None

    def to_data(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _status_text(task: pb.Task) -> str:
    return " ".join(p.text for p in task.status.message.parts if p.text)


def _message_of(exc: BaseException) -> str:
    text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return text.rstrip(".")


@contextlib.asynccontextmanager
async def connect(
    url: str, token: str | None, *, timeout: float = 60.0, streaming: bool = False
) -> AsyncIterator[tuple[Any, pb.AgentCard, httpx.AsyncClient]]:
    """An SDK client for the agent at `url` that declares the TaskPack extension."""
    headers = {"A2A-Version": PROTOCOL_VERSION, "A2A-Extensions": EXTENSION_URI}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(
        headers=headers, timeout=httpx.Timeout(timeout, connect=10.0)
    ) as http:
        factory = ClientFactory(
            ClientConfig(
                streaming=streaming,
                httpx_client=http,
                supported_protocol_bindings=[TransportProtocol.HTTP_JSON],
            )
        )
        try:
            card = await A2ACardResolver(http, url).get_agent_card()
        except (AgentCardResolutionError, A2AClientError) as exc:
            raise RemoteError(
                f"could not read the Agent Card at {url} ({_message_of(exc)})"
            ) from None
        if not any(e.uri == EXTENSION_URI for e in card.capabilities.extensions):
            raise RemoteError(
                f"the agent at {url} does not declare the TaskPack extension",
                hint="Send it to a TaskPack Desk (`taskpack serve`) or another agent that does.",
            )
        try:
            client = factory.create(card)
        except ValueError as exc:
            raise RemoteError(
                f"the agent at {url} offers no A2A HTTP+JSON interface ({exc})"
            ) from None
        try:
            yield client, card, http
        finally:
            await client.close()


async def _call(coro: Any) -> Any:
    try:
        return await coro
    except A2AError as exc:
        raise RemoteError(
            f"the other desk refused: {_message_of(exc)} ({type(exc).__name__})"
        ) from None
    except A2AClientError as exc:
        raise RemoteError(f"the request failed: {_message_of(exc)}") from None


# --- sending --------------------------------------------------------------------------------


def pack_message(path: Path, data: bytes, *, message_id: str | None = None) -> pb.Message:
    name = path.name
    media = MEDIA_FLAT if name.lower().endswith(".json") else MEDIA_BAG
    if not name.lower().endswith(vocabulary.PACK_SUFFIXES):
        name = f"{name}.taskpack" if media == MEDIA_BAG else f"{name}.taskpack.json"
    msg = pb.Message(
        message_id=message_id or "tp-" + hashlib.sha256(data).hexdigest()[:40],
        role=pb.Role.ROLE_USER,
        extensions=[EXTENSION_URI],
    )
    msg.parts.add(raw=data, filename=name, media_type=media)
    return msg


async def send_pack_async(
    path: Path,
    url: str,
    token: str | None,
    *,
    message_id: str | None = None,
    context_id: str | None = None,
    timeout: float = 60.0,
) -> pb.Task:
    """Send one pack file; returns the Task the other side made (or had made)."""
    size = path.stat().st_size
    if size > MAX_SEND_BYTES:
        raise UsageError(
            f"{path.name} is {size} bytes, more than the {MAX_SEND_BYTES} this command sends inline",
            hint="Hand it over as a file (chat, email, a shared folder) instead.",
        )
    data = path.read_bytes()
    msg = pack_message(path, data, message_id=message_id)
    if context_id:
        msg.context_id = context_id
    request = pb.SendMessageRequest(message=msg)
    request.configuration.return_immediately = True
    async with connect(url, token, timeout=timeout) as (client, _card, _http):
        task: pb.Task | None = None

        async def run() -> None:
            nonlocal task
            async for event in client.send_message(request):
                if event.HasField("task"):
                    task = event.task

        await _call(run())
    if task is None:
        raise RemoteError(f"the agent at {url} answered without a Task")
    return task


def send_file(
    desk: Desk,
    store: A2AStore,
    path: Path | str,
    url: str,
    *,
    token: str | None,
    token_name: str | None = None,
    peer: str | None = None,
    timeout: float = 60.0,
) -> SendResult:
    """Send a pack file and remember what was sent (for fetching its receipt).

    `peer` is the principal at *this* desk (the name of an accept token) that may push the
    receipt back to this desk's endpoint instead of waiting for it to be fetched; it
    defaults to `token_name` (name both tokens of one peer alike). No other principal's
    receipt over A2A merges into the passport this pack was made from."""
    path = Path(path)
    url = url.rstrip("/")
    with open_pack(path) as opened:  # our own parser: what are we sending, from which passport
        kind = opened.pack.kind or "handoff"
        chain = (opened.pack.lineage.chain if opened.pack.lineage else None) or []
    sender = chain[-1].rsplit("@", 1)[0] if chain else None
    local = sender if sender and desk.store.exists(sender) else None
    task = asyncio.run(send_pack_async(path, url, token, timeout=timeout))
    digest = hash_file(path)
    row = store.record_sent(
        url=url,
        remote_task_id=task.id,
        context_id=task.context_id or None,
        message_id="tp-" + digest[:40],
        pack_sha256=digest,
        local_passport=local,
        kind=kind,
        token_name=token_name,
        peer=peer or token_name,
    )
    return SendResult(url, task, row)


# --- fetching the receipt -------------------------------------------------------------------


def receipt_artifact(task: pb.Task) -> pb.Artifact | None:
    for art in task.artifacts:
        if art.artifact_id == "receipt":
            return art
    return None


def _pack_part(art: pb.Artifact) -> pb.Part | None:
    for part in art.parts:
        if part.media_type in (MEDIA_BAG, MEDIA_FLAT) or part.filename.lower().endswith(
            (".taskpack", ".taskpack.json")
        ):
            return part
    return None


async def get_task_async(
    url: str, token: str | None, task_id: str, *, timeout: float = 60.0
) -> pb.Task:
    async with connect(url, token, timeout=timeout) as (client, _card, _http):
        task: pb.Task = await _call(client.get_task(pb.GetTaskRequest(id=task_id)))
        return task


_ENDED = (
    pb.TaskState.TASK_STATE_COMPLETED,
    pb.TaskState.TASK_STATE_CANCELED,
    pb.TaskState.TASK_STATE_REJECTED,
    pb.TaskState.TASK_STATE_FAILED,
)


async def _until_receipt(client: Any, task_id: str) -> None:
    """Follow the task's stream until the receipt artifact appears or the task ends."""
    async for event in client.subscribe(pb.SubscribeToTaskRequest(id=task_id)):
        if event.HasField("artifact_update"):
            if event.artifact_update.artifact.artifact_id == "receipt":
                return
        elif event.HasField("task"):
            if receipt_artifact(event.task) is not None or event.task.status.state in _ENDED:
                return
        elif event.HasField("status_update") and event.status_update.status.state in _ENDED:
            return


async def wait_for_receipt_async(
    url: str, token: str | None, task_id: str, *, wait: float, timeout: float = 60.0
) -> pb.Task:
    """The Task once its receipt artifact exists (or as it is when `wait` runs out).

    Streams are ephemeral, the Task is the record: read it, follow the stream for at most
    `wait` seconds, and read it again — whatever the stream said or missed."""
    async with connect(url, token, timeout=max(timeout, wait + 5), streaming=True) as conn:
        client = conn[0]
        task: pb.Task = await _call(client.get_task(pb.GetTaskRequest(id=task_id)))
        if receipt_artifact(task) is not None or task.status.state in _ENDED:
            return task
        with contextlib.suppress(TimeoutError, UnsupportedOperationError):
            await asyncio.wait_for(_until_receipt(client, task_id), wait)
        task = await _call(client.get_task(pb.GetTaskRequest(id=task_id)))
        return task


async def _download(
    http: httpx.AsyncClient, agent_url: str, url: str, out: BinaryIO, limit: int
) -> None:
    a, b = urlsplit(agent_url), urlsplit(url)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc):
        raise RemoteError(
            f"the receipt is offered from another address ({b.netloc}); it was not fetched"
        )
    size = 0
    async with http.stream("GET", url) as response:
        if response.status_code != 200:
            raise RemoteError(f"the receipt could not be downloaded (HTTP {response.status_code})")
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise RemoteError("the receipt is larger than this desk accepts")
            out.write(chunk)


#: a downloaded receipt is kept in memory up to this size, then in a temporary file
SPOOL_BYTES = 8 << 20


async def _receipt_stream(
    url: str, token: str | None, task: pb.Task, spool_dir: Path
) -> BinaryIO | None:
    """The receipt artifact's bytes as a stream (inline: from memory; by URL: spooled
    as they arrive), or None when the task carries no receipt yet."""
    art = receipt_artifact(task)
    part = _pack_part(art) if art is not None else None
    if part is None:
        return None
    if part.WhichOneof("content") == "raw":
        return io.BytesIO(part.raw)
    if part.WhichOneof("content") == "url":
        out = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, dir=spool_dir)  # noqa: SIM115
        try:
            async with connect(url, token) as (_client, _card, http):
                await _download(http, url, part.url, cast(BinaryIO, out), MAX_SEND_BYTES * 4)
        except BaseException:
            out.close()
            raise
        out.seek(0)
        return cast(BinaryIO, out)
    return None


def fetch_receipts(
    desk: Desk,
    store: A2AStore,
    rows: Sequence[SentRow],
    *,
    token_for: Callable[[SentRow], str | None],
    wait: float = 0.0,
) -> list[FetchResult]:
    """For each sent task: read it, and merge its receipt (if there is one) into the asker.

    One task's failure (the other desk is down, the receipt is refused) is reported in its
    result and does not stop the others."""
    results: list[FetchResult] = []
    for row in rows:
        result = FetchResult(row.url, row.remote_task_id, row.local_passport, "unknown")
        results.append(result)
        try:
            _fetch_one(desk, store, row, token_for(row), wait, result)
        except TaskPackError as exc:
            result.error = str(exc)
    return results


def _fetch_one(
    desk: Desk, store: A2AStore, row: SentRow, token: str | None, wait: float, result: FetchResult
) -> None:
    if wait > 0:
        task = asyncio.run(wait_for_receipt_async(row.url, token, row.remote_task_id, wait=wait))
    else:
        task = asyncio.run(get_task_async(row.url, token, row.remote_task_id))
    result.state = str(pb.TaskState.Name(task.status.state))
    stream = asyncio.run(_receipt_stream(row.url, token, task, store.dir))
    if stream is None:
        result.note = f"no receipt yet ({_status_text(task)})"
        return
    with stream:
        head = stream.read(1)
        if not head:
            result.note = "the receipt artifact is empty"
            return
        stream.seek(0)
        # the name is ours; the sender's filename is data and never a path here
        suffix = ".taskpack.json" if head == b"{" else ".taskpack"
        name = f"receipt-{row.remote_task_id[:80]}{suffix}"
        review = desk.review(stream, name=name)
        if review.kind != "receipt":
            raise RemoteError(
                f"the artifact 'receipt' of {row.remote_task_id} is a {review.kind}, not a receipt"
            )
        target = review.receipt_target
        if row.local_passport is None:
            raise NotFound(
                f"the task {row.remote_task_id} was not sent from a passport of this desk",
                hint="Land the receipt by hand on the desk that asked.",
            )
        if target != row.local_passport:
            raise RemoteError(
                f"the receipt answers {target}, but {row.remote_task_id} was sent from "
                f"{row.local_passport}; it was not merged"
            )
        stream.seek(0)
        outcome = cast(
            "MergeOutcome",
            desk.land(stream, name=name, into=target, expect="receipt", review=review),
        )
    store.mark_merged(row.seq, review.content_digest)
    result.merged = True
    result.already = outcome.already
    result.answered = list(outcome.answered)
    result.adopted = [new for _old, new in outcome.adopted]
