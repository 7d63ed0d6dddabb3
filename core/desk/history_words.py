"""What a history row says is stored as data; the words are made when it is shown.

A desk writes what happened (the event, and parameters such as the file, the asks, the
sender) and, when it moves a task for a reason of its own, a reason *code*: never a
sentence, so the window can say it in the person's language. The CLI says it in the
English it has always printed (:func:`english_detail`). Rows written before the codes
hold the English sentence under ``why``; every front end shows that as it is.

A person's own words for a move (``taskpack move … --why``) are data and stay under
``why``: they are shown, never translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports this at start-up: it must not load the model
    from ..format.model import JSON

#: the sender is on the gate's allow list: the handoff is routed
GATE_ALLOWS = "gate_allows"
#: the gate holds the handoff for the owner's approval
GATE_HOLDS = "gate_holds"
#: the passport sent open asks in a handoff, so it waits for the answers (§4.3)
SENT_OPEN_ASKS = "sent_open_asks"
#: a merged receipt answered every ask the passport was waiting on
RECEIPT_ANSWERED = "receipt_answered"
#: "Take this on": the owner, who is also the assignee, moved it on
TAKEN_ON = "taken_on"
#: the A2A client that sent the task cancelled it (the row's ``by`` names that client)
CANCELLED_OVER_A2A = "cancelled_over_a2a"

#: each reason code in the English the CLI prints (the sentences rows held before codes)
REASONS: dict[str, str] = {
    GATE_ALLOWS: "the sender is on the gate's allow list",
    GATE_HOLDS: "the gate holds it for the owner",
    SENT_OPEN_ASKS: "it sent open asks in a handoff",
    RECEIPT_ANSWERED: "the receipt answered every ask it was waiting on",
    TAKEN_ON: "taken on by the owner, who is also the assignee",
    CANCELLED_OVER_A2A: "cancelled over A2A by {by}",
}


def english_detail(detail: Mapping[str, JSON]) -> dict[str, JSON]:
    """A row's detail as the CLI shows it: a reason code becomes its English sentence,
    under ``why`` and in the code's place, with its ``by`` said in it (a code this desk
    does not know is shown as it is). Everything else, old rows included, is unchanged."""
    if "reason" not in detail:
        return dict(detail)
    out: dict[str, JSON] = {}
    for key, value in detail.items():
        if key == "reason":
            out["why"] = REASONS.get(str(value), str(value)).replace("{by}", str(detail.get("by")))
        elif key != "by":
            out[key] = value
    return out


__all__ = [
    "CANCELLED_OVER_A2A",
    "GATE_ALLOWS",
    "GATE_HOLDS",
    "REASONS",
    "RECEIPT_ANSWERED",
    "SENT_OPEN_ASKS",
    "TAKEN_ON",
    "english_detail",
]
