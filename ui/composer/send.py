""" "Send a handoff…": to whom and a note, then a preview of exactly what the receiver will
see, with what would stop it going said before anything is written; then a file, Copy for
chat or email (the window's `Exporter`, which writes through `Desk.pack`).

The preview is the desk's (`Desk.preview_handoff`: the writer's own pack object and
sealing); typing the note rebuilds it without touching the luggage. The attached files are
scanned once, when the dialog opens (`Desk.scan_luggage`).
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import Desk, HandoffPreview
from taskpack.core.errors import Finding
from taskpack.ui.export import Exporter
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import JobRunner, human_size
from taskpack.ui.widgets import button, heading

#: how long the note may rest before the preview is made again
PREVIEW_DELAY_MS = 250


class Host(Protocol):
    desk: Desk
    jobs: JobRunner
    exporter: Exporter


def place_words(place: str) -> str:
    """Where a finding is, as a person reads it."""
    if place == "note":
        return tr("in your note")
    if place.startswith("passport.facts["):
        n = int(place.split("[", 1)[1].split("]", 1)[0]) + 1
        return tr("in fact {n}").format(n=n)
    if place.startswith("asks["):
        n = int(place.split("[", 1)[1].split("]", 1)[0]) + 1
        return tr("in ask {n}").format(n=n)
    if place.startswith("landing_checks["):
        n = int(place.split("[", 1)[1].split("]", 1)[0]) + 1
        return tr("in landing check {n}").format(n=n)
    if place.startswith("passport."):
        return tr("in the passport’s {field}").format(field=place.split(".", 1)[1])
    return tr("in the file {place}").format(place=place)


def refusal_words(finding: Finding) -> str:
    if finding.rule == "ask":
        return tr("An ask without what counts as an answer cannot go ({place}).").format(
            place=place_words(finding.place)
        )
    return tr("{kind} {place}: remove it before sending (treat it as leaked).").format(
        kind=finding.kind, place=place_words(finding.place)
    )


def receiver_view(preview: HandoffPreview, machine: str, to: str) -> list[tuple[str, str]]:
    """The preview as (section heading, plain text) pairs: what the receiver reads first
    comes first (the required checks, then the facts as sealed, the asks)."""
    pack = preview.pack
    p = pack.passport
    out: list[tuple[str, str]] = []
    if p is None:  # (a pack object is always made with one)
        return out
    who = to or tr("the receiver")
    out.append(
        (
            tr("What {who} will see").format(who=who),
            "\n".join(
                x
                for x in (
                    p.title or "",
                    tr("Goal: {goal}").format(goal=p.goal or ""),
                    tr("Where it stands: {state}").format(state=p.current_state)
                    if p.current_state
                    else "",
                    tr("Your note: {note}").format(note=pack.note) if pack.note else "",
                )
                if x
            ),
        )
    )
    checks = sorted(pack.landing_checks or [], key=lambda c: not c.is_required)
    if checks:
        lines = []
        for c in checks:
            head = tr("Required") if c.is_required else tr("Optional")
            how = tr(" — your suggestion: {how}").format(how=c.how) if c.how else ""
            lines.append(tr("{head}: {check}").format(head=head, check=c.check) + how)
        out.append((tr("Do these first"), "\n".join(lines)))
    facts = []
    for f in pack.facts:
        if f.effective_scope == "machine" and f.needs_reverify:
            facts.append(
                tr("{claim} — unproven there — verified on {machine}").format(
                    claim=f.claim, machine=f.verified_on or machine
                )
            )
        elif f.verified:
            facts.append(tr("{claim} — ✓ verified").format(claim=f.claim))
        else:
            facts.append(tr("{claim} — not verified").format(claim=f.claim))
    if facts:
        out.append((tr("Facts"), "\n".join(facts)))
    asks = [
        tr("{what} — what counts as an answer: {accept}").format(what=a.what, accept=a.accept)
        + (tr(" — to {who}").format(who=a.to) if a.to and a.to != "peer" else "")
        for a in pack.asks or []
    ]
    if asks:
        out.append((tr("Asks"), "\n".join(asks)))
    if p.next_steps:
        out.append((tr("Next steps"), "\n".join(str(s) for s in p.next_steps)))
    if p.decisions:
        out.append(
            (
                tr("Decisions"),
                "\n".join(f"{d.what} — {d.why}" if d.why else str(d.what) for d in p.decisions),
            )
        )
    if preview.luggage:
        out.append(
            (
                tr("Attached files"),
                "\n".join(f"{name} — {human_size(size)}" for name, size in preview.luggage),
            )
        )
    return out


class SendDialog(QDialog):
    """To whom, a note, the preview, and the ways out."""

    def __init__(self, host: Host, passport_id: str) -> None:
        super().__init__(host if isinstance(host, QWidget) else None)
        self.host = host
        self.pid = passport_id
        self.preview: HandoffPreview | None = None
        self.file_findings: list[Finding] | None = None  # None: not scanned yet
        self.luggage_read = 0  # bytes the scan read (each byte once)
        self._seq = 0
        self.setWindowTitle(tr("Send a handoff"))
        self.setAccessibleName(tr("Send a handoff"))
        self.resize(640, 640)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.to_edit = QLineEdit()
        self.to_edit.setAccessibleName(tr("To whom"))
        self.to_edit.setPlaceholderText(tr("A name; kept in your outbox with the pack"))
        self.note_edit = QPlainTextEdit()
        self.note_edit.setAccessibleName(tr("Note"))
        self.note_edit.setPlaceholderText(tr("A few words for the receiver"))
        self.note_edit.setTabChangesFocus(True)
        self.note_edit.setFixedHeight(64)
        form.addRow(tr("To whom"), self.to_edit)
        form.addRow(tr("Note"), self.note_edit)
        lay.addLayout(form)
        self.refusals = QLabel()
        self.refusals.setTextFormat(Qt.TextFormat.PlainText)
        self.refusals.setWordWrap(True)
        self.refusals.setAccessibleName(tr("What stops it going"))
        self.refusals.setStyleSheet("color: #b3261e; font-weight: bold;")
        self.refusals.hide()
        lay.addWidget(self.refusals)
        self.warnings = QLabel()
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.warnings.setWordWrap(True)
        self.warnings.setAccessibleName(tr("Warnings"))
        self.warnings.hide()
        lay.addWidget(self.warnings)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.StyledPanel)
        self.preview_box = QWidget()
        self.preview_lay = QVBoxLayout(self.preview_box)
        scroll.setWidget(self.preview_box)
        scroll.setAccessibleName(tr("Preview"))
        lay.addWidget(scroll, 1)
        self.status = QLabel(tr("Making the preview…"))
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        buttons = QHBoxLayout()
        self.ways: dict[str, QPushButton] = {}
        for mode, label in (
            ("save_bag", tr("Save as .taskpack…")),
            ("save_flat", tr("Save as .taskpack.json…")),
            ("copy", tr("Copy for chat")),
            ("email", tr("Email…")),
        ):
            b = button(label, functools.partial(self.send, mode))
            b.setAccessibleName(label)
            b.setEnabled(False)
            self.ways[mode] = b
            buttons.addWidget(b)
        buttons.addStretch(1)
        cancel = button(tr("Cancel"), self.reject)
        cancel.setAccessibleName(tr("Cancel"))
        buttons.addWidget(cancel)
        lay.addLayout(buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self.note_edit.textChanged.connect(self._timer.start)
        self.to_edit.textChanged.connect(self._show)
        self.refresh()
        self._scan_files()

    # -- the preview ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Make the preview again for the note as typed (no luggage byte is read)."""
        self._seq += 1
        seq = self._seq
        note = self.note_edit.toPlainText().strip() or None

        def done(preview: HandoffPreview) -> None:
            if seq == self._seq:
                self.preview = preview
                self._show()

        self.host.jobs.run(
            lambda _p, _c: self.host.desk.preview_handoff(self.pid, note=note),
            title=tr("Making the preview…"),
            on_done=done,
            on_error=self._failed,
            show_progress=False,
        )

    def _scan_files(self) -> None:
        def progress_seen(done: int, total: int) -> None:
            self.luggage_read = done

        def scan(p: Any, c: Any) -> list[Finding]:
            def both(done: int, total: int) -> None:
                progress_seen(done, total)
                p(done, total)

            return self.host.desk.scan_luggage(self.pid, progress=both, cancel=c)

        def done(found: list[Finding]) -> None:
            self.file_findings = found
            self._show()

        self.host.jobs.run(
            scan,
            title=tr("Checking the attached files for credentials…"),
            on_done=done,
            on_error=self._failed,
        )

    def _failed(self, message: str) -> None:
        self.status.setText(message)

    def findings(self) -> list[Finding]:
        pack = self.preview.refusals if self.preview else []
        return [*pack, *(self.file_findings or [])]

    def _show(self) -> None:
        if self.preview is None:
            return
        machine = self.host.desk.machine
        while self.preview_lay.count():
            item = self.preview_lay.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        for title, text in receiver_view(self.preview, machine, self.to_edit.text().strip()):
            self.preview_lay.addWidget(heading(title, 3))
            body = QLabel(text)
            body.setTextFormat(Qt.TextFormat.PlainText)
            body.setWordWrap(True)
            body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.preview_lay.addWidget(body)
        self.preview_lay.addStretch(1)
        found = self.findings()
        self.refusals.setVisible(bool(found))
        self.refusals.setText(
            tr("It cannot go yet; nothing has been written:")
            + "\n"
            + "\n".join("• " + refusal_words(f) for f in found)
            if found
            else ""
        )
        lint = self.preview.warnings
        self.warnings.setVisible(bool(lint))
        self.warnings.setText(
            tr("It can go, but an answer may be hard to judge:") + "\n" + "\n".join(lint)
            if lint
            else ""
        )
        ready = self.file_findings is not None and not found
        for b in self.ways.values():
            b.setEnabled(ready)
        if self.file_findings is None:
            self.status.setText(tr("Checking the attached files for credentials…"))
        elif found:
            self.status.setText(tr("Fix what is listed above; the preview follows as you type."))
        else:
            self.status.setText(tr("This is what the receiver will see. Choose how to send it."))

    def preview_text(self) -> str:
        """Everything the preview and its refusals say, as plain text."""
        labels = [self.refusals, self.warnings, *self.preview_box.findChildren(QLabel)]
        return "\n".join(lbl.text() for lbl in labels if not lbl.isHidden() and lbl.text())

    # -- sending -------------------------------------------------------------------------

    def send(self, mode: str) -> None:
        if self.preview is None or self.findings() or self.file_findings is None:
            return
        passport = self.preview.pack.passport
        title = (passport.title if passport else None) or self.pid
        luggage = sum(size for _name, size in self.preview.luggage)
        note = self.note_edit.toPlainText().strip() or None
        to = self.to_edit.text().strip() or None
        self.accept()
        self.host.exporter.export(self.pid, title, luggage, "handoff", mode, to=to, note=note)
