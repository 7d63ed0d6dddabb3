"""The pieces a pack is shown in, in a review and in a passport: a fact with its standing, a
landing check, an ask card, a receipt's answer, and the visible text of what is shown.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget
from taskpack.app.desk import Ask, Fact, LandingCheck, LandingReview, Standing, standing
from taskpack.ui import tones
from taskpack.ui.i18n import tr, trn
from taskpack.ui.widgets import LinkedText, QuotedBlock, badge, plain, row
from taskpack.ui.words import local_time, number, one_line

#: ids listed in one sentence ("a1, a2, … and 9,980 more")
IDS_SHOWN = 12


def sender_text(origin: dict[str, Any]) -> str:
    actor = one_line(origin.get("actor")) if origin.get("actor") else tr("someone")
    machine = one_line(origin.get("machine")) if origin.get("machine") else tr("an unnamed machine")
    return tr("{actor} on {machine}").format(actor=actor, machine=machine)


def scope_label(scope: str) -> str:
    return {"universal": tr("universal"), "org": tr("organisation")}.get(scope, tr("machine"))


def id_list(ids: list[str]) -> str:
    """Ids for one sentence, at most IDS_SHOWN of them."""
    if not ids:
        return tr("none")
    shown = ", ".join(one_line(i, 40) for i in ids[:IDS_SHOWN])
    left = len(ids) - IDS_SHOWN
    return shown if left <= 0 else tr("{ids} and {n} more").format(ids=shown, n=number(left))


def standing_words(st: Standing) -> tuple[str, str, str]:
    """(badge, badge kind, one line of explanation) — the window's words for a Standing.

    The badge says what the CLI says (`Standing.text`), in the window's language.
    """
    where = one_line(st.machine) if st.machine else tr("an unnamed machine")
    if st.kind == "proven_here":
        return (
            tr("✓ proven here ({machine})").format(machine=where),
            "ok",
            tr("Verified on this machine."),
        )
    if st.kind == "carried":
        explain = tr("{scope} fact — keeps its ✓ across machines").format(
            scope=scope_label(st.scope)
        )
        if st.source:
            explain += " · " + tr("source: {who}").format(who=one_line(st.source))
        return "✓ " + tr("carried"), "ok", explain
    if st.kind == "claimed_elsewhere":
        return (
            "⚠ " + tr("not proven here"),
            "warn",
            tr("Marked verified on {machine} but not sealed: check it again here.").format(
                machine=where
            ),
        )
    if st.kind == "unproven_here":
        return (
            "⚠ " + tr("unproven here"),
            "warn",
            tr("verified on {machine}; not proven on this machine").format(machine=where),
        )
    return (
        "· " + tr("not verified"),
        "info",
        tr("{scope} fact, never verified").format(scope=scope_label(st.scope)),
    )


def fact_widget(
    fact: Fact, machine: str | None, *, extra: list[QWidget] | None = None, note: str = ""
) -> QWidget:
    """One fact: its standing, its claim and what the standing means; buttons in `extra`.

    Light, for pages of them: a badge painted without a style sheet, the claim, and one
    line of our own words (with `note`) muted by its palette, not a frame of labels with
    a style sheet each."""
    box = QWidget()
    grid = QGridLayout(box)  # one layout per row: the badge, then the words under each other
    grid.setContentsMargins(0, 2, 0, 2)
    grid.setHorizontalSpacing(6)
    grid.setVerticalSpacing(1)
    grid.setColumnStretch(1, 1)
    mark, kind, where = standing_words(standing(fact, machine=machine))
    if fact.verified_by and fact.verified and fact.effective_scope == "machine":
        where += " " + tr("Checked by {who}.").format(who=one_line(fact.verified_by))
    grid.addWidget(badge(mark, kind), 0, 0, Qt.AlignmentFlag.AlignTop)
    grid.addWidget(LinkedText(fact.claim or tr("(no claim)"), title=tr("Fact")), 0, 1)
    # (our own words, not the pack's: not selectable, so no text document per row to lay out)
    said = where + (f"\n{note}" if note else "")
    grid.addWidget(plain(said, small=True, muted=True, selectable=False), 1, 1)
    if extra:  # the buttons under the words: a narrow window keeps the claim wide
        buttons = QHBoxLayout()
        buttons.setSpacing(6)
        for w in extra:
            buttons.addWidget(w)
        buttons.addStretch(1)
        grid.addLayout(buttons, 2, 1)
    return box


def check_widget(
    check: LandingCheck, *, extra: QWidget | None = None, done: str = "", done_here: bool = True
) -> QWidget:
    """One landing check; `done` is the line saying who did it where; only a check done on
    this machine (`done_here`) wears the ✓ badge."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 6)
    lay.setSpacing(3)
    if done and done_here:
        kind = badge("✓ " + tr("done"), "ok")
    else:
        kind = badge(
            tr("required") if check.is_required else tr("optional"),
            "warn" if check.is_required else "info",
        )
    line = QHBoxLayout()
    line.setContentsMargins(0, 0, 0, 0)
    line.addWidget(kind, 0, Qt.AlignmentFlag.AlignTop)
    line.addWidget(LinkedText(check.check or tr("(no check text)"), title=tr("Landing check")), 1)
    if extra is not None:
        line.addWidget(extra, 0, Qt.AlignmentFlag.AlignTop)
    lay.addLayout(line)
    if done:
        lay.addWidget(plain(done, small=True, muted=True))
    if check.how:
        lay.addWidget(
            QuotedBlock(
                check.how,
                tr("The sender's suggestion of how to check — not run. Read it before you use it."),
            )
        )
    return box


