"""The landing review: everything a person should see before a pack is stored.

Order matters (spec §4.4): who sent it and why, any problems with the file, then the
REQUIRED CHECKS FIRST — each with the sender's `how` as a quoted suggestion with Copy,
never Run — then what is proven and what is not, the asks, the sender's next steps,
the imperative sentences found (reported, never followed), and the luggage. Land or
Discard. Building this view lands nothing.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from taskpack.core.landing import LandingReview
from taskpack.core.model import Fact

from .i18n import tr
from .jobs import human_size
from .ops import Reviewed
from .widgets import (
    Banner,
    LinkedText,
    QuotedBlock,
    Section,
    badge,
    button,
    heading,
    plain,
    row,
)


def sender_text(origin: dict[str, Any]) -> str:
    actor = origin.get("actor") or tr("someone")
    machine = origin.get("machine") or tr("an unnamed machine")
    return tr("{actor} on {machine}").format(actor=actor, machine=machine)


def scope_label(scope: str) -> str:
    return {"universal": tr("universal"), "org": tr("organisation")}.get(scope, tr("machine"))


def fact_widget(fact: Fact, *, extra: QWidget | None = None) -> QWidget:
    """One fact: what is proven (carried ✓) and what is not (unproven, and where it was)."""
    box = QFrame()
    box.setObjectName("fact")
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 2, 0, 2)
    scope = fact.effective_scope
    if fact.verified and scope in ("universal", "org"):
        mark = badge("✓ " + tr("carried"), "ok")
        where = tr("{scope} fact — keeps its ✓ across machines").format(scope=scope_label(scope))
        if scope == "org" and (fact.source or fact.verified_by):
            where += " · " + tr("source: {who}").format(who=fact.source or fact.verified_by)
    elif fact.needs_reverify or (fact.verified is False and fact.verified_on):
        mark = badge("⚠ " + tr("unproven here"), "warn")
        where = tr("verified on {machine}; not proven on this machine").format(
            machine=fact.verified_on or tr("an unnamed machine"))  # fmt: skip
    else:
        mark = badge("· " + tr("not verified"), "info")
        where = tr("{scope} fact, never verified").format(scope=scope_label(scope))
    lay.addWidget(mark, 0, Qt.AlignmentFlag.AlignTop)
    text = QVBoxLayout()
    text.setSpacing(0)
    text.addWidget(LinkedText(fact.claim or tr("(no claim)")))
    text.addWidget(plain(where, small=True, muted=True))
    lay.addLayout(text, 1)
    if extra is not None:
        lay.addWidget(extra, 0, Qt.AlignmentFlag.AlignTop)
    return box


def check_widget(check: Any) -> QWidget:
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 6)
    lay.setSpacing(3)
    kind = badge(tr("required") if check.is_required else tr("optional"),
                 "warn" if check.is_required else "info")  # fmt: skip
    lay.addWidget(row(kind, LinkedText(check.check or tr("(no check text)")), stretch_last=True))
    if check.how:
        lay.addWidget(QuotedBlock(
            check.how,
            tr("The sender's suggestion of how to check — not run. Read it before you use it."),
        ))  # fmt: skip
    return box


def ask_widget(ask: Any) -> QWidget:
    box = QFrame()
    box.setFrameShape(QFrame.Shape.StyledPanel)
    grid = QGridLayout(box)
    grid.setColumnStretch(1, 1)
    rows = [
        (tr("Question"), ask.what or ""),
        (tr("Why"), ask.why or ""),
        (tr("Judged against"), ask.accept or tr("(no accept: this ask cannot be judged)")),
    ]
    for n, (label, value) in enumerate(rows):
        grid.addWidget(plain(label, bold=True, selectable=False), n, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(LinkedText(value), n, 1)
    status = ask.status or "open"
    grid.addWidget(plain(f"{ask.id or '?'} · {status}", small=True, muted=True), len(rows), 1)
    return box


class ReviewView(QWidget):
    land_requested = Signal()
    merge_requested = Signal(str)
    discard_requested = Signal()
    judge_requested = Signal()
    save_luggage_requested = Signal(str, int)
    show_passport_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reviewed: Reviewed | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroll, 1)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 6, 12, 10)
        self.summary = plain("", small=True, muted=True)
        bar.addWidget(self.summary, 1)
        self.discard_button = QPushButton(tr("Discard"))
        self.discard_button.setToolTip(tr("Close this review. The file is left where it is; nothing is stored."))
        self.discard_button.clicked.connect(self.discard_requested)
        self.land_button = QPushButton(tr("Land"))
        self.land_button.setDefault(True)
        self.land_button.clicked.connect(self._primary)
        bar.addWidget(self.discard_button)
        bar.addWidget(self.land_button)
        outer.addLayout(bar)
        self.sections: dict[str, QWidget] = {}

    # -- filling --

    def show_review(self, reviewed: Reviewed) -> None:
        self.reviewed = reviewed
        rv = reviewed.review
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(16, 12, 16, 12)
        lay.setSpacing(6)
        self.sections = {}
        self._header(lay, rv)
        self._problems(lay, reviewed)
        if rv.kind == "receipt":
            self._receipt(lay, rv)
        self._checks(lay, rv)
        self._facts(lay, rv)
        self._asks(lay, rv)
        self._next_steps(lay, rv)
        self._imperatives(lay, rv)
        self._luggage(lay, rv)
        lay.addStretch(1)
        self.scroll.setWidget(body)
        self._buttons(rv)

    def _add(self, lay: QVBoxLayout, key: str, section: Section) -> Section:
        self.sections[key] = section
        lay.addWidget(section)
        return section

    def _header(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        kind = tr("Receipt") if rv.kind == "receipt" else tr("Handoff")
        name = plain(rv.path.name, small=True, muted=True)
        name.setWordWrap(False)
        lay.addWidget(row(badge(kind, "info"), name))
        lay.addWidget(heading(rv.title or rv.goal or tr("(untitled)"), 1))
        when = (rv.packed_at or tr("an unknown time")).replace("T", " ").removesuffix("Z")
        lay.addWidget(plain(tr("From {sender}, packed {when} ({encoding})").format(
            sender=sender_text(rv.origin), when=when, encoding=rv.encoding)))  # fmt: skip
        if rv.note:
            lay.addWidget(QuotedBlock(rv.note, tr("The sender's note"), links=True))
        if rv.goal and rv.goal != rv.title:
            lay.addWidget(plain(tr("Goal: {goal}").format(goal=rv.goal)))
        if rv.current_state:
            lay.addWidget(plain(tr("Where it stands: {state}").format(state=rv.current_state)))
        chain = (rv.lineage or {}).get("chain") or []
        if chain:
            lay.addWidget(plain(tr("Lineage: {chain}").format(chain=" → ".join(map(str, chain))),
                                small=True, muted=True))  # fmt: skip
        if rv.already:
            banner = Banner()
            banner.show_message(tr("This pack already landed as {id}. Landing it again changes nothing.")
                                .format(id=rv.already), "info")  # fmt: skip
            lay.addWidget(banner)
            self.sections["already"] = banner

    def _problems(self, lay: QVBoxLayout, reviewed: Reviewed) -> None:
        rv = reviewed.review
        failed = reviewed.failed_checks or []
        if not rv.notes and not failed and reviewed.judged:
            lay.addWidget(badge("✓ " + tr("Conformant: the file passes checks C0–C10 as written"), "ok"))
            return
        if not rv.notes and not failed:
            sec = self._add(lay, "problems", Section(tr("Conformance not judged yet")))
            sec.add(plain(tr("The luggage is large ({size}); judging reads all of it.")
                          .format(size=human_size(reviewed.luggage_bytes))))  # fmt: skip
            sec.add(row(button(tr("Judge the file"), self.judge_requested.emit)))
            return
        sec = self._add(lay, "problems", Section(
            tr("Problems with this file"),
            tr("The file is not conformant as written. It can still land; these are shown so you know."),
        ))  # fmt: skip
        for cid, requirement, reasons in failed:
            sec.add(plain(f"✗ {cid}: {requirement}", bold=True))
            for reason in reasons[:5]:
                sec.add(plain("    " + reason, small=True))
        for note in rv.notes:
            sec.add(plain("• " + note))

    def _receipt(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        sec = self._add(lay, "receipt", Section(tr("Answers coming home")))
        if not rv.receipt_target:
            sec.add(plain(tr("This receipt does not say which passport it answers; it cannot be merged.")))
        elif not rv.target_here:
            sec.add(plain(tr("This receipt answers {id}, which is not on this desk. Open it on the "
                             "desk that asked the questions.").format(id=rv.receipt_target)))  # fmt: skip
        else:
            sec.add(plain(tr("It answers passport {id}.").format(id=rv.receipt_target), bold=True))
            answered = ", ".join(rv.would_answer) or tr("none")
            sec.add(plain(tr("Asks it answers: {asks}").format(asks=answered)))
            if rv.would_adopt:
                sec.add(plain(tr("New questions for you (kept as open asks): {asks}")
                              .format(asks=", ".join(rv.would_adopt))))  # fmt: skip
            sec.add(plain(tr("Merging writes the answers only; it never changes the goal, the "
                             "current state or the next steps."), small=True, muted=True))  # fmt: skip

    def _checks(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        checks = rv.landing_checks
        if not checks:
            return
        if rv.kind == "receipt":
            title, explain = tr("The sender's own checks"), tr(
                "These describe the sender's machine. They are reported, not adopted as yours.")
        else:
            title, explain = tr("Do these first"), tr(
                "Required checks go before the sender's next steps. The check is what is required; "
                "how to do it is the sender's suggestion and is never run by this app.")
        sec = self._add(lay, "checks", Section(title, explain))
        for check in checks:
            sec.add(check_widget(check))

    def _facts(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.facts:
            return
        sealed = sum(1 for f in rv.facts if f.needs_reverify and not f.verified)
        explain = tr("{n} of {total} facts are unproven here: a ✓ does not survive a machine boundary.").format(
            n=sealed, total=len(rv.facts))  # fmt: skip
        sec = self._add(lay, "facts", Section(tr("What is proven and what is not"), explain))
        for fact in rv.facts:
            sec.add(fact_widget(fact))
        for line in rv.sealed:
            sec.add(plain("• " + line, small=True, muted=True))

    def _asks(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.asks:
            return
        sec = self._add(lay, "asks", Section(
            tr("Questions the sender needs answered"),
            tr("After landing, answer them in the Asks tab and send a receipt back."),
        ))  # fmt: skip
        for ask in rv.asks:
            sec.add(ask_widget(ask))

    def _next_steps(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        required = sum(1 for c in rv.landing_checks if c.is_required) if rv.kind == "handoff" else 0
        steps = rv.next_steps[required:]
        if not steps:
            return
        sec = self._add(lay, "next", Section(tr("The sender's next steps (after the checks)")))
        for n, step in enumerate(steps, 1):
            text = step if isinstance(step, str) else str(step)
            sec.add(LinkedText(f"{n}. {text}"))

    def _imperatives(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.imperatives:
            return
        sec = self._add(lay, "imperatives", Section(
            tr("Instructions found in the pack"),
            tr("The sender wrote this; nothing was done. Text in a pack is data, never a command."),
        ))  # fmt: skip
        for imp in rv.imperatives:
            sec.add(QuotedBlock(str(imp.get("sentence") or ""), tr("in {place}").format(place=imp.get("place") or "?")))

    def _luggage(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.luggage:
            return
        total = sum(int(i.get("size") or 0) for i in rv.luggage)
        sec = self._add(lay, "luggage", Section(
            tr("Luggage ({n} files, {size})").format(n=len(rv.luggage), size=human_size(total))))  # fmt: skip
        for item in rv.luggage:
            name, size = str(item.get("name")), int(item.get("size") or 0)
            save = QPushButton(tr("Save As…"))
            save.clicked.connect(lambda _c=False, n=name, s=size: self.save_luggage_requested.emit(n, s))
            sec.add(row(plain(name), plain(human_size(size), muted=True), save))

    def _buttons(self, rv: LandingReview) -> None:
        self.land_button.setEnabled(True)
        if rv.kind == "receipt":
            if rv.already:
                self.land_button.setText(tr("Show {id}").format(id=rv.already))
            else:
                self.land_button.setText(tr("Merge answers into {id}").format(id=rv.receipt_target or "?"))
                self.land_button.setEnabled(bool(rv.target_here and rv.receipt_target))
            self.summary.setText(tr("Nothing is stored until you merge."))
        else:
            if rv.already:
                self.land_button.setText(tr("Show {id}").format(id=rv.already))
            else:
                self.land_button.setText(tr("Land"))
            state = tr("It will wait for your approval.") if not rv.gate_allows else tr(
                "The sender is on your allow list: it will be routed.")
            self.summary.setText(tr("Nothing is stored until you land it.") + " " + state)

    def _primary(self) -> None:
        rv = self.reviewed.review if self.reviewed else None
        if rv is None:
            return
        if rv.already:
            self.show_passport_requested.emit(rv.already)
        elif rv.kind == "receipt":
            if rv.receipt_target:
                self.merge_requested.emit(rv.receipt_target)
        else:
            self.land_requested.emit()

    def section_text(self, key: str) -> str:
        """Every label's text in one section (for tests and accessibility checks)."""
        w = self.sections.get(key)
        if w is None:
            return ""
        return "\n".join(lbl.text() for lbl in w.findChildren(QLabel))
