"""Incoming files: a pack opened (File → Open, a drop, the samples, the watcher) is reviewed
before anything is stored; from that review it is judged, landed, merged or discarded.
What was opened from outside the watched folders comes back after a restart.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget
from taskpack.app import isolated
from taskpack.app.desk import (
    Desk,
    LandingOutcome,
    MergeOutcome,
    claim_key,
    open_count,
    safe_file_name,
    utc_now,
)
from taskpack.app.watcher import withhold
from taskpack.core.errors import TaskPackError
from taskpack.ui import dialogs, ops
from taskpack.ui.at_home import AtHome, claims_this_desk
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import CancelCheck, JobRunner, Progress
from taskpack.ui.models import Incoming
from taskpack.ui.ops import Reviewed
from taskpack.ui.review_view import ReviewView
from taskpack.ui.settings_dialog import watch_enabled, watched_folders
from taskpack.ui.window.inbox import InboxPart
from taskpack.ui.window.side import Side, file_key, file_of
from taskpack.ui.words import one_line

#: how many discarded packs are remembered (by content digest) so the watcher stays quiet
DISMISSED_KEEP = 500


#: keys this window keeps in Settings.other: packs opened from outside the watched folders
#: (shown again after a restart until landed, discarded or removed), and the window's place
OPENED_KEY = "opened_files"
OPENED_AT_KEY = "opened_at"


def opened_times(other: dict[str, object]) -> dict[str, str]:
    """When each remembered file was opened (kept in Settings.other), path → UTC time."""
    kept = other.get(OPENED_AT_KEY)
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)}


def modified_at(path: Path) -> str:
    """The file's modification time as a UTC stamp ("" when it cannot be read)."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def samples_dir() -> Path:
    return Path(str(resources.files("taskpack.resources") / "samples"))


@functools.cache
def sample_packs() -> list[Path]:
    """The sample packs shipped in resources/samples, handoffs first (read once)."""
    folder = samples_dir()
    if not folder.is_dir():
        return []
    packs = [p for p in folder.iterdir() if p.name.endswith((".taskpack", ".taskpack.json"))]
    return sorted(packs, key=lambda p: ("receipt" in p.name, p.name))  # handoffs first


def withheld_label(what: str, kind: str) -> str:
    """What a row or a notification shows for a pack's title or sender holding a credential."""
    if what == "sender":
        return tr("(sender withheld: it contains a credential — {kind})").format(kind=kind)
    return tr("(title withheld: it contains a credential — {kind})").format(kind=kind)


def shown_or_withheld(text: str, what: str) -> str:
    """`text` from a pack, or :func:`withheld_label` when it holds a credential: packs are
    untrusted, and a secret found in one is named by kind, never shown."""
    kind = dict(withhold({what: text})[1]).get(what)  # the watcher's rule, in our words
    return text if kind is None else withheld_label(what, kind)


class Copy(Protocol):
    """Writes one attached file to `out` (in a worker thread); returns where it went."""

    def __call__(self, out: Path, progress: Progress, cancelled: CancelCheck) -> Path: ...


def save_luggage(parent: QWidget, jobs: JobRunner, side: Side, name: str, copy: Copy) -> None:
    """Ask where to save the attached file `name`, then `copy` it there in the background."""
    # the sender's name is only a suggestion: proposed as a name safe on this machine,
    # with nothing hidden in it (a bidi override would show ".exe" as ".pdf")
    out = dialogs.ask_save_path(
        parent,
        tr("Save the attached file"),
        Path.home() / safe_file_name(name),
        tr("All files") + " (*)",
    )
    if out is None:
        return
    jobs.run(
        lambda p, c: copy(out, p, c),
        title=tr("Saving {name}…").format(name=one_line(name)),
        on_done=lambda saved: side.info(tr("Saved {path}.").format(path=one_line(saved, 1000))),
        on_error=side.error,
    )


