"""A passport's History in words: the event names and the details of each entry."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.core.trust.visible_text import visible
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
    }.get(event, event)


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
            elif key == "why" and isinstance(value, str):
                value = why_label(value)
            elif key == "kind" and value in ("receipt", "handoff"):
                value = tr("receipt") if value == "receipt" else tr("handoff")
            if isinstance(value, list):
                value = ", ".join(map(str, value[:12])) + (" …" if len(value) > 12 else "")
            parts.append(f"{name}: {one_line(value, 200)}")
    return "; ".join(parts)
