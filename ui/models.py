"""The passport browser's list: passports in the store and packs that have arrived.

`InboxModel` is a table model (a `QAbstractItemModel`) with two kinds of rows: a
passport (`ops.PassportRow`) and an incoming file not yet landed (`Incoming`).
`InboxFilter` sorts and filters it: title search, lifecycle state, sender, "has open
asks", "incoming only".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDateTime,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor
from taskpack.app.desk import lifecycle
from taskpack.ui import tones
from taskpack.ui.i18n import tr, trn
from taskpack.ui.kind_icons import kind_icon
from taskpack.ui.ops import TAKE_ON_WHY, PassportRow
from taskpack.ui.widgets import plain_tip
from taskpack.ui.words import number, one_line

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
KEY_ROLE = Qt.ItemDataRole.UserRole + 3

INCOMING = "incoming"
SENT = "sent"


@dataclass(frozen=True)
class Incoming:
    """A pack file that arrived (dropped, opened, or found by the watcher), not landed yet."""

    path: Path
    title: str
    kind: str  # handoff | receipt | "" while unknown
    sender: str
    open_asks: int
    seen_at: str
    problem: str = ""  # one sentence if it did not open
    sent: bool = False  # this desk wrote it (seen in a watched folder on its way out)

    @property
    def key(self) -> str:
        return "file:" + str(self.path)


Row = PassportRow | Incoming


def row_key(row: Row) -> str:
    return row.key if isinstance(row, Incoming) else row.id


def row_state(row: Row) -> str:
    if isinstance(row, Incoming):
        return SENT if row.sent else INCOMING
    return row.state


def state_key(row: Row) -> str:
    """What the State filter matches: a row's state, and whom a waiting task waits on
    (``waiting[owner_approval]``) — the list says these in different words, so does the filter."""
    state = row_state(row)
    waiting_on = getattr(row, "waiting_on", None)
    return f"{state}[{waiting_on}]" if state == "waiting" and waiting_on else state


def state_filter_choices() -> list[tuple[str, str]]:
    """(words, key) for the State filter, in the words the list's State column uses."""
    keys: list[str] = [INCOMING, SENT]
    for state in lifecycle.STATES:
        if state == "waiting":
            keys += [f"waiting[{w}]" for w in lifecycle.WAITING_ON] + ["waiting"]
        else:
            keys.append(state)
    return [(described_label(k), k) for k in keys]


def incoming_label(row: Incoming) -> str:
    """An incoming file's State: what kind of file it is, and whose."""
    if row.sent:
        return tr("receipt you sent") if row.kind == "receipt" else tr("handoff you sent")
    return {"receipt": tr("receipt arrived"), "handoff": tr("handoff arrived")}.get(
        row.kind, state_label(INCOMING)
    )


def state_label(state: str, waiting_on: str | None = None) -> str:
    """Where a task stands, in plain words (never the protocol's internal names)."""
    if state == "waiting":
        return {
            "owner_approval": tr("needs your approval"),
            "human": tr("waiting on a person"),
            "agent": tr("waiting on an agent"),
        }.get(waiting_on or "", tr("on hold"))
    names = {
        "requested": tr("just arrived"),
        "routed": tr("ready to be taken on"),
        "accepted": tr("taken on, not started"),
        "working": tr("in progress"),
        "verifying": tr("result being checked"),
        "approval": tr("waiting for sign-off"),
        "completed": tr("done"),
        "rejected": tr("declined"),
        "cancelled": tr("cancelled"),
        INCOMING: tr("incoming"),
        SENT: tr("sent by you"),
    }
    return names.get(state, state)


def described_label(text: str) -> str:
    """`lifecycle.describe` output (``waiting[human]``, ``working``) in plain words."""
    m = re.fullmatch(r"(\w+)(?:\[(\w+)\])?", text.strip())
    return state_label(m.group(1), m.group(2)) if m else text