class IncomingPart(QObject):
    """Files opened or found: each is reviewed before anything is stored, then judged,
    landed, merged or discarded from its review (`view`)."""

    landed = Signal(str, str)  # passport id, the sentence to show with it
    merged = Signal(str, object, str)  # passport id, set[str] of asks answered, sentence
    forgotten = Signal(object)  # Path: off the list (the watcher may report it again)

    view: ReviewView  # built by `build_view` (again when the language changes)

    def __init__(
        self, desk: Desk, jobs: JobRunner, side: Side, inbox: InboxPart, window: QWidget
    ) -> None:
        super().__init__(window)
        self.desk = desk
        self.jobs = jobs
        self.side = side
        self.inbox = inbox
        self._window = window  # the parent of the dialogs it opens
        self._reviews: dict[Path, Reviewed] = {}
        self._at_home: dict[Path, AtHome] = {}
        #: "encoding:content digest" of each incoming file listed (the same pack at two
        #: paths is one row)
        self._digests: dict[Path, str] = {}

    def build_view(self) -> ReviewView:
        self.view = ReviewView()
        self.view.land_requested.connect(self.land_current)
        self.view.merge_requested.connect(self.merge_current)
        self.view.discard_requested.connect(self.discard_current)
        self.view.judge_requested.connect(self.judge_current)
        self.view.save_luggage_requested.connect(self.save_review_luggage)
        return self.view

    # -- opening files ---------------------------------------------------------

    def open_dialog(self) -> None:
        paths = dialogs.ask_open_paths(self._window)
        if paths:
            self.open_files(paths)

    def open_samples(self) -> None:
        samples = sample_packs()
        if not samples:
            self.side.error(tr("No sample packs were installed with this copy of the desk."))
            return
        self.open_files(samples)

    def open_files(self, paths: list[Path]) -> None:
        """Review each file (nothing is stored); show the first."""
        paths = [Path(p) for p in paths]
        missing = [p for p in paths if not p.is_file()]
        if missing:
            self.side.error(tr("{path} is not a file.").format(path=missing[0]))
        paths = [p.resolve() for p in paths if p.is_file()]
        if not paths:
            return
        for p in reversed(paths):
            self._at_home.pop(p, None)
            self._reviews.pop(p, None)  # opened again: read it again (it may have changed)
            self.list_file(p, title=p.name)
        self._remember_opened(paths)
        self.inbox.set_incoming_only(False)
        self.side.select_key(file_key(paths[0]))
        for p in paths[1:]:
            self.review(p, show=False)
        self.side.present()

    def list_file(
        self,
        path: Path,
        *,
        title: str,
        kind: str = "",
        sender: str = "",
        open_asks: int = 0,
        problem: str = "",
        sent: bool = False,
        seen_at: str | None = None,
    ) -> None:
        """A row for the file `path` under Incoming (its words as the pack has them)."""
        title, sender = shown_or_withheld(title, "title"), shown_or_withheld(sender, "sender")
        self.inbox.add_incoming(
            Incoming(path, title, kind, sender, open_asks, seen_at or utc_now(), problem, sent)
        )

    def note_digest(self, path: Path, digest: str) -> None:
        """`path` holds the pack of `digest` (its encoding and content digest)."""
        self._digests[path] = digest

    def show(self, path: Path) -> None:
        """Show the review of `path` on the right side (read first if it has not been)."""
        if path in self._reviews:
            self.show_review(path)
            self.side.schedule_tab_order()
            self.side.show_page(self.view)
        else:
            self.review(path, show=True)

    def review(self, path: Path, *, show: bool) -> None:
        if show:
            self.side.show_loading()
        key = file_key(path)

        def done(result: tuple[Reviewed, AtHome]) -> None:
            reviewed, at_home = result
            rv = reviewed.review
            other = self.listed_as(f"{rv.encoding}:{rv.content_digest}", path)
            if other is not None:  # the same pack is listed already (dropped, and found)
                self._drop_row(path)
                if self.side.current() == key:
                    self.side.select_key(file_key(other))
                return
            self._digests[path] = f"{rv.encoding}:{rv.content_digest}"
            self._at_home[path], self._reviews[path] = at_home, reviewed
            self.list_file(
                path,
                title=rv.title or rv.goal or path.name,
                kind=rv.kind,
                sender=ops.compact_sender(rv.origin),
                open_asks=open_count(rv.asks),
                sent=rv.written_here,
            )
            if self.side.current() == key:
                self.show_review(path)
                self.side.schedule_tab_order()
                self.side.show_page(self.view)

        def failed(message: str) -> None:
            self.list_file(path, title=path.name, problem=message)
            if self.side.current() == key:
                self.side.show_welcome()
                self.side.error(
                    tr("{name} cannot be opened: {why}").format(name=path.name, why=message)
                )

        desk = self.desk
        self.jobs.run(
            lambda p, c: review_at_home(desk, ops.review(desk, path, p, c)),
            title=tr("Reading {name}…").format(name=path.name),
            on_done=done,
            on_error=failed,
            on_cancelled=lambda: failed(tr("Cancelled.")),
        )

    def show_review(self, path: Path) -> None:
        """Show the review of the incoming file `path` (already read)."""
        self.view.show_review(self._reviews[path], self._at_home.get(path))

    def judge_current(self) -> None:
        path = self.current_file_path()
        if path is None or path not in self._reviews:
            return
        reviewed = self._reviews[path]

        def done(failed: list[tuple[str, str, list[str]]]) -> None:
            reviewed.failed_checks = failed
            if self.current_file_path() == path:
                self.show_review(path)
                self.side.schedule_tab_order()

        desk = self.desk
        self.jobs.run(
            lambda p, c: ops.judge(path, p, c, desk=desk),
            title=tr("Checking the format of {name}…").format(name=path.name),
            on_done=done,
            on_error=self.side.error,
        )

    def current_file_path(self) -> Path | None:
        """The incoming file the right side shows (None: a passport, or nothing)."""
        return file_of(self.side.current())

    # -- landing ---------------------------------------------------------------

    def land_current(self) -> None:
        path = self.current_file_path()
        if path is None:
            return

        def done(outcome: LandingOutcome) -> None:
            self._forget_incoming(path)
            rv = outcome.review
            checks = sum(1 for c in rv.landing_checks if c.is_required)
            message = tr("Landed as {id}.").format(id=outcome.id)
            if outcome.already:
                message = tr("This pack had already landed as {id}; nothing changed.").format(
                    id=outcome.id
                )
            elif checks:
                message += " " + trn("%n required checks are first in its Overview.", checks)
            self.landed.emit(outcome.id, message)

        held = self._reviews.get(path)  # landed from what the person saw (checked by digest)
        desk = self.desk
        self.jobs.run(
            lambda p, c: ops.land(desk, path, p, c, held=held),
            title=tr("Landing {name}…").format(name=path.name),
            on_done=done,
            on_error=self.side.error,
        )

    def merge_current(self, into: str) -> None:
        path = self.current_file_path()
        if path is None:
            return

        def done(outcome: MergeOutcome) -> None:
            self._forget_incoming(path)
            answered = list(outcome.answered)
            if outcome.already:
                note = tr("This receipt had already been merged into {id}.").format(id=outcome.id)
            elif answered:
                note = tr("The receipt answered: {asks}.").format(asks=", ".join(answered))
            else:
                note = tr("The receipt was merged; it answered no open ask.")
            if outcome.adopted:
                note += " " + tr("New questions for you: {asks}.").format(
                    asks=", ".join(n for _, n in outcome.adopted)
                )
            self.merged.emit(outcome.id, set(answered), note)

        held = self._reviews.get(path)
        desk = self.desk
        self.jobs.run(
            lambda p, c: ops.merge(desk, path, into, p, c, held=held),
            title=tr("Merging {name}…").format(name=path.name),
            on_done=done,
            on_error=self.side.error,
        )

    def discard_current(self) -> None:
        path = self.current_file_path()
        if path is None:
            return
        reviewed = self._reviews.get(path)
        if reviewed is not None:
            self._remember_dismissed(reviewed.review.content_digest)
        self._forget_incoming(path)
        self.side.set_current(None)
        self.inbox.clear_selection()
        self.side.show_welcome()
        self.side.info(tr("Discarded. The file was left where it is; nothing was stored."))

    def remove_listed(self, key: str) -> None:
        """Take the incoming file `key` off the list (Delete key, context menu)."""
        path = file_of(key)
        if path is None:
            return
        reviewed = self._reviews.get(path)
        if reviewed is not None:
            self._remember_dismissed(reviewed.review.content_digest)
        self._forget_incoming(path)
        if self.side.current() == key:
            self.side.set_current(None)
            self.side.show_welcome()
        self.inbox.clear_selection(current_too=True)
        self.side.info(
            tr(
                "Removed {name} from the list. The file was left where it is; nothing was stored."
            ).format(name=path.name)
        )

    # -- what was opened survives a restart ------------------------------------

    def _remember_opened(self, paths: list[Path]) -> None:
        """Keep packs opened from outside the watched folders (the watcher finds the rest)."""
        watched = (
            [f.expanduser().resolve() for f in watched_folders(self.desk.settings)]
            if watch_enabled(self.desk.settings)
            else []
        )
        outside = [str(p) for p in paths if not any(p.is_relative_to(f) for f in watched)]
        other = self.desk.settings.other
        kept = [k for k in other.get(OPENED_KEY) or [] if isinstance(k, str)]
        new = [p for p in outside if p not in kept]
        if new:
            other[OPENED_KEY] = [*kept, *new][-DISMISSED_KEEP:]
            when = opened_times(other)  # when each came: the row keeps it after a restart
            now = utc_now()
            for p in new:
                when.setdefault(p, now)
            other[OPENED_AT_KEY] = {p: when[p] for p in other[OPENED_KEY] if p in when}
            self.side.save_settings()

    def reopen_remembered(self) -> None:
        """Show again what was opened before the last restart (and is still there)."""
        kept = [k for k in self.desk.settings.other.get(OPENED_KEY) or [] if isinstance(k, str)]
        paths = [Path(k) for k in kept if Path(k).is_file()]
        if len(paths) != len(kept):
            self.desk.settings.other[OPENED_KEY] = [str(p) for p in paths]
            self.side.save_settings()
        when = opened_times(self.desk.settings.other)
        for p in paths:
            self.list_file(p, title=p.name, seen_at=when.get(str(p)) or modified_at(p))
            self.review(p, show=False)

    def _forget_opened(self, path: Path) -> None:
        other = self.desk.settings.other
        kept = [k for k in other.get(OPENED_KEY) or [] if isinstance(k, str)]
        if str(path) in kept:
            other[OPENED_KEY] = [k for k in kept if k != str(path)]
            other[OPENED_AT_KEY] = {k: t for k, t in opened_times(other).items() if k != str(path)}
            self.side.save_settings()

    def listed_as(self, digest: str, path: Path) -> Path | None:
        """Another listed file holding the same pack as `path` (`digest`: its encoding and
        content digest — the same file in another place: dropped from a chat's cache, and
        saved in the watched Downloads; a bag and its flat form stay two rows)."""
        for other, known in self._digests.items():
            if known == digest and other != path and self.inbox.has_row(file_key(other)):
                return other
        return None

    def _drop_row(self, path: Path) -> None:
        self.inbox.remove_incoming(path)
        self._forget_opened(path)

    def _forget_incoming(self, path: Path) -> None:
        self.inbox.remove_incoming(path)
        self._reviews.pop(path, None)
        self._at_home.pop(path, None)
        self._digests.pop(path, None)
        self.forgotten.emit(path)
        self._forget_opened(path)

    def _remember_dismissed(self, digest: str) -> None:
        other = self.desk.settings.other
        dismissed = [d for d in other.get("dismissed", []) if isinstance(d, str) and d != digest]
        other["dismissed"] = [*dismissed, digest][-DISMISSED_KEEP:]
        self.side.save_settings()

    def is_dismissed(self, digest: str) -> bool:
        return digest in (self.desk.settings.other.get("dismissed") or [])

    def save_review_luggage(self, name: str, size: int) -> None:
        path = self.current_file_path()
        if path is not None:  # from the pack file itself: it has not landed
            save_luggage(
                self._window,
                self.jobs,
                self.side,
                name,
                lambda out, p, c: ops.save_pack_luggage(path, name, out, p, c),
            )


