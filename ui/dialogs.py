"""Questions the window asks a person, in one place so tests can answer them.

Every prompt is a module-level function; the window calls them through this module
(``dialogs.confirm(...)``), so a test replaces one with ``monkeypatch.setattr``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)
from taskpack.ui.i18n import tr


def pack_filter() -> str:
    return tr("TaskPack files") + " (*.taskpack *.taskpack.json *.tpx);;" + tr("All files") + " (*)"


def ask_open_paths(parent: QWidget | None) -> list[Path]:
    names, _ = QFileDialog.getOpenFileNames(parent, tr("Open packs"), "", pack_filter())
    return [Path(n) for n in names]


def ask_save_path(
    parent: QWidget | None, title: str, suggested: Path, filter_text: str
) -> Path | None:
    name, _ = QFileDialog.getSaveFileName(parent, title, str(suggested), filter_text)
    return Path(name) if name else None


def ask_folder(parent: QWidget | None, title: str) -> Path | None:
    name = QFileDialog.getExistingDirectory(parent, title)
    return Path(name) if name else None


def confirm(
    parent: QWidget | None, title: str, text: str, *, ok: str | None = None, safe: bool = False
) -> bool:
    """Ask yes or no; `safe`: Enter means Cancel (for what a pack asks the desk to do)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    yes = box.addButton(ok or tr("OK"), QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(cancel if safe else yes)
    box.exec()
    return box.clickedButton() is yes


def inform(parent: QWidget | None, title: str, text: str) -> None:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    box.exec()


# --- small forms --------------------------------------------------------------------------

#: a form field: (key, label, kind, options) with kind "line" | "text" | "choice" | "check"
Field = tuple[str, str, str, list[str] | None]


class FormDialog(QDialog):
    """A few labelled fields with OK/Cancel; `values()` returns what was typed."""

    def __init__(
        self, parent: QWidget | None, title: str, fields: list[Field], explain: str = ""
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        lay = QVBoxLayout(self)
        if explain:
            note = QLabel(explain)
            note.setTextFormat(Qt.TextFormat.PlainText)
            note.setWordWrap(True)
            lay.addWidget(note)
        form = QFormLayout()
        lay.addLayout(form)
        self.widgets: dict[str, QWidget] = {}
        for key, label, kind, options in fields:
            w: QWidget
            if kind == "text":
                w = QPlainTextEdit()
                w.setTabChangesFocus(True)
                w.setFixedHeight(80)
            elif kind == "choice":
                w = QComboBox()
                for opt in options or []:
                    w.addItem(opt)
            elif kind == "check":
                w = QCheckBox()
                w.setChecked(bool(options))
            else:
                w = QLineEdit()
            self.widgets[key] = w
            form.addRow(label, w)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(480, self.sizeHint().height())

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, w in self.widgets.items():
            if isinstance(w, QPlainTextEdit):
                out[key] = w.toPlainText().strip()
            elif isinstance(w, QComboBox):
                out[key] = w.currentIndex()
            elif isinstance(w, QCheckBox):
                out[key] = w.isChecked()
            elif isinstance(w, QLineEdit):
                out[key] = w.text().strip()
        return out


def ask_form(
    parent: QWidget | None, title: str, fields: list[Field], explain: str = ""
) -> dict[str, object] | None:
    """Show a small form; the typed values by key, or None if the person cancelled.

    A "choice" field's value is the index of the chosen option.
    """
    dialog = FormDialog(parent, title, fields, explain)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.values()
