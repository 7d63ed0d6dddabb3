"""Settings: language, watched folders, this machine's name and who you are, the gate,
and the A2A endpoint the window serves this desk on."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.a2a import DEFAULT_HOST
from taskpack.app.desk import display_name
from taskpack.app.settings import Settings, SettingsError, store_url_problem
from taskpack.app.watcher import default_folders
from taskpack.ui import dialogs, tones
from taskpack.ui.i18n import LANGUAGES, tr
from taskpack.ui.widgets import plain

#: keys this window keeps in Settings.other (the settings file keeps unknown keys)
WATCH_ENABLED = "watch_enabled"


def watch_enabled(settings: Settings) -> bool:
    return settings.other.get(WATCH_ENABLED, True) is not False


def watched_folders(settings: Settings) -> list[Path]:
    """The folders to watch: as set, or the defaults when none are set."""
    if settings.watched_folders:
        return [Path(f).expanduser() for f in settings.watched_folders]
    return default_folders()


def a2a_wanted(settings: Settings) -> tuple[str, int] | None:
    """(host, port) the A2A endpoint should serve on, or None when it is off."""
    return (settings.a2a_host, settings.a2a_port) if settings.a2a_enabled else None


def is_loopback(host: str) -> bool:
    """True when only this machine can reach `host` (127.0.0.0/8, ::1, localhost)."""
    host = host.strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def store_problem(url: str) -> str:
    """Why `url` cannot be the team desk's address, as one sentence ("" when it can)."""
    if not url:
        return ""
    try:
        store_url_problem(url, where="store")
    except SettingsError:
        try:
            holds_password = urlsplit(url).password is not None or "password=" in url
        except ValueError:
            holds_password = False
        if holds_password:
            return tr(
                "The address holds a password. Leave it out: put the password in "
                "PGPASSWORD or ~/.pgpass."
            )
        return tr("A team desk is a PostgreSQL address: postgresql://USER@HOST:PORT/DB.")
    return ""


