"""The desk's window: a browser of passports and incoming packs beside a detail view.

Left: the inbox list (search, state, sender, "has open asks", "incoming only"). Right:
a welcome page (first run: the sample packs), a landing review, or a passport. Packs
arrive by drag and drop, File → Open, the command line, a second launch, or the folder
watcher; each is reviewed before anything is stored, and lands only when the person
says so. Every slow action runs through `JobRunner`; errors are one sentence in the
banner at the top of the right side. When Settings say so, the window also serves its
desk over A2A (`app.a2a.endpoint.A2AEndpoint`), started and stopped off the GUI thread; the status bar
says whether it is serving.
"""

from __future__ import annotations

import functools
import html
import itertools
import logging
import os
import sqlite3
import time
from importlib import resources
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QMimeData,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QIcon,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QSystemTrayIcon,
    QTabBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.a2a.endpoint import A2AEndpoint, EndpointState, start_failure
from taskpack.app.desk import Desk, utc_now
from taskpack.app.paths import ACTOR_ENV, actor_name
from taskpack.app.watcher import FoundPack
from taskpack.core.desk import lifecycle
from taskpack.core.desk.accept import LandingOutcome, MergeOutcome
from taskpack.core.desk.identity import display_name, sender_label
from taskpack.core.errors import TaskPackError
from taskpack.core.format import vocabulary
from taskpack.core.format.record_pages import open_count
from taskpack.core.trust.refusals import credential_in
from taskpack.core.trust.visible_text import visible
from taskpack.ui import dialogs, i18n, ops, style, widgets
from taskpack.ui.export import Exporter
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import JobRunner, sentence
from taskpack.ui.models import INCOMING, KEY_ROLE, InboxFilter, InboxModel, Incoming, state_label
from taskpack.ui.ops import Detail, PassportRow, Reviewed
from taskpack.ui.passport_view import PassportView
from taskpack.ui.review_view import ReviewView
from taskpack.ui.settings_dialog import SettingsDialog, a2a_wanted, watch_enabled, watched_folders
from taskpack.ui.widgets import Banner, button, heading, plain

log = logging.getLogger(__name__)

PACK_SUFFIXES = (*vocabulary.PACK_SUFFIXES, ".json")
#: how many discarded packs are remembered (by content digest) so the watcher stays quiet
DISMISSED_KEEP = 500
#: keys this window keeps in Settings.other: packs opened from outside the watched folders
#: (shown again after a restart until landed, discarded or removed), and the window's place
OPENED_KEY = "opened_files"
#: set when the person chose "Not now" for their name (the first-run bar stays away)
NAME_ASKED_KEY = "name_asked"
GEOMETRY_KEY = "window_geometry"
#: seconds; switching back to the window re-reads the list if it is older than this
REFRESH_ON_ACTIVATE_AFTER = 5.0
#: how often the window asks whether another process changed the store (a tiny read)
ELSEWHERE_POLL_MS = 1500


def samples_dir() -> Path:
    return Path(str(resources.files("taskpack.resources") / "samples"))


@functools.cache
def sample_packs() -> list[Path]:
    """The sample packs shipped in resources/samples, handoffs first (read once)."""
    folder = samples_dir()
    if not folder.is_dir():
        return []
    packs = [p for p in folder.iterdir() if p.name.endswith((".taskpack", ".taskpack.json"))]
    return sorted(packs, key=lambda p: ("receipt" in p.name, p.name))  # handoffs first


def icon() -> QIcon:
    folder = Path(str(resources.files("taskpack.resources") / "icons"))
    result = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        png = folder / f"taskpack-desk-{size}.png"
        if png.is_file():
            result.addFile(str(png))
    return result


def local_paths(mime: QMimeData) -> list[Path]:
    """The local files in a drag (anything else — web links, text — is not ours)."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


def is_pack_name(path: Path) -> bool:
    return path.name.lower().endswith(PACK_SUFFIXES)


def pack_paths(mime: QMimeData) -> list[Path]:
    """The local files in a drag that could be packs (by name; the reader decides)."""
    return [p for p in local_paths(mime) if is_pack_name(p)]


def not_packs_sentence(paths: list[Path]) -> str:
    """One sentence for dropped files that are not packs."""
    names = [p.name for p in paths]
    if len(names) == 1:
        return tr(
            "{name} is not a TaskPack file (those end in .taskpack or .taskpack.json); "
            "nothing was opened."
        ).format(name=names[0])
    return tr(
        "{names} are not TaskPack files (those end in .taskpack or .taskpack.json); "
        "nothing was opened from them."
    ).format(names=", ".join(names[:3]) + (" …" if len(names) > 3 else ""))


def a2a_failure(exc: BaseException, host: str, port: int) -> str:
    """Why the endpoint did not start, as one sentence for the status bar."""
    why = start_failure(exc)
    if why == "in-use":
        return tr(
            "Port {port} on {host} is already in use (another desk, or “taskpack serve”?). "
            "Choose another port in Settings."
        ).format(port=port, host=host)
    if why == "no-such-address":
        return tr("{host} is not an address of this machine. Check the host in Settings.").format(
            host=host
        )
    if why == "not-permitted":
        return tr(
            "This desk may not listen on port {port}. Choose a port above 1024 in Settings."
        ).format(port=port)
    return tr("The endpoint did not start: {why}").format(why=sentence(exc))


#: the inbox columns sized to their contents (the title takes what is left)
FITTED_COLUMNS = (InboxModel.STATE, InboxModel.SENDER, InboxModel.ASKS, InboxModel.UPDATED)
#: at most this share of a narrow list goes to those columns
OTHER_COLUMNS_SHARE = 0.6


def capped(want: dict[int, int], budget: int) -> dict[int, int]:
    """Widths that fit `budget`: every width above one common cap is cut to it, so a
    narrow column keeps its size and the widest give way first."""
    if sum(want.values()) <= budget:
        return dict(want)
    left, cap = budget, 0
    rest = sorted(want.values())
    for i, w in enumerate(rest):
        share = left // (len(rest) - i)
        if w > share:
            cap = share
            break
        left -= w
    return {c: min(w, cap) for c, w in want.items()}


def withheld_label(what: str, kind: str) -> str:
    """What a row or a notification shows for a pack's title or sender holding a credential."""
    if what == "sender":
        return tr("(sender withheld: it contains a credential — {kind})").format(kind=kind)
    return tr("(title withheld: it contains a credential — {kind})").format(kind=kind)


def shown_or_withheld(text: str, what: str) -> str:
    """`text` from a pack, or :func:`withheld_label` when it holds a credential: packs are
    untrusted, and a secret found in one is named by kind, never shown."""
    kind = credential_in(text)
    return text if kind is None else withheld_label(what, kind)


def found_text(item: FoundPack, what: str) -> str:
    """The watcher's title or sender of `item` (it withheld a credential already), in the
    window's language."""
    kind = item.withheld_kind(what)
    return withheld_label(what, kind) if kind is not None else getattr(item, what)


