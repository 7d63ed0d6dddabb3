"""The History tab: what happened to a passport as a timeline, newest first.

Each row is a dot on one line down the left edge, coloured by what kind of thing it was
(the pack came in, a pack went out, the task moved, an edit), then when, what and where
(a file written, an email opened, sent over A2A, merged, landed), the version it left,
the details, and who did it (person and machine). A detail too long for its column is
shown whole, with the file's full path, on hover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)
from taskpack.app.desk import visible
from taskpack.ui.history_text import entry_detail, history_label, sent_detail
from taskpack.ui.i18n import tr
from taskpack.ui.widgets import plain_tip
from taskpack.ui.words import local_time, one_line

if TYPE_CHECKING:
    from taskpack.app.desk import HistoryEntry, PackWritten
    from taskpack.ui.ops import Detail

#: rows shown at most (the newest): a long-lived passport keeps its whole history in the desk
HISTORY_SHOWN = 500

#: what kind of thing a row is, by its event (its dot's colour)
KINDS = {
    "landed": "in",
    "merged": "in",
    "packed": "out",
    "mailed": "out",
    "moved": "move",
    "restored": "check",
    "checked": "check",
}
COLOURS = {"in": "#2f6fd6", "out": "#2e9d5b", "move": "#8a8f98", "check": "#c98a12"}
_ROLE_KIND = Qt.ItemDataRole.UserRole + 1
_DOT = 9
_GUTTER = 22


def where_label(entry: HistoryEntry, sent: PackWritten | None) -> str:
    """What happened, with where it went: a file written, sent over A2A, an email opened,
    a receipt merged, a pack landed (the event's own name otherwise)."""
    if entry.event == "packed":
        kind = sent.kind if sent else entry.detail.get("kind")
        if sent is not None and sent.via == "a2a":
            return tr("receipt sent over A2A") if kind == "receipt" else tr("sent over A2A")
        return tr("receipt file written") if kind == "receipt" else tr("handoff file written")
    return history_label(entry.event)


def who_label(entry: HistoryEntry, detail: Detail) -> str:
    """Who did it, as person and machine: the team desk records ``name@machine`` on each
    row; one person's desk is this desk's person on this machine."""
    if entry.who:
        person, _, machine = entry.who.rpartition("@")
        if person and machine:
            return tr("{person} on {machine}").format(
                person=one_line(visible(person), 40), machine=one_line(visible(machine), 40)
            )
        return one_line(visible(entry.who), 80)
    if detail.actor and detail.machine:
        return tr("{person} on {machine}").format(
            person=one_line(visible(detail.actor), 40),
            machine=one_line(visible(detail.machine), 40),
        )
    return tr("this desk")


def packs_written(detail: Detail) -> dict[int, PackWritten]:
    """history seq → the outbox entry of each ``packed`` row (written in the same commit)."""
    sent: dict[int, PackWritten] = {}
    pending = list(detail.sent)
    for entry in detail.history:
        if entry.event == "packed":
            digest = entry.detail.get("content_digest")
            match = next((e for e in pending if e.sha256 == digest), None)
            if match is not None:
                pending.remove(match)
                sent[entry.seq] = match
    return sent


class TimelineDelegate(QStyledItemDelegate):
    """Column 0 of the History: a line down the rows and a coloured dot for each one."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        rect: QRect = option.rect
        shifted = QStyleOptionViewItem(option)
        shifted.rect = rect.adjusted(_GUTTER, 0, 0, 0)
        super().paint(painter, shifted, index)
        kind = index.data(_ROLE_KIND) or ""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        x = rect.left() + _GUTTER / 2
        palette: QPalette = option.palette
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 2))
        top = rect.top() if index.row() > 0 else rect.center().y()
        last = index.model().rowCount(index.parent()) - 1
        bottom = rect.bottom() if index.row() < last else rect.center().y()
        painter.drawLine(QPointF(x, top), QPointF(x, bottom + 1))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(COLOURS.get(str(kind), palette.color(QPalette.ColorRole.Text))))
        centre = QPointF(x, rect.center().y() + 0.5)
        painter.drawEllipse(centre, _DOT / 2, _DOT / 2)
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> Any:
        size = super().sizeHint(option, index)
        size.setWidth(size.width() + _GUTTER)
        size.setHeight(max(size.height(), _DOT + 8))
        return size


class HistoryTimeline(QTreeWidget):
    """The History tab: one row per thing that happened, newest first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRootIsDecorated(False)
        self.setHeaderLabels(
            [tr("When"), tr("What happened"), tr("Version"), tr("Details"), tr("Who")]
        )
        self.setItemDelegateForColumn(0, TimelineDelegate(self))
        header = self.header()
        header.setStretchLastSection(False)  # the details take the room, not who
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)

    def show_history(self, detail: Detail) -> None:
        self.clear()
        sent = packs_written(detail)
        for entry in list(reversed(detail.history))[:HISTORY_SHOWN]:
            written = sent.get(entry.seq)
            text = sent_detail(written) if written else entry_detail(entry.event, entry.detail)
            item = QTreeWidgetItem(
                [
                    local_time(entry.at),
                    where_label(entry, written),
                    str(entry.version),
                    text,
                    who_label(entry, detail),
                ]
            )
            item.setData(0, _ROLE_KIND, KINDS.get(entry.event, "edit"))
            # a long detail is cut in its column: the whole line (and the file) on hover
            path = visible(written.path or "") if written else ""
            item.setToolTip(3, plain_tip(text + (f"\n{path}" if path else "")))
            item.setToolTip(1, plain_tip(item.text(1)))
            self.addTopLevelItem(item)
        for col in (0, 1, 2, 4):
            self.resizeColumnToContents(col)
