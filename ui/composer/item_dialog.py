"""One item of a passport being composed, added or changed in a small dialog: a fact, a
decision, a next step, an ask (its answer rule judged as it is typed), a landing check.

`edit_item` is the one entry point (tests drive the real dialog through it); it returns
the typed fields by name, or None when the person cancelled.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import Desk
from taskpack.ui.i18n import tr

#: the scopes a fact may have, each with the one line that says when to choose it
SCOPES = ("machine", "org", "universal")


def scope_words(scope: str) -> tuple[str, str]:
    """(name, one line on when it is the right one) for a fact's scope."""
    if scope == "universal":
        return tr("Universal"), tr(
            "True anywhere: an agreement, a requirement, a fact anyone could check."
        )
    if scope == "org":
        return tr("Organisation"), tr(
            "True inside your organisation: a convention, a shared server, a team's rule."
        )
    return tr("This machine"), tr(
        "True on this machine: a path, a version, what runs here. Sealed unproven when it "
        "leaves; the receiver checks it on theirs."
    )


def titles(kind: str, editing: bool) -> tuple[str, str]:
    """(window title, the sentence under it) for adding or changing an item of `kind`."""
    if kind == "fact":
        return (tr("Edit fact") if editing else tr("Add a fact")), tr(
            "A machine fact is sealed unproven when it leaves this machine."
        )
    if kind == "decision":
        return (tr("Edit decision") if editing else tr("Add a decision")), tr(
            "What was decided, and why: the receiver does not undo it by accident."
        )
    if kind == "step":
        return (tr("Edit next step") if editing else tr("Add a next step")), ""
    if kind == "ask":
        return (tr("Edit ask") if editing else tr("Add an ask")), tr(
            "An ask needs “what counts as an answer”: the reply is judged against it."
        )
    return (tr("Edit landing check") if editing else tr("Add a landing check")), tr(
        "The receiver does required checks first. Your “how” is shown to them as your suggestion."
    )


def lint_words(accept: str, what: str) -> tuple[str, bool]:
    """(what the ask lint says of `accept`, whether the ask can go at all)."""
    if not accept.strip():
        return tr("An ask cannot go without what counts as an answer."), False
    found = " ".join(Desk.accept_warnings(accept, what))
    if "repeats the question" in found:
        return tr("This only repeats the question: say what would count as an answer."), True
    if "too vague" in found:
        return tr(
            "Too vague to judge an answer against: say what shape the answer takes "
            "(a number and its unit, yes or no with the reason, a date…)."
        ), True
    if "too short" in found:
        return tr(
            "Too short to judge an answer against: say what shape the answer takes "
            "(a number and its unit, yes or no with the reason, a date…)."
        ), True
    return tr("Clear: an answer can be judged against this."), True


