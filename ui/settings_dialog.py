"""Settings: language, watched folders, this machine's name and who you are, the gate."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.settings import Settings
from taskpack.app.watcher import default_folders

from . import dialogs
from .i18n import LANGUAGES, tr

#: keys this window keeps in Settings.other (the settings file keeps unknown keys)
WATCH_ENABLED = "watch_enabled"


def watch_enabled(settings: Settings) -> bool:
    return settings.other.get(WATCH_ENABLED, True) is not False


def watched_folders(settings: Settings) -> list[Path]:
    """The folders to watch: as set, or the defaults when none are set."""
    if settings.watched_folders:
        return [Path(f).expanduser() for f in settings.watched_folders]
    return default_folders()


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, *, machine: str, actor: str, parent: QWidget | None = None) -> None:
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

        self.machine = QLineEdit(settings.machine_name or "")
        self.machine.setPlaceholderText(machine)
        form.addRow(tr("This machine's name"), self.machine)
        self.actor = QLineEdit(settings.actor or "")
        self.actor.setPlaceholderText(actor)
        form.addRow(tr("Your name"), self.actor)
        self.allow = QLineEdit(", ".join(settings.gate_allow))
        self.allow.setPlaceholderText(tr("e.g. wei@wei-laptop, zhang"))
        form.addRow(tr("Senders routed without approval"), self.allow)

        self.watch = QCheckBox(tr("Watch folders for incoming packs"))
        self.watch.setChecked(watch_enabled(settings))
        lay.addWidget(self.watch)
        explain = QLabel(tr("New packs appear under Incoming with a notification. Nothing lands "
                            "without you. Drives plugged in while the desk runs are scanned once."))  # fmt: skip
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

        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        box.button(QDialogButtonBox.StandardButton.Save).setText(tr("Save"))
        box.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        self.resize(560, 480)

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

    def apply(self) -> Settings:
        """The settings as edited (the same object, changed in place)."""
        s = self.settings
        s.language = self.language.currentData()
        s.machine_name = self.machine.text().strip() or None
        s.actor = self.actor.text().strip() or None
        s.gate_allow = [a.strip() for a in self.allow.text().split(",") if a.strip()]
        folders = [self.folders.item(i).text() for i in range(self.folders.count())]
        defaults = [str(f) for f in default_folders()]
        s.watched_folders = [] if folders == defaults else folders
        s.other[WATCH_ENABLED] = self.watch.isChecked()
        return s