def ask_status_label(status: str) -> str:
    return {"open": tr("open"), "answered": tr("answered"), "dropped": tr("dropped")}.get(
        status, one_line(status, 40)
    )


def ask_widget(ask: Ask) -> QWidget:
    box = QFrame()
    box.setFrameShape(QFrame.Shape.StyledPanel)
    grid = QGridLayout(box)
    grid.setColumnStretch(1, 1)
    rows = [
        (tr("Question"), ask.what or ""),
        (tr("Why"), ask.why or ""),
        (
            tr("What counts as an answer"),
            ask.accept or tr("(no accept: this ask cannot be judged)"),
        ),
    ]
    n = 0
    for label, value in rows:
        if not value.strip():
            continue  # no empty rows
        grid.addWidget(plain(label, bold=True, selectable=False), n, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(LinkedText(value, title=label), n, 1)
        n += 1
    status = ask_status_label(ask.status or "open")
    grid.addWidget(plain(f"{one_line(ask.id or '?', 40)} · {status}", small=True, muted=True), n, 1)
    return box


def answer_text(answer: Any) -> str:
    return answer if isinstance(answer, str) else "" if answer is None else str(answer)


def by_line(who: str | None, when: str | None) -> str:
    """ "Answered by Zhang Min on 2026-08-16 11:30" (local time), or what of it is known."""
    if who and when:
        return tr("Answered by {who} on {when}").format(who=one_line(who), when=local_time(when))
    if who:
        return tr("Answered by {who}").format(who=one_line(who))
    if when:
        return tr("Answered on {when}").format(when=local_time(when))
    return tr("The receipt does not say who answered or when.")


def receipt_answer_widget(
    ask: Ask, rv: LandingReview, open_here: set[str] | None = None
) -> QWidget:
    """One question and its answer, as a mail message shows a quoted question and a reply.

    `open_here`: the asks still open in the passport the receipt answers (None: not known);
    an ask the receipt does not answer anew is "stays open" only if it is one of them."""
    box = QFrame()
    box.setObjectName("answer")
    box.setStyleSheet(f"#answer {{ border: 1px solid {tones.edge()}; border-radius: 4px; }}")
    lay = QVBoxLayout(box)
    lay.setContentsMargins(10, 6, 10, 6)
    lay.setSpacing(3)
    ask_id = ask.id or ""
    status = ask.status or ("answered" if ask.answer is not None else "open")
    if ask_id in rv.would_answer:
        tag = badge(tr("answers your question"), "ok")
    elif ask_id in rv.would_adopt:
        tag = badge(tr("a new question for you"), "info")
    elif open_here is not None and ask_id not in open_here:
        tag = badge(tr("answered here already"), "info")
    else:
        tag = badge(tr("stays open"), "warn")
    lay.addWidget(row(plain(one_line(ask_id or "?", 40), bold=True, selectable=False), tag))
    question = QuotedBlock(ask.what or tr("(no question)"), tr("Question"), links=True)
    question.copy_button.hide()
    lay.addWidget(question)
    answer = answer_text(ask.answer)
    if status == "dropped":
        lay.addWidget(plain(tr("Dropped: it will not be answered."), bold=True))
        if answer:
            lay.addWidget(LinkedText(answer, title=tr("Answer")))
    elif answer:
        lay.addWidget(LinkedText(answer, title=tr("Answer")))
    else:
        lay.addWidget(plain(tr("(not answered)"), muted=True))
    if status != "open" or answer:
        lay.addWidget(plain(by_line(ask.answered_by, ask.answered_at), small=True, muted=True))
    return box


def item_text(item: Any) -> str:
    """An artifact, action or learning as one text: a string, or an object's main fields."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        main = [
            str(item[k])
            for k in ("what", "name", "title", "summary", "text", "path", "url", "kind")
            if isinstance(item.get(k), str | int | float) and str(item[k]).strip()
        ]
        if main:
            return " — ".join(dict.fromkeys(main))
        return ", ".join(f"{k}: {v}" for k, v in list(item.items())[:8])
    return "" if item is None else str(item)


def label_text(label: QLabel) -> str:
    """What a label shows, as text (rich text rendered to plain)."""
    if label.textFormat() == Qt.TextFormat.RichText:
        return QTextDocumentFragment.fromHtml(label.text()).toPlainText()
    return label.text()


def labels_text(widget: QWidget) -> str:
    return "\n".join(label_text(lbl) for lbl in widget.findChildren(QLabel) if not lbl.isHidden())


def recipient_words(to: str) -> str:
    """Whom an ask is for, in words: the spec's "peer" is whoever receives the pack."""
    if to == "peer":
        return tr("for whoever receives it")
    if to == "owner":
        return tr("for the owner")
    return tr("for {who}").format(who=one_line(to, 60))


def _field_words() -> dict[str, str]:
    """The fields of a pack a place names, in words ("landing_checks[0].how" → …)."""
    return {
        "note": tr("the sender's note"),
        "goal": tr("the goal"),
        "title": tr("the title"),
        "current_state": tr("where it stands"),
        "facts": tr("fact {n}"),
        "decisions": tr("decision {n}"),
        "next_steps": tr("next step {n}"),
        "landing_checks": tr("landing check {n}"),
        "asks": tr("ask {n}"),
        "actions": tr("what was done, item {n}"),
        "artifacts": tr("artifact {n}"),
        "learnings": tr("learning {n}"),
    }


def _part_words() -> dict[str, str]:
    return {
        "how": tr("how to check it (the sender's suggestion)"),
        "check": tr("what to check"),
        "claim": tr("the claim"),
        "what": tr("the question"),
        "why": tr("why it is asked"),
        "accept": tr("what counts as an answer"),
        "answer": tr("the answer"),
    }


_SINGLE = ("note", "goal", "title", "current_state")
_PLACE = re.compile(r"^(?:passport\.)?([a-z_]+)(?:\[(\d+)\])?(?:\.([a-z_]+))?$")
_LUGGAGE_LINE = re.compile(r"^(.+) \(line (\d+)\)$")


def place_words(place: str) -> str:
    """Where in a pack something was found, as a person says it: "landing check 1, how to
    check it (the sender's suggestion)" for ``landing_checks[0].how``, "the attached file
    run.md, line 12" for ``run.md (line 12)``. A place not known here is shown as it is."""
    found = _PLACE.match(place)
    fields, parts = _field_words(), _part_words()
    if found and found.group(1) in fields:
        field_name, index, part = found.groups()
        if (index is None) != (field_name in _SINGLE) or (part and part not in parts):
            return one_line(place, 200)
        words = fields[field_name].format(n=int(index or 0) + 1)
        return tr("{where}, {part}").format(where=words, part=parts[part]) if part else words
    line = _LUGGAGE_LINE.match(place)
    if line:
        return tr("the attached file {name}, line {line}").format(
            name=one_line(line.group(1), 120), line=line.group(2)
        )
    return one_line(place, 200)


def evidence_words(kind: object) -> str:
    """An evidence kind (`core.desk.lifecycle.EVIDENCE_KINDS`) in words."""
    return {
        "test_output": tr("Test output"),
        "screenshot": tr("Screenshot"),
        "link": tr("Link"),
        "pull_request": tr("Pull request"),
        "commit": tr("Commit"),
        "note": tr("Note"),
    }.get(str(kind), one_line(kind, 40))


def restore_reason(said: str, proven_on: str | None, machine: str) -> str:
    """Why Restore ✓ is (not) available, in the window's language: the desk says it in
    English (`Desk.can_restore_all`); the sentences it says are known here, anything else
    is shown as it is."""
    where, here = one_line(proven_on or "?", 60), one_line(machine or "?", 60)
    known = (
        ("This fact is not sealed", tr("This fact is not sealed, so there is no ✓ to restore.")),
        (
            "The pack does not say where",
            tr("The pack does not say where this fact was proven; check it again here."),
        ),
        (
            "This desk proved it",
            tr("This desk proved it on this machine and sealed it when it packed it."),
        ),
        (
            "It was proven on",
            tr(
                "It was proven on {where}, not on this machine ({machine}); check it again here."
            ).format(where=where, machine=here),
        ),
        (
            "This desk has no record of proving it here",
            tr(
                "This desk has no record of proving it here and sealing it when it packed, "
                "so the pack's word that it was proven here cannot be trusted; check it again."
            ),
        ),
    )
    return next((words for start, words in known if said.startswith(start)), said)


#: the cue the imperative scan gives text hidden in tag characters (`core.trust.imperatives`)
HIDDEN_TEXT_CUE = "hidden text"


def imperative_block(imp: dict[str, Any]) -> QuotedBlock:
    """One finding of the imperative scan, quoted as data. Text hidden in invisible tag
    characters is shown decoded, and said to be hidden: no screen shows it, a model reads it."""
    sentence, where = str(imp.get("sentence") or ""), place_words(str(imp.get("place") or "?"))
    if imp.get("cue") == HIDDEN_TEXT_CUE:
        decoded = sentence.removeprefix(HIDDEN_TEXT_CUE + ": ")
        return QuotedBlock(
            decoded,
            tr("Hidden text in {place}: invisible characters, decoded here as data").format(
                place=where
            ),
        )
    return QuotedBlock(sentence, tr("in {place}").format(place=where))


def merge_writes(rv: LandingReview) -> str:
    """What merging this receipt writes into the passport that asked, in one sentence."""
    parts = [trn("%n answers", len(rv.would_answer))]
    if rv.would_adopt:
        parts.append(trn("%n new questions, kept as open asks", len(rv.would_adopt)))
    if rv.facts:
        parts.append(tr("the facts it carries that your passport does not hold yet, sealed"))
    if rv.luggage:
        parts.append(trn("%n attached files", len(rv.luggage)))
    return tr(
        "Merging writes into {id}: {what}. It never changes the goal, the current state or "
        "the next steps."
    ).format(id=rv.receipt_target or "?", what=tr("; ").join(parts))
