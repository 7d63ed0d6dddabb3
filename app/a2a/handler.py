"""The A2A methods over the desk: an a2a-sdk ``RequestHandler``.

The SDK's REST dispatcher parses and serialises (ProtoJSON), streams (SSE) and turns
errors into the §11.6 shape; this class decides what each method means for a desk.
It does not use the SDK's ``DefaultRequestHandler``/``AgentExecutor``/``TaskStore``:
here the durable Task *is* the passport in the desk's store (its state is moved by a
person, in the app or the command line, and can change while no request is open), so
a second task store would be a second record of the same thing. What the contract adds
that the SDK does not do — idempotency on (principal, messageId), principal scoping,
contexts that never join foreign work, a bounded blocking send — happens here.

Receiving (``message:send`` / ``message:stream``): exactly one file part carrying a
``.taskpack`` or ``.taskpack.json`` (by filename or media type, raw bytes) is read as a
stream from memory (never written to disk first) and given to the desk's one accept
path, ``Desk.land`` — a handoff lands as a new passport (its id is the Task id); a
receipt merges into the passport it answers (§4.4.1), and only if that passport is a
task of the sending principal or was sent to that principal over A2A (anything else is
"task not found"). Nothing in the pack is executed. Text parts are not kept:
transcripts do not travel.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import sqlite3
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2a.server.context import ServerCallContext
from a2a.server.request_handlers.request_handler import RequestHandler
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import DEFAULT_LIST_TASKS_PAGE_SIZE, MAX_LIST_TASKS_PAGE_SIZE
from a2a.utils.errors import (
    A2AError,
    ExtendedAgentCardNotConfiguredError,
    InvalidParamsError,
    PushNotificationNotSupportedError,
    TaskNotCancelableError,
    UnsupportedOperationError,
)
from taskpack.app.a2a import MEDIA_BAG, STREAM_SECONDS, mapping, paging
from taskpack.app.a2a.errors import (
    DuplicateMessageIdError,
    from_desk_error,
    task_not_found,
)
from taskpack.app.a2a.hub import Hub
from taskpack.app.a2a.intake import (
    message_digest,
    pick_pack_part,
    principal_of,
    root_of,
    wants_extension,
)
from taskpack.app.a2a.ledger import A2AStore, Conflict, ReceiptRow, TaskGrant
from taskpack.app.a2a.receipts import ReceiptPublisher, receipt_due
from taskpack.core.desk.history_words import CANCELLED_OVER_A2A
from taskpack.core.desk.review import LandingReview
from taskpack.core.desk.store import Claim, PassportSummary
from taskpack.core.errors import ClaimTaken, InvalidMove, TaskPackError
from taskpack.core.format.model import LocalPassport

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

log = logging.getLogger(__name__)

#: luggage at most this big is carried inline in a Task; bigger luggage as a URL part
INLINE_LUGGAGE_BYTES = 64 * 1024
#: a receipt at most this big is carried inline (the asker wants exactly these bytes)
INLINE_RECEIPT_BYTES = 32 << 20


@dataclass(frozen=True)
class Limits:
    #: a blocking send returns the task's snapshot after this long at the latest
    blocking_timeout: float = 1.0
    #: a stream ends after this long; the client reads the Task and subscribes again
    stream_seconds: float = STREAM_SECONDS
    inline_luggage: int = INLINE_LUGGAGE_BYTES
    inline_receipt: int = INLINE_RECEIPT_BYTES


@dataclass(frozen=True)
class Accepted:
    grant: TaskGrant
    duplicate: bool
    #: the Task, when the caller wanted it now and it was built in the landing's own trip
    #: to a worker thread (`TaskWanted`)
    task: pb.Task | None = None
    #: a landing's passport: its version, and whether its receipt is due already
    landed: tuple[int, bool] | None = None


#: (with the extension, even if not settled): the Task a send returns at once, built in
#: the landing's trip to a worker thread when the send would not wait for it
TaskWanted = tuple[bool, bool]


class DeskRequestHandler(RequestHandler):
    def __init__(
        self,
        desk: Desk,
        store: A2AStore,
        hub: Hub,
        publisher: ReceiptPublisher,
        *,
        base_url: Callable[[], str],
        limits: Limits | None = None,
    ) -> None:
        self.desk = desk
        self.store = store
        self.hub = hub
        self.publisher = publisher
        self.base_url = base_url
        self.limits = limits or Limits()
        self.incoming = store.dir / "incoming"
        self.incoming.mkdir(parents=True, exist_ok=True)
        for stale in self.incoming.iterdir():  # left by an older version that spooled here
            stale.unlink(missing_ok=True)
        self._inflight: dict[tuple[str, str], tuple[str, asyncio.Future[Accepted]]] = {}

    # == receiving ===================================================================

    async def on_message_send(
        self, params: pb.SendMessageRequest, context: ServerCallContext
    ) -> pb.Task:
        principal, with_ext = principal_of(context), wants_extension(context)
        at_once = params.configuration.return_immediately
        accepted = await self._accept(params, principal, (with_ext, at_once))
        if accepted.task is not None:
            return accepted.task
        grant = accepted.grant
        if not at_once and not accepted.duplicate:
            await self._wait_settled(grant.task_id, self.limits.blocking_timeout)
        return await self._snapshot(grant, with_ext)

    async def on_message_send_stream(
        self, params: pb.SendMessageRequest, context: ServerCallContext
    ) -> AsyncGenerator[Any]:
        principal, with_ext = principal_of(context), wants_extension(context)
        at_once = params.configuration.return_immediately
        accepted = await self._accept(params, principal, (with_ext, True) if at_once else None)
        grant = accepted.grant
        if at_once or accepted.duplicate:
            task = accepted.task
            yield task if task is not None else await self._snapshot(grant, with_ext)
            return
        async for event in self._stream(grant, with_ext, until_settled=True):
            yield event

    async def _accept(
        self, params: pb.SendMessageRequest, principal: str, wanted: TaskWanted | None = None
    ) -> Accepted:
        """Idempotent intake: one (principal, messageId) lands once; a retry gets its Task."""
        if not params.HasField("message"):
            raise InvalidParamsError(message="The request has no message")
        message = params.message
        if not message.message_id:
            raise InvalidParamsError(message="message.messageId is required: it makes a retry safe")
        if len(message.message_id) > 200:
            raise InvalidParamsError(message="message.messageId is longer than 200 characters")
        if params.configuration.HasField("task_push_notification_config"):
            raise PushNotificationNotSupportedError(
                message="Push notifications are not supported: poll GET /tasks/{id} or subscribe"
            )
        digest = message_digest(message)
        key = (principal, message.message_id)
        running = self._inflight.get(key)
        if running is not None:  # the same message is being landed right now
            if running[0] != digest:
                raise DuplicateMessageIdError()
            try:
                prior = await asyncio.shield(running[1])
            except _Abandoned:  # the first request went away mid-way: try afresh
                return await self._accept(params, principal, wanted)
            return Accepted(prior.grant, duplicate=True)
        future: asyncio.Future[Accepted] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_consume)
        self._inflight[key] = (digest, future)
        try:
            result = await self._accept_once(message, principal, digest, wanted)
        except BaseException as exc:
            future.set_exception(exc if isinstance(exc, Exception) else _Abandoned())
            raise
        else:
            future.set_result(result)
            return result
        finally:
            del self._inflight[key]

    async def _accept_once(
        self, message: pb.Message, principal: str, digest: str, wanted: TaskWanted | None
    ) -> Accepted:
        accepted = await asyncio.to_thread(self._land, principal, message, digest, wanted)
        if accepted.landed is not None:
            version, receipt_due = accepted.landed
            grant = accepted.grant
            self.hub.landed(
                grant.task_id,
                handoff=grant.kind == "handoff",
                version=version,
                receipt_due=receipt_due,
            )
        return accepted

    def _land(
        self, principal: str, message: pb.Message, digest: str, wanted: TaskWanted | None
    ) -> Accepted:
        """A retry gets its prior Task, else the pack lands through the desk: one trip to a
        worker thread, which also builds the Task the send returns when it is `wanted`
        now. The bytes are data, only data: read as a stream from memory, never written to
        disk first."""
        prior = self.store.message(principal, message.message_id)
        if prior is not None:
            if prior.digest != digest:
                raise DuplicateMessageIdError()
            grant = self.store.grant(principal, prior.task_id)
            if grant is not None and self.desk.store.exists(prior.task_id):
                task = self._snapshot_sync(grant, wanted[0], True) if wanted else None
                return Accepted(grant, duplicate=True, task=task)
        if message.task_id and self.store.grant(principal, message.task_id) is None:
            raise task_not_found(message.task_id)
        data, suffix = pick_pack_part(message)
        # our name, never the sender's: it says where the pack came from, in the desk's history
        name = f"a2a-{principal}{suffix}"

        def admit(rv: LandingReview) -> None:
            """A2A's own rule on top of the desk's target rule: a receipt only into a task
            this principal may answer, a handoff only as a new task."""
            if rv.kind == "receipt":
                target = rv.receipt_target
                if not target:
                    raise InvalidParamsError(
                        message="The receipt's lineage names no passport it answers; nothing was changed"
                    )
                if message.task_id and message.task_id != target:
                    raise InvalidParamsError(
                        message=f"This receipt answers {target}, not task {message.task_id}; "
                        "nothing was changed"
                    )
                if not self._may_answer(principal, target):
                    # the same answer as an id that does not exist: ids cannot be probed
                    raise task_not_found(target)
            elif message.task_id:
                raise InvalidParamsError(
                    message="A handoff starts a new task (the receiver mints its id): "
                    "send it without taskId"
                )

        try:
            # one read of the bytes: the desk reviews the pack, asks `admit`, then lands it
            # (principal, messageId) is claimed first, in the landing's transaction: of two
            # payloads under one id at once (two processes), one lands, the other nothing
            claim = Claim(principal, message.message_id, digest)
            got = io.BytesIO(data)
            outcome = self.desk.land(got, name=name, expect=None, admit=admit, claim=claim)
            kind, root = outcome.kind, root_of(outcome.review.lineage)
            task_id = outcome.id
        except A2AError:
            raise
        except ClaimTaken:
            raise DuplicateMessageIdError() from None
        except TaskPackError as exc:
            raise from_desk_error(exc, doing="land this pack") from None
        except (OSError, sqlite3.Error, MemoryError):
            raise
        except Exception as exc:  # a hostile pack that tripped something unforeseen
            log.exception("an incoming pack could not be read")
            raise InvalidParamsError(
                message=f"The pack could not be read ({type(exc).__name__}); nothing was landed",
                data={"taskpack_error": type(exc).__name__},
            ) from None
        try:
            _, grant = self.store.complete(
                principal,
                message.message_id,
                digest,
                task_id,
                kind="receipt" if kind == "receipt" else "handoff",
                requested_context=message.context_id or None,
                root_id=root,
            )
        except Conflict:
            raise DuplicateMessageIdError() from None
        # the passport as this landing stored it (its version, its state after the gate):
        # read again only if the record names another task (another process's landing)
        lp = outcome.passport if grant.task_id == task_id else self.desk.get(grant.task_id)
        task = None
        if wanted is not None:
            with_ext, at_once = wanted
            value = mapping.a2a_state(lp.state, lp.waiting_on, len(mapping.open_asks(lp)))
            # a blocking send waits only for a task that has not settled (`_wait_settled`)
            if at_once or mapping.settled(value) or self.limits.blocking_timeout <= 0:
                task = self._snapshot_sync(grant, with_ext, True, lp)
        return Accepted(grant, duplicate=False, task=task, landed=(lp.version, receipt_due(lp)))

    def _may_answer(self, principal: str, passport_id: str) -> bool:
        """May `principal` merge a receipt into `passport_id` over A2A?

        Only into a task the principal owns here, or into a passport this desk sent to
        that principal as a handoff over A2A (`taskpack send --peer`). Anything else — a
        passport made here, another principal's task — is refused like an unknown id."""
        if not self.desk.store.exists(passport_id):
            return False
        if self.store.grant(principal, passport_id) is not None:
            return True
        return self.store.sent_to(principal, passport_id)

    async def _wait_settled(self, task_id: str, timeout: float) -> None:
        """Wait until the task needs input or has ended, `timeout` at most."""
        deadline = time.monotonic() + timeout
        with self.hub.listen(task_id) as wake:
            while True:
                lp = await asyncio.to_thread(self.desk.get, task_id)
                value = mapping.a2a_state(lp.state, lp.waiting_on, len(mapping.open_asks(lp)))
                left = deadline - time.monotonic()
                if mapping.settled(value) or left <= 0:
                    return
                try:
                    await asyncio.wait_for(wake.get(), left)
                except TimeoutError:
                    return

    # == returning ===================================================================

    async def _grant(self, principal: str, task_id: str) -> TaskGrant:
        grant = await asyncio.to_thread(self.store.grant, principal, task_id)
        if grant is None:
            raise task_not_found(task_id)
        return grant

    async def on_get_task(self, params: pb.GetTaskRequest, context: ServerCallContext) -> pb.Task:
        if params.HasField("history_length") and params.history_length < 0:
            raise InvalidParamsError(message="historyLength must not be negative")
        grant = await self._grant(principal_of(context), params.id)
        return await self._snapshot(grant, wants_extension(context))

    async def on_list_tasks(
        self, params: pb.ListTasksRequest, context: ServerCallContext
    ) -> pb.ListTasksResponse:
        principal = principal_of(context)
        size = params.page_size if params.HasField("page_size") else DEFAULT_LIST_TASKS_PAGE_SIZE
        if size < 1 or size > MAX_LIST_TASKS_PAGE_SIZE:
            raise InvalidParamsError(
                message=f"pageSize must be between 1 and {MAX_LIST_TASKS_PAGE_SIZE}"
            )
        if params.HasField("history_length") and params.history_length < 0:
            raise InvalidParamsError(message="historyLength must not be negative")
        cursor = paging.read_cursor(params.page_token) if params.page_token else None
        after = (
            params.status_timestamp_after.ToJsonString()
            if params.HasField("status_timestamp_after")
            else None
        )
        grants = await asyncio.to_thread(
            self.store.grants, principal, context_id=params.context_id or None
        )
        by_id = {g.task_id: g for g in grants}
        summaries: list[PassportSummary] = [
            s for s in await asyncio.to_thread(self.desk.passports) if s.id in by_id
        ]
        rows: list[PassportSummary] = []
        for s in summaries:
            value = mapping.a2a_state(s.state, s.waiting_on, s.open_asks)
            if params.status and value != params.status:
                continue
            if after is not None and not paging.later(s.updated_at, after):
                continue
            rows.append(s)
        rows.sort(key=lambda s: (s.updated_at, s.id), reverse=True)
        total = len(rows)
        if cursor is not None:
            rows = [s for s in rows if (s.updated_at, s.id) < cursor]
        page, rest = rows[:size], rows[size:]
        with_ext = wants_extension(context)
        tasks = [
            await self._snapshot(by_id[s.id], with_ext, artifacts=params.include_artifacts)
            for s in page
        ]
        response = pb.ListTasksResponse(tasks=tasks, page_size=size, total_size=total)
        if rest and page:
            response.next_page_token = paging.write_cursor((page[-1].updated_at, page[-1].id))
        return response

    async def on_cancel_task(
        self, params: pb.CancelTaskRequest, context: ServerCallContext
    ) -> pb.Task:
        principal = principal_of(context)
        grant = await self._grant(principal, params.id)
        if grant.kind != "handoff":
            raise TaskNotCancelableError(
                message=f"Task {grant.task_id} is this desk's own passport; only its owner can cancel it"
            )
        try:
            await asyncio.to_thread(
                functools.partial(
                    self.desk.move,
                    grant.task_id,
                    "cancelled",
                    reason=CANCELLED_OVER_A2A,
                    by=principal,
                )
            )
        except InvalidMove as exc:
            lp = await asyncio.to_thread(self.desk.get, grant.task_id)
            raise TaskNotCancelableError(
                message=f"Task {grant.task_id} cannot be cancelled now: it is {lp.state} ({exc.message})"
            ) from None
        return await self._snapshot(grant, wants_extension(context))

    async def on_subscribe_to_task(
        self, params: pb.SubscribeToTaskRequest, context: ServerCallContext
    ) -> AsyncGenerator[Any]:
        grant = await self._grant(principal_of(context), params.id)
        lp = await asyncio.to_thread(self.desk.get, grant.task_id)
        if lp.state in ("completed", "rejected", "cancelled"):
            raise UnsupportedOperationError(
                message=f"Task {grant.task_id} has ended ({lp.state}); read it with GET /tasks/{grant.task_id}"
            )
        async for event in self._stream(grant, wants_extension(context), until_settled=False):
            yield event

    async def _stream(
        self, grant: TaskGrant, with_ext: bool, *, until_settled: bool
    ) -> AsyncGenerator[Any]:
        """The Task now, then what changes: status updates and artifact updates.

        Ends when the task ends (or, for ``message:stream``, when it needs input), when
        the server stops, or after `stream_seconds`. Nothing is replayed: a client that
        reconnects reads the Task and subscribes again.
        """
        deadline = time.monotonic() + self.limits.stream_seconds
        closing = self.hub.closing
        with self.hub.listen(grant.task_id) as wake:
            task = await self._snapshot(grant, with_ext)
            yield task
            while not mapping.finished(task, until_settled):
                left = deadline - time.monotonic()
                if left <= 0 or (closing is not None and closing.is_set()):
                    return
                try:
                    await asyncio.wait_for(wake.get(), left)
                except TimeoutError:
                    return
                if closing is not None and closing.is_set():
                    return
                new = await self._snapshot(grant, with_ext)
                for event in mapping.stream_events(task, new):
                    yield event
                task = new

    # == building the Task ===========================================================

    async def _snapshot(
        self, grant: TaskGrant, with_ext: bool, *, artifacts: bool = True
    ) -> pb.Task:
        return await asyncio.to_thread(self._snapshot_sync, grant, with_ext, artifacts)

    def _snapshot_sync(
        self, grant: TaskGrant, with_ext: bool, artifacts: bool, lp: LocalPassport | None = None
    ) -> pb.Task:
        """The Task of `grant` as the store has it now (`lp`: the passport just read)."""
        lp = lp or self.desk.get(grant.task_id)
        row = self.store.receipt(grant.task_id) if grant.kind == "handoff" else None
        receipt = (
            mapping.ReceiptInfo(
                row.version,
                row.content_digest,
                row.size,
                mapping.receipt_filename(grant.task_id, row.version),
                row.error,
            )
            if row is not None
            else None
        )
        arts = self._artifacts(grant, lp, row, with_ext) if artifacts else []
        return mapping.build_task(
            lp,
            context_id=grant.context_id,
            kind=grant.kind,
            artifacts=arts,
            receipt=receipt,
            with_extension=with_ext,
        )

    def _artifacts(
        self, grant: TaskGrant, lp: Any, row: ReceiptRow | None, with_ext: bool
    ) -> list[pb.Artifact]:
        base = f"{self.base_url()}/tasks/{grant.task_id}/artifacts"
        out: list[pb.Artifact] = []
        for n, item in enumerate(self.desk.luggage(grant.task_id), 1):
            aid = mapping.luggage_artifact_id(n)
            data = None
            if item.size <= self.limits.inline_luggage:
                with self.desk.store.open_blob(item.sha256) as f:
                    data = f.read(self.limits.inline_luggage + 1)
            out.append(
                mapping.file_artifact(
                    aid,
                    item.name,
                    data=data,
                    url=f"{base}/{aid}",
                    media_type=mapping.media_type_for(item.name),
                    meta=mapping.luggage_meta(item) if with_ext else None,
                    description="Luggage (data/files/*), the sender's bytes as data",
                )
            )
        out += mapping.passport_artifacts(lp, with_extension=with_ext)
        path = self.publisher.path_of(row) if row is not None and not row.error else None
        if row is not None and path is not None and path.is_file():
            size = path.stat().st_size
            data = path.read_bytes() if size <= self.limits.inline_receipt else None
            meta: dict[str, Any] = {
                "role": "receipt",
                "kind": "receipt",
                "version": row.version,
                "content_digest": row.content_digest,
                "bytes": size,
            }
            out.append(
                mapping.file_artifact(
                    "receipt",
                    mapping.receipt_filename(grant.task_id, row.version),
                    data=data,
                    url=f"{base}/receipt",
                    media_type=MEDIA_BAG,
                    meta=meta if with_ext else None,
                    description="The receipt: answers to the asks, to merge into the passport that asked",
                )
            )
        return out

    def artifact_file(
        self, principal: str, task_id: str, artifact_id: str
    ) -> tuple[Path, str, str] | None:
        """(path, filename, media type) of a file artifact the principal may download."""
        grant = self.store.grant(principal, task_id)
        if grant is None:
            return None
        if artifact_id == "receipt":
            row = self.store.receipt(task_id) if grant.kind == "handoff" else None
            path = self.publisher.path_of(row) if row is not None and not row.error else None
            if row is None or path is None or not path.is_file():
                return None
            return path, mapping.receipt_filename(task_id, row.version), MEDIA_BAG
        if artifact_id.startswith("luggage-") and artifact_id[8:].isdigit():
            items = self.desk.luggage(task_id)
            n = int(artifact_id[8:])
            if 1 <= n <= len(items):
                item = items[n - 1]
                return (
                    self.desk.store.blob_path(item.sha256),
                    item.name,
                    mapping.media_type_for(item.name),
                )
        return None

    # == what this desk does not do ==================================================

    async def on_create_task_push_notification_config(
        self, params: Any, context: ServerCallContext
    ) -> Any:
        raise PushNotificationNotSupportedError()

    async def on_get_task_push_notification_config(
        self, params: Any, context: ServerCallContext
    ) -> Any:
        raise PushNotificationNotSupportedError()

    async def on_list_task_push_notification_configs(
        self, params: Any, context: ServerCallContext
    ) -> Any:
        raise PushNotificationNotSupportedError()

    async def on_delete_task_push_notification_config(
        self, params: Any, context: ServerCallContext
    ) -> None:
        raise PushNotificationNotSupportedError()

    async def on_get_extended_agent_card(self, params: Any, context: ServerCallContext) -> Any:
        raise ExtendedAgentCardNotConfiguredError()


# --- helpers ------------------------------------------------------------------------------


class _Abandoned(Exception):
    """The request that was landing a message was cancelled (its client went away)."""


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a failure nobody waited for is not logged twice