class ItemDialog(QDialog):
    """The fields of one item; `values()` is what was typed."""

    def __init__(
        self,
        parent: QWidget | None,
        kind: str,
        initial: Mapping[str, object] | None = None,
        *,
        machine: str = "",
        note: str = "",
        editing: bool | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        init = dict(initial or {})
        editing = initial is not None if editing is None else editing
        title, explain = titles(kind, editing)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        lay = QVBoxLayout(self)
        for text in (note, explain):
            if text:
                label = QLabel(text)
                label.setTextFormat(Qt.TextFormat.PlainText)
                label.setWordWrap(True)
                lay.addWidget(label)
        form = QFormLayout()
        lay.addLayout(form)
        self.fields: dict[str, QWidget] = {}
        self.scope_buttons: dict[str, QRadioButton] = {}
        self.lint = QLabel()
        self.lint.setTextFormat(Qt.TextFormat.PlainText)
        self.lint.setWordWrap(True)
        self.lint.setAccessibleName(tr("What the ask lint says"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(tr("Save") if editing else tr("Add"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        if kind == "fact":
            self._text(form, "claim", tr("Claim"), init)
            group = QButtonGroup(self)
            box = QWidget()
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 0)
            chosen = str(init.get("scope") or "machine")
            for scope in SCOPES:
                name, line = scope_words(scope)
                radio = QRadioButton(name)
                radio.setAccessibleName(tr("Scope: {name}").format(name=name))
                radio.setAccessibleDescription(line)
                radio.setChecked(scope == chosen)
                group.addButton(radio)
                self.scope_buttons[scope] = radio
                why = QLabel(line)
                why.setWordWrap(True)
                why.setTextFormat(Qt.TextFormat.PlainText)
                why.setContentsMargins(22, 0, 0, 4)
                col.addWidget(radio)
                col.addWidget(why)
            form.addRow(tr("Scope"), box)
            verified = QCheckBox(
                tr("Verified here, on {machine}").format(machine=machine)
                if machine
                else tr("Verified here")
            )
            verified.setAccessibleName(tr("Verified here"))
            verified.setChecked(bool(init.get("verified")))
            self.fields["verified"] = verified
            form.addRow("", verified)
            self._line(form, "source", tr("Source (how you know)"), init)
        elif kind == "decision":
            self._line(form, "what", tr("What was decided"), init)
            self._text(form, "why", tr("Why"), init)
        elif kind == "step":
            self._line(form, "step", tr("Next step"), init)
        elif kind == "ask":
            self._text(form, "what", tr("Question"), init)
            self._line(form, "why", tr("Why you ask"), init)
            self._line(form, "accept", tr("What counts as an answer"), init)
            form.addRow("", self.lint)
            self._line(form, "to", tr("To whom (optional)"), init)
            for key in ("what", "accept"):
                w = self.fields[key]
                signal = w.textChanged  # type: ignore[attr-defined]
                signal.connect(self._judge)
            self._judge()
        else:
            self._line(form, "check", tr("What to check"), init)
            self._line(form, "how", tr("How (your suggestion)"), init)
            required = QCheckBox(tr("Required: the receiver does it first"))
            required.setAccessibleName(tr("Required"))
            required.setChecked(init.get("required") is not False)
            self.fields["required"] = required
            form.addRow("", required)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(520, self.sizeHint().height())

    def _line(self, form: QFormLayout, key: str, label: str, init: dict[str, object]) -> None:
        w = QLineEdit(str(init.get(key) or ""))
        w.setAccessibleName(label)
        self.fields[key] = w
        form.addRow(label, w)

    def _text(self, form: QFormLayout, key: str, label: str, init: dict[str, object]) -> None:
        w = QPlainTextEdit(str(init.get(key) or ""))
        w.setTabChangesFocus(True)
        w.setFixedHeight(72)
        w.setAccessibleName(label)
        self.fields[key] = w
        form.addRow(label, w)

    def _value(self, key: str) -> str:
        w = self.fields[key]
        if isinstance(w, QPlainTextEdit):
            return w.toPlainText().strip()
        assert isinstance(w, QLineEdit)
        return w.text().strip()

    def _judge(self) -> None:
        words, can_go = lint_words(self._value("accept"), self._value("what"))
        self.lint.setText(words)
        self.ok.setEnabled(can_go and bool(self._value("what")))

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, w in self.fields.items():
            out[key] = w.isChecked() if isinstance(w, QCheckBox) else self._value(key)
        if self.kind == "fact":
            out["scope"] = next(s for s, b in self.scope_buttons.items() if b.isChecked())
        return out


def edit_item(
    parent: QWidget | None,
    kind: str,
    initial: Mapping[str, object] | None = None,
    *,
    machine: str = "",
    note: str = "",
    editing: bool | None = None,
) -> dict[str, object] | None:
    """Ask for one item (`initial`: its fields when it is being changed); None: cancelled.
    `note`: a sentence shown first (why the dialog came back, after a stale save);
    `editing`: False when `initial` is an item being added again."""
    dialog = ItemDialog(parent, kind, initial, machine=machine, note=note, editing=editing)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.values()
