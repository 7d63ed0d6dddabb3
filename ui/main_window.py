"""The desk's window: a browser of passports and incoming packs beside a detail view.

Left: the inbox list (search, state, sender, "has open asks", "incoming only"). Right:
a welcome page (first run: the sample packs), a landing review, or a passport. Packs
arrive by drag and drop, File → Open, the command line, a second launch, or the folder
watcher; each is reviewed before anything is stored, and lands only when the person
says so. Every slow action runs through `JobRunner`; errors are one sentence in the
banner at the top of the right side. When Settings say so, the window also serves its
desk over A2A (`app.a2a.endpoint.A2AEndpoint`), started and stopped off the GUI thread; the status bar
says whether it is serving.

`MainWindow` is a shell: it owns the parts (`ui/window/`) and wires their signals, and
holds what belongs to the whole window (its menus, the right side's pages and the key
they show, language, settings, the window's place, closing). The parts:

- `inbox` (`InboxPart`): the list, its filters, its reading and polling;
- `incoming` (`IncomingPart`): files opened or found, reviewed, judged, landed, merged,
  discarded;
- `watching` (`WatchingPart`): the folder watcher and its notifications;
- `passport` (`PassportPart`): the passport page and what is done to a stored passport;
- `a2a_panel` (`A2APart`): the endpoint and its status-bar label;
- `composer` (`ui/composer`): a passport written here;
- `arrivals` (`drop_paste.Arrivals`): what is dropped or pasted.

A part reaches the window only through `ui/window/side.Side`, and the other parts only
through what it is handed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import Desk, sender_label
from taskpack.app.paths import ACTOR_ENV, actor_name
from taskpack.app.watcher import WatcherOptions
from taskpack.ui import dialogs, i18n, paging, style
from taskpack.ui.composer.composer import Composer
from taskpack.ui.composer.send import SendDialog
from taskpack.ui.export import Exporter
from taskpack.ui.guide import GuideWindow
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import JobRunner
from taskpack.ui.opening import GEOMETRY_KEY, TITLE, icon, place
from taskpack.ui.settings_dialog import SettingsDialog, a2a_wanted, watch_enabled, watched_folders
from taskpack.ui.widgets import Banner, FloatingBanner, plain
from taskpack.ui.window.a2a_panel import A2APart
from taskpack.ui.window.drop_paste import Arrivals, accept_drag, pack_paths
from taskpack.ui.window.inbox import InboxPart
from taskpack.ui.window.incoming import IncomingPart, sample_packs
from taskpack.ui.window.keys_columns import TabOrder, default_button, enter_pressed
from taskpack.ui.window.passport_actions import PassportPart
from taskpack.ui.window.side import file_of, passport_of
from taskpack.ui.window.watching import WatchingPart
from taskpack.ui.window.welcome_page import NameBar, WelcomePage

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    """The shell: the parts, their wiring, and what belongs to the whole window."""

    # built by `_build` (again when the language changes)
    stack: QStackedWidget
    banner: Banner
    name_bar: NameBar
    welcome: WelcomePage
    loading: QLabel
    composer: Composer
    open_action: QAction
    compose_action: QAction
    send_action: QAction
    paste_action: QAction

    def __init__(
        self,
        desk: Desk,
        *,
        watch: bool = True,
        watcher_options: WatcherOptions | None = None,
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
        self.guide: GuideWindow | None = None
        self.send_dialog: SendDialog | None = None
        self._current: str | None = None  # the key the right side shows
        self._closed = False
        self.tabs = TabOrder(self)
        paging.fills.settled.connect(self.schedule_tab_order)  # a page built in batches is complete
        self.inbox = InboxPart(desk, self.jobs, self)
        self.incoming = IncomingPart(desk, self.jobs, self, self.inbox, self)
        self.passport = PassportPart(desk, self.jobs, self.exporter, self, self)
        self.watching = WatchingPart(desk, self.inbox, self.incoming, self, watcher_options)
        self.a2a_panel = A2APart(desk, self.jobs, self)
        self.arrivals = Arrivals(desk, self.jobs, self, self)
        self._wire()
        self._build()
        self.statusBar().addPermanentWidget(self.a2a_panel.label)
        self.summary_label = QLabel()  # a widget, not a message: hovering a menu does not erase it
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addWidget(self.summary_label, 1)
        self.inbox.refresh()
        self.incoming.reopen_remembered()
        if watch:
            QTimer.singleShot(0, self.watching.start)
        if a2a_wanted(desk.settings) is not None:
            self.a2a_panel.apply()

    def _wire(self) -> None:
        """The parts' signals (once: the parts outlive a change of language)."""
        inbox, incoming, passport = self.inbox, self.incoming, self.passport
        inbox.chosen.connect(self._show_key)
        inbox.remove_requested.connect(incoming.remove_listed)
        inbox.loaded.connect(self._rows_loaded)
        inbox.changed.connect(self._passports_changed)
        inbox.status_changed.connect(self._update_status)
        inbox.out_of_reach.connect(self._out_of_reach)
        inbox.back_in_reach.connect(self._back_in_reach)
        inbox.failed.connect(self.error)
        incoming.landed.connect(self._landed)
        incoming.merged.connect(self._merged)
        incoming.forgotten.connect(self.watching.forget)
        passport.shown.connect(inbox.select_row)
        passport.packs_dropped.connect(self.open_files)
        self.watching.status_changed.connect(self._update_status)
        self.watching.status_message.connect(self.statusBar().showMessage)
        self.watching.failed.connect(self.error)
        self.a2a_panel.failed.connect(self.error)
        self.arrivals.found.connect(self.open_files)

    # -- building (again, when the language changes) ---------------------------

    def _build(self) -> None:
        self._build_menus()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = self.inbox.build()
        splitter.addWidget(left)
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(6, 6, 6, 0)
        self.name_bar = NameBar(self.desk)
        self.name_bar.saved.connect(self._name_saved)
        lay.addWidget(self.name_bar)
        self.stack = QStackedWidget()
        self.stack.currentChanged.connect(self.schedule_tab_order)
        lay.addWidget(self.stack, 1)
        # over the page, not above it: a message coming or going moves nothing beneath
        self.banner = FloatingBanner(self.stack)
        self.welcome = WelcomePage()
        self.welcome.open_requested.connect(self.incoming.open_dialog)
        self.welcome.samples_requested.connect(self.incoming.open_samples)
        self.welcome.new_requested.connect(self.new_passport)
        review = self.incoming.build_view()
        review.show_passport_requested.connect(self.select_key)
        passport = self.passport.build_view()
        passport.open_requested.connect(self.incoming.open_dialog)
        self.composer = Composer(self.desk, self.jobs)
        self.composer.message.connect(self.info)
        self.composer.failed.connect(self.error)
        self.composer.created.connect(lambda _pid: self.inbox.refresh())  # it joins the list
        self.composer.send_requested.connect(self.send_handoff)
        self.composer.packs_dropped.connect(self.open_files)
        self.loading = plain(tr("Reading…"), muted=True)
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for page in (self.welcome, review, passport, self.loading, self.composer):
            self.stack.addWidget(page)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([520, 700])  # scaled to the window as it is resized
        self.setCentralWidget(splitter)
        self.tabs.set_panes(left, right)
        self.statusBar()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        bar.clear()
        file_menu = bar.addMenu(tr("&File"))
        self.open_action = self._action(
            file_menu, tr("&Open packs…"), self.incoming.open_dialog, QKeySequence.StandardKey.Open
        )
        self._action(file_menu, tr("Open the sa&mple packs"), self.incoming.open_samples)
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
            edit, tr("&Paste a pack"), self.arrivals.paste, QKeySequence.StandardKey.Paste
        )
        self.paste_action.setToolTip(
            tr(
                "Open a pack from the clipboard: a copied file, or a reply "
                "pasted from a chat or an email."
            )
        )
        view = bar.addMenu(tr("&View"))
        self._action(view, tr("&Incoming packs"), lambda: self.inbox.set_incoming_only(True))
        self._action(view, tr("&All passports"), self.inbox.clear_filters)
        self._action(view, tr("&Refresh"), self.inbox.refresh, QKeySequence.StandardKey.Refresh)
        help_menu = bar.addMenu(tr("&Help"))
        self._action(
            help_menu,
            tr("&How TaskPack Desk works"),
            self.show_guide,
            QKeySequence.StandardKey.HelpContents,
        )
        self._action(help_menu, tr("&About TaskPack Desk"), self.about)

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(lambda _c=False: slot())
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def _name_saved(self, name: str) -> None:
        if name:
            self.info(
                tr("Thank you. Your answers and packs are signed {who}.").format(
                    who=sender_label(name, self.desk.machine)
                ),
                "ok",
            )
        self.name_bar.hide()
        self.save_settings()

    # -- the right side (what the parts ask of the window: `ui/window/side.Side`) --

    def current(self) -> str | None:
        return self._current

    def set_current(self, key: str | None) -> None:
        self._current = key

    def current_passport_id(self) -> str | None:
        """The id of the passport the right side shows (None: an incoming file, or nothing)."""
        return passport_of(self._current)

    def select_key(self, key: str) -> None:
        """Show a passport id or an incoming file key, selecting its row when visible."""
        self.inbox.select_row(key)
        self._show_key(key)

    def _show_key(self, key: str) -> None:
        if self._current != key:
            self.banner.clear()  # a message is about what was shown before
        self._current = key
        path = file_of(key)
        if path is not None:
            self.incoming.show(path)
        else:
            self.passport.load(key)

    def show_page(self, page: QWidget) -> None:
        self.stack.setCurrentWidget(page)

    def shown_page(self) -> QWidget | None:
        return self.stack.currentWidget()

    def show_welcome(self) -> None:
        self.stack.setCurrentWidget(self.welcome)

    def show_loading(self) -> None:
        self.stack.setCurrentWidget(self.loading)

    def composing(self) -> bool:
        return self.stack.currentWidget() is self.composer

    def present(self) -> None:
        self.raise_()
        self.activateWindow()

    def open_files(self, paths: list[Path]) -> None:
        """Review each file (nothing is stored); show the first."""
        self.incoming.open_files(paths)

    def _rows_loaded(self) -> None:
        if self._current:
            self.inbox.select_row(self._current)
        self._update_welcome()
        self._update_status()

    def _passports_changed(self, changed: set[str] | None) -> None:
        # None: the team desk answers again, and anything may have changed meanwhile
        pid = self.current_passport_id()
        if pid is not None and (changed is None or pid in changed):
            self.passport.load(pid, keep_tab=True)

    def _landed(self, passport_id: str, note: str) -> None:
        self._current = passport_id
        self.inbox.refresh()
        self.passport.load(passport_id, note=note)

    def _merged(self, passport_id: str, answered: set[str], note: str) -> None:
        self.passport.highlight(passport_id, answered, note)
        self._current = passport_id
        self.inbox.refresh()
        self.passport.load(passport_id, note=note, tab=1)

    def _update_welcome(self) -> None:
        self.welcome.update_samples(self.inbox.is_empty())
        # the composer stays: someone is typing in it
        page = self.stack.currentWidget()
        if self._current is None and page is not self.welcome and page is not self.composer:
            self.stack.setCurrentWidget(self.welcome)

    # -- the composer ----------------------------------------------------------

    def new_passport(self) -> None:
        """ "New passport…": the composer, empty, on the right side."""
        self._current = None
        self.composer.start_new()
        self.stack.setCurrentWidget(self.composer)
        self.composer.title_edit.setFocus()

    def compose_current(self) -> None:
        """The passport shown, in the composer."""
        pid = self.current_passport_id()
        if pid is None:
            self.info(tr("Choose one of your passports first, or start a new one."), "info")
            return
        self.composer.open_passport(pid, then=lambda: self.stack.setCurrentWidget(self.composer))

    def send_current(self) -> None:
        pid = self.composer.pid if self.composing() else None
        pid = pid or self.current_passport_id()
        if pid is not None:
            self.send_handoff(pid)

    def send_handoff(self, passport_id: str) -> None:
        """ "Send a handoff…": to whom, a note, the preview; then out the way chosen."""
        self.send_dialog = SendDialog(self, passport_id)
        self.send_dialog.open()

    # -- the status bar --------------------------------------------------------

    def _update_status(self) -> None:
        passports, incoming = self.inbox.counts()
        text = tr("{passports}, {incoming}").format(
            passports=trn("%n passports", passports), incoming=trn("%n incoming", incoming)
        )
        text += self.watching.summary()
        team = self.desk.team_desk
        if team and self.inbox.unreachable_text:
            text += " · " + tr("team desk {where} out of reach").format(where=team)
        elif team:  # everyone on it sees these passports: say so where a person looks
            text += " · " + tr("team desk {where}").format(where=team)
        self.summary_label.setText(text)

    def status_summary(self) -> str:
        """The summary at the left of the status bar (hidden while a message shows)."""
        return str(self.summary_label.text())

    def a2a_status(self) -> str:
        """What the status bar says about the A2A endpoint."""
        return self.a2a_panel.status()

    def _out_of_reach(self, text: str) -> None:
        if self.banner.text() != text:
            self.banner.show_message(text, "warn")

    def _back_in_reach(self, text: str) -> None:
        if self.banner.text() == text:
            self.banner.clear()

    def idle(self) -> bool:
        """No background job running and no reload pending (tests wait for this)."""
        return (
            self.jobs.idle()
            and self.inbox.idle()
            and not self.a2a_panel.busy()
            and not paging.filling()
        )

    # -- language --------------------------------------------------------------

    def set_language(self, language: str | None) -> None:
        i18n.install(language)
        current = self._current
        self._build()
        self.inbox.retranslate()
        self._update_welcome()
        if current:
            self.select_key(current)
        self._update_status()
        self.a2a_panel.retranslate()

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
        settings = self.desk.settings
        language_before = i18n.current()
        watching_before = (watch_enabled(settings), watched_folders(settings))
        serving_before = a2a_wanted(settings)
        machine_before = settings.machine_name
        store_before = settings.store
        dialog.apply()
        self.save_settings()
        if i18n.resolve(settings.language) != language_before:
            self.set_language(settings.language)
        if (watch_enabled(settings), watched_folders(settings)) != watching_before:
            self.watching.apply_settings()
        if a2a_wanted(settings) != serving_before or self.a2a_panel.state.kind == "failed":
            self.a2a_panel.apply()  # a failed start is tried again when Settings are saved
        if not os.environ.get(ACTOR_ENV, "").strip():
            self.desk.actor = actor_name(settings)  # your name applies now
        self.name_bar.setVisible(self.name_bar.wanted())
        if settings.store != store_before:
            self.info(tr("Settings saved. The team desk applies the next time the desk starts."))
        elif settings.machine_name != machine_before:
            self.info(
                tr("Settings saved. A new machine name applies the next time the desk starts.")
            )
        else:
            self.info(tr("Settings saved."))

    def save_settings(self) -> None:
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

    # -- the keyboard, drops ---------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter does what the page's default button does (Land, Merge, Take this on)."""
        if enter_pressed(event, self):
            target = self.default_button()
            if target is not None:
                target.click()
                return
        super().keyPressEvent(event)

    def default_button(self) -> QPushButton | None:
        """The visible, enabled default button of what the right side shows, if any."""
        return default_button(self.stack.currentWidget())

    def schedule_tab_order(self, *_args: object) -> None:
        self.tabs.schedule()

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab and Shift+Tab go round the whole window as it reads (`TabOrder`)."""
        return self.tabs.step(next) or super().focusNextPrevChild(next)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_drag(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        accept_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.arrivals.drop(event)

    def changeEvent(self, event: QEvent) -> None:
        # the CLI or an agent may have changed the store from another process: coming back
        # to the window reads the list again (at most every few seconds)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.inbox.refresh_if_stale()
        super().changeEvent(event)

    # -- closing ---------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.inbox.shutdown()
        self._save_geometry()
        self.desk.drafts.flush()
        self.watching.shutdown()
        self.jobs.cancel_all()
        self.jobs.wait(10_000)
        self.a2a_panel.shutdown()  # the desk closes after this: the endpoint stops first


__all__ = ["MainWindow", "pack_paths", "sample_packs"]