def why_label(why: str) -> str:
    """The state table's reason for a move (`lifecycle.MOVES`), translated."""
    return {
        "the gate allows it": tr("the sender is on your allow list"),
        "the gate holds it for the owner": tr("held for your approval"),
        "the owner approves": tr("you approved it"),
        "the owner denies": tr("you denied it"),
        "the assignee takes it on": tr("you took it on"),
        "the assignee declines": tr("you declined it"),
        "work starts": tr("work started"),
        "paused for a person's or an agent's answer": tr("paused for an answer"),
        "the answer came": tr("the answer came"),
        "a result with evidence was returned": tr("a result with evidence was returned"),
        "the evidence holds": tr("the evidence holds"),
        "verified work waits for sign-off": tr("checked work waits for sign-off"),
        "the evidence fails": tr("the evidence does not hold"),
        "signed off": tr("signed off"),
        "changes were asked for": tr("changes were asked for"),
        "sign-off refused": tr("sign-off refused"),
        "withdrawn before it finished": tr("withdrawn before it finished"),
        TAKE_ON_WHY: tr("taken on here by its owner, who also does the work"),
    }.get(why, why)


def short_time(stamp: str) -> str:
    """A store time ('2026-08-16T03:11:04Z', UTC) as this computer's local time, short:
    '11:11' today, '08-16' this year, else '2025-08-16'."""
    when = QDateTime.fromString(stamp, Qt.DateFormat.ISODate)
    if not when.isValid():
        return stamp[:10]
    local, now = when.toLocalTime(), QDateTime.currentDateTime()
    if local.date() == now.date():
        return local.toString("HH:mm")
    if local.date().year() == now.date().year():
        return local.toString("MM-dd")
    return local.toString("yyyy-MM-dd")


