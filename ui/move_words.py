"""The words for what a person can do to a passport: each move a verb as the person at this
desk would say it, and each way of exporting.
"""

from __future__ import annotations

from taskpack.app.desk import MoveOption
from taskpack.ui.i18n import tr
from taskpack.ui.models import state_label

EXPORT_MODES = ("save_bag", "save_flat", "copy", "email")


def move_label(state: str, waiting_on: str | None, opt: MoveOption) -> str:
    """A verb for a move, as the person at this desk would say it."""
    if opt.state == "cancelled":
        return tr("Cancel task")
    if state == "waiting" and waiting_on == "owner_approval":
        return {"routed": tr("Approve"), "rejected": tr("Deny")}.get(
            opt.state, state_label(opt.state, opt.waiting_on)
        )
    if opt.state == "waiting":
        return {
            "human": tr("Hold: wait for a person"),
            "agent": tr("Hold: wait for an agent"),
            "owner_approval": tr("Hold for approval"),
        }.get(opt.waiting_on or "", state_label(opt.state, opt.waiting_on))
    labels = {
        ("requested", "routed"): tr("Route"),
        ("routed", "accepted"): tr("Accept"),
        ("routed", "rejected"): tr("Decline"),
        ("accepted", "working"): tr("Start"),
        ("waiting", "working"): tr("Resume"),
        ("working", "verifying"): tr("Return result…"),
        ("verifying", "completed"): tr("Evidence holds: complete"),
        ("verifying", "approval"): tr("Send for sign-off"),
        ("verifying", "working"): tr("Evidence fails: back to work"),
        ("approval", "completed"): tr("Sign off"),
        ("approval", "working"): tr("Ask for changes"),
        ("approval", "rejected"): tr("Refuse sign-off"),
    }
    return labels.get((state, opt.state), state_label(opt.state, opt.waiting_on))


def export_label(kind: str, mode: str) -> str:
    receipt = kind == "receipt"
    return {
        "save_bag": tr("Save receipt as .taskpack…")
        if receipt
        else tr("Save handoff as .taskpack…"),
        "save_flat": tr("Save receipt as .taskpack.json…")
        if receipt
        else tr("Save handoff as .taskpack.json…"),
        "copy": tr("Copy receipt for chat") if receipt else tr("Copy handoff for chat"),
        "email": tr("Email receipt…") if receipt else tr("Email handoff…"),
    }[mode]
