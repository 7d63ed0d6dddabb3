"""A passport's History in words: the event names and the details of each entry.

The desk stores what happened as data (`core.desk.history_words`): an event, its
parameters and, for a move the desk made itself, a reason code. The words are made here,
in the window's language. Whatever a pack chose (a file name, a sender, an ask id) stays
a value put into the sentence through `visible()`, never part of the sentence itself. A
row written before the codes holds an English reason: it is shown as it is, or in the
window's language when it is one of the desk's own old sentences.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.app.desk import history_words as hw
from taskpack.app.desk import visible
from taskpack.ui.i18n import tr
from taskpack.ui.models import described_label, why_label
from taskpack.ui.words import one_line

if TYPE_CHECKING:
    from taskpack.app.desk import PackWritten


def history_label(event: str) -> str:
    return {
        "created": tr("created"),
        "landed": tr("landed"),
        "merged": tr("receipt merged"),
        "restored": tr("✓ restored"),
        "moved": tr("moved"),
        "answer": tr("ask answered"),
        "packed": tr("packed"),
        "fact": tr("fact added"),
        "ask": tr("ask added"),
        "check": tr("landing check added"),
        "next_step": tr("next step added"),
        "result": tr("result returned"),
        "luggage": tr("file attached"),
        "checkpoint": tr("checkpoint"),
        "decision": tr("decision"),
        "checked": tr("checked here"),
        "mailed": tr("email opened"),
    }.get(event, event)


def reason_label(reason: str) -> str:
    """Why the desk moved a task, from its reason code (or the English sentence a row
    written before the codes holds), in the window's language."""
    words = {
        hw.GATE_ALLOWS: tr("the sender is on your allow list"),
        hw.GATE_HOLDS: tr("held for your approval"),
        hw.SENT_OPEN_ASKS: tr("it sent open questions in a handoff and waits for the answers"),
        hw.RECEIPT_ANSWERED: tr("the receipt answered every question it was waiting on"),
        hw.TAKEN_ON: tr("taken on here by its owner, who also does the work"),
        hw.CANCELLED_OVER_A2A: tr("cancelled over A2A by the one who sent it"),
    }
    if reason in words:
        return words[reason]
    old = {sentence: code for code, sentence in hw.REASONS.items()}
    return words[old[reason]] if reason in old else why_label(reason)


def _count(detail: dict[str, Any], key: str) -> int:
    value = detail.get(key)
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _names(value: Any) -> str:
    items = [visible(str(x)) for x in value] if isinstance(value, list) else []
    return ", ".join(one_line(x, 40) for x in items[:12]) + (" …" if len(items) > 12 else "")


def _file(detail: dict[str, Any]) -> str:
    return one_line(visible(str(detail.get("file") or "?")), 80)


def landed_detail(detail: dict[str, Any]) -> str:
    """A handoff that landed as this passport: from whom, which file, what the desk did."""
    parts = [
        tr("Landed from {file} (the sender's passport {sender}).").format(
            file=_file(detail), sender=one_line(visible(str(detail.get("from") or "?")), 80)
        )
    ]
    if checks := _count(detail, "required_checks"):
        parts.append(tr("Required checks placed first: {n}.").format(n=checks))
    if sealed := _count(detail, "sealed"):
        parts.append(tr("Facts sealed as not proven here: {n}.").format(n=sealed))
    if repairs := _count(detail, "repairs"):
        parts.append(tr("Mistakes in the file put right: {n}.").format(n=repairs))
    if found := _count(detail, "imperatives"):
        parts.append(
            tr("Instructions found in the pack, shown and never followed: {n}.").format(n=found)
        )
    return " ".join(parts)