class InboxModel(QAbstractTableModel):
    TITLE, STATE, SENDER, ASKS, UPDATED = range(5)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Row] = []
        self.me = ""

    # -- contents --

    def rows(self) -> list[Row]:
        return list(self._rows)

    def set_passports(self, passports: list[PassportRow]) -> None:
        """Replace the passport rows; incoming rows stay (first, newest first)."""
        incoming = [r for r in self._rows if isinstance(r, Incoming)]
        self.beginResetModel()
        self._rows = [*incoming, *passports]
        self.endResetModel()

    def add_incoming(self, item: Incoming) -> None:
        """Add or refresh one incoming file (keyed by its path)."""
        for n, r in enumerate(self._rows):
            if isinstance(r, Incoming) and r.path == item.path:
                # what it says may change, not when it came: the row keeps its place
                self._rows[n] = replace(item, seen_at=r.seen_at)
                self.dataChanged.emit(self.index(n, 0), self.index(n, self.columnCount() - 1))
                return
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._rows.insert(0, item)
        self.endInsertRows()

    def remove_incoming(self, path: Path) -> None:
        for n, r in enumerate(self._rows):
            if isinstance(r, Incoming) and r.path == path:
                self.beginRemoveRows(QModelIndex(), n, n)
                del self._rows[n]
                self.endRemoveRows()
                return

    def incoming(self) -> list[Incoming]:
        """The file rows (packs that arrived, and packs this desk wrote seen in a folder)."""
        return [r for r in self._rows if isinstance(r, Incoming)]

    def row_for_key(self, key: str) -> int:
        for n, r in enumerate(self._rows):
            if row_key(r) == key:
                return n
        return -1

    def senders(self) -> list[str]:
        return sorted({r.sender for r in self._rows if r.sender}, key=str.casefold)

    # -- QAbstractItemModel --

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 5

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return [tr("Title"), tr("State"), tr("From"), tr("Asks"), tr("Updated")][section]

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        r = self._rows[index.row()]
        col = index.column()
        if role == ROW_ROLE:
            return r
        if role == KEY_ROLE:
            return row_key(r)
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            return self._text(r, col, role)
        if role == Qt.ItemDataRole.ToolTipRole:  # a sender's words, never read as HTML
            tip = self._text(r, col, role)
            return plain_tip(tip) if isinstance(tip, str) else tip
        if role == Qt.ItemDataRole.ForegroundRole:
            if isinstance(r, Incoming) and r.problem:
                return QBrush(QColor(tones.kind_colors("error")[1]))
            if row_state(r) in lifecycle.TERMINAL:
                return QBrush(QColor(tones.muted()))
        if role == Qt.ItemDataRole.DecorationRole and isinstance(r, Incoming) and col == self.STATE:
            # what kind of file it is, at a glance, even where the State's words are cut
            return kind_icon("problem" if r.problem else "sent" if r.sent else r.kind or "handoff")
        if role == Qt.ItemDataRole.FontRole and isinstance(r, Incoming) and col == self.TITLE:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        return None

    def _text(self, r: Row, col: int, role: int) -> Any:
        sort = role == SORT_ROLE
        if col == self.TITLE:
            if role == Qt.ItemDataRole.ToolTipRole:
                return (
                    r.problem
                    if isinstance(r, Incoming) and r.problem
                    else (one_line(r.path, 1000) if isinstance(r, Incoming) else r.id)
                )
            # the title column holds the title alone; what kind of file it is, the State says
            return r.title[:200].casefold() if sort else one_line(r.title)
        if col == self.STATE:
            if isinstance(r, Incoming):
                if r.problem:
                    return "" if sort else tr("cannot be opened")
                return "" if sort else incoming_label(r)
            return r.state if sort else state_label(r.state, r.waiting_on)
        if col == self.SENDER:
            if (isinstance(r, PassportRow) and r.came_from == "here") or (
                isinstance(r, Incoming) and r.sent
            ):
                return "" if sort else tr("you")
            return r.sender[:200].casefold() if sort else one_line(r.sender)
        if col == self.ASKS:
            drafts = getattr(r, "drafts", 0)
            if role == Qt.ItemDataRole.ToolTipRole and drafts:
                return trn("%n answers you typed wait here, not saved yet", drafts)
            if sort:
                return r.open_asks
            shown = number(r.open_asks) if r.open_asks else ""
            return f"{shown} ✎".strip() if drafts else shown  # a draft waits: it shows
        if col == self.UPDATED:
            stamp = r.seen_at if isinstance(r, Incoming) else r.updated_at
            return f"{stamp}\t{row_key(r)}" if sort else short_time(stamp)  # ties keep one order
        return None

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, 4))


class InboxFilter(QSortFilterProxyModel):
    """Search by title; filter by state, sender, open asks, incoming."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.search = ""
        self.state = ""  # "" = any, INCOMING, or a lifecycle state
        # not `sender`: that would hide QObject.sender()
        self.sender_only = ""  # "" = anyone
        self.open_asks_only = False
        self.incoming_only = False
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def set_filters(
        self,
        *,
        search: str | None = None,
        state: str | None = None,
        sender: str | None = None,
        open_asks_only: bool | None = None,
        incoming_only: bool | None = None,
    ) -> None:
        self.beginFilterChange()
        if search is not None:
            self.search = search.strip().casefold()
        if state is not None:
            self.state = state
        if sender is not None:
            self.sender_only = sender
        if open_asks_only is not None:
            self.open_asks_only = open_asks_only
        if incoming_only is not None:
            self.incoming_only = incoming_only
        self.endFilterChange()

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        model = self.sourceModel()
        r: Row = model.data(model.index(source_row, 0, source_parent), ROW_ROLE)
        if r is None:
            return False
        if self.search and self.search not in r.title[:1000].casefold():
            return False
        if self.incoming_only and row_state(r) != INCOMING:
            return False
        if self.state and state_key(r) != self.state:
            return False
        if self.sender_only and r.sender != self.sender_only:
            return False
        return not (self.open_asks_only and not r.open_asks)
