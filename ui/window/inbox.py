"""The inbox side of the window: the list of passports and incoming packs, its filters,
the background reload (after a change here, or one another process made: the poll), and
the selection. What the right side shows for a row is the window's to decide: the part
says which row the person chose (`InboxPart.chosen`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import Desk, visible
from taskpack.core.errors import TaskPackError
from taskpack.ui import ops
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import JobRunner
from taskpack.ui.models import KEY_ROLE, InboxFilter, InboxModel, Incoming, state_filter_choices
from taskpack.ui.ops import PassportRow
from taskpack.ui.window.keys_columns import (
    FITTED_COLUMNS,
    MiddleElided,
    RoomyRows,
    TwoLineState,
    fit_columns,
)

#: seconds; switching back to the window re-reads the list if it is older than this
REFRESH_ON_ACTIVATE_AFTER = 5.0
#: how often the window asks whether another process changed the store (a tiny read)
ELSEWHERE_POLL_MS = 1500
#: on a team desk, a change heard from the feed is read this soon (a burst is read once)
HEARD_READ_AFTER_MS = 50
#: a team desk out of reach is asked again this often (its feed also says when it is back)
UNREACHABLE_RETRY_MS = 2000


class InboxPart(QObject):
    """The list of passports and incoming packs, its filters and its reading."""

    chosen = Signal(str)  # the key of the row the person made current
    remove_requested = Signal(str)  # an incoming file's key: take it off the list
    loaded = Signal()  # the passports were read again (the list holds them now)
    changed = Signal(object)  # set[str]: passports changed; None: anything may have
    status_changed = Signal()  # what the status bar's summary counts changed
    out_of_reach = Signal(str)  # the team desk does not answer: this sentence says so
    back_in_reach = Signal(str)  # it answers again (the sentence that was shown)
    failed = Signal(str)
    _desk_changed = Signal(str, str)
    _elsewhere_heard = Signal()  # from a team desk's change feed (another thread)

    # built by `build` (again when the language changes)
    search: QLineEdit
    state_box: QComboBox
    sender_box: QComboBox
    asks_box: QCheckBox
    incoming_box: QCheckBox
    view: QTreeView
    remove_action: QAction
    _state_cells: TwoLineState

    def __init__(self, desk: Desk, jobs: JobRunner, parent: QObject) -> None:
        super().__init__(parent)
        self.desk = desk
        self.jobs = jobs
        self.model = InboxModel(self)
        self.proxy = InboxFilter(self)
        self.proxy.setSourceModel(self.model)
        self.loaded_once = False
        #: the summary's note while a team desk is out of reach ("" when it answers)
        self.unreachable_text = ""
        self._senders: dict[tuple[str, int], str] = {}
        self._refresh_pending = False
        self._refresh_again = False
        self._refreshed_at = 0.0
        self._changed_ids: set[str] = set()
        self._anything_changed = False
        self._closed = False
        self._change_timer = QTimer(self)
        self._change_timer.setSingleShot(True)
        self._change_timer.setInterval(30)
        self._change_timer.timeout.connect(self._after_changes)
        # the CLI or an agent's MCP server change the same store from another process
        self._elsewhere_timer = QTimer(self)
        self._elsewhere_timer.setInterval(ELSEWHERE_POLL_MS)
        self._elsewhere_timer.timeout.connect(self._poll_elsewhere)
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
        self._unhear = self._hear_elsewhere()
        self._desk_changed.connect(self._on_desk_changed, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe = desk.subscribe(lambda pid, event: self._desk_changed.emit(pid, event))

    # -- the list --------------------------------------------------------------

    def build(self) -> QWidget:
        """The list side: search, filters, the list (built again in a new language)."""
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
        lay.addWidget(self._build_view(), 1)
        return box

    def _build_view(self) -> QTreeView:
        self.view = QTreeView()
        self.view.setAccessibleName(tr("Passports and incoming packs"))
        self.view.setModel(self.proxy)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(InboxModel.UPDATED, Qt.SortOrder.DescendingOrder)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setItemDelegate(RoomyRows(self.view))
        self.view.setItemDelegateForColumn(InboxModel.SENDER, MiddleElided(self.view))
        self._state_cells = TwoLineState(self.view)
        self.view.setItemDelegateForColumn(InboxModel.STATE, self._state_cells)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(InboxModel.TITLE, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(36)
        for col in FITTED_COLUMNS:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        self.view.viewport().installEventFilter(self)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.remove_action = QAction(tr("Remove from the list"), self.view)
        self.remove_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.remove_action.setToolTip(
            tr("Take this incoming file off the list. The file stays where it is.")
        )
        self.remove_action.setEnabled(False)
        self.remove_action.triggered.connect(lambda _c=False: self.remove_selected())
        self.view.addAction(self.remove_action)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        return self.view

    def fit_columns(self) -> None:
        fit_columns(self.view, self._state_cells)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.view.viewport():
            self._fit_timer.start()
        return super().eventFilter(watched, event)

    def retranslate(self) -> None:
        self.model.retranslate()
        self.update_senders()

    # -- reading ---------------------------------------------------------------

    def refresh(self) -> None:
        """Reload the passports (in the background); incoming rows stay."""
        if self._refresh_pending:
            self._refresh_again = True  # a change after that read started: read once more
            return
        self._refresh_pending = True
        self._refresh_again = False
        self._refreshed_at = time.monotonic()
        desk, senders = self.desk, self._senders
        self.jobs.run(
            lambda p, c: ops.load_rows(desk, senders, p, c),
            title=tr("Reading the desk…"),
            on_done=self._rows_loaded,
            on_error=self._rows_failed,
            show_progress=False,
        )

    def refresh_if_stale(self) -> None:
        """The window became active: the CLI or an agent may have changed the store from
        another process, so the list is read again (at most every few seconds)."""
        if time.monotonic() - self._refreshed_at > REFRESH_ON_ACTIVATE_AFTER:
            self.refresh()

    def _rows_failed(self, message: str) -> None:
        self._refresh_pending = False
        self._refresh_again = False
        self.failed.emit(message)
        if self.desk.team_desk and not self._elsewhere_timer.isActive():
            self._elsewhere_timer.start(UNREACHABLE_RETRY_MS)  # the store may be back by then

    def _rows_loaded(self, rows: list[PassportRow]) -> None:
        self._refresh_pending = False
        if self._refresh_again:
            self.refresh()
        self.loaded_once = True
        self.model.set_passports(rows)
        self.update_senders()
        self.loaded.emit()

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
        if self._closed:  # a change heard as the window closed
            return
        try:
            changed = self.desk.changes_elsewhere()
        except (TaskPackError, sqlite3.Error) as exc:  # busy or closing: the next tick tries
            if self.desk.team_desk:
                self._lost_reach(str(exc))
            return
        if self.unreachable_text:
            self._reach_again()
        for pid in changed:
            self._on_desk_changed(pid, "elsewhere")

    def _lost_reach(self, why: str) -> None:
        """The team desk does not answer (a restart, a failover, the network): say so where
        a person looks, and ask again until it answers."""
        text = tr(
            "Cannot reach the team desk {where}; trying again. The list may be out of date."
        ).format(where=self.desk.team_desk)
        self.unreachable_text = text
        self.out_of_reach.emit(text)
        self.status_changed.emit()
        self._elsewhere_timer.start(UNREACHABLE_RETRY_MS)

    def _reach_again(self) -> None:
        shown, self.unreachable_text = self.unreachable_text, ""
        self.back_in_reach.emit(shown)
        self._anything_changed = True
        self._after_changes()  # catch up: anything may have changed meanwhile

    def _after_changes(self) -> None:
        changed, self._changed_ids = self._changed_ids, set()
        anything, self._anything_changed = self._anything_changed, False
        self.refresh()
        self.changed.emit(None if anything else changed)

    def idle(self) -> bool:
        """No reload pending nor running here."""
        return not self._change_timer.isActive() and not self._refresh_pending

    def shutdown(self) -> None:
        self._closed = True
        self._unhear()
        self._elsewhere_timer.stop()
        self._unsubscribe()

    # -- rows ------------------------------------------------------------------

    def update_senders(self) -> None:
        keep = self.sender_box.currentData() or ""
        self.sender_box.blockSignals(True)
        self.sender_box.clear()
        self.sender_box.addItem(tr("Anyone"), "")
        for sender in self.model.senders():
            self.sender_box.addItem(visible(sender), sender)
        self.sender_box.setCurrentIndex(max(0, self.sender_box.findData(keep)))
        self.sender_box.blockSignals(False)

    def add_incoming(self, item: Incoming) -> None:
        self.model.add_incoming(item)
        self.update_senders()
        self.status_changed.emit()

    def remove_incoming(self, path: Path) -> None:
        # removing the selected row would select its neighbour and show it: not wanted here
        selection = self.view.selectionModel()
        selection.blockSignals(True)
        self.model.remove_incoming(path)
        selection.blockSignals(False)
        self.status_changed.emit()

    def has_row(self, key: str) -> bool:
        return self.model.row_for_key(key) >= 0

    def is_empty(self) -> bool:
        return self.loaded_once and self.model.rowCount() == 0

    def counts(self) -> tuple[int, int]:
        """(passports, incoming packs not sent from here) in the list."""
        passports = sum(1 for r in self.model.rows() if isinstance(r, PassportRow))
        return passports, sum(1 for r in self.model.incoming() if not r.sent)

    def set_incoming_only(self, on: bool) -> None:
        self.incoming_box.setChecked(on)

    def clear_filters(self) -> None:
        self.search.clear()
        self.state_box.setCurrentIndex(0)
        self.sender_box.setCurrentIndex(0)
        self.asks_box.setChecked(False)
        self.incoming_box.setChecked(False)

    # -- the selection ---------------------------------------------------------

    def select_row(self, key: str) -> bool:
        """Make `key`'s row current without showing it again (False: not listed, or
        filtered out)."""
        row = self.model.row_for_key(key)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            return False
        sel = self.view.selectionModel()
        sel.blockSignals(True)
        self.view.setCurrentIndex(index)
        sel.blockSignals(False)
        return True

    def clear_selection(self, *, current_too: bool = False) -> None:
        self.view.clearSelection()
        if current_too:
            self.view.setCurrentIndex(QModelIndex())
            self.remove_action.setEnabled(False)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.remove_action.setEnabled(
            current.isValid() and str(current.data(KEY_ROLE)).startswith("file:")
        )
        if current.isValid():
            self.chosen.emit(str(current.data(KEY_ROLE)))

    def remove_selected(self) -> None:
        """Take the selected incoming file off the list (Delete key, context menu)."""
        index = self.view.currentIndex()
        key = str(index.data(KEY_ROLE) or "") if index.isValid() else ""
        if key.startswith("file:"):
            self.remove_requested.emit(key)