class SettingsDialog(QDialog):
    def __init__(
        self, settings: Settings, *, machine: str, actor: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Settings"))
        self.settings = settings
        lay = QVBoxLayout(self)
        form = QFormLayout()
        lay.addLayout(form)

        self.language = QComboBox()
        self.language.addItem(tr("System language"), None)
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        form.addRow(tr("Language"), self.language)

        self.machine_default = machine
        self.machine = QLineEdit(settings.machine_name or "")
        self.machine.setPlaceholderText(machine)
        form.addRow(tr("This machine's name"), self.machine)
        self.actor = QLineEdit(settings.actor or "")
        self.actor.setPlaceholderText(actor)
        self.actor.setToolTip(tr("Signs your answers, the checks you make and the packs you send."))
        form.addRow(tr("Your name"), self.actor)
        self.allow = QLineEdit(", ".join(settings.gate_allow))
        self.allow.setPlaceholderText(tr("e.g. wei@wei-laptop, zhang"))
        form.addRow(tr("Senders whose tasks skip your approval"), self.allow)
        # a team desk: the store several machines share (its URL; the password stays out)
        self.store = QLineEdit(settings.store or "")
        self.store.setPlaceholderText(
            tr("postgresql://USER@HOST:PORT/DB (empty: this machine only)")
        )
        self.store.setToolTip(
            tr(
                "The team desk's PostgreSQL address. Leave the password out of it: "
                "put it in PGPASSWORD or ~/.pgpass."
            )
        )
        form.addRow(tr("Team desk"), self.store)
        self.store_error = plain("", small=True)
        self.store_error.setStyleSheet(f"color: {tones.kind_colors('error')[1]};")
        self.store_error.hide()
        self.store.textChanged.connect(lambda _t: self.store_error.hide())
        form.addRow("", self.store_error)

        self.watch = QCheckBox(tr("Watch folders for incoming packs"))
        self.watch.setChecked(watch_enabled(settings))
        lay.addWidget(self.watch)
        explain = QLabel(
            tr(
                "New packs appear under Incoming with a notification. Nothing lands "
                "without you. Drives plugged in while the desk runs are scanned once."
            )
        )
        explain.setWordWrap(True)
        lay.addWidget(explain)
        self.folders = QListWidget()
        for folder in watched_folders(settings):
            self.folders.addItem(str(folder))
        lay.addWidget(self.folders)
        buttons = QHBoxLayout()
        add = QPushButton(tr("Add folder…"))
        add.clicked.connect(self._add_folder)
        remove = QPushButton(tr("Remove"))
        remove.clicked.connect(self._remove_folder)
        reset = QPushButton(tr("Use defaults"))
        reset.clicked.connect(self._defaults)
        for b in (add, remove, reset):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        lay.addWidget(self._build_a2a(settings))

        box = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        box.button(QDialogButtonBox.StandardButton.Save).setText(tr("Save"))
        box.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        self.resize(560, 640)

    def _build_a2a(self, settings: Settings) -> QGroupBox:
        group = QGroupBox(tr("Agent endpoint (A2A)"))
        lay = QVBoxLayout(group)
        self.a2a_enabled = QCheckBox(tr("Serve this desk over A2A"))
        self.a2a_enabled.setChecked(settings.a2a_enabled)
        lay.addWidget(self.a2a_enabled)
        explain = QLabel(
            tr(
                "Agents and other desks can then hand packs to this desk while it runs. "
                "Each needs a token: run “taskpack token add NAME” and give it to them."
            )
        )
        explain.setWordWrap(True)
        lay.addWidget(explain)
        form = QFormLayout()
        lay.addLayout(form)
        self.a2a_host = QLineEdit(settings.a2a_host)
        self.a2a_host.setPlaceholderText(DEFAULT_HOST)
        form.addRow(tr("Host"), self.a2a_host)
        self.a2a_port = QSpinBox()
        self.a2a_port.setRange(0, 65535)
        self.a2a_port.setSpecialValueText(tr("Any free port"))  # shown for 0
        self.a2a_port.setValue(settings.a2a_port)
        form.addRow(tr("Port"), self.a2a_port)
        self.a2a_warning = plain(
            "⚠ "
            + tr(
                "This is not a loopback address: other machines can reach this desk "
                "over plain HTTP, without TLS. Put a TLS proxy in front of it."
            )
        )
        self.a2a_warning.setStyleSheet(f"color: {tones.kind_colors('warn')[1]};")
        lay.addWidget(self.a2a_warning)
        self.a2a_enabled.toggled.connect(self._a2a_changed)
        self.a2a_host.textChanged.connect(self._a2a_changed)
        self._a2a_changed()
        return group

    def _a2a_changed(self, *_args: object) -> None:
        on = self.a2a_enabled.isChecked()
        self.a2a_host.setEnabled(on)
        self.a2a_port.setEnabled(on)
        self.a2a_warning.setVisible(on and not is_loopback(self.a2a_host.text() or DEFAULT_HOST))

    def _add_folder(self) -> None:
        folder = dialogs.ask_folder(self, tr("Watch a folder"))
        if folder is not None:
            self.folders.addItem(str(folder))

    def _remove_folder(self) -> None:
        for item in self.folders.selectedItems():
            self.folders.takeItem(self.folders.row(item))

    def _defaults(self) -> None:
        self.folders.clear()
        for folder in default_folders():
            self.folders.addItem(str(folder))

    def accept(self) -> None:
        """Save, unless the team desk's address cannot be used (said under the field)."""
        problem = store_problem(self.store.text().strip())
        if problem:
            self.store_error.setText(problem)
            self.store_error.show()
            self.store.setFocus()
            return
        super().accept()

    def apply(self) -> Settings:
        """The settings as edited (the same object, changed in place)."""
        s = self.settings
        s.language = self.language.currentData()
        s.machine_name = self.machine.text().strip() or None
        s.actor = display_name(
            self.actor.text(), self.machine.text().strip() or self.machine_default
        )
        s.gate_allow = [a.strip() for a in self.allow.text().split(",") if a.strip()]
        folders = [self.folders.item(i).text() for i in range(self.folders.count())]
        defaults = [str(f) for f in default_folders()]
        s.watched_folders = [] if folders == defaults else folders
        s.other[WATCH_ENABLED] = self.watch.isChecked()
        s.a2a_enabled = self.a2a_enabled.isChecked()
        s.a2a_host = self.a2a_host.text().strip() or DEFAULT_HOST
        s.a2a_port = self.a2a_port.value()
        s.store = self.store.text().strip() or None
        return s
