"""The keyboard and the list's columns: Enter does what the page's default button does, Tab
goes through the window as it reads (`TabOrder`), and the inbox columns are fitted to what
they show (`fit_columns`).
"""

from __future__ import annotations

import itertools
import math

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QPoint, QSize, Qt, QTimer
from PySide6.QtGui import QFontMetricsF, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTabBar,
    QTreeView,
    QWidget,
)
from shiboken6 import isValid
from taskpack.ui.models import InboxModel

#: the inbox columns sized to their contents (the title takes what is left)
FITTED_COLUMNS = (InboxModel.STATE, InboxModel.SENDER, InboxModel.ASKS, InboxModel.UPDATED)
STATE = InboxModel.STATE


#: pixels the sort arrow takes beside its column's header word
SORT_ARROW = 14
#: at most this share of a narrow list goes to those columns
OTHER_COLUMNS_SHARE = 0.6
#: and at most this share when the state would be cut: the count, the time, the whole state
#: and a usual sender come first, then the short header words (at 800×600: two lines of
#: state, and "root@alpha" whole beside a title still the widest column)
STATE_SHARE = 0.69


#: a narrow list keeps this many characters of a sender whole (``root@alpha``, a name and
#: its machine) before the state is shown whole, and this many of the state
SENDER_KEEP = 16
STATE_KEEP = 12
#: then, after the header words, a sender of up to this many (``Wei Chen@wei-laptop``)
SENDER_NAME = 20


def allotted(
    steps: list[tuple[int, int]],
    columns: tuple[int, ...],
    least: int,
    budget: int,
    start: dict[int, int] | None = None,
) -> dict[int, int]:
    """Widths for `columns`: each starts at `least` (or its width in `start`), then grows
    to the width of each step ((column, width)) in turn, as far as `budget` allows."""
    out = dict(start) if start is not None else {c: least for c in columns}
    left = budget - sum(out.values())
    for col, upto in steps:
        grow = max(0, min(upto - out[col], left))
        out[col] += grow
        left -= grow
    return out


def width_steps(
    shown: dict[int, int],
    label: dict[int, int],
    char: int,
    arrow: int,
    *,
    state_first: bool = False,
) -> list[tuple[int, int]]:
    """What a narrow inbox shows first: the count and the time, the sender (a long one is
    elided in the middle), the state, the header words, a sender of a usual length, the
    rest of the state and of the sender, then room for the sort arrow beside its header
    word."""
    asks, updated = InboxModel.ASKS, InboxModel.UPDATED
    sender, state = InboxModel.SENDER, InboxModel.STATE
    steps = [
        (asks, shown[asks]),
        (updated, shown[updated]),
        (sender, min(shown[sender], char * SENDER_KEEP)),
        (state, min(shown[state], char * STATE_KEEP)),
        (asks, label[asks]),
        (updated, label[updated]),
        (sender, min(shown[sender], char * SENDER_NAME)),
        (state, shown[state]),
        (sender, shown[sender]),
        (sender, label[sender]),
        (state, label[state]),
    ]
    if arrow in shown:
        steps.append((arrow, max(shown[arrow], label[arrow]) + SORT_ARROW))
    return steps


class RoomyRows(QStyledItemDelegate):
    """Rows a little taller than a line of text: the font's own height left descenders
    (g, y, p) and the bold title touching the next row."""

    PADDING = 6

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        size = super().sizeHint(option, index)
        line = max(option.fontMetrics.height(), option.fontMetrics.lineSpacing())
        return QSize(size.width(), max(size.height(), line + self.PADDING))


