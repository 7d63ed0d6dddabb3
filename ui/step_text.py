"""A next step in words. A required landing check this desk placed first among the next
steps (spec §4.4) is kept in the passport as the line `core.desk.review.check_line` wrote;
here it is said again in the window's language, from the passport's own record of that
check. The check and its `how` are the sender's: values in the sentence, never its words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taskpack.app.desk import LandingCheck, check_line
from taskpack.ui.i18n import tr
from taskpack.ui.pack_items import item_text


def check_step_text(check: LandingCheck) -> str:
    """A landing check as a next step: required or not, the check, the `how` only quoted."""
    kind = tr("required") if check.is_required else tr("optional")
    text = tr("Landing check ({kind}): {check}").format(
        kind=kind, check=check.check or tr("(no check text)")
    )
    if check.how:
        text += tr(" — sender's suggestion, not run: «{how}»").format(how=check.how)
    return text


def step_text(step: Any, checks: Sequence[LandingCheck]) -> str:
    """One next step as a person reads it: a landing check's line in the window's
    language (matched exactly against the passport's checks), anything else as written."""
    if isinstance(step, str) and step.startswith("Landing check ("):
        for check in checks:
            if step == check_line(check):
                return check_step_text(check)
    return item_text(step)
