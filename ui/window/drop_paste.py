"""Packs that arrive by drag and drop or Edit → Paste: pack files open for review; any other
file, or pasted text (a reply from a chat or an email), is read for the pack inside it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QGuiApplication
from taskpack.app.desk import Desk, PastedPack, vocabulary
from taskpack.core.errors import TaskPackError
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import CancelCheck, JobRunner, Progress
from taskpack.ui.window.side import Side

PACK_SUFFIXES = (*vocabulary.PACK_SUFFIXES, ".json")


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


def split_dropped(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """(the pack files, everything else) of what was dropped on a passport: the packs open
    as packs, the rest is attached to it."""
    packs = [p for p in paths if is_pack_name(p) and p.is_file()]
    return packs, [p for p in paths if p not in packs]


def folders_sentence(folders: list[Path]) -> str:
    """One sentence for folders offered as a passport's attached files."""
    return tr(
        "{name} is a folder: folders are not attached. Open it and choose the files inside."
    ).format(name=", ".join(p.name for p in folders[:3]))


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


def accept_drag(event: QDragEnterEvent | QDragMoveEvent) -> None:
    """Local files may be dropped (anything else — web links, text — is not ours)."""
    if local_paths(event.mimeData()):
        event.acceptProposedAction()
    else:
        event.ignore()


class Arrivals(QObject):
    """Files dropped on the window and what is pasted into it: the packs found in them
    (`found`) open for review."""

    found = Signal(object)  # [Path]: pack files to open

    def __init__(self, desk: Desk, jobs: JobRunner, side: Side, parent: QObject) -> None:
        super().__init__(parent)
        self.desk = desk
        self.jobs = jobs
        self.side = side

    def drop(self, event: QDropEvent) -> None:
        dropped = local_paths(event.mimeData())
        if not dropped:
            event.ignore()
            return
        event.acceptProposedAction()
        packs = [p for p in dropped if is_pack_name(p)]
        others = [p for p in dropped if not is_pack_name(p)]
        QTimer.singleShot(0, lambda: self.open_dropped(packs, others))

    def open_dropped(self, packs: list[Path], others: list[Path]) -> None:
        """Open pack files; look for a pack inside any other file (a saved reply), and say
        in one sentence which held none."""
        if packs:
            self.found.emit(packs)
        if not others:
            return
        desk = self.desk

        def work(_p: Progress, _c: CancelCheck) -> tuple[list[Path], list[Path]]:
            found: list[Path] = []
            none: list[Path] = []
            for path in others:
                try:
                    found.append(desk.pack_from_file(path).path)
                except (TaskPackError, OSError, ValueError):
                    none.append(path)
            return found, none

        def done(result: tuple[list[Path], list[Path]]) -> None:
            found, none = result
            if found:
                self.found.emit(found)
            if none:
                self.side.error(not_packs_sentence(none))

        self.jobs.run(
            work,
            title=tr("Looking for a pack…"),
            on_done=done,
            on_error=self.side.error,
            show_progress=False,
        )

    def paste(self) -> None:
        """Edit → Paste: copied files open as packs; text (a reply from a chat or an
        email) is read for the one pack in it by the desk, and that pack is opened."""
        mime = QGuiApplication.clipboard().mimeData()
        files = local_paths(mime) if mime is not None else []
        if files:
            self.open_dropped(
                [p for p in files if is_pack_name(p)], [p for p in files if not is_pack_name(p)]
            )
            return
        text = mime.text() if mime is not None and mime.hasText() else ""
        if not text.strip():
            self.side.error(
                tr(
                    "The clipboard holds no pack. Copy the reply (its text, or the file) and paste again."
                )
            )
            return
        desk = self.desk

        def done(pasted: PastedPack) -> None:
            self.found.emit([pasted.path])
            self.side.info(
                tr(
                    "Opened the pack found in the pasted text (line {line}). Nothing lands without you."
                ).format(line=pasted.line)
            )

        self.jobs.run(  # a long reply shows its progress, with a Cancel button
            lambda p, c: desk.pack_from_text(text, progress=p, cancel=c),
            title=tr("Reading the pasted text…"),
            on_done=done,
            on_error=lambda why: self.side.error(
                tr("No pack could be opened from the pasted text: {why}").format(why=why)
            ),
            on_cancelled=lambda: self.side.info(
                tr("Reading the pasted text was cancelled; nothing was opened.")
            ),
        )
