"""The inbox side of the window: the list of passports and incoming packs, its filters,
the background reload (after a change here, or one another process made: the poll), the
selection and what the right side shows for it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import visible
from taskpack.core.errors import TaskPackError
from taskpack.ui import ops, paging
from taskpack.ui.i18n import tr, trn
from taskpack.ui.models import KEY_ROLE, InboxModel, state_filter_choices
from taskpack.ui.ops import PassportRow
from taskpack.ui.window.incoming import sample_packs
from taskpack.ui.window.keys_columns import FITTED_COLUMNS

#: seconds; switching back to the window re-reads the list if it is older than this
REFRESH_ON_ACTIVATE_AFTER = 5.0
#: how often the window asks whether another process changed the store (a tiny read)
ELSEWHERE_POLL_MS = 1500
#: on a team desk, a change heard from the feed is read this soon (a burst is read once)
HEARD_READ_AFTER_MS = 50
#: a team desk out of reach is asked again this often (its feed also says when it is back)
UNREACHABLE_RETRY_MS = 2000


class RoomyRows(QStyledItemDelegate):
    """Rows a little taller than a line of text: the font's own height left descenders
    (g, y, p) and the bold title touching the next row."""

    PADDING = 6

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        size = super().sizeHint(option, index)
        line = max(option.fontMetrics.height(), option.fontMetrics.lineSpacing())  # type: ignore[attr-defined]
        return QSize(size.width(), max(size.height(), line + self.PADDING))


class MiddleElided(RoomyRows):
    """A cell cut in the middle when it is narrow ("Wei Zha…@wei-laptop"): a sender's name
    and machine both stay in view; the whole of it is in the tooltip."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle  # type: ignore[attr-defined]


