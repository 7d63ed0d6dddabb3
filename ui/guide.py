"""Help → How it works: a short guide a person can keep open beside the window — what a
pack is, what "unproven here" means, and what to do with a handoff and with a receipt."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget
from taskpack.ui.i18n import tr


def guide_sections() -> list[tuple[str, list[str]]]:
    """(heading, paragraphs) of the guide, in the window's language."""
    return [
        (
            tr("What a pack is"),
            [
                tr(
                    "A pack is a file that carries unfinished work from one person (or machine, "
                    "or AI agent) to the next: the goal, where it stands, what is proven, the "
                    "checks to do first and the questions the sender needs answered."
                ),
                tr(
                    "A handoff hands the work on. A receipt brings the answers back to the "
                    "desk that asked. Nothing in a pack is ever run."
                ),
            ],
        ),
        (
            tr("Sending your own work"),
            [
                tr(
                    "File → New passport… (Ctrl+N), or “New passport…” on the empty desk, opens "
                    "the composer. Give the work a title, a goal and where it stands; press "
                    "Create passport."
                ),
                tr(
                    "Add fact… for what is true, and say where: this machine (it arrives "
                    "“unproven there” and the receiver checks it), your organisation, or "
                    "anywhere. Add ask… for each question, with what counts as an answer: the "
                    "line under it says at once whether an answer could be judged against it. "
                    "Add landing check… for what the receiver confirms first; Add next step… "
                    "for what follows. Attach files… (or drop files on the composer) for the "
                    "files. Every item has Edit… and Remove."
                ),
                tr(
                    "Send a handoff… shows exactly what the receiver will see, and stops "
                    "before anything is written if a password or key is in your note or "
                    "files (it says which and where). Then save it as a file, copy it for a "
                    "chat, or email it. The answers come back as a receipt: open it and merge."
                ),
            ],
        ),
        (
            tr("What “unproven here” means"),
            [
                tr(
                    "A fact checked on one machine (“the export runs in 40 s on this laptop”) "
                    "is not checked on yours. When it travels it arrives “⚠ unproven here”: "
                    "check it yourself, then press “I checked this here”."
                ),
                tr(
                    "Facts that hold everywhere (an agreement, a requirement) keep their ✓. "
                    "On the desk that proved a fact, its own passport keeps “✓ proven here”."
                ),
            ],
        ),
        (
            tr("When a handoff arrives"),
            [
                tr(
                    "Drop the file on the window (or open it, or paste the message it came "
                    "in). Read the review: the checks to do first, what is proven, the "
                    "questions. Nothing is stored until you press Land."
                ),
                tr(
                    "Then follow the line under the title: take it on, answer the questions "
                    "in the Asks tab, and send the answers home as a receipt (Export)."
                ),
            ],
        ),
        (
            tr("When a receipt comes back"),
            [
                tr(
                    "Open it the same way. The review shows each question with its answer, "
                    "who answered and when, and what stays open. “Merge answers into …” "
                    "writes the answers into your passport; it changes nothing else."
                ),
            ],
        ),
    ]


def guide_html() -> str:
    parts = []
    for head, paragraphs in guide_sections():
        parts.append(f"<h3>{html.escape(head)}</h3>")
        parts += [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    return "".join(parts)


class GuideWindow(QDialog):
    """The guide, non-modal: the person reads it while they work in the window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("How TaskPack Desk works"))
        lay = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)  # the guide has no links; nothing opens from it
        self.text.setHtml(guide_html())
        lay.addWidget(self.text, 1)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.button(QDialogButtonBox.StandardButton.Close).setText(tr("Close"))
        box.rejected.connect(self.close)
        lay.addWidget(box)
        self.resize(560, 520)

    def shown_text(self) -> str:
        return str(self.text.toPlainText())