def review_at_home(desk: Desk, reviewed: Reviewed) -> tuple[Reviewed, AtHome]:
    """What this desk holds of the reviewed pack (in the worker thread): the facts of the
    passport a receipt answers, or the passport a pack this desk sent came from."""
    rv, home = reviewed.review, AtHome()
    if not rv.written_here and claims_this_desk(rv.origin, desk.actor, desk.machine):
        home.claims_mine = True
    try:
        if rv.kind == "receipt" and rv.target_here and rv.receipt_target:
            if desk.passport_size(rv.receipt_target) <= isolated.LARGE_BYTES:
                facts = desk.get(rv.receipt_target).passport.facts or []
                home.facts = {claim_key(f): f for f in facts}
                home.target_id = rv.receipt_target
                home.facts_note = tr(
                    "Your passport {id} holds this fact; merging keeps yours."
                ).format(id=rv.receipt_target)
        elif rv.written_here and not rv.already:
            sent = desk.wrote(rv.content_digest)
            if sent is not None:
                original = desk.get(sent.passport_id)
                home.original_id = original.id
                home.original_title = original.passport.title or original.id
                if desk.passport_size(original.id) <= isolated.LARGE_BYTES:
                    facts = original.passport.facts or []
                    home.facts = {claim_key(f): f for f in facts}
                    home.target_id = original.id
                    home.facts_note = tr(
                        "As your passport {id} has it (this file carries it sealed)."
                    ).format(id=original.id)
    except TaskPackError:  # the passport went away since: the review stands alone
        return reviewed, AtHome(claims_mine=home.claims_mine)
    return reviewed, home