class MainWindow(QMainWindow):
    _desk_changed = Signal(str, str)

    def __init__(
        self, desk: Desk, *, watch: bool = True, watcher_options: dict[str, Any] | None = None
    ) -> None:
        super().__init__()
        style.install()  # the focus ring (the application may have been made elsewhere)
        self.desk = desk
        self.setWindowTitle("TaskPack Desk")
        self.setWindowIcon(icon())
        self.setAcceptDrops(True)
        self._restore_geometry()
        self.jobs = JobRunner(self)
        self.exporter = Exporter(self)
        self.model = InboxModel(self)
        self.proxy = InboxFilter(self)
        self.proxy.setSourceModel(self.model)
        self._senders: dict[tuple[str, int], str] = {}
        self._reviews: dict[Path, Reviewed] = {}
        self._current: str | None = None  # the key the right side shows
        self._highlight: dict[str, tuple[set[str], str]] = {}
        self._loaded = False
        self._refresh_pending = False
        self._refresh_again = False
        self._refreshed_at = 0.0
        self.detail: Detail | None = None
        self.bridge: Any = None
        self.tray: QSystemTrayIcon | None = None
        self._watcher_options = watcher_options or {}
        self._changed_ids: set[str] = set()
        self._load_seq = 0
        self._wanted_tab: int | None = None
        self._pending_note = ""
        self._change_timer = QTimer(self)
        self._change_timer.setSingleShot(True)
        self._change_timer.setInterval(30)
        self._change_timer.timeout.connect(self._after_changes)
        # the CLI or an agent's MCP server change the same store from another process
        self._elsewhere_timer = QTimer(self)
        self._elsewhere_timer.setInterval(ELSEWHERE_POLL_MS)
        self._elsewhere_timer.timeout.connect(self._poll_elsewhere)
        self._elsewhere_timer.start()
        self.a2a = A2AEndpoint(desk)
        self._a2a_busy = False
        self._a2a_again = False
        self._a2a_state = EndpointState()
        self._tab_timer = QTimer(self)
        self._tab_timer.setSingleShot(True)
        self._tab_timer.setInterval(0)
        self._tab_timer.timeout.connect(self._order_tabs)
        widgets.fills.settled.connect(
            self.schedule_tab_order
        )  # a page built in batches is complete
        self._build()
        self.a2a_label = QLabel()
        self.statusBar().addPermanentWidget(self.a2a_label)
        self.summary_label = QLabel()  # a widget, not a message: hovering a menu does not erase it
        self.statusBar().addWidget(self.summary_label, 1)
        self._update_a2a()
        self._desk_changed.connect(self._on_desk_changed, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe = desk.subscribe(lambda pid, event: self._desk_changed.emit(pid, event))
        self.refresh()
        self._reopen_remembered()
        if watch:
            QTimer.singleShot(0, self.start_watcher)
        if a2a_wanted(desk.settings) is not None:
            self.apply_a2a()

    # -- building (again, when the language changes) -----------------------------------

    def _build(self) -> None:
        self._build_menus()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._build_list())
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(6, 6, 6, 0)
        self.name_bar = self._build_name_bar()
        lay.addWidget(self.name_bar)
        self.banner = Banner()
        lay.addWidget(self.banner)
        self.stack = QStackedWidget()
        self.stack.currentChanged.connect(self.schedule_tab_order)
        lay.addWidget(self.stack, 1)
        self.welcome = self._build_welcome()
        self.review_view = ReviewView()
        self.review_view.land_requested.connect(self.land_current)
        self.review_view.merge_requested.connect(self.merge_current)
        self.review_view.discard_requested.connect(self.discard_current)
        self.review_view.judge_requested.connect(self.judge_current)
        self.review_view.save_luggage_requested.connect(self.save_review_luggage)
        self.review_view.show_passport_requested.connect(self.select_key)
        self.passport_view = PassportView()
        pv = self.passport_view
        pv.move_requested.connect(self.move_current)
        pv.take_on_requested.connect(self.take_on_current)
        pv.result_requested.connect(self.return_result)
        pv.export_requested.connect(self.export_current)
        pv.restore_requested.connect(self.restore_fact)
        pv.check_fact_requested.connect(self.check_fact_here)
        pv.check_landing_requested.connect(self.check_landing_here)
        pv.save_answers_requested.connect(self.save_answers)
        pv.asks.draft_store = self.desk.drafts  # every keystroke is kept (app/drafts.py)
        pv.answer_requested.connect(self.answer_ask)
        pv.add_requested.connect(self.add_to_current)
        pv.save_luggage_requested.connect(self.save_stored_luggage)
        self.loading = plain(tr("Reading…"), muted=True)
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for page in (self.welcome, self.review_view, self.passport_view, self.loading):
            self.stack.addWidget(page)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([520, 700])  # scaled to the window as it is resized
        self.setCentralWidget(splitter)
        self.statusBar()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        bar.clear()
        file_menu = bar.addMenu(tr("&File"))
        self.open_action = self._action(
            file_menu, tr("&Open packs…"), self.open_dialog, QKeySequence.StandardKey.Open
        )
        self._action(file_menu, tr("Open the sa&mple packs"), self.open_samples)
        self._action(
            file_menu, tr("&New passport…"), self.new_passport, QKeySequence.StandardKey.New
        )
        file_menu.addSeparator()
        self._action(
            file_menu, tr("&Settings…"), self.open_settings, QKeySequence.StandardKey.Preferences
        )
        file_menu.addSeparator()
        self._action(file_menu, tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        edit = bar.addMenu(tr("&Edit"))
        self.paste_action = self._action(
            edit, tr("&Paste a pack"), self.paste, QKeySequence.StandardKey.Paste
        )
        self.paste_action.setToolTip(
            tr(
                "Open a pack from the clipboard: a copied file, or a reply "
                "pasted from a chat or an email."
            )
        )
        view = bar.addMenu(tr("&View"))
        self._action(view, tr("&Incoming packs"), lambda: self.incoming_box.setChecked(True))
        self._action(view, tr("&All passports"), self.clear_filters)
        self._action(view, tr("&Refresh"), self.refresh, QKeySequence.StandardKey.Refresh)
        help_menu = bar.addMenu(tr("&Help"))
        self._action(help_menu, tr("&About TaskPack Desk"), self.about)

    def _action(self, menu: Any, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(lambda _c=False: slot())
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def _build_list(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(6, 6, 0, 6)
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search titles"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda text: self.proxy.set_filters(search=text))
        lay.addWidget(self.search)
        filters = QHBoxLayout()
        self.state_box = QComboBox()
        self.state_box.addItem(tr("All states"), "")
        self.state_box.addItem(state_label(INCOMING), INCOMING)
        for state in lifecycle.STATES:
            self.state_box.addItem(state_label(state), state)
        self.state_box.currentIndexChanged.connect(
            lambda _i: self.proxy.set_filters(state=self.state_box.currentData() or "")
        )
        self.sender_box = QComboBox()
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
        self.list.setModel(self.proxy)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSortingEnabled(True)
        self.list.sortByColumn(InboxModel.UPDATED, Qt.SortOrder.DescendingOrder)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
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

    def _build_name_bar(self) -> QWidget:
        """First run: who is this? The name signs answers, checks and the packs sent."""
        bar = QFrame()
        bar.setObjectName("namebar")
        bar.setStyleSheet(
            "#namebar { background: #e8f1fd; border: 1px solid #1c3f9b; border-radius: 3px; }"
        )
        lay = QVBoxLayout(bar)
        lay.setContentsMargins(10, 6, 6, 6)
        self.name_question = plain(
            tr(
                "What is your name? It signs your answers, the checks you make and the packs you send "
                "(this machine, {machine}, is added to it). You can change it in Settings."
            ).format(machine=self.desk.machine)
        )
        lay.addWidget(self.name_question)
        line = QHBoxLayout()
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(tr("e.g. Wei Zhang"))
        self.name_edit.returnPressed.connect(self.save_name)
        line.addWidget(self.name_edit, 1)
        self.name_save = button(tr("Use this name"), self.save_name, primary=True)
        line.addWidget(self.name_save)
        self.name_later = button(tr("Not now"), lambda: self.save_name(later=True))
        line.addWidget(self.name_later)
        lay.addLayout(line)
        bar.setVisible(self._name_unknown())
        return bar

    def _name_unknown(self) -> bool:
        settings = self.desk.settings
        return (
            not settings.actor
            and not os.environ.get(ACTOR_ENV, "").strip()
            and not settings.other.get(NAME_ASKED_KEY)
        )

    def save_name(self, *, later: bool = False) -> None:
        """Keep the name typed in the first-run bar (or, with `later`, stop asking)."""
        if later:
            self.desk.settings.other[NAME_ASKED_KEY] = True
        else:
            name = display_name(self.name_edit.text(), self.desk.machine)
            if name is None:
                self.name_edit.setFocus()
                return
            self.desk.settings.actor = name
            self.desk.actor = name
            self.info(
                tr("Thank you. Your answers and packs are signed {who}.").format(
                    who=sender_label(name, self.desk.machine)
                ),
                "ok",
            )
        self.name_bar.hide()
        self._save_settings()

    def _build_welcome(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        lay.setContentsMargins(40, 40, 40, 40)
        lay.addWidget(heading(tr("Work handed to you by file lands here"), 1))
        lay.addWidget(
            plain(
                tr(
                    "Drag a .taskpack or .taskpack.json file onto this window, or open one. You will see "
                    "what is proven and what is not, the checks to do first and the questions to answer "
                    "— before anything is stored. Nothing in a pack is ever run."
                )
            )
        )
        self.welcome_samples = plain(
            tr(
                "Your desk is empty. The sample packs show a handoff with sealed facts and required "
                "checks, a Chinese-language handoff, and a receipt."
            ),
            muted=True,
        )
        lay.addWidget(self.welcome_samples)
        buttons = QHBoxLayout()
        buttons.addWidget(button(tr("Open a pack…"), self.open_dialog, primary=True))
        self.samples_button = button(tr("Open the sample packs"), self.open_samples)
        buttons.addWidget(self.samples_button)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        lay.addStretch(1)
        return page

    # -- language ------------------------------------------------------------------------

    def set_language(self, language: str | None) -> None:
        i18n.install(language)
        current = self._current
        self._build()
        self.model.retranslate()
        self._update_senders()
        self._update_welcome()
        if current:
            self.select_key(current)
        self._update_status()
        self._update_a2a()

    # -- the list ------------------------------------------------------------------------

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

    def _poll_elsewhere(self) -> None:
        try:
            changed = self.desk.changes_elsewhere()
        except (TaskPackError, sqlite3.Error):  # busy or closing: the next tick tries again
            return
        for pid in changed:
            self._on_desk_changed(pid, "elsewhere")

    def idle(self) -> bool:
        """No background job running and no reload pending (tests wait for this)."""
        return (
            self.jobs.idle()
            and not self._change_timer.isActive()
            and not self._refresh_pending
            and not self._a2a_busy
            and not widgets.filling()
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
        if self._current is None and self.stack.currentWidget() is not self.welcome:
            self.stack.setCurrentWidget(self.welcome)

    def _update_status(self) -> None:
        passports = sum(1 for r in self.model.rows() if isinstance(r, PassportRow))
        incoming = sum(1 for r in self.model.incoming() if not r.sent)
        text = tr("{passports}, {incoming}").format(
            passports=trn("%n passports", passports), incoming=trn("%n incoming", incoming)
        )
        if self.bridge is not None:
            text += " · " + trn("watching %n folders", len(self.bridge.watcher.folders))
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
                self.review_view.show_review(self._reviews[path])
                self.schedule_tab_order()
                self.stack.setCurrentWidget(self.review_view)
            else:
                self._review(path, show=True)
        else:
            self._load_passport(key)

    # -- opening files -------------------------------------------------------------------

    def open_dialog(self) -> None:
        paths = dialogs.ask_open_paths(self)
        if paths:
            self.open_files(paths)

    def open_samples(self) -> None:
        samples = sample_packs()
        if not samples:
            self.error(tr("No sample packs were installed with this copy of the desk."))
            return
        self.open_files(samples)

    def open_files(self, paths: list[Path]) -> None:
        """Review each file (nothing is stored); show the first."""
        paths = [Path(p) for p in paths]
        missing = [p for p in paths if not p.is_file()]
        if missing:
            self.error(tr("{path} is not a file.").format(path=missing[0]))
        paths = [p.resolve() for p in paths if p.is_file()]
        if not paths:
            return
        for p in reversed(paths):
            self._reviews.pop(p, None)  # opened again: read it again (it may have changed)
            self._add_incoming(p, title=p.name)
        self._remember_opened(paths)
        self.incoming_box.setChecked(False)
        self.select_key("file:" + str(paths[0]))
        for p in paths[1:]:
            self._review(p, show=False)
        self.raise_()
        self.activateWindow()

    def _add_incoming(
        self,
        path: Path,
        *,
        title: str,
        kind: str = "",
        sender: str = "",
        open_asks: int = 0,
        problem: str = "",
        sent: bool = False,
    ) -> None:
        title, sender = shown_or_withheld(title, "title"), shown_or_withheld(sender, "sender")
        self.model.add_incoming(
            Incoming(path, title, kind, sender, open_asks, utc_now(), problem, sent)
        )
        self._update_senders()
        self._update_status()

    def _review(self, path: Path, *, show: bool) -> None:
        if show:
            self.stack.setCurrentWidget(self.loading)

        def done(reviewed: Reviewed) -> None:
            self._reviews[path] = reviewed
            rv = reviewed.review
            self._add_incoming(
                path,
                title=rv.title or rv.goal or path.name,
                kind=rv.kind,
                sender=ops.compact_sender(rv.origin),
                open_asks=open_count(rv.asks),
                sent=rv.written_here,
            )
            if self._current == "file:" + str(path):
                self.review_view.show_review(reviewed)
                self.schedule_tab_order()
                self.stack.setCurrentWidget(self.review_view)

        def failed(message: str) -> None:
            self._add_incoming(path, title=path.name, problem=message)
            if self._current == "file:" + str(path):
                self.stack.setCurrentWidget(self.welcome)
                self.error(tr("{name} cannot be opened: {why}").format(name=path.name, why=message))

        self.jobs.run(
            lambda p, c: ops.review(self.desk, path, p, c),
            title=tr("Reading {name}…").format(name=path.name),
            on_done=done,
            on_error=failed,
            on_cancelled=lambda: failed(tr("Cancelled.")),
        )

    def judge_current(self) -> None:
        path = self._current_path()
        if path is None or path not in self._reviews:
            return
        reviewed = self._reviews[path]

        def done(failed: list[tuple[str, str, list[str]]]) -> None:
            reviewed.failed_checks = failed
            if self._current_path() == path:
                self.review_view.show_review(reviewed)
                self.schedule_tab_order()

        self.jobs.run(
            lambda p, c: ops.judge(path, p, c, desk=self.desk),
            title=tr("Judging {name}…").format(name=path.name),
            on_done=done,
            on_error=self.error,
        )

    def _current_path(self) -> Path | None:
        return (
            Path(self._current[5:]) if self._current and self._current.startswith("file:") else None
        )

    # -- landing -------------------------------------------------------------------------

    def land_current(self) -> None:
        path = self._current_path()
        if path is None:
            return

        def done(outcome: LandingOutcome) -> None:
            self._forget_incoming(path)
            rv = outcome.review
            checks = sum(1 for c in rv.landing_checks if c.is_required)
            message = tr("Landed as {id}.").format(id=outcome.id)
            if outcome.already:
                message = tr("This pack had already landed as {id}; nothing changed.").format(
                    id=outcome.id
                )
            elif checks:
                message += " " + trn("%n required checks are first in its Overview.", checks)
            self._current = outcome.id
            self.refresh()
            self._load_passport(outcome.id, note=message)

        held = self._reviews.get(path)  # landed from what the person saw (checked by digest)
        self.jobs.run(
            lambda p, c: ops.land(self.desk, path, p, c, held=held),
            title=tr("Landing {name}…").format(name=path.name),
            on_done=done,
            on_error=self.error,
        )

    def merge_current(self, into: str) -> None:
        path = self._current_path()
        if path is None:
            return

        def done(outcome: MergeOutcome) -> None:
            self._forget_incoming(path)
            answered = list(outcome.answered)
            if outcome.already:
                note = tr("This receipt had already been merged into {id}.").format(id=outcome.id)
            elif answered:
                note = tr("The receipt answered: {asks}.").format(asks=", ".join(answered))
            else:
                note = tr("The receipt was merged; it answered no open ask.")
            if outcome.adopted:
                note += " " + tr("New questions for you: {asks}.").format(
                    asks=", ".join(n for _, n in outcome.adopted)
                )
            self._highlight[outcome.id] = (set(answered), note)
            self._current = outcome.id
            self.refresh()
            self._load_passport(outcome.id, note=note, tab=1)

        held = self._reviews.get(path)
        self.jobs.run(
            lambda p, c: ops.merge(self.desk, path, into, p, c, held=held),
            title=tr("Merging {name}…").format(name=path.name),
            on_done=done,
            on_error=self.error,
        )

    def discard_current(self) -> None:
        path = self._current_path()
        if path is None:
            return
        reviewed = self._reviews.get(path)
        if reviewed is not None:
            self._remember_dismissed(reviewed.review.content_digest)
        self._forget_incoming(path)
        self._current = None
        self.list.clearSelection()
        self.stack.setCurrentWidget(self.welcome)
        self.info(tr("Discarded. The file was left where it is; nothing was stored."))

    # -- what was opened survives a restart ------------------------------------------

    def _remember_opened(self, paths: list[Path]) -> None:
        """Keep packs opened from outside the watched folders (the watcher finds the rest)."""
        watched = (
            [f.expanduser().resolve() for f in watched_folders(self.desk.settings)]
            if watch_enabled(self.desk.settings)
            else []
        )
        outside = [str(p) for p in paths if not any(p.is_relative_to(f) for f in watched)]
        other = self.desk.settings.other
        kept = [k for k in other.get(OPENED_KEY) or [] if isinstance(k, str)]
        new = [p for p in outside if p not in kept]
        if new:
            other[OPENED_KEY] = [*kept, *new][-DISMISSED_KEEP:]
            self._save_settings()

    def _reopen_remembered(self) -> None:
        """Show again what was opened before the last restart (and is still there)."""
        kept = [k for k in self.desk.settings.other.get(OPENED_KEY) or [] if isinstance(k, str)]
        paths = [Path(k) for k in kept if Path(k).is_file()]
        if len(paths) != len(kept):
            self.desk.settings.other[OPENED_KEY] = [str(p) for p in paths]
            self._save_settings()
        for p in paths:
            self._add_incoming(p, title=p.name)
            self._review(p, show=False)

    def _forget_opened(self, path: Path) -> None:
        other = self.desk.settings.other
        kept = [k for k in other.get(OPENED_KEY) or [] if isinstance(k, str)]
        if str(path) in kept:
            other[OPENED_KEY] = [k for k in kept if k != str(path)]
            self._save_settings()

    def _restore_geometry(self) -> None:
        saved = self.desk.settings.other.get(GEOMETRY_KEY)
        if isinstance(saved, str) and self.restoreGeometry(
            QByteArray.fromBase64(saved.encode("ascii"))
        ):
            return
        screen = QGuiApplication.primaryScreen()
        room = screen.availableGeometry() if screen is not None else None
        if room is None or room.width() <= 0:
            self.resize(1180, 760)
        else:
            self.resize(min(1180, int(room.width() * 0.9)), min(760, int(room.height() * 0.9)))

    def _save_geometry(self) -> None:
        self.desk.settings.other[GEOMETRY_KEY] = bytes(
            self.saveGeometry().toBase64().data()
        ).decode("ascii")
        try:
            self.desk.settings.save(self.desk.home)
        except OSError as exc:  # closing anyway: the next start uses the default size
            log.warning("could not remember the window's place: %s", exc)

    def _forget_incoming(self, path: Path) -> None:
        # removing the selected row would select its neighbour and show it: not wanted here
        selection = self.list.selectionModel()
        selection.blockSignals(True)
        self.model.remove_incoming(path)
        selection.blockSignals(False)
        self._reviews.pop(path, None)
        if self.bridge is not None:
            self.bridge.watcher.forget(path)
        self._forget_opened(path)
        self._update_status()

    def _remember_dismissed(self, digest: str) -> None:
        other = self.desk.settings.other
        dismissed = [d for d in other.get("dismissed", []) if isinstance(d, str) and d != digest]
        other["dismissed"] = [*dismissed, digest][-DISMISSED_KEEP:]
        self._save_settings()

    def _is_dismissed(self, digest: str) -> bool:
        return digest in (self.desk.settings.other.get("dismissed") or [])

    def save_review_luggage(self, name: str, size: int) -> None:
        path = self._current_path()
        if path is not None:  # from the pack file itself: it has not landed
            self._save_luggage(name, lambda out, p, c: ops.save_pack_luggage(path, name, out, p, c))

    def _save_luggage(self, name: str, copy: Any) -> None:
        """Ask where, then `copy(out, progress, cancelled)` in the background."""
        out = dialogs.ask_save_path(
            self, tr("Save luggage"), Path.home() / Path(name).name, tr("All files") + " (*)"
        )
        if out is None:
            return
        self.jobs.run(
            lambda p, c: copy(out, p, c),
            title=tr("Saving {name}…").format(name=name),
            on_done=lambda saved: self.info(tr("Saved {path}.").format(path=saved)),
            on_error=self.error,
        )

    # -- a passport ----------------------------------------------------------------------

    def _load_passport(
        self, passport_id: str, *, note: str = "", tab: int | None = None, keep_tab: bool = False
    ) -> None:
        """Read a passport in the background and show it; the latest request wins."""
        self._load_seq += 1
        seq = self._load_seq
        if tab is not None or not keep_tab:
            self._wanted_tab = tab or 0
        if note:
            self._pending_note = note
        if not keep_tab and self.stack.currentWidget() is not self.passport_view:
            self.stack.setCurrentWidget(self.loading)

        def done(detail: Detail) -> None:
            if seq != self._load_seq or self._current != passport_id:
                return  # a newer request (or another selection) replaced this one
            self.detail = detail
            answered, merged_note = self._highlight.get(passport_id, (set(), ""))
            view = self.passport_view
            scroll = view.scroll_positions() if self._wanted_tab is None else None
            current_tab = view.tabs.currentIndex()
            view.show_detail(detail, answered=answered, note=merged_note)
            self.schedule_tab_order()
            view.tabs.setCurrentIndex(current_tab if self._wanted_tab is None else self._wanted_tab)
            if scroll is not None:
                view.restore_scroll_positions(scroll)
            self._wanted_tab = None
            self.stack.setCurrentWidget(view)
            self._select_row(passport_id)
            if self._pending_note:
                self.info(self._pending_note, "ok")
                self._pending_note = ""

        self.jobs.run(
            lambda p, c: ops.load_detail(self.desk, passport_id, p, c),
            title=tr("Reading {id}…").format(id=passport_id),
            on_done=done,
            on_error=self.error,
            show_progress=False,
        )

    def _current_id(self) -> str | None:
        return self._current if self._current and not self._current.startswith("file:") else None

    def _desk_call(
        self, title: str, pid: str, how: ops.How, *args: Any, done_note: str = "", **kwargs: Any
    ) -> None:
        """A change to passport `pid` (``Desk.<how>(*args, **kwargs)``), off the GUI thread;
        the view reloads when it commits. A large passport is changed in a helper process
        (`ops.change`), so saving an answer among 100,000 asks never stalls the window."""

        def done(_result: Any) -> None:
            if done_note:
                self.info(done_note, "ok")

        self.jobs.run(
            lambda p, c: ops.change(self.desk, pid, how, args, kwargs, p, c),
            title=title,
            on_done=done,
            on_error=self.error,
            show_progress=False,
        )

    def move_current(self, state: str, waiting_on: str | None) -> None:
        pid = self._current_id()
        if pid is None:
            return
        if state in ("rejected", "cancelled") and not dialogs.confirm(
            self,
            tr("End this task?"),
            tr("Moving to {state} ends the task; nothing moves it on afterwards.").format(
                state=state_label(state)
            ),
            ok=tr("End the task"),
        ):
            return
        self._desk_call(
            tr("Moving…"),
            pid,
            "move",
            pid,
            state,
            waiting_on,
            done_note=tr("Moved to {state}.").format(state=state_label(state, waiting_on)),
        )

    def take_on_current(self) -> None:
        pid = self._current_id()
        if pid is None:
            return
        self._desk_call(
            tr("Taking it on…"),
            pid,
            ops.take_on_now,
            pid,
            done_note=tr("You took this on: it is {state}.").format(state=state_label("working")),
        )

    def return_result(self) -> None:
        pid = self._current_id()
        if pid is None:
            return
        values = dialogs.ask_form(
            self,
            tr("Return a result"),
            [
                ("summary", tr("What was done"), "text", None),
                ("kind", tr("Evidence kind"), "choice", list(lifecycle.EVIDENCE_KINDS)),
                ("evidence", tr("Evidence"), "line", None),
                ("url", tr("Link (optional)"), "line", None),
            ],
            tr("A result needs evidence; the task moves to verifying."),
        )
        if not values:
            return
        evidence: dict[str, Any] = {
            "kind": lifecycle.EVIDENCE_KINDS[int(values["kind"])],  # type: ignore[call-overload]
            "summary": str(values["evidence"]) or str(values["summary"])[:500],
        }
        if values.get("url"):
            evidence["url"] = str(values["url"])
        self._desk_call(
            tr("Returning the result…"),
            pid,
            "return_result",
            pid,
            str(values["summary"]),
            [evidence],
            provenance="owner_instruction",
            done_note=tr("Result returned; the evidence is being verified."),
        )

    def restore_fact(self, fact_no: int) -> None:
        pid = self._current_id()
        if pid is None or self.detail is None:
            return
        fact = (self.detail.passport.passport.facts or [])[fact_no - 1]
        if not dialogs.confirm(
            self,
            tr("Restore the ✓?"),
            tr(
                "Restore the ✓ of this fact?\n\n“{claim}”\n\nIt was verified on {machine}, which is "
                "this machine, and it came back in a pack this desk wrote. Restoring trusts that "
                "pack's whole journey: make sure it is still true here. The history will record "
                "that you restored it."
            ).format(claim=fact.claim or "", machine=fact.verified_on or "?"),
            ok=tr("Restore ✓"),
        ):
            return
        self._desk_call(
            tr("Restoring…"),
            pid,
            "restore",
            pid,
            fact_no,
            done_note=tr("The ✓ was restored and recorded in the history."),
        )

    def check_fact_here(self, fact_no: int) -> None:
        """The person says they checked a sealed fact on this machine: new evidence."""
        pid = self._current_id()
        if pid is None or self.detail is None:
            return
        fact = (self.detail.passport.passport.facts or [])[fact_no - 1]
        if not dialogs.confirm(
            self,
            tr("Did you check this here?"),
            tr(
                "Record that you checked this yourself, on this machine ({machine})?\n\n“{claim}”\n\n"
                "It becomes a fact verified here, by {who}, and the history records it. Say so only "
                "if you did the check."
            ).format(
                claim=visible(fact.claim or "", multiline=True),
                machine=self.desk.machine,
                who=self.desk.actor,
            ),
            ok=tr("I checked it"),
        ):
            return
        self._desk_call(
            tr("Recording…"),
            pid,
            "check_fact_here",
            pid,
            fact_no,
            done_note=tr("Recorded: you checked it on {machine}.").format(
                machine=self.desk.machine
            ),
        )

    def check_landing_here(self, check_id: str) -> None:
        """The person says they did a required landing check on this machine."""
        pid = self._current_id()
        if pid is None or self.detail is None:
            return
        check = next(
            (c for c in self.detail.passport.landing_checks or [] if c.id == check_id), None
        )
        if check is None:
            return
        if not dialogs.confirm(
            self,
            tr("Did you check this here?"),
            tr(
                "Record that you did this check yourself, on this machine ({machine})?\n\n“{claim}”\n\n"
                "It becomes a fact verified here, by {who}, and the history records it. Say so only "
                "if you did the check."
            ).format(
                claim=visible(check.check or "", multiline=True),
                machine=self.desk.machine,
                who=self.desk.actor,
            ),
            ok=tr("I checked it"),
        ):
            return
        self._desk_call(
            tr("Recording…"),
            pid,
            "check_landing_here",
            pid,
            check_id,
            done_note=tr("Recorded: you checked it on {machine}.").format(
                machine=self.desk.machine
            ),
        )

    def save_answers(self, answers: dict[str, str]) -> None:
        pid = self._current_id()
        if pid is None or not answers:
            return
        self._desk_call(
            tr("Saving…"),
            pid,
            "answer_all",
            pid,
            dict(answers),
            done_note=trn(
                "Saved %n answers. Export a receipt to send the answers home.", len(answers)
            ),
        )

    def answer_ask(self, ask_id: str, answer: str, status: str) -> None:
        pid = self._current_id()
        if pid is None:
            return
        note = (
            tr("Saved the answer to {ask}. Export a receipt to send the answers home.")
            if status == "answered"
            else tr("Dropped {ask}.")
        ).format(ask=ask_id)
        self._desk_call(
            tr("Saving…"), pid, "answer", pid, ask_id, answer, status=status, done_note=note
        )

    def add_to_current(self, what: str) -> None:
        pid = self._current_id()
        if pid is None:
            return
        scopes = [
            tr("machine — paths, versions, what runs here"),
            tr("universal — agreements, requirements"),
            tr("organisation — conventions inside one organisation"),
        ]
        forms: dict[str, tuple[str, list[dialogs.Field], str]] = {
            "ask": (
                tr("Add an ask"),
                [
                    ("what", tr("Question"), "text", None),
                    ("why", tr("Why you ask"), "line", None),
                    ("accept", tr("What counts as an answer"), "line", None),
                ],
                tr("An ask needs “what counts as an answer”: the reply is judged against it."),
            ),
            "check": (
                tr("Add a landing check"),
                [
                    ("check", tr("What to check"), "line", None),
                    ("how", tr("How (your suggestion)"), "line", None),
                    ("required", tr("Required"), "check", ["yes"]),
                ],
                tr(
                    "The receiver does required checks first. Your “how” is shown to them as your suggestion."
                ),
            ),
            "fact": (
                tr("Add a fact"),
                [
                    ("claim", tr("Claim"), "text", None),
                    ("scope", tr("Scope"), "choice", scopes),
                    ("verified", tr("Verified here"), "check", None),
                ],
                tr("A machine fact is sealed unproven when it leaves this machine."),
            ),
            "step": (tr("Add a next step"), [("step", tr("Next step"), "line", None)], ""),
        }
        title, fields, explain = forms[what]
        v = dialogs.ask_form(self, title, fields, explain)
        if not v:
            return
        calls: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
            "ask": ("add_ask", (pid, str(v["what"]), str(v["accept"])), {"why": str(v["why"])}),
            "check": (
                "add_check",
                (pid, str(v["check"])),
                {"how": str(v["how"]) or None, "required": bool(v["required"])},
            ),
            "fact": (
                "add_fact",
                (pid, str(v["claim"])),
                {
                    "verified": bool(v["verified"]),
                    "scope": ("machine", "universal", "org")[int(v["scope"])],
                },
            ),  # type: ignore[call-overload]
            "step": ("add_next", (pid, str(v["step"])), {}),
        }
        how, args, kwargs = calls[what]
        self._desk_call(title, pid, how, *args, **kwargs)

    def new_passport(self) -> None:
        v = dialogs.ask_form(
            self,
            tr("New passport"),
            [("title", tr("Title"), "line", None), ("goal", tr("Goal"), "text", None)],
        )
        if not v:
            return

        def done(lp: Any) -> None:
            self._current = lp.id
            self.refresh()
            self._load_passport(lp.id)

        self.jobs.run(
            lambda p, c: self.desk.new(str(v["title"]), str(v["goal"])),
            title=tr("New passport"),
            on_done=done,
            on_error=self.error,
            show_progress=False,
        )

    def save_stored_luggage(self, name: str, size: int) -> None:
        pid = self._current_id()
        if pid is not None:
            self._save_luggage(
                name,
                lambda out, p, c: ops.save_stored_luggage(self.desk, pid, name, size, out, p, c),
            )

    # -- export (ui/export.py) ------------------------------------------------------------

    def export_current(self, kind: str, mode: str) -> None:
        pid = self._current_id()
        if pid is None or self.detail is None:
            return
        title = self.detail.passport.passport.title or pid
        luggage = sum(i.size for i in self.detail.luggage)
        # a receipt goes out with what is on screen: answers typed and not saved are saved first
        typed = self.passport_view.asks.unsaved() if kind == "receipt" else None
        self.exporter.export(
            pid, title, luggage, kind, mode, typed, to=self.passport_view.recipient()
        )

    # -- watcher -------------------------------------------------------------------------

    def start_watcher(self) -> None:
        if self.bridge is not None or not watch_enabled(self.desk.settings):
            self._update_status()
            return
        from taskpack.ui.watch_bridge import WatchBridge

        folders = watched_folders(self.desk.settings)
        self.bridge = WatchBridge(
            self.desk, folders, dismissed=self._is_dismissed, parent=self, **self._watcher_options
        )
        self.bridge.found.connect(self._found)
        self.bridge.sent.connect(self._found_sent)
        self.bridge.rejected.connect(self._rejected)
        self.bridge.trouble.connect(
            lambda _why: self.statusBar().showMessage(
                tr(
                    "The folder watcher hit a problem and restarted itself; packs keep being found."
                ),
                15000,
            )
        )
        try:
            self.bridge.start()
        except OSError as exc:  # the desk works without it; say so once
            self.bridge = None
            self.error(tr("Folders are not being watched: {why}").format(why=sentence(exc)))
        self._update_status()

    def stop_watcher(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
            self.bridge.deleteLater()
            self.bridge = None
        self._update_status()

    def _found(self, item: FoundPack) -> None:
        if self.model.row_for_key("file:" + str(item.path)) >= 0:
            return
        title, sender = found_text(item, "title"), found_text(item, "sender")
        self._add_incoming(
            item.path, title=title, kind=item.kind, sender=sender, open_asks=item.open_asks
        )
        what = tr("A receipt arrived") if item.kind == "receipt" else tr("A pack arrived")
        self.notify(
            what,
            tr("{title} — from {sender}. It is under Incoming; nothing lands without you.").format(
                title=title, sender=sender
            ),
        )

    def _found_sent(self, item: FoundPack) -> None:
        """A pack this desk wrote, seen in a watched folder: listed as sent, no notification."""
        if self.model.row_for_key("file:" + str(item.path)) < 0:
            self._add_incoming(
                item.path,
                title=found_text(item, "title"),
                kind=item.kind,
                sender=found_text(item, "sender"),
                open_asks=item.open_asks,
                sent=True,
            )

    def _rejected(self, path: Path, why: str) -> None:
        self.statusBar().showMessage(
            tr("{name} is not a readable pack: {why}").format(name=path.name, why=why), 10000
        )

    def notify(self, title: str, text: str) -> None:
        """A desktop notification and a status-bar line. `text` may quote a pack: hidden
        characters are shown, and for the tray (some notification daemons render markup)
        everything is HTML-escaped, so it reads as plain text."""
        title, text = visible(title), visible(text)
        if QSystemTrayIcon.isSystemTrayAvailable():
            if self.tray is None:
                self.tray = QSystemTrayIcon(self.windowIcon(), self)
                self.tray.activated.connect(
                    lambda _r: (self.showNormal(), self.raise_(), self.activateWindow())
                )
                self.tray.show()
            self.tray.showMessage(
                html.escape(title, quote=False),
                html.escape(text, quote=False),
                QSystemTrayIcon.MessageIcon.Information,
                8000,
            )
        self.statusBar().showMessage(f"{title}: {text}", 15000)

    # -- the A2A endpoint ----------------------------------------------------------------

    def apply_a2a(self) -> None:
        """Start, restart or stop the endpoint as the settings say, off the GUI thread."""
        if getattr(self, "_closed", False):
            return
        if self._a2a_busy:
            self._a2a_again = True  # the settings changed while it started or stopped
            return
        want = a2a_wanted(self.desk.settings)
        if want is None and self.a2a.server is None:
            self._a2a_state = EndpointState()
            self._update_a2a()
            return
        self._a2a_busy = True
        self._a2a_again = False
        self._a2a_state = EndpointState("starting" if want else "stopping", want=want)
        self._update_a2a()
        endpoint = self.a2a

        def work(
            _progress: Any, _cancelled: Any
        ) -> tuple[tuple[str, int] | None, str | None, BaseException | None]:
            try:
                return want, endpoint.apply(want), None
            except Exception as exc:  # shown as one sentence, in the GUI thread
                log.info("the A2A endpoint did not start on %s: %r", want, exc)
                return want, None, exc

        self.jobs.run(
            work,
            title=tr("Starting the A2A endpoint…") if want else tr("Stopping the A2A endpoint…"),
            on_done=self._a2a_applied,
            on_error=self._a2a_error,
            show_progress=False,
            cancellable=False,
        )

    def _a2a_applied(
        self, result: tuple[tuple[str, int] | None, str | None, BaseException | None]
    ) -> None:
        want, url, exc = result
        self._a2a_busy = False
        if self._a2a_again or want != a2a_wanted(self.desk.settings):
            self.apply_a2a()  # the latest settings win
            return
        if exc is not None and want is not None:
            self._a2a_state = EndpointState("failed", error=exc, want=want)
            self.error(a2a_failure(exc, *want))
        elif url:
            self._a2a_state = EndpointState("serving", url=url, want=want)
        else:
            self._a2a_state = EndpointState()
        self._update_a2a()

    def _a2a_error(self, message: str) -> None:
        self._a2a_busy = False
        self._a2a_state = EndpointState(
            "failed", error=RuntimeError(message), want=a2a_wanted(self.desk.settings)
        )
        self._update_a2a()

    def _update_a2a(self) -> None:
        state = self._a2a_state
        kind, url, exc, want = state.kind, state.url, state.error, state.want
        if kind == "serving":
            text = tr("A2A: serving {url}").format(url=url)
        elif kind == "starting":
            text = tr("A2A: starting…")
        elif kind == "stopping":
            text = tr("A2A: stopping…")
        elif kind == "failed" and exc is not None and want is not None:
            text = tr("A2A: not serving. {why}").format(why=a2a_failure(exc, *want))
        else:
            text = tr("A2A: off")
        self.a2a_label.setText(text)
        self.a2a_label.setToolTip(text)

    def a2a_status(self) -> str:
        """What the status bar says about the A2A endpoint."""
        return str(self.a2a_label.text())

    # -- settings ------------------------------------------------------------------------

    def open_settings(self) -> None:
        dialog = SettingsDialog(
            self.desk.settings, machine=self.desk.machine, actor=self.desk.actor, parent=self
        )
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        before = (
            i18n.current(),
            watch_enabled(self.desk.settings),
            watched_folders(self.desk.settings),
        )
        serving_before = a2a_wanted(self.desk.settings)
        dialog.apply()
        self._save_settings()
        if i18n.resolve(self.desk.settings.language) != before[0]:
            self.set_language(self.desk.settings.language)
        if (
            watch_enabled(self.desk.settings) != before[1]
            or watched_folders(self.desk.settings) != before[2]
        ):
            if self.bridge is not None and watch_enabled(self.desk.settings):
                self.bridge.set_folders(watched_folders(self.desk.settings))
            elif watch_enabled(self.desk.settings):
                self.start_watcher()
            else:
                self.stop_watcher()
        if a2a_wanted(self.desk.settings) != serving_before or self._a2a_state.kind == "failed":
            self.apply_a2a()  # a failed start is tried again when Settings are saved
        if not os.environ.get(ACTOR_ENV, "").strip():
            self.desk.actor = actor_name(self.desk.settings)  # your name applies now
        self.name_bar.setVisible(self._name_unknown())
        self.info(tr("Settings saved. A new machine name applies the next time the desk starts."))

    def _save_settings(self) -> None:
        settings, home = self.desk.settings, self.desk.home
        self.jobs.run(
            lambda p, c: settings.save(home),
            title=tr("Saving settings…"),
            on_error=self.error,
            show_progress=False,
        )

    def about(self) -> None:
        dialogs.inform(
            self,
            tr("About TaskPack Desk"),
            tr(
                "TaskPack Desk hands unfinished work between people, machines and AI agents by file "
                "(TaskPack 0.1). A ✓ does not survive a machine boundary: facts proven elsewhere arrive "
                "unproven. Nothing in a pack is ever run.\n\nThis machine: {machine}\nStore: {home}"
            ).format(machine=self.desk.machine, home=self.desk.home),
        )

    # -- messages ------------------------------------------------------------------------

    def error(self, message: str) -> None:
        self.banner.show_message(message, "error")

    def info(self, message: str, kind: str = "info") -> None:
        self.banner.show_message(message, kind)

    # -- drag and drop -------------------------------------------------------------------

    # any local file is taken, so that one that is not a pack gets a sentence, not silence

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if local_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        dropped = local_paths(event.mimeData())
        if not dropped:
            event.ignore()
            return
        event.acceptProposedAction()
        packs = [p for p in dropped if is_pack_name(p)]
        others = [p for p in dropped if not is_pack_name(p)]
        QTimer.singleShot(0, lambda: self._open_dropped(packs, others))

    def _open_dropped(self, packs: list[Path], others: list[Path]) -> None:
        """Open pack files; look for a pack inside any other file (a saved reply), and say
        in one sentence which held none."""
        if packs:
            self.open_files(packs)
        if not others:
            return
        desk = self.desk

        def work(_p: Any, _c: Any) -> tuple[list[Path], list[Path]]:
            found, none = [], []
            for path in others:
                try:
                    found.append(desk.pack_from_file(path).path)
                except (TaskPackError, OSError, ValueError):
                    none.append(path)
            return found, none

        def done(result: tuple[list[Path], list[Path]]) -> None:
            found, none = result
            if found:
                self.open_files(found)
            if none:
                self.error(not_packs_sentence(none))

        self.jobs.run(
            work,
            title=tr("Looking for a pack…"),
            on_done=done,
            on_error=self.error,
            show_progress=False,
        )

    # -- paste ---------------------------------------------------------------------------

    def paste(self) -> None:
        """Edit → Paste: copied files open as packs; text (a reply from a chat or an
        email) is read for the one pack in it by the desk, and that pack is opened."""
        mime = QGuiApplication.clipboard().mimeData()
        files = local_paths(mime) if mime is not None else []
        if files:
            self._open_dropped(
                [p for p in files if is_pack_name(p)], [p for p in files if not is_pack_name(p)]
            )
            return
        text = mime.text() if mime is not None and mime.hasText() else ""
        if not text.strip():
            self.error(
                tr(
                    "The clipboard holds no pack. Copy the reply (its text, or the file) and paste again."
                )
            )
            return
        desk = self.desk

        def done(pasted: Any) -> None:
            self.open_files([pasted.path])
            self.info(
                tr(
                    "Opened the pack found in the pasted text (line {line}). Nothing lands without you."
                ).format(line=pasted.line)
            )

        self.jobs.run(
            lambda p, c: desk.pack_from_text(text),
            title=tr("Reading the pasted text…"),
            on_done=done,
            show_progress=False,
            on_error=lambda why: self.error(
                tr("No pack could be opened from the pasted text: {why}").format(why=why)
            ),
        )

    # -- keyboard ------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter does what the page's default button does (Land, Merge, Take this on)."""
        plain_key = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        # only from places where Enter means nothing else: the list, the tabs, the page itself
        # (a text field's Enter is its own, and it may have moved the focus before it gets here)
        focus = QApplication.focusWidget()
        browsing = (
            focus is None
            or focus is self
            or isinstance(focus, QAbstractItemView | QTabBar | QScrollArea)
        )
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain_key and browsing:
            target = self.default_button()
            if target is not None:
                target.click()
                return
        super().keyPressEvent(event)

    def default_button(self) -> QPushButton | None:
        """The visible, enabled default button of what the right side shows, if any."""
        page = self.stack.currentWidget()
        for b in page.findChildren(QPushButton) if page is not None else []:
            if b.isDefault() and b.isVisible() and b.isEnabled():
                return b
        return None

    def schedule_tab_order(self, *_args: object) -> None:
        self._tab_timer.start()

    def _order_tabs(self) -> None:
        """Tab goes through the window as it reads: the list side top to bottom, then the
        right side top to bottom, left to right within a line (widgets built later, like a
        passport's buttons, would otherwise come last)."""
        splitter = self.centralWidget()
        if not isinstance(splitter, QSplitter) or splitter.count() < 2:
            return
        chain: list[QWidget] = []
        for pane in (splitter.widget(0), splitter.widget(1)):
            found = []
            for w in pane.findChildren(QWidget):
                if (
                    w.focusPolicy() & Qt.FocusPolicy.TabFocus
                ) != Qt.FocusPolicy.TabFocus or not w.isVisibleTo(self):
                    continue
                if w.focusProxy() is not None or not w.isEnabled():
                    continue
                if any(isinstance(a, QComboBox | QAbstractSpinBox) for a in _ancestors(w, pane)):
                    continue  # the line edit inside a combo or spin box
                top = w.mapTo(self, QPoint(0, 0))
                found.append(((top.y() + w.height() // 2) // 12, top.x(), top.y(), w))
            chain += [w for *_k, w in sorted(found, key=lambda k: k[:3])]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def fit_columns(self) -> None:
        """Size State, From, Asks and Updated to their contents (the widest cut first
        when together they would take more than OTHER_COLUMNS_SHARE of the list); Title
        stretches over the rest."""
        header = self.list.header()
        avail = self.list.viewport().width()
        fm, least = header.fontMetrics(), header.minimumSectionSize()
        shown = {c: max(least, self.list.sizeHintForColumn(c)) for c in FITTED_COLUMNS}
        label = {
            c: fm.horizontalAdvance(str(self.proxy.headerData(c, Qt.Orientation.Horizontal))) + 12
            for c in FITTED_COLUMNS
        }
        want = {c: max(shown[c], label[c]) for c in FITTED_COLUMNS}
        budget = int(avail * OTHER_COLUMNS_SHARE)
        if sum(want.values()) > budget:  # the sender gives way first, down to its header word
            sender = InboxModel.SENDER
            want[sender] -= min(sum(want.values()) - budget, max(0, want[sender] - label[sender]))
        if sum(want.values()) > budget:  # then a header word may be cut before what the rows show
            want = capped(shown, budget)
        for col, width in want.items():
            header.resizeSection(col, max(least, width))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.list.viewport():
            self._fit_timer.start()
        return super().eventFilter(watched, event)

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

    # -- closing -------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        if getattr(self, "_closed", False):
            return
        self._closed = True
        self._elsewhere_timer.stop()
        self._save_geometry()
        self._unsubscribe()
        self.desk.drafts.flush()
        self.stop_watcher()
        self.jobs.cancel_all()
        self.jobs.wait(10_000)
        try:  # the desk closes after this: the endpoint stops first (the window is going away)
            self.a2a.apply(None)
        except Exception:  # pragma: no cover - stopping only joins a thread
            log.exception("stopping the A2A endpoint")
        if self.tray is not None:
            self.tray.hide()


def _ancestors(w: QWidget, stop: QWidget) -> list[QWidget]:
    out, p = [], w.parentWidget()
    while p is not None and p is not stop:
        out.append(p)
        p = p.parentWidget()
    return out


__all__ = ["MainWindow", "pack_paths", "sample_packs"]
