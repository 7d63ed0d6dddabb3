"""Changes made elsewhere, as they happen: every write transaction on a team desk sends
one NOTIFY on :data:`CHANNEL` (delivered only if it commits); each process keeps one
connection LISTENing on a thread of its own and counts what others sent. Nothing polls
the tables; a window hears of a change within a fraction of a second."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg

log = logging.getLogger(__name__)

CHANNEL = "taskpack_changes"


class Listener:
    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        #: notifications from other processes so far
        self.count = 0
        #: the feed lost its connection and is not back yet (the store may be out of reach)
        self.lost = False
        self._subscribers: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="team-listen", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=15)

    def subscribe(self, fn: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)

        return unsubscribe

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        pause = 0.2
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    pause = 0.2
                    if self.lost:  # what others wrote while the feed was down was not heard
                        self.lost = False
                        self._changed()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5, stop_after=64):
                            self._heard(note.payload)
            except psycopg.Error as exc:  # the server went away: catch up when it is back
                if not self.lost:  # say so once: a window shows that it cannot reach the store
                    log.warning("the team desk's change feed paused: %s", _first_line(exc))
                    self.lost = True
                    self._changed()
                self._ready.set()
                self._stop.wait(pause)
                pause = min(pause * 2, 1.0)  # back within a second of the server

    def _heard(self, payload: str) -> None:
        try:
            by: Any = json.loads(payload).get("by")
        except (ValueError, AttributeError):
            by = None
        if by != self.token:
            self._changed()

    def _changed(self) -> None:
        with self._lock:
            self.count += 1
            subscribers = list(self._subscribers)
        for fn in subscribers:
            try:
                fn()
            except Exception:  # a broken listener must not stop the feed
                log.exception("a team desk change subscriber failed")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