class MiddleElided(RoomyRows):
    """A cell cut in the middle when it is narrow ("Wei Zha…@wei-laptop"): a sender's name
    and machine both stay in view; the whole of it is in the tooltip."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def two_line_width(fm: QFontMetricsF, text: str) -> int:
    """The least width that shows `text` whole on at most two lines, broken at a space (and
    the pixel a laid-out line takes beyond its characters' advance)."""
    words = text.split(" ")
    best = fm.horizontalAdvance(text)
    for cut in range(1, len(words)):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        best = min(best, max(fm.horizontalAdvance(first), fm.horizontalAdvance(second)))
    return math.ceil(best) + 1


class TwoLineState(RoomyRows):
    """The State cell, written on two lines when the list is too narrow for it on one
    ("needs your / approval" rather than "ne…"): a person reads where each task stands
    before anything else in its row but the title. `two_lines` is set by `fit_columns`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.two_lines = False

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        two_lines, self.two_lines = self.two_lines, False
        try:  # the cell on one line: its text, its mark, its margins
            size = super().sizeHint(option, index)
        finally:
            self.two_lines = two_lines
        if not two_lines:
            return size
        fm = QFontMetricsF(option.font)
        text = str(index.data() or "")
        width = size.width() - math.ceil(fm.horizontalAdvance(text)) + two_line_width(fm, text)
        lines = 2 * math.ceil(fm.lineSpacing())
        return QSize(width, max(size.height(), lines + self.PADDING))

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        if self.two_lines:
            option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText


def essentials(shown: dict[int, int], char: int) -> list[tuple[int, int]]:
    """What a narrow row must show whole: its count, its time, its whole state, and a
    sender of a usual length."""
    return [
        (InboxModel.ASKS, shown[InboxModel.ASKS]),
        (InboxModel.UPDATED, shown[InboxModel.UPDATED]),
        (STATE, shown[STATE]),
        (InboxModel.SENDER, min(shown[InboxModel.SENDER], char * SENDER_KEEP)),
    ]


def _ancestors(w: QWidget, stop: QWidget) -> list[QWidget]:
    out: list[QWidget] = []
    p = w.parentWidget()
    while p is not None and p is not stop:
        out.append(p)
        p = p.parentWidget()
    return out


# -- keyboard ------------------------------------------------------------------


def enter_pressed(event: QKeyEvent, window: QWidget) -> bool:
    """A plain Enter or Return from a place where Enter means nothing else: the list, the
    tabs, the page itself (a text field's Enter is its own, and it may have moved the focus
    before the window gets it)."""
    plain_key = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    focus = QApplication.focusWidget()
    browsing = (
        focus is None
        or focus is window
        or isinstance(focus, QAbstractItemView | QTabBar | QScrollArea)
    )
    return event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and bool(plain_key) and browsing


def default_button(page: QWidget | None) -> QPushButton | None:
    """The visible, enabled default button of `page` (Land, Merge, Take this on), if any."""
    for b in page.findChildren(QPushButton) if page is not None else []:
        if b.isDefault() and b.isVisible() and b.isEnabled():
            return b
    return None


class TabOrder(QObject):
    """Tab goes through the window as it reads: the list side top to bottom, then the right
    side top to bottom, left to right within a line (widgets built later, like a passport's
    buttons, would otherwise come last)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._panes: tuple[QWidget, QWidget] | None = None
        self._chain: list[QWidget] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.order)

    def set_panes(self, left: QWidget, right: QWidget) -> None:
        self._panes = (left, right)

    def schedule(self, *_args: object) -> None:
        self._timer.start()

    def order(self) -> None:
        if self._panes is None:
            return
        window = self._window
        chain: list[QWidget] = []
        for pane in self._panes:
            found: list[tuple[int, int, int, QWidget]] = []
            for w in pane.findChildren(QWidget):
                if (
                    w.focusPolicy() & Qt.FocusPolicy.TabFocus
                ) != Qt.FocusPolicy.TabFocus or not w.isVisibleTo(window):
                    continue
                if w.focusProxy() is not None or not w.isEnabled():
                    continue
                if any(isinstance(a, QComboBox | QAbstractSpinBox) for a in _ancestors(w, pane)):
                    continue  # the line edit inside a combo or spin box
                top = w.mapTo(window, QPoint(0, 0))
                found.append(((top.y() + w.height() // 2) // 12, top.x(), top.y(), w))
            chain += [w for *_k, w in sorted(found, key=lambda k: k[:3])]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)
        self._chain = chain

    def step(self, forward: bool) -> bool:
        """Move the focus along the chain `order` made, round the whole window; False when
        the focus is outside it (Qt's own focus ring then decides). Qt's ring also holds
        widgets that hand their focus on (a tab widget to its tab bar): reaching one sent
        Tab back into the page, never to the list again."""
        window = self._window
        chain = [w for w in self._chain if isValid(w) and w.isVisibleTo(window) and w.isEnabled()]
        here: QWidget | None = QApplication.focusWidget()
        while here is not None and here not in chain:
            here = here.parentWidget()  # (the line edit inside a combo box: the combo box)
        if here is None or len(chain) < 2:
            return False
        target = chain[(chain.index(here) + (1 if forward else -1)) % len(chain)]
        reason = Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        return True


# -- columns -------------------------------------------------------------------


def fit_columns(view: QTreeView, cells: TwoLineState) -> None:
    """Size State, From, Asks and Updated to what they show, within OTHER_COLUMNS_SHARE of
    the list; Title stretches over the rest. A narrow list grants the widths in the order of
    `width_steps`: what the rows say before the header words. When that cuts the state,
    the count, the time, the whole state and a usual sender (`essentials`), then the short
    header words, are granted first, within STATE_SHARE; if even that cuts one of the
    essentials, the state is written on two lines (`cells`: its delegate), every row as
    tall."""
    header = view.header()
    model = view.model()
    avail = view.viewport().width()
    fm, least = header.fontMetrics(), header.minimumSectionSize()
    shown = {c: max(least, view.sizeHintForColumn(c)) for c in FITTED_COLUMNS}
    label = {
        c: fm.horizontalAdvance(str(model.headerData(c, Qt.Orientation.Horizontal))) + 12
        for c in FITTED_COLUMNS
    }
    arrow, char = header.sortIndicatorSection(), fm.averageCharWidth()
    normal, wider = int(avail * OTHER_COLUMNS_SHARE), int(avail * STATE_SHARE)
    was = cells.two_lines
    cells.two_lines = False
    shown[STATE] = max(least, view.sizeHintForColumn(STATE))
    widths = allotted(width_steps(shown, label, char, arrow), FITTED_COLUMNS, least, normal)
    if widths[STATE] < shown[STATE] - 1:  # the state is cut (a pixel of a hint is rounding)
        first = essentials(shown, char)
        widths = allotted(first, FITTED_COLUMNS, least, wider)
        if any(widths[c] < upto for c, upto in first):  # even so: on two lines
            cells.two_lines = True
            shown[STATE] = max(least, view.sizeHintForColumn(STATE))
            widths = allotted(essentials(shown, char), FITTED_COLUMNS, least, wider)
        headers = [(c, label[c]) for c in (InboxModel.ASKS, InboxModel.UPDATED)]
        widths = allotted(headers, FITTED_COLUMNS, least, wider, start=widths)
        steps = width_steps(shown, label, char, arrow)
        widths = allotted(steps, FITTED_COLUMNS, least, normal, start=widths)
    if cells.two_lines != was:
        view.doItemsLayout()  # every row is as tall as the first: one line, or two
    for col, width in widths.items():
        header.resizeSection(col, width)
