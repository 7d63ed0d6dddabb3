"""Watchdog's observer for this platform, and what its events can be trusted to say.

Each platform's own observer: inotify on Linux, ReadDirectoryChangesW on Windows,
FSEvents on macOS, kqueue on the BSDs; watchdog's ``Observer`` names it. Only Linux's
inotify observer is imported by name, and only when it is the platform's: importing it
elsewhere does not fail cleanly (on Windows it raises ``TypeError`` from ctypes, which
once left the watcher dead while the window said it was watching).

What an event proves, per platform (the watcher's settle rule covers the rest):

* ``closed_is_complete`` — a close-after-write event means the writer is done (inotify's
  close-write; no other observer reports closes);
* ``moved_is_complete`` — a file renamed into the folder is whole (inotify's moved-to,
  asked for with ``generate_full_events``; ReadDirectoryChangesW's rename pair). FSEvents
  coalesces and may report a rename late or as a change, so there every file settles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Events:
    observer: Any
    closed_is_complete: bool
    moved_is_complete: bool

    @property
    def kind(self) -> str:
        """The observer's kind, as watchdog names its module (``inotify``, ``read_directory_changes``…)."""
        return str(type(self.observer).__module__).rsplit(".", 1)[-1]


def platform_observer() -> Events:
    """A new, unstarted observer of this platform's kind. Raises ImportError when watchdog
    has none here (then only the watcher's rescans find packs)."""
    from watchdog.observers import Observer

    module = Observer.__module__
    if module == "watchdog.observers.inotify":
        from watchdog.observers.inotify import InotifyObserver

        return Events(InotifyObserver(generate_full_events=True), True, True)
    if module == "watchdog.observers.read_directory_changes":
        return Events(Observer(), False, True)
    return Events(Observer(), False, False)
