"""Answers typed but not saved yet: kept so that nothing a person types is lost.

    drafts = Drafts(home)            # drafts.json in the desk's home folder
    drafts.set("TP-…", "a1", "Ms. Zhang")   # in memory at once; on disk shortly after
    drafts.of("TP-…")                # {"a1": "Ms. Zhang"}
    drafts.clear("TP-…", "a1")       # the answer was saved

A draft is not an answer: it never travels in a pack. `set` only updates memory and
schedules a write on a background thread (a window calls it on every keystroke, so the
GUI thread must not wait on the disk); `flush` writes now (on close). The file is
written atomically; a damaged file is set aside as drafts.json.damaged and the desk
starts with no drafts rather than failing.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from pathlib import Path

from taskpack.core.files import write_bytes_atomically
from taskpack.core.portable import replacing

log = logging.getLogger(__name__)

FILE_NAME = "drafts.json"
#: seconds between the last keystroke and the write
WRITE_AFTER = 0.5
#: a draft longer than this is kept in memory only (a pasted novel does not go to disk twice a second)
MAX_DRAFT = 1 << 20


class Drafts:
    """Per passport and ask, the text typed into an answer field. Thread-safe."""

    def __init__(self, home: Path) -> None:
        self.path = Path(home) / FILE_NAME
        self._lock = threading.Lock()
        #: one write at a time, in the order of the snapshots: a quit during the delayed
        #: write waits for it, and an older snapshot never lands over a newer one
        self._write_lock = threading.Lock()
        self._data: dict[str, dict[str, str]] | None = None
        self._timer: threading.Timer | None = None
        self._dirty = False

    def _load(self) -> dict[str, dict[str, str]]:
        if self._data is None:
            data: dict[str, dict[str, str]] = {}
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(raw, dict):
                    for pid, asks in raw.items():
                        if isinstance(pid, str) and isinstance(asks, dict):
                            data[pid] = {
                                a: t
                                for a, t in asks.items()
                                if isinstance(a, str) and isinstance(t, str)
                            }
            except FileNotFoundError:
                pass
            except (OSError, ValueError) as exc:
                log.warning(
                    "drafts file %s is damaged (%s); set aside, starting empty", self.path, exc
                )
                with contextlib.suppress(OSError):
                    replacing.replace(self.path, self.path.with_suffix(".json.damaged"))
            self._data = data
        return self._data

    def of(self, passport_id: str) -> dict[str, str]:
        with self._lock:
            return dict(self._load().get(passport_id, {}))

    def set(self, passport_id: str, ask_id: str, text: str) -> None:
        """Remember `text` for the ask ("" forgets it); written to disk shortly after."""
        with self._lock:
            data = self._load()
            asks = data.setdefault(passport_id, {})
            if asks.get(ask_id, "") == text:
                if not asks:
                    del data[passport_id]
                return
            if text:
                asks[ask_id] = text
            else:
                asks.pop(ask_id, None)
            if not asks:
                del data[passport_id]
            self._schedule()

    def clear(self, passport_id: str, ask_id: str) -> None:
        self.set(passport_id, ask_id, "")

    def _schedule(self) -> None:
        self._dirty = True
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(WRITE_AFTER, self.flush)
        self._timer.daemon = True
        self._timer.start()

    def flush(self) -> None:
        """Write the drafts now if anything changed (also called on close). Returns once
        what was typed is on disk, also when the delayed write was under way."""
        with self._write_lock:
            with self._lock:
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
                if not self._dirty or self._data is None:
                    return
                data = {
                    p: {a: t for a, t in asks.items() if len(t) <= MAX_DRAFT}
                    for p, asks in self._data.items()
                }
                self._dirty = False
            self._write({p: a for p, a in data.items() if a})

    def _write(self, data: dict[str, dict[str, str]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(data, ensure_ascii=False, indent=1)
            write_bytes_atomically(self.path, text.encode("utf-8"), fsync=False)
        except OSError as exc:  # the drafts stay in memory; the next change tries again
            log.warning("could not write drafts to %s: %s", self.path, exc)
            with self._lock:
                self._dirty = True
