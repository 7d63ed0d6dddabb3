"""Long lists built a page at a time: the first page now, the rest behind "Show N more", and
each page in small batches per turn of the event loop so the window never pauses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from taskpack.ui.i18n import tr
from taskpack.ui.words import number

T = TypeVar("T")

#: items shown at once in a long list (asks, facts, checks…); "Show more" adds the next page
PAGE = 40


#: fact rows per page: each is a wrapped claim beside its standing, and Qt laying out twice
#: as many (with the rest of a review) held the GUI thread long enough to be felt
FACT_PAGE = 20


#: a page is built a few widgets per turn of the event loop, for at most this long per
#: turn (a page of ask cards at once was a visible stall on a busy machine), so building a page never blocks the
#: GUI thread for long; the "Show more" button appears once the page is complete
BATCH_MS = 20


#: lists of up to this many widgets are built at once, as they always were
BATCH = 8


class _Fills(QObject):
    """Pages being built a batch at a time; `settled` when the last one is complete."""

    settled = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.pending = 0

    def done(self) -> None:
        self.pending -= 1
        if not self.pending:
            self.settled.emit()


fills = _Fills()


def filling() -> bool:
    """Some page is still being built (the window is not idle until it is complete)."""
    return fills.pending > 0


def _fill(
    layout: QVBoxLayout,
    anchor: QWidget,
    items: Sequence[T],
    make: Callable[[T], QWidget],
    then: Callable[[], None],
) -> None:
    """Insert make(item) for `items` before `anchor`, in later turns of the event loop
    (`BATCH_MS` each), then then()."""
    fills.pending += 1
    at = [0]

    def step() -> None:
        if not shiboken6.isValid(anchor) or not shiboken6.isValid(layout):
            fills.done()  # the view was rebuilt meanwhile
            return
        place = layout.indexOf(anchor)
        clock = time.perf_counter()
        while at[0] < len(items):  # at least one per turn
            layout.insertWidget(place, make(items[at[0]]))
            place += 1
            at[0] += 1
            if (time.perf_counter() - clock) * 1000 >= BATCH_MS:
                break
        if at[0] < len(items):
            QTimer.singleShot(0, step)
            return
        try:
            then()
        finally:
            fills.done()

    QTimer.singleShot(0, step)  # the view around it is laid out and painted first


def add_paged(
    lay_add: Callable[[QWidget], object],
    items: Sequence[T],
    make: Callable[[T], QWidget],
    *,
    page: int = PAGE,
    parent_layout: QVBoxLayout | None = None,
) -> QPushButton | None:
    """Add the first `page` widgets for `items`; a "Show more" button adds the next page.

    `lay_add` adds one widget to the container; `parent_layout` (the container's layout)
    is where the later pages go, before the button. Returns the button (None: all shown).
    With `parent_layout`, a page of more than `BATCH` widgets is built a batch per turn of
    the event loop (see `filling`); `items` may be any sequence (e.g. asks as pages,
    `core.pages.AskPages`): only the slice shown is ever read.
    """
    first = items[:page]
    if parent_layout is None or (len(first) <= BATCH and len(items) <= page):
        for item in first:
            lay_add(make(item))
        if len(items) <= page or parent_layout is None:
            return None
    more = QPushButton()
    shown = [len(first) if len(first) <= BATCH else 0]
    busy = [False]

    def label() -> None:
        left = len(items) - shown[0]
        more.setText(
            tr("Show {n} more (of {total})").format(n=min(page, left), total=number(len(items)))
        )

    def page_done(upto: int, start: int = -1) -> None:
        busy[0] = False
        shown[0] = upto
        if shown[0] >= len(items):
            if more.hasFocus() and start >= 0:  # reading goes on at the first new item
                first = parent_layout.itemAt(start) if parent_layout else None
                _focus_first(first.widget() if first is not None else None)
            more.hide()
            more.deleteLater()
        else:
            label()
            more.show()

    def next_page() -> None:
        # one page at a time; the button stays enabled and focused (disabling it would move
        # the focus back to the first field of the list, and the view with it)
        if busy[0]:
            return
        busy[0] = True
        upto = min(shown[0] + page, len(items))
        start = parent_layout.indexOf(more) if parent_layout is not None else -1
        _fill(parent_layout, more, items[shown[0] : upto], make, lambda: page_done(upto, start))

    more.clicked.connect(lambda _c=False: next_page())
    lay_add(more)
    if shown[0]:  # the first page is already there
        page_done(shown[0])
        return more if shown[0] < len(items) else None
    more.hide()
    _fill(parent_layout, more, first, make, lambda: page_done(len(first)))
    return more if len(first) < len(items) else None


def _focus_first(widget: QWidget | None) -> None:
    """Focus the first widget in `widget` (itself included) that takes focus by Tab."""
    if widget is None:
        return
    for w in [widget, *widget.findChildren(QWidget)]:
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisibleTo(widget.window()):
            w.setFocus()
            return
