"""Who changed what: desk events and a light poll, turned into wake-ups for streams.

Two sources, one signal (``changed(passport_id)``):

* the desk's own change notifications (``Desk.subscribe``) — instant, for changes made
  in this process (the desktop app hosting the server, or the server itself);
* a poll of the passport store every `interval` seconds that looks only at what changed
  since the last look (passports are listed newest first) — for changes made by another
  process on the same home: the ``taskpack`` command, or the app while ``taskpack serve``
  runs on its own.

A wake-up carries no data; a listener re-reads the durable state (the store is the
record, streams are ephemeral). Wake-ups for one task are coalesced.

A change to a task that came in as a handoff also asks the receipt publisher whether a
receipt is now due (in a worker thread, one task at a time).

When other server processes serve the same desk (`shared`), one of them packs receipts
(`publishes`): its poll learns of handoffs the others landed, and every process's poll
wakes the streams of a task whose receipt was published by another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.a2a.receipts import ReceiptPublisher

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

log = logging.getLogger(__name__)

#: seconds between two looks the change feed asked for (a storm of notices is one look
#: every this often, not a look per notice)
HEARD_GAP = 0.02


class Hub:
    def __init__(
        self,
        desk: Desk,
        store: A2AStore,
        publisher: ReceiptPublisher,
        *,
        interval: float = 1.0,
        shared: bool = False,
        publishes: bool = True,
    ) -> None:
        self.desk = desk
        self.store = store
        self.publisher = publisher
        self.interval = interval
        self.shared = shared
        self.publishes = publishes
        self._receipt_seqs: dict[str, int | None] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing: asyncio.Event | None = None
        self._listeners: dict[str, set[asyncio.Queue[None]]] = {}
        self._versions: dict[str, int] = {}
        self._looked = False
        self._handoffs: set[str] = set()
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._publishing: set[str] = set()
        self._again: set[str] = set()
        #: set when a shared store's change feed hears another process commit: the poll
        #: looks at once instead of at its next tick
        self._heard: asyncio.Event | None = None
        self._unhear: Callable[[], None] | None = None

    # -- lifecycle (call in the server's loop) --

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.closing = asyncio.Event()
        self._handoffs = await asyncio.to_thread(self.store.a2a_task_ids, "handoff")
        self._unsubscribe = self.desk.subscribe(self._from_desk)
        # other processes' changes as they commit, where the store can say (a team desk's
        # change feed); the embedded desk has none and is polled
        heard, loop = asyncio.Event(), self.loop
        self._unhear = await asyncio.to_thread(
            self.desk.on_changes_elsewhere, lambda: loop.call_soon_threadsafe(heard.set)
        )
        self._heard = heard if self._unhear is not None else None
        # learn the versions before serving: a change after this point is never missed
        watermark = await asyncio.to_thread(self._look, "")
        self._spawn(self._poll(watermark))
        for task_id in list(self._handoffs):  # receipts that fell due while we were away
            self._schedule_receipt(task_id)

    def close(self) -> None:
        """End every stream and stop polling (idempotent; call in the loop)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unhear is not None:
            self._unhear()
            self._unhear = None
        if self.closing is not None:
            self.closing.set()
        for queues in self._listeners.values():
            for q in queues:
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(None)
        for t in list(self._tasks):
            t.cancel()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- signals --

    def landed(self, task_id: str, *, handoff: bool, version: int, receipt_due: bool) -> None:
        """A pack landed here as `task_id` at `version` (a new task, or a receipt merged):
        wake its listeners, and publish its receipt if it is `receipt_due` already. The
        poll does not report this version again (it would only check the receipt twice)."""
        if handoff:
            self._handoffs.add(task_id)
        self._versions[task_id] = version
        self._wake(task_id)
        if receipt_due and task_id in self._handoffs:
            self._schedule_receipt(task_id)

    def _from_desk(self, passport_id: str, event: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
            loop.call_soon_threadsafe(self.changed, passport_id)

    def changed(self, passport_id: str) -> None:
        """Wake everyone listening to `passport_id` (in the loop's thread)."""
        self._wake(passport_id)
        if passport_id in self._handoffs:
            self._schedule_receipt(passport_id)

    def _wake(self, passport_id: str) -> None:
        for q in self._listeners.get(passport_id, ()):
            if q.empty():
                q.put_nowait(None)

    @contextlib.contextmanager
    def listen(self, passport_id: str) -> Iterator[asyncio.Queue[None]]:
        """A queue that receives a wake-up after each change of `passport_id`."""
        q: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._listeners.setdefault(passport_id, set()).add(q)
        try:
            yield q
        finally:
            queues = self._listeners.get(passport_id)
            if queues is not None:
                queues.discard(q)
                if not queues:
                    del self._listeners[passport_id]

    # -- receipts --

    def _schedule_receipt(self, task_id: str) -> None:
        if not self.publishes or (self.closing is not None and self.closing.is_set()):
            return
        if task_id in self._publishing:
            self._again.add(task_id)
            return
        self._publishing.add(task_id)
        self._spawn(self._publish(task_id))

    async def _publish(self, task_id: str) -> None:
        try:
            while True:
                self._again.discard(task_id)
                try:
                    changed = await asyncio.to_thread(self.publisher.ensure, task_id)
                except Exception:  # never let one task's receipt stop the hub
                    log.exception("publishing the receipt of %s failed", task_id)
                    changed = False
                if changed:
                    self._wake(task_id)
                if task_id not in self._again:
                    break
        finally:
            self._publishing.discard(task_id)

    # -- the poll --

    async def _poll(self, watermark: str) -> None:
        while True:
            if self._heard is None:
                await asyncio.sleep(self.interval)
            else:  # at the next tick, or as soon as another process commits
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._heard.wait(), self.interval)
                self._heard.clear()
                await asyncio.sleep(HEARD_GAP)  # a burst of commits is one look
            try:
                watermark = await asyncio.to_thread(self._look, watermark)
            except asyncio.CancelledError:
                raise
            except Exception:  # a locked or busy store: look again next time
                log.debug("the A2A poll could not read the store", exc_info=True)

    def _look(self, watermark: str) -> str:
        """Report passports changed since `watermark` (the list is newest first, so stop
        at the first older one). The first look only learns the versions."""
        first = not self._looked
        self._looked = True
        seen: list[tuple[str, int]] = []
        newest = watermark
        offset, page = 0, 64
        more = True
        while more:
            rows = self.desk.store.summaries(limit=page, offset=offset)
            offset += page
            more = len(rows) == page and not first
            for row in rows:
                if row.updated_at < watermark:
                    more = False
                    break
                newest = max(newest, row.updated_at)
                seen.append((row.id, row.version))
        changed = [pid for pid, v in seen if not first and self._versions.get(pid) != v]
        for pid, v in seen:
            self._versions[pid] = v
        if self.shared:
            changed += self._look_elsewhere(changed)
        loop = self.loop
        if changed and loop is not None and not loop.is_closed():
            for pid in changed:
                loop.call_soon_threadsafe(self.changed, pid)
        return newest

    def _look_elsewhere(self, changed: list[str]) -> list[str]:
        """What other processes did that the store's versions do not show: handoffs they
        landed (so this one packs their receipts) and receipts published for a task some
        stream here follows. Returns the tasks whose receipt changed."""
        if self.publishes and any(pid not in self._handoffs for pid in changed):
            self._handoffs |= self.store.a2a_task_ids("handoff")
        woken = []
        for pid in list(self._listeners):
            row = self.store.receipt(pid)
            seq = row.seq if row is not None else None
            # first seen: wake it too (a stream only shows what differs from what it sent)
            if pid not in self._receipt_seqs or self._receipt_seqs[pid] != seq:
                woken.append(pid)
            self._receipt_seqs[pid] = seq
        for pid in set(self._receipt_seqs) - set(self._listeners):
            del self._receipt_seqs[pid]
        return woken
