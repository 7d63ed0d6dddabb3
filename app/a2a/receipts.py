"""The receipt appears as an artifact once the asks that came with a handoff are answered.

A handoff that came in over A2A carried asks (spec §4.3). When none of them is open
any more — each answered or dropped by the person at this desk — or when the task is
completed, this desk packs a receipt of the passport through the desk's one packing
path (`Desk.pack`: refusals, sealing, the chain extended, spec §3.1) and keeps it under
``a2a/receipts/``. The Task shows it as the artifact ``receipt`` carrying the
``.taskpack`` file part; the asker fetches it and merges it home (§4.4.1).

A later change to the answers or the state packs a fresh receipt (the artifact is
replaced); a change to anything else does not. A receipt the rules refuse to pack (a
credential in an answer, say) is not retried until the answers change, and the Task's
status message says why.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.a2a.ledger import A2AStore, ReceiptRow
from taskpack.app.a2a.mapping import receipt_filename
from taskpack.core.errors import TaskPackError
from taskpack.core.format.model import LocalPassport

if TYPE_CHECKING:
    from taskpack.app.desk import Desk

log = logging.getLogger(__name__)

RECEIPTS_DIR = "receipts"
#: a receipt kept in a team desk's store, by digest (the ledger's `file` column)
IN_STORE = "sha256:"


def carried_asks(lp: LocalPassport) -> list[str]:
    """The ids of the asks that came with the handoff this passport was landed from."""
    return [a for a in (lp.received.asks if lp.received else None) or [] if a]


def receipt_due(lp: LocalPassport) -> bool:
    if lp.state in ("rejected", "cancelled"):
        return False
    if lp.state == "completed":
        return True
    carried = set(carried_asks(lp))
    if not carried:
        return False
    return all((a.status or "open") != "open" for a in lp.asks or [] if a.id in carried)


def receipt_to(lp: LocalPassport) -> str:
    """Who a receipt goes back to, for the outbox ledger: the handoff's sender over A2A."""
    origin = lp.received.origin if lp.received else None
    who = "@".join(x for x in ((origin.actor, origin.machine) if origin else ()) if x)
    return f"{who or 'the sender'} (over A2A)"


def receipt_key(lp: LocalPassport) -> str:
    """What a receipt answers: the asks' answers and the task's state. Same key, same receipt."""
    asks = [[a.id, a.status, a.answer] for a in lp.asks or []]
    text = json.dumps(
        {"asks": asks, "state": lp.state}, sort_keys=True, ensure_ascii=False, default=str
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()  # (lone ones too)


class ReceiptPublisher:
    """Packs receipts for A2A tasks when they are due. Safe to call from any thread."""

    def __init__(self, desk: Desk, store: A2AStore) -> None:
        self.desk = desk
        self.store = store
        self.root = store.dir / RECEIPTS_DIR
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, task_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(task_id, threading.Lock())

    def path_of(self, row: ReceiptRow) -> Path | None:
        if not row.file:
            return None
        if row.file.startswith(IN_STORE):  # a team desk's: a local copy, checked
            try:
                return self.desk.store.blob_path(row.file.removeprefix(IN_STORE))
            except TaskPackError:
                return None
        return self.store.dir / row.file

    def _keep(self, out: Path) -> str:
        """What the ledger records of where a receipt is: on a team desk its bytes go
        into the store (every server process of the desk serves it), elsewhere the file
        stays under ``a2a/receipts/``."""
        if not getattr(self.desk.store, "shared", False):
            return str(out.relative_to(self.store.dir))
        with open(out, "rb") as f:
            sha256, _size = self.desk.store.put_blob(f)
        out.unlink()
        return IN_STORE + sha256

    def ensure(self, task_id: str) -> bool:
        """Publish a receipt for `task_id` if one is due and not yet published.
        Returns True when the task's receipt changed."""
        with self._lock(task_id):
            try:
                lp = self.desk.get(task_id)
            except TaskPackError:
                return False
            if not receipt_due(lp):
                return False
            key = receipt_key(lp)
            prior = self.store.receipt(task_id)
            if prior is not None and prior.key == key:
                return False
            folder = self.root / task_id
            folder.mkdir(parents=True, exist_ok=True)
            out = folder / receipt_filename(task_id, lp.version)
            try:
                outcome = self.desk.pack(
                    task_id,
                    out,
                    kind="receipt",
                    encoding="bag",
                    note="Answers to your asks, returned over A2A.",
                    to=receipt_to(lp),
                    via="a2a",
                )
            except TaskPackError as exc:
                log.warning("the receipt for %s could not be packed: %s", task_id, exc)
                self.store.save_receipt(task_id, key, version=lp.version, error=str(exc))
                return True
            self.store.save_receipt(
                task_id,
                key,
                version=outcome.version,
                content_digest=outcome.content_digest,
                file=self._keep(out),
                size=outcome.size,
            )
            old = None
            if prior is not None and not (prior.file or "").startswith(IN_STORE):
                old = self.path_of(prior)
            if old is not None and old != out:
                with contextlib.suppress(OSError):
                    old.unlink()
            return True