class InboxMixin:
    """The list and its filters (part of `MainWindow`)."""

    # -- the list --------------------------------------------------------------

    def _build_list(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(6, 6, 0, 6)
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search titles"))
        self.search.setAccessibleName(tr("Search titles"))  # (a placeholder is not a name)
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda text: self.proxy.set_filters(search=text))
        lay.addWidget(self.search)
        filters = QHBoxLayout()
        self.state_box = QComboBox()
        self.state_box.addItem(tr("All states"), "")
        for words, key in state_filter_choices():  # the words the State column says
            self.state_box.addItem(words, key)
        self.state_box.currentIndexChanged.connect(
            lambda _i: self.proxy.set_filters(state=self.state_box.currentData() or "")
        )
        self.state_box.setAccessibleName(tr("Filter by state"))
        self.sender_box = QComboBox()
        self.sender_box.setAccessibleName(tr("Filter by sender"))
        self.sender_box.addItem(tr("Anyone"), "")
        self.sender_box.currentIndexChanged.connect(
            lambda _i: self.proxy.set_filters(sender=self.sender_box.currentData() or "")
        )
        for combo in (self.state_box, self.sender_box):  # narrow windows: the list may shrink
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        filters.addWidget(self.state_box, 1)
        filters.addWidget(self.sender_box, 1)
        lay.addLayout(filters)
        checks = QHBoxLayout()
        self.asks_box = QCheckBox(tr("Has open asks"))
        self.asks_box.toggled.connect(lambda on: self.proxy.set_filters(open_asks_only=on))
        self.incoming_box = QCheckBox(tr("Incoming only"))
        self.incoming_box.toggled.connect(lambda on: self.proxy.set_filters(incoming_only=on))
        checks.addWidget(self.asks_box)
        checks.addWidget(self.incoming_box)
        checks.addStretch(1)
        lay.addLayout(checks)
        self.list = QTreeView()
        self.list.setAccessibleName(tr("Passports and incoming packs"))
        self.list.setModel(self.proxy)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSortingEnabled(True)
        self.list.sortByColumn(InboxModel.UPDATED, Qt.SortOrder.DescendingOrder)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setItemDelegate(RoomyRows(self.list))
        self.list.setItemDelegateForColumn(InboxModel.SENDER, MiddleElided(self.list))
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(InboxModel.TITLE, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(36)
        for col in FITTED_COLUMNS:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        # the title takes the spare width; the others are fitted to what they show, and
        # share at most OTHER_COLUMNS_SHARE of the list when it is narrow
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit_columns)
        for sig in (
            self.proxy.modelReset,
            self.proxy.rowsInserted,
            self.proxy.layoutChanged,
            self.proxy.dataChanged,
        ):
            sig.connect(self._fit_timer.start)
        self.list.viewport().installEventFilter(self)
        self.list.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.remove_action = QAction(tr("Remove from the list"), self.list)
        self.remove_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.remove_action.setToolTip(
            tr("Take this incoming file off the list. The file stays where it is.")
        )
        self.remove_action.setEnabled(False)
        self.remove_action.triggered.connect(lambda _c=False: self.remove_selected())
        self.list.addAction(self.remove_action)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        lay.addWidget(self.list, 1)
        return box

    def refresh(self) -> None:
        """Reload the passports (in the background); incoming rows stay."""
        if self._refresh_pending:
            self._refresh_again = True  # a change after that read started: read once more
            return
        self._refresh_pending = True
        self._refresh_again = False
        self._refreshed_at = time.monotonic()
        self.jobs.run(
            lambda p, c: ops.load_rows(self.desk, self._senders, p, c),
            title=tr("Reading the desk…"),
            on_done=self._rows_loaded,
            on_error=self._rows_failed,
            show_progress=False,
        )

    def _rows_failed(self, message: str) -> None:
        self._refresh_pending = False
        self._refresh_again = False
        self.error(message)
        if self.desk.team_desk and not self._elsewhere_timer.isActive():
            self._elsewhere_timer.start(UNREACHABLE_RETRY_MS)  # the store may be back by then

    def _rows_loaded(self, rows: list[PassportRow]) -> None:
        self._refresh_pending = False
        if self._refresh_again:
            self.refresh()
        self._loaded = True
        current = self._current
        self.model.set_passports(rows)
        self._update_senders()
        if current:
            self._select_row(current)
        self._update_welcome()
        self._update_status()

    def _on_desk_changed(self, passport_id: str, event: str) -> None:
        # changes arrive in bursts (land = landed + moved): reload once per burst
        self._changed_ids.add(passport_id)
        self._change_timer.start()

    def _hear_elsewhere(self) -> Callable[[], None]:
        """Ask whether another process changed the store: when a team desk's change feed
        says so (it calls on its own thread: the queued signal hops to this one, and bursts
        are read once), or every ELSEWHERE_POLL_MS on the embedded desk. Returns the
        unsubscribe."""
        unhear = self.desk.on_changes_elsewhere(self._elsewhere_heard.emit)
        if unhear is None:
            self._elsewhere_timer.start()
            return lambda: None
        self._elsewhere_timer.setSingleShot(True)
        self._elsewhere_timer.setInterval(HEARD_READ_AFTER_MS)
        self._elsewhere_heard.connect(self._heard_elsewhere, Qt.ConnectionType.QueuedConnection)
        return unhear

    def _heard_elsewhere(self) -> None:
        # a burst is read once, soon after its first notice: restarting the wait on every
        # notice would read nothing while notices keep coming (a busy or hostile sender)
        timer = self._elsewhere_timer
        if not timer.isActive() or timer.remainingTime() > HEARD_READ_AFTER_MS:
            timer.start(HEARD_READ_AFTER_MS)

    def _poll_elsewhere(self) -> None:
        if getattr(self, "_closed", False):  # a change heard as the window closed
            return
        try:
            changed = self.desk.changes_elsewhere()
        except (TaskPackError, sqlite3.Error) as exc:  # busy or closing: the next tick tries
            if self.desk.team_desk:
                self._out_of_reach(str(exc))
            return
        if self._unreachable_text:
            self._back_in_reach()
        for pid in changed:
            self._on_desk_changed(pid, "elsewhere")

    def _out_of_reach(self, why: str) -> None:
        """The team desk does not answer (a restart, a failover, the network): say so where
        a person looks, and ask again until it answers."""
        text = tr(
            "Cannot reach the team desk {where}; trying again. The list may be out of date."
        ).format(where=self.desk.team_desk)
        if self.banner.text() != text:
            self.banner.show_message(text, "warn")
        self._unreachable_text = text
        self._update_status()
        self._elsewhere_timer.start(UNREACHABLE_RETRY_MS)

    def _back_in_reach(self) -> None:
        if self.banner.text() == self._unreachable_text:
            self.banner.clear()
        self._unreachable_text = ""
        self._changed_ids.add(self._current or "")
        self._after_changes()  # catch up: anything may have changed meanwhile

    def idle(self) -> bool:
        """No background job running and no reload pending (tests wait for this)."""
        return (
            self.jobs.idle()
            and not self._change_timer.isActive()
            and not self._refresh_pending
            and not self._a2a_busy
            and not paging.filling()
        )

    def _after_changes(self) -> None:
        changed, self._changed_ids = self._changed_ids, set()
        self.refresh()
        if self._current in changed:
            self._load_passport(self._current, keep_tab=True)

    def _update_senders(self) -> None:
        keep = self.sender_box.currentData() or ""
        self.sender_box.blockSignals(True)
        self.sender_box.clear()
        self.sender_box.addItem(tr("Anyone"), "")
        for sender in self.model.senders():
            self.sender_box.addItem(visible(sender), sender)
        self.sender_box.setCurrentIndex(max(0, self.sender_box.findData(keep)))
        self.sender_box.blockSignals(False)

    def _update_welcome(self) -> None:
        empty = self._loaded and self.model.rowCount() == 0
        self.welcome_samples.setVisible(empty)
        self.samples_button.setVisible(bool(sample_packs()))  # cached: no disk here
        # the composer stays: someone is typing in it
        page = self.stack.currentWidget()
        if self._current is None and page is not self.welcome and page is not self.composer:
            self.stack.setCurrentWidget(self.welcome)

    def _update_status(self) -> None:
        passports = sum(1 for r in self.model.rows() if isinstance(r, PassportRow))
        incoming = sum(1 for r in self.model.incoming() if not r.sent)
        text = tr("{passports}, {incoming}").format(
            passports=trn("%n passports", passports), incoming=trn("%n incoming", incoming)
        )
        if self.bridge is not None:  # only folders whose change events arrive are "watched"
            watcher = self.bridge.watcher
            live = len(watcher.live_folders)
            rescanned = len(watcher.folders) - live
            if live or not rescanned:
                text += " · " + trn("watching %n folders", live)
            if rescanned:
                text += " · " + trn(
                    "%n folders checked every {seconds} s (no change events)", rescanned
                ).format(seconds=f"{watcher.rescan_every:g}")
        team = self.desk.team_desk
        if team and self._unreachable_text:
            text += " · " + tr("team desk {where} out of reach").format(where=team)
        elif team:  # everyone on it sees these passports: say so where a person looks
            text += " · " + tr("team desk {where}").format(where=team)
        self.summary_label.setText(text)

    def status_summary(self) -> str:
        """The summary at the left of the status bar (hidden while a message shows)."""
        return str(self.summary_label.text())

    def clear_filters(self) -> None:
        self.search.clear()
        self.state_box.setCurrentIndex(0)
        self.sender_box.setCurrentIndex(0)
        self.asks_box.setChecked(False)
        self.incoming_box.setChecked(False)

    # -- the selection ---------------------------------------------------------

    def _select_row(self, key: str) -> bool:
        row = self.model.row_for_key(key)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            return False
        sel = self.list.selectionModel()
        sel.blockSignals(True)
        self.list.setCurrentIndex(index)
        sel.blockSignals(False)
        return True

    def select_key(self, key: str) -> None:
        """Show a passport id or an incoming file key, selecting its row when visible."""
        self._select_row(key)
        self._show_key(key)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.remove_action.setEnabled(
            current.isValid() and str(current.data(KEY_ROLE)).startswith("file:")
        )
        if current.isValid():
            self._show_key(current.data(KEY_ROLE))

    def remove_selected(self) -> None:
        """Take the selected incoming file off the list (Delete key, context menu)."""
        index = self.list.currentIndex()
        key = str(index.data(KEY_ROLE) or "") if index.isValid() else ""
        if not key.startswith("file:"):
            return
        path = Path(key[5:])
        reviewed = self._reviews.get(path)
        if reviewed is not None:
            self._remember_dismissed(reviewed.review.content_digest)
        self._forget_incoming(path)
        if self._current == key:
            self._current = None
            self.stack.setCurrentWidget(self.welcome)
        self.list.clearSelection()
        self.list.setCurrentIndex(QModelIndex())
        self.remove_action.setEnabled(False)
        self.info(
            tr(
                "Removed {name} from the list. The file was left where it is; nothing was stored."
            ).format(name=path.name)
        )

    def _show_key(self, key: str) -> None:
        if self._current != key:
            self.banner.clear()  # a message is about what was shown before
        self._current = key
        if key.startswith("file:"):
            path = Path(key[5:])
            if path in self._reviews:
                self.show_review(path)
                self.schedule_tab_order()
                self.stack.setCurrentWidget(self.review_view)
            else:
                self._review(path, show=True)
        else:
            self._load_passport(key)

    def changeEvent(self, event: QEvent) -> None:
        # the CLI or an agent may have changed the store from another process: coming back
        # to the window reads the list again (at most every few seconds)
        if (
            event.type() == QEvent.Type.ActivationChange
            and self.isActiveWindow()
            and time.monotonic() - self._refreshed_at > REFRESH_ON_ACTIVATE_AFTER
        ):
            self.refresh()
        super().changeEvent(event)
