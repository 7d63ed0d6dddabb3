"""What a part of the window asks of the window itself: which key its right side shows and
on which page, the banner, the tab order, saving the settings, coming to the front.

The parts (`inbox`, `incoming`, `watching`, `passport_actions`, `a2a_panel`, `drop_paste`)
are handed an object with this shape (`MainWindow`); they never read the window's
attributes. A key is a passport id, or ``file:<path>`` for an incoming file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QWidget

FILE_PREFIX = "file:"


class Side(Protocol):
    """The window as its parts see it."""

    def current(self) -> str | None:
        """The key the right side shows (None: the welcome page, or a new passport)."""
        ...

    def set_current(self, key: str | None) -> None: ...

    def select_key(self, key: str) -> None:
        """Show `key` on the right side, selecting its row when it is listed."""
        ...

    def show_page(self, page: QWidget) -> None: ...

    def shown_page(self) -> QWidget | None: ...

    def show_welcome(self) -> None: ...

    def show_loading(self) -> None: ...

    def composing(self) -> bool:
        """Whether the right side shows the composer (someone is typing in it)."""
        ...

    def schedule_tab_order(self, *_args: object) -> None: ...

    def info(self, message: str, kind: str = "info") -> None: ...

    def error(self, message: str) -> None: ...

    def save_settings(self) -> None: ...

    def present(self) -> None:
        """Bring the window to the front (files were handed to it)."""
        ...


def file_key(path: Path) -> str:
    return FILE_PREFIX + str(path)


def file_of(key: str | None) -> Path | None:
    """The incoming file a key names (None: a passport id, or nothing)."""
    return Path(key[len(FILE_PREFIX) :]) if key and key.startswith(FILE_PREFIX) else None


def passport_of(key: str | None) -> str | None:
    """The passport id a key names (None: an incoming file, or nothing)."""
    return key if key and not key.startswith(FILE_PREFIX) else None
