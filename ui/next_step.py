"""The next step of a passport, in one sentence and one button: what this desk is waiting
for, and the click that moves it on (take it on, answer, send the receipt, wait for the
answers, check the result). Shown under the passport's title, so a person never has to
read tooltips to know what now.
"""

from __future__ import annotations

from dataclasses import dataclass

from taskpack.app.desk import LandingCheck, is_checked_here, lifecycle, open_count
from taskpack.ui.i18n import tr, trn
from taskpack.ui.ops import Detail, sender_of, take_on_path
from taskpack.ui.words import one_line

#: what the button does (PassportView carries it out)
TAKE_ON, ANSWER, RECEIPT, HANDOFF, OPEN_RECEIPT, RESULT, EVIDENCE_HOLDS, SIGN_OFF, CHECK = (
    "take_on",
    "answer",
    "receipt",
    "handoff",
    "open_receipt",
    "result",
    "evidence_holds",
    "sign_off",
    "check",
)


@dataclass(frozen=True)
class NextStep:
    sentence: str
    #: one of the actions above; "" when nothing here moves it on
    action: str = ""
    button: str = ""


def next_step(detail: Detail) -> NextStep:
    """What this desk waits for on `detail`'s passport, and the one button that moves it."""
    lp = detail.local
    state, waiting_on = lp.state, lp.waiting_on
    asks = lp.asks or []
    still_open = open_count(asks)
    landed = lp.received is not None
    latest = detail.sent[-1] if detail.sent else None
    if state in lifecycle.TERMINAL:
        return NextStep(tr("This task has ended; nothing moves it on."))
    if state == "verifying":
        return NextStep(
            tr("A result came back: check its evidence in the Overview, then say it holds."),
            EVIDENCE_HOLDS,
            tr("Evidence holds: complete"),
        )
    if state == "approval":
        return NextStep(tr("The result waits for your sign-off."), SIGN_OFF, tr("Sign off"))
    if landed:
        sender = one_line(sender_of(lp)) or tr("the sender")
        if latest is not None and latest.kind == "receipt" and latest.version >= lp.version:
            if still_open:  # the receipt went with questions unanswered: they are still ours
                return NextStep(
                    trn(
                        "Your receipt went home with %n questions still unanswered: answer "
                        "them in the Asks tab, then send another receipt.",
                        still_open,
                    ),
                    ANSWER,
                    tr("Answer the questions"),
                )
            return NextStep(
                tr(
                    "Your answers went home in a receipt; {sender} merges them. Nothing more "
                    "is needed here unless they ask again."
                ).format(sender=sender)
            )
        if still_open and len(take_on_path(state, waiting_on)) > 1:
            return NextStep(
                trn(
                    "It waits for you: take it on (approve, accept and start in one go), then "
                    "answer its %n open questions.",
                    still_open,
                ),
                TAKE_ON,
                tr("Take this on"),
            )
        check = first_unchecked(lp.landing_checks or [], detail.machine)
        if check is not None and len(take_on_path(state, waiting_on)) <= 1:
            return NextStep(
                tr(
                    "First the required check: “{check}”. Do it on this machine, then say "
                    "“I checked this here” in the Overview."
                ).format(check=one_line(check.check or "?", 120)),
                CHECK,
                tr("Show the check"),
            )
        if still_open:
            return NextStep(
                trn(
                    "Next: answer the %n open questions in the Asks tab, then send the answers "
                    "home as a receipt.",
                    still_open,
                ),
                ANSWER,
                tr("Answer the questions"),
            )
        if asks:
            return NextStep(
                tr("Every question is answered: send the answers home to {sender}.").format(
                    sender=sender
                ),
                RECEIPT,
                tr("Send a receipt…"),
            )
    if len(take_on_path(state, waiting_on)) > 1:
        return NextStep(tr("It waits for you to take it on."), TAKE_ON, tr("Take this on"))
    if still_open and latest is not None and latest.kind == "handoff":
        return NextStep(
            tr(
                "Waiting for the answers to come back: open the receipt when it arrives "
                "(drop it on this window, or paste the reply)."
            ),
            OPEN_RECEIPT,
            tr("Open a receipt…"),
        )
    if state == "working" and asks and latest is not None and latest.kind == "handoff":
        return NextStep(
            tr(
                "The answers are home (see the Asks tab): carry on, and return the result when "
                "it is done."
            ),
            RESULT,
            tr("Return result…"),
        )
    if not landed and latest is None:
        return NextStep(
            tr("When someone else is to carry it on, send it to them as a handoff."),
            HANDOFF,
            tr("Send a handoff…"),
        )
    return NextStep("")


def first_unchecked(checks: list[LandingCheck], machine: str) -> LandingCheck | None:
    """The first required landing check not yet done on this machine (they come first)."""
    return next(
        (c for c in checks if c.is_required and c.id and not is_checked_here(c, machine)), None
    )
