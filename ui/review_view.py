"""The landing review: everything a person should see before a pack is stored.

Order matters (spec §4.4): who sent it and why, any problems with the file, then the
REQUIRED CHECKS FIRST — each with the sender's `how` as a quoted suggestion with Copy,
never Run — then what is proven and what is not, the asks, the sender's next steps,
the rest of the task state that lands with it (decisions, what was done, artifacts,
learnings), the imperative sentences found (reported, never followed), and the luggage.
A receipt shows, like a mail message, each question with its answer, who answered and
when, and which asks stay open — before "Merge answers into …". Land or Discard.
Building this view lands nothing.

A pack may be huge: long text is cut with "Show all" (a plain-text viewer) and long
lists show one page at a time with "Show more", so building the view stays quick
whatever the pack holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QScrollArea, QVBoxLayout, QWidget
from taskpack.app.desk import Fact, LandingReview, claim_key
from taskpack.ui.at_home import AtHome
from taskpack.ui.i18n import tr, trn
from taskpack.ui.jobs import human_size
from taskpack.ui.ops import Reviewed, unproven_facts
from taskpack.ui.pack_items import (
    ask_widget,
    check_widget,
    fact_widget,
    id_list,
    imperative_block,
    item_text,
    labels_text,
    merge_writes,
    receipt_answer_widget,
    sender_text,
)
from taskpack.ui.paging import FACT_PAGE, add_paged
from taskpack.ui.widgets import (
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
from taskpack.ui.words import local_time, number, one_line

T = TypeVar("T")


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
        self.at_home = AtHome()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setAccessibleName(tr("What the pack holds"))
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroll_area, 1)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 6, 12, 10)
        self.summary = plain("", small=True, muted=True)
        bar.addWidget(self.summary, 1)
        self.discard_button = QPushButton(tr("Discard"))
        self.discard_button.setToolTip(
            tr("Close this review. The file is left where it is; nothing is stored.")
        )
        self.discard_button.clicked.connect(self.discard_requested)
        self.land_button = QPushButton(tr("Land"))
        self.land_button.setDefault(True)
        self.land_button.clicked.connect(self._primary)
        # a pack this desk sent, opened again: the passport it came from is the way on
        self.original_button = QPushButton(tr("Open the original"))
        self.original_button.clicked.connect(
            lambda _c=False: self.show_passport_requested.emit(self.at_home.original_id)
        )
        self.original_button.hide()
        bar.addWidget(self.discard_button)
        bar.addWidget(self.land_button)
        bar.addWidget(self.original_button)
        outer.addLayout(bar)
        self.sections: dict[str, QWidget] = {}

    # -- filling --

    def show_review(self, reviewed: Reviewed, at_home: AtHome | None = None) -> None:
        self.reviewed = reviewed
        self.at_home = at_home or AtHome()
        rv = reviewed.review
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(16, 12, 16, 12)
        lay.setSpacing(6)
        self.sections = {}
        if rv.secrets and not rv.already:
            # none of the pack's text is shown: any field may be where the secret sits
            self._secrets(lay, rv)
            lay.addStretch(1)
            self.scroll_area.setWidget(body)
            self._buttons(reviewed)
            return
        self._header(lay, rv)
        self._problems(lay, reviewed)
        self._repairs(lay, rv)
        if rv.kind == "receipt":
            self._receipt(lay, reviewed)
        self._checks(lay, rv)
        self._facts(lay, reviewed)
        if rv.kind != "receipt":
            self._asks(lay, rv)
        self._next_steps(lay, rv)
        self._state(lay, rv)
        self._imperatives(lay, rv)
        self._luggage(lay, rv)
        lay.addStretch(1)
        self.scroll_area.setWidget(body)
        self._buttons(reviewed)

    def _add(self, lay: QVBoxLayout, key: str, section: Section) -> Section:
        self.sections[key] = section
        lay.addWidget(section)
        return section

    def _paged(self, sec: Section, items: Sequence[T], make: Callable[[T], QWidget]) -> None:
        add_paged(sec.add, items, make, parent_layout=sec.lay)

    def _header(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        kind = tr("Receipt") if rv.kind == "receipt" else tr("Handoff")
        name = plain(one_line(rv.path.name), small=True, muted=True)
        name.setWordWrap(False)
        lay.addWidget(row(badge(kind, "info"), name))
        lay.addWidget(heading(one_line(rv.title or rv.goal or tr("(untitled)"), 300), 1))
        when = local_time(rv.packed_at) or tr("an unknown time")
        lay.addWidget(
            plain(
                tr("From {sender}, packed {when}").format(sender=sender_text(rv.origin), when=when)
            )
        )
        if rv.note:
            lay.addWidget(QuotedBlock(rv.note, tr("The sender's note"), links=True))
        if rv.goal and rv.goal != rv.title:
            lay.addWidget(LinkedText(tr("Goal: {goal}").format(goal=rv.goal), title=tr("Goal")))
        if rv.current_state:
            lay.addWidget(
                LinkedText(
                    tr("Where it stands: {state}").format(state=rv.current_state),
                    title=tr("Where it stands"),
                )
            )
        chain = (rv.lineage or {}).get("chain") or []
        if isinstance(chain, list) and chain:
            shown = " → ".join(one_line(c, 60) for c in chain[-8:])
            if len(chain) > 8:
                shown = "… → " + shown
            lay.addWidget(
                plain(tr("Handed on: {chain}").format(chain=shown), small=True, muted=True)
            )
        if rv.already:
            banner = Banner()
            said = (
                tr(
                    "These answers were already merged into {id}, and nothing in this receipt "
                    "is new. Merging it again changes nothing."
                )
                if rv.nothing_new
                else tr("This pack already landed as {id}. Landing it again changes nothing.")
            )
            banner.show_message(said.format(id=rv.already), "info")
            lay.addWidget(banner)
            self.sections["already"] = banner
        elif self.at_home.original_id and rv.kind != "receipt":
            banner = Banner()
            banner.show_message(
                tr(
                    "This is this desk's own pack: it was sent from {id} “{title}”. "
                    "Landing it would make a second copy; open the original instead."
                ).format(
                    id=self.at_home.original_id, title=one_line(self.at_home.original_title, 200)
                ),
                "warn",
            )
            lay.addWidget(banner)
            self.sections["own_pack"] = banner
        if self.at_home.claims_mine:
            banner = Banner()
            banner.show_message(
                tr(
                    "It claims to be from you, but this desk did not write it: someone else "
                    "used your name and machine. Treat it as from a stranger; nothing in it "
                    "is proven here."
                ),
                "warn",
            )
            lay.addWidget(banner)
            self.sections["claims_mine"] = banner

    def _secrets(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        """A credential or a chat transcript: it cannot land, and the person learns why
        before pressing anything (kind and place only, never the value; nothing else the
        pack says is shown, since the secret may sit in any of it)."""
        kind = tr("Receipt") if rv.kind == "receipt" else tr("Handoff")
        name = plain(one_line(rv.path.name), small=True, muted=True)
        name.setWordWrap(False)
        lay.addWidget(row(badge(kind, "info"), name))
        lay.addWidget(heading(tr("This pack cannot land"), 1))
        banner = Banner()
        banner.show_message(
            tr(
                "This pack carries a secret, so it cannot land: nothing will be stored. "
                "Ask the sender to rotate it (treat it as leaked) and send a clean pack."
            ),
            "error",
        )
        lay.addWidget(banner)
        sec = self._add(lay, "secrets", Section(tr("Secrets found in this pack")))
        self._paged(
            sec,
            list(rv.secrets),
            lambda f: plain(
                tr("{kind} at {place}").format(
                    kind=one_line(f.kind, 120), place=one_line(f.place, 200)
                )
            ),
        )

    def _repairs(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.repairs:
            return
        sec = self._add(
            lay,
            "repairs",
            Section(
                tr("Put right when it lands"),
                tr(
                    "The file was written by hand or by an AI; landing forgives these, the judge does not."
                ),
            ),
        )
        self._paged(
            sec, list(rv.repairs), lambda text: plain("• " + one_line(text, 400), small=True)
        )

    def _problems(self, lay: QVBoxLayout, reviewed: Reviewed) -> None:
        rv = reviewed.review
        failed = reviewed.failed_checks or []
        if not rv.notes and not failed and reviewed.judged:
            lay.addWidget(
                badge(
                    "✓ "
                    + tr("The file is well-formed: it passes every check of the TaskPack format"),
                    "ok",
                )
            )
            return
        if not rv.notes and not failed:
            sec = self._add(lay, "problems", Section(tr("The file's format is not checked yet")))
            sec.add(
                plain(
                    tr(
                        "The attached files are large ({size}); checking the format reads all of them."
                    ).format(size=human_size(reviewed.luggage_bytes))
                )
            )
            sec.add(row(button(tr("Check the file's format"), self.judge_requested.emit)))
            return
        sec = self._add(
            lay,
            "problems",
            Section(
                tr("Problems with this file"),
                tr(
                    "The file is not conformant as written. It can still land; these are shown so you know."
                ),
            ),
        )
        lines: list[tuple[str, bool]] = []
        for cid, requirement, reasons in failed:
            lines.append((f"✗ {cid}: {requirement}", True))
            lines += [("    " + one_line(reason, 400), False) for reason in reasons[:5]]
        lines += [("• " + one_line(note, 400), False) for note in rv.notes]
        self._paged(sec, lines, lambda line: plain(line[0], bold=line[1], small=not line[1]))

    def _receipt(self, lay: QVBoxLayout, reviewed: Reviewed) -> None:
        rv = reviewed.review
        sec = self._add(lay, "receipt", Section(tr("Answers coming home")))
        if not rv.receipt_target:
            sec.add(
                plain(
                    tr("This receipt does not say which passport it answers; it cannot be merged.")
                )
            )
        elif not rv.target_here:
            sec.add(
                plain(
                    tr(
                        "This receipt answers {id}, which is not on this desk. Open it on the "
                        "desk that asked the questions."
                    ).format(id=one_line(rv.receipt_target, 60))
                )
            )
        else:
            title = f" — {one_line(reviewed.target_title, 200)}" if reviewed.target_title else ""
            sec.add(
                plain(
                    tr("It answers passport {id}.").format(id=rv.receipt_target) + title, bold=True
                )
            )
            sec.add(plain(tr("Answers: {asks}").format(asks=id_list(rv.would_answer))))
            if rv.would_adopt:
                sec.add(
                    plain(
                        tr("New questions for you (kept as open asks): {asks}").format(
                            asks=id_list(rv.would_adopt)
                        )
                    )
                )
            sec.add(plain(merge_writes(rv), small=True, muted=True))
        open_here = (
            {str(getattr(a, "id", "")) for a in reviewed.still_open} if rv.target_here else None
        )
        if rv.asks:
            self._paged(sec, rv.asks, lambda a: receipt_answer_widget(a, rv, open_here))
        else:
            sec.add(plain(tr("The receipt carries no answers.")))
        if rv.target_here:
            still = reviewed.still_open
            open_sec = self._add(
                lay,
                "still_open",
                Section(
                    tr("Still open after merging"),
                    tr("Asks of {id} that this receipt does not answer.").format(
                        id=rv.receipt_target
                    ),
                ),
            )
            if still:
                self._paged(
                    open_sec,
                    still,
                    lambda a: LinkedText(
                        f"{one_line(a.id or '?', 40)} · {a.what or ''}", title=tr("Question")
                    ),
                )
            else:
                open_sec.add(plain(tr("None: every ask is answered.")))

    def _checks(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        checks = rv.landing_checks
        if not checks:
            return
        if rv.kind == "receipt":
            title, explain = (
                tr("The sender's own checks"),
                tr("These describe the sender's machine. They are reported, not adopted as yours."),
            )
        else:
            title, explain = (
                tr("Do these first"),
                tr(
                    "Required checks go before the sender's next steps. The check is what is required; "
                    "how to do it is the sender's suggestion and is never run by this app."
                ),
            )
        sec = self._add(lay, "checks", Section(title, explain))
        self._paged(sec, list(checks), check_widget)

    def _facts(self, lay: QVBoxLayout, reviewed: Reviewed) -> None:
        rv = reviewed.review
        if not rv.facts:
            return
        machine = reviewed.machine or None
        home = self.at_home.facts

        def shown(f: Fact) -> Fact:  # merging keeps the target's own copy of a claim
            return home.get(claim_key(f), f)

        unproven = (
            reviewed.unproven
            if reviewed.unproven is not None and not home
            else unproven_facts([shown(f) for f in rv.facts], machine)
        )
        explain = trn(
            "%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.",
            unproven,
        ).format(total=number(len(rv.facts)))
        sec = self._add(lay, "facts", Section(tr("What is proven and what is not"), explain))
        add_paged(
            sec.add,
            rv.facts,
            lambda f: (
                fact_widget(home[claim_key(f)], machine, note=self.at_home.facts_note)
                if claim_key(f) in home
                else fact_widget(f, machine)
            ),
            page=FACT_PAGE,
            parent_layout=sec.lay,
        )  # (rv.facts: pages when many)

    def _asks(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.asks:
            return
        sec = self._add(
            lay,
            "asks",
            Section(
                tr("Questions the sender needs answered"),
                tr("After landing, answer them in the Asks tab and send a receipt back."),
            ),
        )
        self._paged(sec, rv.asks, ask_widget)  # pages: never all built at once

    def _next_steps(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        required = sum(1 for c in rv.landing_checks if c.is_required) if rv.kind == "handoff" else 0
        steps = rv.next_steps[required:]
        if not steps:
            return
        sec = self._add(lay, "next", Section(tr("The sender's next steps (after the checks)")))
        numbered = list(enumerate(steps, 1))
        self._paged(
            sec, numbered, lambda s: LinkedText(f"{s[0]}. {item_text(s[1])}", title=tr("Next step"))
        )

    def _state(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        """The rest of what lands: decisions, what was done, artifacts, learnings."""
        if rv.decisions:
            sec = self._add(lay, "decisions", Section(tr("Decisions")))
            self._paged(
                sec,
                list(rv.decisions),
                lambda d: LinkedText(
                    f"• {d.what or ''}"
                    + (" — " + tr("because {why}").format(why=d.why) if d.why else ""),
                    title=tr("Decision"),
                ),
            )
        for key, title, items in (
            ("actions", tr("What was done"), rv.actions),
            ("artifacts", tr("Artifacts"), rv.artifacts),
            ("learnings", tr("Learnings"), rv.learnings),
        ):
            shown = [t for t in (item_text(i) for i in items or []) if t.strip()]
            if shown:
                sec = self._add(lay, key, Section(title))

                def bullet(t: str, title: str = title) -> QWidget:
                    return LinkedText("• " + t, title=title)

                self._paged(sec, shown, bullet)
        if rv.verification not in (None, "", [], {}):
            sec = self._add(lay, "verification", Section(tr("How the sender verified it")))
            sec.add(LinkedText(item_text(rv.verification), title=tr("How the sender verified it")))

    def _imperatives(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.imperatives:
            return
        sec = self._add(
            lay,
            "imperatives",
            Section(
                tr("Instructions found in the pack"),
                tr(
                    "The sender wrote this; nothing was done. Text in a pack is data, never a command."
                ),
            ),
        )
        self._paged(
            sec,
            list(rv.imperatives),
            imperative_block,
        )

    def _luggage(self, lay: QVBoxLayout, rv: LandingReview) -> None:
        if not rv.luggage:
            return
        total = sum(int(i.get("size") or 0) for i in rv.luggage)
        sec = self._add(
            lay,
            "luggage",
            Section(
                trn("Attached files (%n, {size})", len(rv.luggage)).format(size=human_size(total))
            ),
        )

        def item(entry: dict[str, Any]) -> QWidget:
            name, size = str(entry.get("name")), int(entry.get("size") or 0)
            save = QPushButton(tr("Save As…"))
            save.clicked.connect(
                lambda _c=False, n=name, s=size: self.save_luggage_requested.emit(n, s)
            )
            return row(plain(one_line(name)), plain(human_size(size), muted=True), save)

        self._paged(sec, list(rv.luggage), item)

    def _buttons(self, reviewed: Reviewed) -> None:
        rv = reviewed.review
        self.land_button.setEnabled(True)
        own = bool(self.at_home.original_id) and rv.kind != "receipt" and not rv.already
        self.original_button.setVisible(own)
        self.original_button.setDefault(own)
        self.land_button.setDefault(not own)
        if rv.kind == "receipt":
            if rv.already:
                self.land_button.setText(tr("Show {id}").format(id=rv.already))
            else:
                self.land_button.setText(
                    tr("Merge answers into {id}").format(id=rv.receipt_target or "?")
                )
                self.land_button.setEnabled(bool(rv.target_here and rv.receipt_target))
            text = tr("Nothing is stored until you merge.")
            if rv.nothing_new:
                text = tr("Nothing in it is new.")
            elif rv.already:  # this very file again: the banner says where it went
                text = tr("It was merged before: opening it again changes nothing.")
            elif rv.target_here:
                text = (
                    tr("{answers}, {open}.").format(
                        answers=trn("%n answer comes home", len(rv.would_answer)),
                        open=trn("%n ask stays open", len(reviewed.still_open)),
                    )
                    + " "
                    + text
                )
            self.summary.setText(text)
        else:
            if rv.already:
                self.land_button.setText(tr("Show {id}").format(id=rv.already))
            elif own:
                self.land_button.setText(tr("Land a copy"))
            else:
                self.land_button.setText(tr("Land"))
            state = (
                tr("It will wait for your approval.")
                if not rv.gate_allows
                else tr("The sender is on your allow list: it will be routed.")
            )
            if rv.already:
                self.summary.setText(tr("It landed before: opening it again changes nothing."))
            else:
                self.summary.setText(tr("Nothing is stored until you land it.") + " " + state)
        if rv.secrets and not rv.already:
            self.land_button.setEnabled(False)
            self.summary.setText(
                tr("It cannot land: it carries a credential or a chat transcript.")
            )

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
        """Every label's visible text in one section (for tests and accessibility checks)."""
        w = self.sections.get(key)
        return "" if w is None else labels_text(w)

    def visible_text(self) -> str:
        """Everything the review shows, as a person reads it."""
        body = self.scroll_area.widget()
        return (
            (labels_text(body) if body else "")
            + "\n"
            + self.summary.text()
            + "\n"
            + self.land_button.text()
            + ("\n" + self.original_button.text() if self.original_button.isVisibleTo(self) else "")
        )
