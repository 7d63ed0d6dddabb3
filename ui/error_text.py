"""Errors from core, in the window's language.

Every `TaskPackError` carries a stable `code` and the `params` its English sentence is
built from (core/errors.py). The CLI prints the English; the window says the same thing
through a translated template chosen by the code. Where a code has no template of its
own, its kind of error still gets a translated sentence (what is wrong in general and
what to do), followed by the English detail, which names the exact place.
"""

from __future__ import annotations

from typing import Any

from taskpack.core.errors import Refused, TaskPackError
from taskpack.core.visible import visible

from .i18n import current, tr, trn


def _p(exc: TaskPackError, name: str) -> str:
    value = exc.params.get(name)
    return visible(value) if value not in (None, "") else "?"


def _templates(exc: TaskPackError) -> str | None:
    """The whole sentence for codes whose parameters say everything."""
    code = exc.code
    if code == "merge_wrong_target":
        return tr("This receipt answers {target}, not {into}. A receipt merges only into the passport "
                  "that asked; nothing was changed.").format(target=_p(exc, "target"), into=_p(exc, "into"))  # fmt: skip
    if code == "merge_target_missing":
        return tr("This receipt answers {target}, which is not on this desk. Open it on the desk that "
                  "asked the questions.").format(target=_p(exc, "target"))  # fmt: skip
    if code == "merge_receipt_as_handoff":
        return tr("This is a receipt answering {target}, not a handoff: merge it into {target}. "
                  "Nothing was changed.").format(target=_p(exc, "target"))  # fmt: skip
    if code == "merge_no_target":
        return tr("This receipt does not say which passport it answers; it cannot be merged. "
                  "Nothing was changed.")
    if code == "merge_handoff":
        return tr("A handoff is never merged into a passport: it lands as a new one. Nothing was changed.")
    if code == "bad_kind":
        return tr("The pack says it is a “{kind}”; a pack is a handoff or a receipt. Ask the sender "
                  "for a fresh copy; nothing was written.").format(kind=_p(exc, "kind"))  # fmt: skip
    if code == "already_landed":
        return tr("This pack already landed as {id}; nothing changed.").format(id=_p(exc, "passport_id"))
    if code == "disk_full":
        return tr("The disk holding {where} is full; nothing was written. Free some space on that "
                  "disk and try again.").format(where=_p(exc, "where"))  # fmt: skip
    if code == "cancelled":
        return tr("Cancelled.")
    if isinstance(exc, Refused):
        findings: list[Any] = [f for f in exc.params.get("findings") or [] if isinstance(f, dict)]
        places = "; ".join(f"{visible(f.get('kind'))} — {visible(f.get('place'))}" for f in findings[:3])
        if len(findings) > 3:
            places += " " + trn("(and %n more)", len(findings) - 3)
        if exc.code == "landing_refused":
            return tr("Not landing this pack: it carries {what}. Nothing was stored. Ask the sender to "
                      "rotate that secret (treat it as leaked) and send a clean pack.").format(what=places)  # fmt: skip
        return tr("Refusing to pack: {what}. Remove it from the passport or luggage and pack again.").format(
            what=places)  # fmt: skip
    return None


def _kind(exc: TaskPackError) -> str:
    """What kind of problem it is and what to do, for codes without a template of their own."""
    return {
        "not_found": tr("Not found. Check the id in the list."),
        "version_conflict": tr("Someone else changed it first: it was read again; try once more."),
        "invalid_state": tr("That move is not allowed from where the task is now."),
        "restore_refused": tr("The ✓ cannot be restored here."),
        "merge_refused": tr("This receipt cannot be merged here. Nothing was changed."),
        "format": tr("The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."),
        "pack_error": tr("The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."),
        "unreadable": tr("The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."),
        "unsupported_version": tr("The pack was made by a newer or different tool; ask the sender for a "
                                  "TaskPack 0.1 file."),
        "unsafe_entry": tr("The file may be hostile; nothing was written. Do not open it with other tools."),
        "integrity": tr("The file was damaged or altered in transit; ask the sender to send it again."),
        "limit_exceeded": tr("The file is too large or too deep to read safely (it may be a decompression "
                             "bomb); nothing was written."),
        "store": tr("The desk's store cannot be used."),
        "usage": tr("That cannot be done as asked."),
    }.get(exc.code, "")  # fmt: skip


def error_sentence(exc: TaskPackError) -> str:
    """The one sentence a person sees for a core error, in the window's language."""
    if current() == "en":
        return str(exc)
    whole = _templates(exc)
    if whole is not None:
        return whole
    kind = _kind(exc)
    return tr("{what} ({detail})").format(what=kind, detail=str(exc)) if kind else str(exc)
