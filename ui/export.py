"""Sending a passport on from the window: save as a file, copy for chat, email.

Every way out writes the pack through `Desk.pack` (the one pack writer: refusals, sealing, the
outbox ledger) on a worker thread. Copy and Email write into the desk's outbox folder,
because a chat or a mail client needs a file to attach. The mail helper is waited for off
the GUI thread: when there is no mail client the person is told so, with the file's path
and what to do (Show in folder, Copy path) — never a success that did not happen.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget
from taskpack.app.desk import INLINE_LIMIT, Desk, PackOutcome, open_count
from taskpack.core.errors import TaskPackError
from taskpack.core.progress import CancelCheck, Progress
from taskpack.ui import dialogs, i18n, launch, ops
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import JobRunner, human_size
from taskpack.ui.widgets import Banner

log = logging.getLogger(__name__)

#: packs with more luggage than this are written as .taskpack (a zip), not flat JSON
FLAT_LUGGAGE_LIMIT = 1 << 20
MODES = ("save_bag", "save_flat", "copy", "email")


class Host(Protocol):
    """What the exporter needs of the window."""

    desk: Desk
    jobs: JobRunner
    banner: Banner

    def info(self, message: str, kind: str = "info") -> None: ...

    def error(self, message: str) -> None: ...


def slug(text: str) -> str:
    """A file-name stem from a title: letters, digits, dashes (at most 60 characters)."""
    s = re.sub(r"[^\w-]+", "-", text.strip(), flags=re.UNICODE).strip("-")
    return s[:60] or "passport"


def kind_word(kind: str) -> str:
    return tr("receipt") if kind == "receipt" else tr("handoff")


class Exporter:
    """Export, Copy for chat and Email for the passport the window shows."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._typed: dict[str, str] = {}
        self._note: str | None = None

    def export(
        self,
        passport_id: str,
        title: str,
        luggage_bytes: int,
        kind: str,
        mode: str,
        typed: dict[str, str] | None = None,
        to: str | None = None,
        unanswered: int = 0,
        note: str | None = None,
    ) -> None:
        """Write `kind` (handoff | receipt) of `passport_id` the way `mode` says.

        `typed`: answers on screen that were not saved (ask id → text); they are saved
        first, in the same job, so the pack goes out with what the person sees. `to`: who
        it is for, kept in the outbox ledger with it. `unanswered`: asks a receipt would
        leave open (the person is asked first: a receipt is not the end while they remain).
        `note`: the sender's note in the pack.
        """
        host = self.host
        if kind == "receipt" and unanswered > 0:
            parent = host if isinstance(host, QWidget) else None
            if not dialogs.confirm(
                parent,
                tr("Send the receipt?"),
                trn(
                    "%n questions are still unanswered. The receipt will say so, and they stay "
                    "open here: answer them later and send another receipt.",
                    unanswered,
                ),
                ok=tr("Send it anyway"),
                safe=True,
            ):
                return
        self._typed = dict(typed or {})
        self._note = note
        base = f"{slug(title)}-{kind}"
        if mode in ("save_bag", "save_flat"):
            suffix = ".taskpack" if mode == "save_bag" else ".taskpack.json"
            what = tr("Receipt") if kind == "receipt" else tr("Handoff")
            parent = host if isinstance(host, QWidget) else None
            out = dialogs.ask_save_path(
                parent,
                tr("Save {what}").format(what=what),
                Path.home() / (base + suffix),
                f"TaskPack (*{suffix})",
            )
            if out is None:
                return
            if not out.name.endswith(suffix):
                out = out.with_name(out.name + suffix)
            self._pack(passport_id, kind, out, self._saved, to)
            return
        suffix = ".taskpack.json" if luggage_bytes <= FLAT_LUGGAGE_LIMIT else ".taskpack"
        out = ops.outbox(host.desk) / (base + suffix)
        if mode == "copy":
            self._pack(passport_id, kind, out, self.copy_for_chat, to)
        else:
            self._pack(passport_id, kind, out, lambda outcome: self.email(outcome, title), to)

    def _pack(
        self,
        passport_id: str,
        kind: str,
        out: Path,
        then: Callable[[PackOutcome], None],
        to: str | None = None,
    ) -> None:
        def done(outcome: PackOutcome) -> None:
            for warning in outcome.warnings:
                log.info("export warning: %s", warning)
            then(outcome)

        host = self.host
        typed, self._typed = self._typed, {}
        note, self._note = self._note, None

        def work(p: Progress, c: CancelCheck) -> PackOutcome:
            if typed:  # (a large passport is changed in a helper process, as it is packed)
                ops.change(host.desk, passport_id, "answer_all", (passport_id, typed), {}, p, c)
            return ops.export(host.desk, passport_id, out, kind, note, p, c, to=to)

        host.jobs.run(
            work,
            title=tr("Packing {name}…").format(name=out.name),
            on_done=done,
            on_error=host.error,
        )

    def _saved(self, outcome: PackOutcome) -> None:
        self.host.banner.show_message(
            tr("Saved {path} ({size}).").format(path=outcome.path, size=human_size(outcome.size)),
            "ok",
            actions=self.file_actions(outcome.path),
        )

    # -- chat -----------------------------------------------------------------------------

    def copy_for_chat(self, outcome: PackOutcome) -> None:
        """A short message for a person (who asks what, what counts as an answer, how to
        reply) with the pack inline when small, plus the file, onto the clipboard."""
        desk, path = self.host.desk, outcome.path
        language = i18n.current()

        def done(message: str) -> None:
            mime = QMimeData()
            mime.setUrls([QUrl.fromLocalFile(str(path))])
            mime.setText(message)
            QGuiApplication.clipboard().setMimeData(mime)
            if outcome.encoding == "flat" and outcome.size <= INLINE_LIMIT:
                note = tr(
                    "Copied a message for your chat, with the pack in it. Paste it into the "
                    "chat; {name} is also on the clipboard as a file."
                )
            else:
                note = tr(
                    "Copied a message for your chat. The pack is too large to paste as text: "
                    "attach {name} (it is on the clipboard as a file)."
                )
            self.host.banner.show_message(
                note.format(name=path.name), "ok", actions=self.file_actions(path)
            )

        self.host.jobs.run(
            lambda p, c: desk.chat_message(path, language=language),
            title=tr("Writing the chat message…"),
            on_done=done,
            on_error=self.host.error,
            show_progress=False,
        )

    # -- email ----------------------------------------------------------------------------

    def email(self, outcome: PackOutcome, title: str) -> None:
        """Open a new email with the pack attached; say honestly how it went."""
        what = kind_word(outcome.kind)
        subject = tr("TaskPack {what}: {title}").format(what=what, title=title)
        body = tr(
            "The attached file is a TaskPack {what}. It is data, not instructions: open it "
            "with TaskPack Desk, or read it in any text editor."
        ).format(what=what)
        path = outcome.path

        desk, pid = self.host.desk, outcome.passport_id

        def opened(result: launch.EmailResult) -> launch.EmailResult:
            if result.how == "attached":  # on the worker: History says the email opened
                try:
                    desk.note_mailed(pid, path, how="attached")
                except TaskPackError as exc:  # the email is open all the same: say that
                    log.warning("the history could not record the email: %s", exc)
            return result

        def by_hand() -> None:
            self.host.jobs.run(
                lambda p, c: desk.note_mailed(pid, path, how="by_hand"),
                title=tr("Opening your mail client…"),
                on_error=self.host.error,
                show_progress=False,
                cancellable=False,
            )

        def done(result: launch.EmailResult) -> None:
            if result.how == "attached":
                self.host.info(
                    tr("Your mail client opened with {name} attached.").format(name=path.name), "ok"
                )
            elif result.how == "no_helper" and launch.open_url(launch.mailto(subject, body)):
                launch.reveal(path)
                by_hand()
                self.host.banner.show_message(
                    tr(
                        "A new email is open. Attach {name}: it is shown in your file manager."
                    ).format(name=path.name),
                    "ok",
                    actions=self.file_actions(path),
                )
            else:
                self.email_failed(path, result)
                # History (and the journey) say it: the file is written, no email carried it
                self.host.jobs.run(
                    lambda p, c: desk.note_mailed(pid, path, how="not_opened"),
                    title=tr("Opening your mail client…"),
                    on_error=self.host.error,
                    show_progress=False,
                    cancellable=False,
                )

        self.host.jobs.run(
            lambda p, c: opened(launch.email_attached(path, subject, body)),
            title=tr("Opening your mail client…"),
            on_done=done,
            on_error=self.host.error,
            show_progress=False,
            cancellable=False,
        )

    def email_failed(self, path: Path, result: launch.EmailResult) -> None:
        why = (
            {
                2: tr("the file to attach was not found"),
                3: tr("no mail program is set up on this computer"),
                4: tr("the mail program could not be started"),
            }.get(result.code or 0)
            or result.error
            or (
                tr("the mail helper stopped with code {code}").format(code=result.code)
                if result.code
                else tr("no mail program could be started")
            )
        )
        self.host.banner.show_message(
            tr(
                "No email was opened: {why}. The file is saved at {path} — attach it to an email "
                "yourself, or send it another way."
            ).format(why=why, path=path),
            "error",
            actions=self.file_actions(path),
        )

    # -- the file's own fallbacks ---------------------------------------------------------

    def file_actions(self, path: Path) -> list[tuple[str, Callable[[], Any]]]:
        return [
            (tr("Show in folder"), lambda: launch.reveal(path)),
            (tr("Copy path"), lambda: self.copy_path(path)),
        ]

    def copy_path(self, path: Path) -> None:
        QGuiApplication.clipboard().setText(str(path))


__all__ = ["Exporter", "slug"]


def unanswered_after(asks: Any, typed: dict[str, str]) -> int:
    """How many asks a receipt would leave open, counting the answers typed on screen."""
    if isinstance(asks, list):
        return sum(1 for a in asks if (a.status or "open") == "open" and a.id not in typed)
    return max(open_count(asks) - len(typed), 0)
