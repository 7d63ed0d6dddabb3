"""Help → How it works: a short guide a person can keep open beside the window — what a
pack is, how to send your own work (with the window's own pictures of the composer, an
item being added and the preview), what "unproven here" means, and what to do with a
handoff and with a receipt.

The pictures are ``resources/guide/<name>[-<language>].png``, made by
``docs/screenshots.py``. A build without them (stripped, or a checkout that never made
them) shows the same guide without pictures.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget
from taskpack.ui import i18n
from taskpack.ui.i18n import tr

#: the widest a picture is shown (the guide's text column); a wider one is scaled down
PICTURE_WIDTH = 720


@dataclass(frozen=True)
class Picture:
    """One of the window's own pictures, shown between a section's paragraphs."""

    name: str  # resources/guide/<name>.png (and <name>-<language>.png)
    caption: str


def guide_folder() -> Path:
    return Path(str(resources.files("taskpack.resources") / "guide"))


def picture_file(name: str, language: str | None = None) -> Path | None:
    """The picture `name` in `language` (default: the window's), else the English one;
    None when neither is there."""
    language = language or i18n.current()
    folder = guide_folder()
    tries = [f"{name}-{language}.png"] if language != "en" else []
    for file_name in [*tries, f"{name}.png"]:
        path = folder / file_name
        if path.is_file():
            return path
    return None


def guide_sections() -> list[tuple[str, list[str | Picture]]]:
    """(heading, paragraphs and pictures) of the guide, in the window's language."""
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
                Picture(
                    "composer",
                    tr(
                        "The composer: each item with Edit… and Remove, and “Send a handoff…” "
                        "at the top."
                    ),
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
                Picture(
                    "composer-ask",
                    tr(
                        "Add ask…: the line under “What counts as an answer” says, as you type, "
                        "whether an answer could be judged against it."
                    ),
                ),
                tr(
                    "Send a handoff… shows exactly what the receiver will see, and stops "
                    "before anything is written if a password or key is in your note or "
                    "files (it says which and where). Then save it as a file, copy it for a "
                    "chat, or email it. The answers come back as a receipt: open it and merge."
                ),
                Picture(
                    "send-preview",
                    tr(
                        "Send a handoff…: what the receiver will see, the required checks "
                        "first; then save it as a file, copy it for a chat, or email it."
                    ),
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


def guide_html(pictures: dict[str, QImage] | None = None) -> str:
    """The guide as HTML; a picture is shown when `pictures` has it (by name), as the
    document resource ``guide:<name>``."""
    pictures = pictures or {}
    parts: list[str] = []
    for head, blocks in guide_sections():
        parts.append(f"<h3>{html.escape(head)}</h3>")
        for block in blocks:
            if isinstance(block, str):
                parts.append(f"<p>{html.escape(block)}</p>")
                continue
            image = pictures.get(block.name)
            if image is None:
                continue  # no picture here: the words say it all the same
            width = min(image.width(), PICTURE_WIDTH)
            parts.append(
                f'<p><img src="guide:{html.escape(block.name)}" width="{width}"'
                f' alt="{html.escape(block.caption)}"><br>'
                f"<i>{html.escape(block.caption)}</i></p>"
            )
    return "".join(parts)


def load_pictures() -> dict[str, QImage]:
    """The guide's pictures that are there and readable, by name."""
    out: dict[str, QImage] = {}
    for _head, blocks in guide_sections():
        for block in blocks:
            if isinstance(block, Picture):
                path = picture_file(block.name)
                image = QImage(str(path)) if path is not None else QImage()
                if not image.isNull():
                    out[block.name] = framed(image)
    return out


def framed(image: QImage) -> QImage:
    """`image` in a thin grey frame: a picture of the window, not the window itself (a
    person should not try to press its buttons)."""
    out = QImage(image.width() + 2, image.height() + 2, QImage.Format.Format_RGB32)
    out.fill(QColor("#9aa0a6"))
    painter = QPainter(out)
    painter.drawImage(1, 1, image)
    painter.end()
    return out


class GuideWindow(QDialog):
    """The guide, non-modal: the person reads it while they work in the window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("How TaskPack Desk works"))
        lay = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)  # the guide has no links; nothing opens from it
        #: the pictures shown, by name (none in a build without resources/guide)
        self.pictures = load_pictures()
        document = self.text.document()
        for name, image in self.pictures.items():
            document.addResource(
                QTextDocument.ResourceType.ImageResource, QUrl(f"guide:{name}"), image
            )
        self.text.setHtml(guide_html(self.pictures))
        lay.addWidget(self.text, 1)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.button(QDialogButtonBox.StandardButton.Close).setText(tr("Close"))
        box.rejected.connect(self.close)
        lay.addWidget(box)
        self.resize(780, 640)

    def shown_text(self) -> str:
        return str(self.text.toPlainText())
