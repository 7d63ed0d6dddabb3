"""The desk's window: a browser of passports and incoming packs beside a detail view.

Left: the inbox list (search, state, sender, "has open asks", "incoming only"). Right:
a welcome page (first run: the sample packs), a landing review, or a passport. Packs
arrive by drag and drop, File → Open, the command line, a second launch, or the folder
watcher; each is reviewed before anything is stored, and lands only when the person
says so. Every slow action runs through `JobRunner`; errors are one sentence in the
banner at the top of the right side. When Settings say so, the window also serves its
desk over A2A (`app.a2a.endpoint.A2AEndpoint`), started and stopped off the GUI thread; the status bar
says whether it is serving.

This module builds the window and its menus and holds what belongs to the whole window
(language, settings, the window's place, closing). Each part of what the window does is
a module of `ui/window/`: `inbox` (the list, its reload and poll), `incoming` (opening,
reviewing, judging, landing, merging, discarding files), `watching` (the folder
watcher), `passport_actions` (what is done to a stored passport), `a2a_panel` (the
endpoint), `drop_paste` and `keys_columns`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.a2a.endpoint import A2AEndpoint, EndpointState
from taskpack.app.desk import Desk, display_name, sender_label
from taskpack.app.paths import ACTOR_ENV, actor_name
from taskpack.ui import dialogs, i18n, paging, style, tones
from taskpack.ui.at_home import AtHome
from taskpack.ui.composer.composer import Composer
from taskpack.ui.composer.welcome import sender_half
from taskpack.ui.export import Exporter
from taskpack.ui.guide import GuideWindow
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import JobRunner
from taskpack.ui.models import InboxFilter, InboxModel
from taskpack.ui.opening import GEOMETRY_KEY, TITLE, icon, place
from taskpack.ui.ops import Detail, Reviewed
from taskpack.ui.passport_view import PassportView
from taskpack.ui.review_view import ReviewView
from taskpack.ui.settings_dialog import SettingsDialog, a2a_wanted, watch_enabled, watched_folders
from taskpack.ui.widgets import Banner, FloatingBanner, button, heading, plain
from taskpack.ui.window.a2a_panel import A2APanelMixin
from taskpack.ui.window.drop_paste import DropPasteMixin, pack_paths
from taskpack.ui.window.inbox import ELSEWHERE_POLL_MS, InboxMixin
from taskpack.ui.window.incoming import IncomingMixin, sample_packs
from taskpack.ui.window.keys_columns import KeysColumnsMixin
from taskpack.ui.window.passport_actions import PassportActionsMixin
from taskpack.ui.window.watching import WatchingMixin

#: set when the person chose "Not now" for their name (the first-run bar stays away)
log = logging.getLogger(__name__)

NAME_ASKED_KEY = "name_asked"


class MainWindow(
    InboxMixin,
    IncomingMixin,
    WatchingMixin,
    PassportActionsMixin,
    A2APanelMixin,
    DropPasteMixin,
    KeysColumnsMixin,
    QMainWindow,
):
    _desk_changed = Signal(str, str)
    _elsewhere_heard = Signal()  # from a team desk's change feed (another thread)

    def __init__(
        self, desk: Desk, *, watch: bool = True, watcher_options: dict[str, Any] | None = None
    ) -> None:
        super().__init__()
        style.install()  # the focus ring (the application may have been made elsewhere)
        self.desk = desk
        self.setWindowTitle(TITLE)
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
        self._at_home: dict[Path, AtHome] = {}
        #: "encoding:content digest" of each incoming file listed (the same pack at two
        #: paths is one row)
        self._digests: dict[Path, str] = {}
        self._current: str | None = None  # the key the right side shows
        self._highlight: dict[str, tuple[set[str], str]] = {}
        self._loaded = False
        self._refresh_pending = False
        self._refresh_again = False
        self._refreshed_at = 0.0
        self.detail: Detail | None = None
        self.bridge: Any = None
        self.tray: QSystemTrayIcon | None = None
        self.guide: GuideWindow | None = None
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
        self._unreachable_text = ""  # the banner shown while a team desk is out of reach
        self._unhear = self._hear_elsewhere()
        self.a2a = A2AEndpoint(desk)
        self._a2a_busy = False
        self._a2a_again = False
        self._a2a_state = EndpointState()
        self._tab_timer = QTimer(self)
        self._tab_timer.setSingleShot(True)
        self._tab_timer.setInterval(0)
        self._tab_timer.timeout.connect(self._order_tabs)
        paging.fills.settled.connect(self.schedule_tab_order)  # a page built in batches is complete
        self._build()
        self.a2a_label = QLabel()
        self.a2a_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addPermanentWidget(self.a2a_label)
        self.summary_label = QLabel()  # a widget, not a message: hovering a menu does not erase it
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
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

    # -- building (again, when the language changes) ---------------------------

    def _build(self) -> None:
        self._build_menus()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._build_list())
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(6, 6, 6, 0)
        self.name_bar = self._build_name_bar()
        lay.addWidget(self.name_bar)
        self.stack = QStackedWidget()
        self.stack.currentChanged.connect(self.schedule_tab_order)
        lay.addWidget(self.stack, 1)
        # over the page, not above it: a message coming or going moves nothing beneath
        self.banner: Banner = FloatingBanner(self.stack)
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
        pv.open_requested.connect(self.open_dialog)
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
        self.composer = Composer(self.desk, self.jobs)
        self.composer.message.connect(self.info)
        self.composer.failed.connect(self.error)
        self.composer.created.connect(self._composed)
        self.composer.send_requested.connect(self.send_handoff)
        self.composer.packs_dropped.connect(self.open_files)
        self.loading = plain(tr("Reading…"), muted=True)
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for page in (
            self.welcome,
            self.review_view,
            self.passport_view,
            self.loading,
            self.composer,
        ):
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
        self.compose_action = self._action(
            file_menu, tr("&Compose this passport…"), self.compose_current, "Ctrl+E"
        )
        self.send_action = self._action(
            file_menu, tr("Send a &handoff…"), self.send_current, "Ctrl+Shift+S"
        )
        file_menu.addSeparator()
        self._action(
            file_menu, tr("&Settings…"), self.open_settings, QKeySequence.StandardKey.Preferences
        )
        file_menu.addSeparator()
        quit_keys = QKeySequence(QKeySequence.StandardKey.Quit)  # none on some platforms
        quit_action = self._action(
            file_menu, tr("&Quit"), self.close, "Ctrl+Q" if quit_keys.isEmpty() else quit_keys
        )
        # from the guide beside the window too: quitting never depends on which one is active
        quit_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
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
        self._action(
            help_menu,
            tr("&How TaskPack Desk works"),
            self.show_guide,
            QKeySequence.StandardKey.HelpContents,
        )
        self._action(help_menu, tr("&About TaskPack Desk"), self.about)

    def _action(self, menu: Any, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(lambda _c=False: slot())
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def _build_name_bar(self) -> QWidget:
        """First run: who is this? The name signs answers, checks and the packs sent."""
        bar = QFrame()
        bar.setObjectName("namebar")
        bar.setStyleSheet(
            f"#namebar {{ background: {tones.wash('info')}; border: 1px solid {tones.edge('info')};"
            " border-radius: 3px; }"
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
        self.name_edit.setAccessibleName(tr("Your name"))
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
        lay.addWidget(sender_half(self.new_passport))
        lay.addStretch(1)
        return page

    # -- language --------------------------------------------------------------

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

    # -- the window's place ----------------------------------------------------

    def _restore_geometry(self) -> None:
        place(self, self.desk.settings.other.get(GEOMETRY_KEY))

    def _save_geometry(self) -> None:
        self.desk.settings.other[GEOMETRY_KEY] = bytes(
            self.saveGeometry().toBase64().data()
        ).decode("ascii")
        try:
            self.desk.settings.save(self.desk.home)
        except OSError as exc:  # closing anyway: the next start uses the default size
            log.warning("could not remember the window's place: %s", exc)

    # -- settings --------------------------------------------------------------

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
        machine_before = self.desk.settings.machine_name
        store_before = self.desk.settings.store
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
        if self.desk.settings.store != store_before:
            self.info(tr("Settings saved. The team desk applies the next time the desk starts."))
        elif self.desk.settings.machine_name != machine_before:
            self.info(
                tr("Settings saved. A new machine name applies the next time the desk starts.")
            )
        else:
            self.info(tr("Settings saved."))

    def _save_settings(self) -> None:
        settings, home = self.desk.settings, self.desk.home
        self.jobs.run(
            lambda p, c: settings.save(home),
            title=tr("Saving settings…"),
            on_error=self.error,
            show_progress=False,
        )

    def show_guide(self) -> None:
        """Help → How it works, beside the window (built again in the current language)."""
        if self.guide is not None:
            self.guide.close()
            self.guide.deleteLater()
        self.guide = GuideWindow(self)
        self.guide.show()
        self.guide.raise_()

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

    # -- messages --------------------------------------------------------------

    def error(self, message: str) -> None:
        self.banner.show_message(message, "error")

    def info(self, message: str, kind: str = "info") -> None:
        self.banner.show_message(message, kind)

    # -- closing ---------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        if getattr(self, "_closed", False):
            return
        self._closed = True
        self._unhear()
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


__all__ = ["MainWindow", "pack_paths", "sample_packs"]
