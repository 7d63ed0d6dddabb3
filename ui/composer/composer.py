"""The composer: a passport made here, written item by item and sent as a handoff.

A typed part of the window with its own signals. It talks to the desk alone, off the GUI
thread (`JobRunner`); every change carries the version the person read, as the CLI's
``--expected-version`` does, so a change made meanwhile elsewhere is refused: the
composer reloads and opens the person's words again, nothing typed is lost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
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
from taskpack.app.desk import Desk, LocalPassport, StoredLuggage
from taskpack.core.errors import VersionConflict
from taskpack.ui.composer import item_dialog
from taskpack.ui.composer.item_lines import (
    LineLabel,
    add_label,
    item_fields,
    item_line,
    kind_word,
)
from taskpack.ui.i18n import tr
from taskpack.ui.jobs import JobRunner, human_size
from taskpack.ui.widgets import Section, button, clear_layout, heading, plain
from taskpack.ui.window.drop_paste import folders_sentence, local_paths, split_dropped

#: the desk's adding move for each kind: (method, positional fields, keyword fields)
_ADDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "fact": ("add_fact", ("claim",), ("scope", "verified", "source")),
    "decision": ("decide", ("what", "why"), ()),
    "step": ("add_next", ("step",), ()),
    "ask": ("add_ask", ("what", "accept"), ("why", "to")),
    "check": ("add_check", ("check",), ("how", "required")),
}


#: the folder files were last attached from, where the next "Attach files…" opens
_last_folder: list[Path] = []


def ask_files(parent: QWidget | None) -> list[Path]:
    """Files to attach, several at once (Qt's own dialog, the same on every desktop). It
    opens where files were last attached from, else in the person's home folder (never
    the folder the program happened to be started in)."""
    start = next((d for d in _last_folder if d.is_dir()), Path.home())
    dialog = QFileDialog(parent, tr("Attach files"), str(start))
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setAccessibleName(tr("Attach files"))
    if not dialog.exec():
        return []
    chosen = [Path(name) for name in dialog.selectedFiles()]
    if chosen:
        _last_folder[:] = [chosen[0].parent]
    return chosen


class Composer(QWidget):
    """Compose a passport: its basics, items, files; then "Send a handoff…"."""

    message = Signal(str, str)  # text, kind ("ok" | "info" | "warn")
    failed = Signal(str)
    created = Signal(str)  # the new passport's id
    send_requested = Signal(str)  # passport id
    packs_dropped = Signal(object)  # [Path]: pack files dropped here open as packs
    _heard = Signal(str)  # a passport this desk changed (from any thread)

    def __init__(self, desk: Desk, jobs: JobRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.desk = desk
        self.jobs = jobs
        self.pid: str | None = None
        self.lp: LocalPassport | None = None
        self.luggage: list[StoredLuggage] = []
        self.row_buttons: dict[tuple[str, str, int], QPushButton] = {}
        self.file_buttons: dict[str, QPushButton] = {}
        self._busy = 0  # reads and changes of ours under way: each reloads when done
        self.setAcceptDrops(True)
        self.setAccessibleName(tr("Composer"))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 10, 12, 6)
        self.title_label = heading(tr("New passport"), 1)
        top = QHBoxLayout()
        top.addWidget(self.title_label, 1)
        # "Send a handoff…" where the eye starts, as a mail composer's Send is
        self.send_button = button(tr("Send a handoff…"), self._send, primary=True)
        self.send_button.setAccessibleName(tr("Send a handoff…"))
        top.addWidget(self.send_button)
        outer.addLayout(top)
        self.status = plain("", muted=True)
        outer.addWidget(self.status)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(scroll, 1)
        body = QWidget()
        scroll.setWidget(body)
        self.body = QVBoxLayout(body)
        form = QFormLayout()
        self.title_edit = QLineEdit()
        self.title_edit.setAccessibleName(tr("Title"))
        self.title_edit.setPlaceholderText(tr("What the work is, in a few words"))
        self.goal_edit = QPlainTextEdit()
        self.goal_edit.setAccessibleName(tr("Goal"))
        self.goal_edit.setPlaceholderText(tr("What done looks like"))
        self.state_edit = QPlainTextEdit()
        self.state_edit.setAccessibleName(tr("Current state"))
        self.state_edit.setPlaceholderText(tr("Where the work stands now"))
        for edit in (self.goal_edit, self.state_edit):
            edit.setTabChangesFocus(True)
            edit.setFixedHeight(64)
        form.addRow(tr("Title"), self.title_edit)
        form.addRow(tr("Goal"), self.goal_edit)
        form.addRow(tr("Current state"), self.state_edit)
        self.body.addLayout(form)
        self.save_basics = button(tr("Create passport"), self._save_basics, primary=True)
        self.save_basics.setAccessibleName(tr("Create passport"))
        self.body.addWidget(self.save_basics, 0, Qt.AlignmentFlag.AlignLeft)
        self.sections: dict[str, QVBoxLayout] = {}
        self.add_buttons: dict[str, QPushButton] = {}
        self.items_box = QWidget()
        items = QVBoxLayout(self.items_box)
        items.setContentsMargins(0, 0, 0, 0)
        for kind, title, explain in (
            ("fact", tr("Facts"), tr("What is true, and where: the receiver sees what is proven.")),
            ("decision", tr("Decisions"), tr("What was decided and why.")),
            ("step", tr("Next steps"), tr("What the receiver does after the checks.")),
            (
                "ask",
                tr("Asks"),
                tr("Questions for the receiver; each says what counts as an answer."),
            ),
            (
                "check",
                tr("Landing checks"),
                tr("What the receiver confirms on their machine first."),
            ),
        ):
            sec = Section(title, explain)
            rows = QVBoxLayout()
            sec.lay.addLayout(rows)
            self.sections[kind] = rows
            add = button(add_label(kind), functools.partial(self.add, kind))
            add.setAccessibleName(add_label(kind))
            self.add_buttons[kind] = add
            sec.lay.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
            items.addWidget(sec)
        files = Section(
            tr("Attached files"),
            tr("Files that travel with the handoff. Drop files here, or attach them."),
        )
        self.files_rows = QVBoxLayout()
        files.lay.addLayout(self.files_rows)
        self.attach_button = button(tr("Attach files…"), self.attach_dialog)
        self.attach_button.setAccessibleName(tr("Attach files…"))
        files.lay.addWidget(self.attach_button, 0, Qt.AlignmentFlag.AlignLeft)
        items.addWidget(files)
        self.body.addWidget(self.items_box)
        self.body.addStretch(1)
        self.start_new()
        # this window changes the passport too (sending it moves it on): follow it, so
        # the next change is not refused as made "elsewhere"
        self._heard.connect(self._follow, Qt.ConnectionType.QueuedConnection)
        unsubscribe = desk.subscribe(lambda pid, _event: self._heard.emit(pid))
        self.destroyed.connect(lambda *_a: unsubscribe())

    # -- what it shows -------------------------------------------------------------------

    def start_new(self) -> None:
        """An empty composer for a new passport."""
        self.pid, self.lp, self.luggage = None, None, []
        self.title_label.setText(tr("New passport"))
        self.status.setText(
            tr("Give the work a title and a goal; then add what the receiver needs.")
        )
        for edit in (self.title_edit, self.goal_edit, self.state_edit):
            edit.clear()
        self.save_basics.setText(tr("Create passport"))
        self.save_basics.setAccessibleName(tr("Create passport"))
        self.items_box.setVisible(False)
        self.send_button.setVisible(False)
        self.title_edit.setFocus()

    def open_passport(self, passport_id: str, *, then: Callable[[], None] | None = None) -> None:
        """Read `passport_id` (off the GUI thread) and show it to be composed."""

        def read(_p: Any, _c: Any) -> tuple[LocalPassport, list[StoredLuggage]]:
            return self.desk.get(passport_id), self.desk.luggage(passport_id)

        def done(got: tuple[LocalPassport, list[StoredLuggage]]) -> None:
            self.show_passport(*got)
            if then is not None:
                then()

        self._run(read, tr("Reading {id}…").format(id=passport_id), done)

    def _run(
        self, work: Callable[[Any, Any], Any], title: str, done: Callable[[Any], None]
    ) -> None:
        """A read or change of ours, off the GUI thread; counted while under way."""
        self._busy += 1

        def finished(got: Any) -> None:
            self._busy -= 1
            done(got)

        def failed(message: str) -> None:
            self._busy -= 1
            self.failed.emit(message)

        self.jobs.run(work, title=title, on_done=finished, on_error=failed, show_progress=False)

    def _follow(self, passport_id: str) -> None:
        """The desk changed `passport_id`: if it is the one shown, and the change is not
        one of ours (each of those reloads when done), read it again. Words typed into the
        title, goal or state and not saved yet stay as typed."""
        if passport_id != self.pid or self._busy:
            return

        def read(_p: Any, _c: Any) -> tuple[LocalPassport, list[StoredLuggage]]:
            return self.desk.get(passport_id), self.desk.luggage(passport_id)

        def done(got: tuple[LocalPassport, list[StoredLuggage]]) -> None:
            if got[0].id == self.pid:
                self.show_passport(*got, keep_typed=self._typed())

        self._run(read, tr("Reading {id}…").format(id=passport_id), done)

    def _typed(self) -> bool:
        """Whether the title, goal or state differ from the passport as last read."""
        if self.lp is None:
            return False
        p = self.lp.passport
        return (
            self.title_edit.text() != (p.title or "")
            or self.goal_edit.toPlainText() != (p.goal or "")
            or self.state_edit.toPlainText() != (p.current_state or "")
        )

    def show_passport(
        self, lp: LocalPassport, luggage: list[StoredLuggage], *, keep_typed: bool = False
    ) -> None:
        self.pid, self.lp, self.luggage = lp.id, lp, list(luggage)
        p = lp.passport
        self.title_label.setText(tr("Composing {id}").format(id=lp.id))
        self.status.setText(self._version_words())
        if not keep_typed:
            self.title_edit.setText(p.title or "")
            self.goal_edit.setPlainText(p.goal or "")
            self.state_edit.setPlainText(p.current_state or "")
        self.save_basics.setText(tr("Save title, goal and state"))
        self.save_basics.setAccessibleName(tr("Save title, goal and state"))
        self.items_box.setVisible(True)
        self.send_button.setVisible(True)
        self.row_buttons = {}
        counts = {
            "fact": len(p.facts or []),
            "decision": len(p.decisions or []),
            "step": len(p.next_steps or []),
            "ask": len(lp.asks or []),
            "check": len(lp.checks_to_send or []),
        }
        for kind, rows in self.sections.items():
            clear_layout(rows)
            for n in range(1, counts[kind] + 1):
                rows.addWidget(self._item_row(lp, kind, n))
        clear_layout(self.files_rows)
        self.file_buttons = {}
        for item in self.luggage:
            self.files_rows.addWidget(self._file_row(item))

    def _item_row(self, lp: LocalPassport, kind: str, number: int) -> QWidget:
        box = QWidget()
        line = QHBoxLayout(box)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(LineLabel(item_line(lp, kind, number, self.desk.machine)), 1)
        for verb, slot in (("edit", self.edit), ("remove", self.remove)):
            b = button(
                tr("Edit…") if verb == "edit" else tr("Remove"),
                functools.partial(slot, kind, number),
            )
            name = tr("Edit {kind} {n}") if verb == "edit" else tr("Remove {kind} {n}")
            b.setAccessibleName(name.format(kind=kind_word(kind), n=number))
            self.row_buttons[(verb, kind, number)] = b
            line.addWidget(b)
        return box

    def _file_row(self, item: StoredLuggage) -> QWidget:
        box = QWidget()
        line = QHBoxLayout(box)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(LineLabel(f"{item.name} — {human_size(item.size)}"), 1)
        b = button(tr("Remove"), functools.partial(self.remove_file, item.name))
        b.setAccessibleName(tr("Remove {name}").format(name=item.name))
        self.file_buttons[item.name] = b
        line.addWidget(b)
        return box

    def lines(self, kind: str) -> list[str]:
        """What the list of `kind` shows, one line an item (files: "name — size")."""
        rows = self.files_rows if kind == "file" else self.sections[kind]
        out = []
        for i in range(rows.count()):
            item = rows.itemAt(i)
            w = item.widget() if item is not None else None
            label = w.findChild(QLabel) if w is not None else None
            if label is not None:
                out.append(label.text())
        return out

    # -- changes -------------------------------------------------------------------------

    def _change(
        self,
        title: str,
        work: Callable[[], object],
        *,
        done_note: str,
        stale: Callable[[], None] | None = None,
    ) -> None:
        """Run one desk change; reload after it. A stale change reloads and calls `stale`."""
        pid = self.pid

        def run(_p: Any, _c: Any) -> tuple[bool, LocalPassport, list[StoredLuggage]]:
            try:
                work()
                ok = True
            except VersionConflict:
                ok = False
            assert pid is not None
            return ok, self.desk.get(pid), self.desk.luggage(pid)

        def done(got: tuple[bool, LocalPassport, list[StoredLuggage]]) -> None:
            ok, lp, luggage = got
            self.show_passport(lp, luggage, keep_typed=not ok and stale is None)
            if ok:
                if done_note:
                    self.say_done(done_note)
            elif stale is not None:
                stale()
            else:
                self.message.emit(STALE_WORDS(), "warn")

        self._run(run, title, done)

    def _version_words(self) -> str:
        version = self.lp.version if self.lp is not None else 0
        return tr("Version {version}. Every change is saved as you make it.").format(
            version=version
        )

    def say_done(self, note: str) -> None:
        """What a change did, on the line under the heading: the window's banner lies over
        the top of the page, where it would hide "Send a handoff…" after every change.
        Warnings and errors still go to the banner, where they ask to be read."""
        self.status.setText(f"{note} {self._version_words()}")

    def add(self, kind: str, initial: dict[str, object] | None = None, note: str = "") -> None:
        if self.pid is None or self.lp is None:
            return
        values = item_dialog.edit_item(
            self, kind, initial, machine=self.desk.machine, note=note, editing=False
        )
        if values is None:
            return
        pid, version = self.pid, self.lp.version
        how, positional, keywords = _ADDS[kind]
        args = [values[k] for k in positional]
        kwargs = {
            k: (values[k] or None) if isinstance(values[k], str) else values[k] for k in keywords
        }
        if kind == "fact":
            kwargs["scope"] = values["scope"]
        self._change(
            tr("Saving…"),
            lambda: getattr(self.desk, how)(pid, *args, expected_version=version, **kwargs),
            done_note=tr("Added. It travels with the next handoff."),
            stale=lambda: self.add(kind, values, STALE_WORDS()),
        )

    def edit(self, kind: str, number: int, typed: dict[str, object] | None = None) -> None:
        if self.pid is None or self.lp is None:
            return
        editing = typed or item_fields(self.lp, kind, number, self.desk.machine)
        values = item_dialog.edit_item(
            self, kind, editing, machine=self.desk.machine, note=STALE_WORDS() if typed else ""
        )
        if values is None:
            return
        pid, version = self.pid, self.lp.version
        self._change(
            tr("Saving…"),
            lambda: self.desk.revise(pid, kind, number, values, expected_version=version),
            done_note=tr("Saved."),
            stale=lambda: self.edit(kind, number, values),
        )

    def remove(self, kind: str, number: int) -> None:
        if self.pid is None or self.lp is None:
            return
        pid, version = self.pid, self.lp.version
        self._change(
            tr("Removing…"),
            lambda: self.desk.revise(pid, kind, number, None, expected_version=version),
            done_note=tr("Removed."),
            stale=lambda: self.message.emit(
                tr(
                    "This passport changed since you read it, so nothing was removed. It has "
                    "been reloaded: check the list and remove again."
                ),
                "warn",
            ),
        )

    def _save_basics(self) -> None:
        title = self.title_edit.text().strip()
        goal = self.goal_edit.toPlainText().strip()
        state = self.state_edit.toPlainText().strip()
        if not title or not goal:
            self.message.emit(tr("A passport needs a title and a goal."), "warn")
            (self.title_edit if not title else self.goal_edit).setFocus()
            return
        if self.pid is None or self.lp is None:
            self.jobs.run(
                lambda _p, _c: self.desk.new(title, goal, current_state=state or None),
                title=tr("New passport"),
                on_done=lambda lp: self._created(lp),
                on_error=self.failed.emit,
                show_progress=False,
            )
            return
        pid, version = self.pid, self.lp.version
        fields = {"title": title, "goal": goal, "current_state": state}
        self._change(
            tr("Saving…"),
            lambda: self.desk.checkpoint(pid, dict(fields), expected_version=version),
            done_note=tr("Saved."),
        )

    def _created(self, lp: LocalPassport) -> None:
        self.show_passport(lp, [])
        self.say_done(
            tr("Created {id}. Add facts, asks, checks and files; then send a handoff.").format(
                id=lp.id
            )
        )
        self.created.emit(lp.id)

    # -- files ---------------------------------------------------------------------------

    def attach_dialog(self) -> None:
        if self.pid is not None:
            self.attach(ask_files(self))

    def attach(self, paths: list[Path]) -> None:
        """Attach files; a folder is refused with a sentence (its files may be chosen)."""
        if self.pid is None or not paths:
            return
        folders = [p for p in paths if p.is_dir()]
        files = [p for p in paths if not p.is_dir()]
        if folders:
            self.message.emit(folders_sentence(folders), "warn")
        if not files:
            return
        pid = self.pid
        note = (
            tr("Attached {name}.").format(name=files[0].name)
            if len(files) == 1
            else tr("Attached {n} files.").format(n=len(files))
        )
        self._change(
            tr("Attaching…"),
            lambda: self.desk.attach(pid, files),
            done_note="" if folders else note,
        )

    def remove_file(self, name: str) -> None:
        if self.pid is None:
            return
        pid = self.pid
        self._change(
            tr("Removing…"),
            lambda: self.desk.remove_luggage(pid, name),
            done_note=tr("{name} is no longer attached.").format(name=name),
        )

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.pid is not None and local_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self.dragEnterEvent(event)  # type: ignore[arg-type]

    def dropEvent(self, event: QDropEvent) -> None:
        dropped = local_paths(event.mimeData())
        if self.pid is None or not dropped:
            event.ignore()
            return
        event.acceptProposedAction()
        packs, files = split_dropped(dropped)
        if packs:
            self.packs_dropped.emit(packs)
        self.attach(files)

    def _send(self) -> None:
        if self.pid is not None:
            self.send_requested.emit(self.pid)


def STALE_WORDS() -> str:
    return tr(
        "This passport changed since you read it (elsewhere, or in another window), so "
        "nothing was saved. It has been reloaded; your words are kept here: check them "
        "and save again."
    )