def merged_detail(detail: dict[str, Any]) -> str:
    """A receipt merged into this passport: from whom, which file, what it answered."""
    parts = [
        tr("A receipt merged from {file} (the answerer's passport {sender}).").format(
            file=_file(detail), sender=one_line(visible(str(detail.get("from") or "?")), 80)
        )
    ]
    answered = _names(detail.get("answered"))
    parts.append(
        tr("Answered: {asks}.").format(asks=answered) if answered else tr("Nothing answered.")
    )
    if adopted := _names(detail.get("adopted")):
        parts.append(tr("New questions for you: {asks}.").format(asks=adopted))
    if facts := _count(detail, "facts_added"):
        parts.append(tr("Facts added: {n}.").format(n=facts))
    if repairs := _count(detail, "repairs"):
        parts.append(tr("Mistakes in the file put right: {n}.").format(n=repairs))
    return " ".join(parts)


def packed_detail(detail: dict[str, Any]) -> str:
    """A pack written, when the outbox ledger has no entry for it (`sent_detail` has more)."""
    kind = tr("receipt") if detail.get("kind") == "receipt" else tr("handoff")
    return tr("{kind} written to {file}").format(kind=kind, file=_file(detail))


def mailed_detail(detail: dict[str, Any]) -> str:
    """The window opened an email with the pack attached (sent or not is the person's)."""
    if detail.get("how") == "not_opened":
        return tr("No email was opened: {file} is in the outbox, not sent.").format(
            file=_file(detail)
        )
    if detail.get("how") == "attached":
        return tr("Your mail program opened a new email with {file} attached.").format(
            file=_file(detail)
        )
    return tr("A new email was opened; {file} was shown to attach by hand.").format(
        file=_file(detail)
    )


def entry_detail(event: str, detail: dict[str, Any]) -> str:
    """The Details column of one history row, in the window's language."""
    if event == "landed":
        return landed_detail(detail)
    if event == "merged":
        return merged_detail(detail)
    if event == "packed":
        return packed_detail(detail)
    if event == "mailed":
        return mailed_detail(detail)
    return history_detail(detail)


def sent_detail(e: PackWritten) -> str:
    """A pack written for someone, in History: for whom, the file, how (from the outbox
    ledger). "Written", not "sent": the desk knows the file was made, not that it arrived
    (an email may never have been opened)."""
    kind = tr("receipt") if e.kind == "receipt" else tr("handoff")
    to = visible(e.to) if e.to else tr("nobody named")
    where = visible(Path(e.path).name) if e.path else "?"
    encoding = {"bag": tr("a .taskpack file"), "flat": tr("a .taskpack.json file")}.get(
        e.encoding or "", one_line(e.encoding or "?", 20)
    )
    via = {
        "window": tr("from this window"),
        "cli": tr("from the command line"),
        "mcp": tr("by an AI agent over MCP"),
        "a2a": tr("as an A2A reply"),
    }.get(e.via or "", one_line(e.via or "?", 20))
    return tr("{kind} for {to} written to {file} ({encoding}, {via})").format(
        kind=kind, to=to, file=where, encoding=encoding, via=via
    )


def history_detail(detail: dict[str, Any]) -> str:
    parts = []
    names = {
        "from": tr("from"),
        "to": tr("to"),
        "why": tr("why"),
        "reason": tr("why"),
        "file": tr("file"),
        "kind": tr("kind"),
        "fact": tr("fact"),
        "claim": tr("claim"),
        "ask": tr("ask"),
        "status": tr("status"),
        "answered": tr("answered"),
        "check": tr("check"),
        "by": tr("by"),
        "machine": tr("machine"),
    }
    for key, name in names.items():
        if key in detail and detail[key] not in (None, "", []):
            value = detail[key]
            if key in ("from", "to") and isinstance(value, str):
                value = described_label(value)
            elif (key == "why" and isinstance(value, str)) or (
                key == "reason" and isinstance(value, str)
            ):
                value = reason_label(value)
            elif key == "kind" and value in ("receipt", "handoff"):
                value = tr("receipt") if value == "receipt" else tr("handoff")
            elif key == "status" and isinstance(value, str):
                value = {
                    "open": tr("open"),
                    "answered": tr("answered"),
                    "dropped": tr("dropped"),
                }.get(value, value)
            if isinstance(value, list):
                value = ", ".join(map(str, value[:12])) + (" …" if len(value) > 12 else "")
            parts.append(tr("{name}: {value}").format(name=name, value=one_line(value, 200)))
    return tr("; ").join(parts)
