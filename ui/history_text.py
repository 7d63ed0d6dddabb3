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
    """A sent pack in History: to whom, the file, how (from the outbox ledger)."""
    kind = tr("receipt") if e.kind == "receipt" else tr("handoff")
    to = visible(e.to) if e.to else tr("nobody named")
    where = visible(Path(e.path).name) if e.path else "?"
    return tr("sent {kind} to {to}: {file} ({encoding}, via {via})").format(
        kind=kind, to=to, file=where, encoding=e.encoding or "?", via=e.via or "?"
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
            if isinstance(value, list):
                value = ", ".join(map(str, value[:12])) + (" …" if len(value) > 12 else "")
            parts.append(f"{name}: {one_line(value, 200)}")
    return "; ".join(parts)
