"""How a receipt comes home (spec §4.4.1): the merge-target rule and the merge rules.

* :func:`target_refusal` — THE merge-target rule (rule 1): the one passport a receipt
  answers, or why a pack may not be accepted as asked.
* :func:`merge_asks` — rules 2 and 3 on the asks: answers onto the asks that asked, the
  rest adopted as open questions.
* :func:`claim_key` — rule 4: a receipt adds the facts its target does not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import MergeRefused, NotFound, TaskPackError
from ..format.model import Ask, Fact, LocalPassport, PackObject
from ..trust.plain_words import is_plain_id
from ..trust.repairs import has_answer
from .authoring import next_ask_id
from .identity import sender_label
from .store import PackWritten, Store

if TYPE_CHECKING:
    from .review import LandingReview


def target_by_id(rv: LandingReview, exists: Callable[[str], bool]) -> None:
    """A receipt written by hand without its lineage answers the passport its
    `passport.id` names when that is one of this desk's — the passport a one-entry chain
    would name (§4.4.1 rule 1). Otherwise it has no target, and merging is refused."""
    if rv.kind == "receipt" and rv.kept_lineage_id and exists(rv.kept_lineage_id):
        # the handoff's lineage kept as it was, by a colleague with nothing installed: it
        # answers the passport that sent it (here), never the one upstream in its chain
        if rv.receipt_target != rv.kept_lineage_id:
            rv.receipt_target = rv.kept_lineage_id
            said = (
                f"the receipt keeps its handoff's lineage as it was; it was taken to answer "
                f"{rv.kept_lineage_id}, the passport that sent that handoff"
            )
            if said not in rv.repairs:
                rv.repairs.append(said)
        return
    if rv.kind != "receipt" or rv.receipt_target or not rv.named_id or not exists(rv.named_id):
        return
    rv.receipt_target = rv.named_id
    said = (
        f"the receipt carries no lineage; it was taken to answer {rv.named_id}, the "
        "passport its passport.id names (one of this desk's)"
    )
    if said not in rv.repairs:
        rv.repairs.append(said)


def target_refusal(
    rv: LandingReview,
    *,
    into: str | None,
    expect: str | None,
    exists: Callable[[str], bool],
    outbox: Callable[[str], Sequence[PackWritten]] | None = None,
) -> TaskPackError | None:
    """THE merge-target rule (§4.4.1 rule 1), the one place it lives: why this pack may
    not be accepted as asked, or None. `into` names the passport a receipt must answer;
    `expect` is "handoff" when the caller lands (a receipt is then refused with the way
    to merge it) or "receipt" when it merges. `outbox(id)` is the store's packs_written:
    a receipt answers only a passport whose outbox holds the handoff it answers
    (:func:`asks_sent`) — every front end's review, dry run and merge says so alike."""
    if rv.kind == "handoff":
        if into is not None or expect == "receipt":
            answers = [a.id or "?" for a in rv.asks if has_answer(a.to_data())]
            if answers:  # a reply whose writer forgot to say it is a receipt
                return MergeRefused(
                    f"this is a handoff carrying answers ({', '.join(answers[:5])}), and a handoff "
                    "is never merged into a passport (spec §4.4.1): this looks like answers — ask "
                    "the sender for a receipt",
                    hint='A receipt says "kind": "receipt" and keeps the handoff\'s lineage; '
                    "nothing was changed.",
                    code="merge_handoff_with_answers",
                    params={"asks": ", ".join(answers)},
                )
            return MergeRefused(
                "a handoff is never merged into a passport: it lands as a new one (spec §4.4.1)",
                hint="Land it without --into; nothing was changed.",
                code="merge_handoff",
            )
        return None
    target = rv.receipt_target
    if expect == "handoff" and into is None:
        shown = target or "the passport that asked"
        return MergeRefused(
            f"this is a receipt answering {shown}, not a handoff",
            hint=f"Merge it with `taskpack land FILE --into {shown}`; nothing was changed.",
            code="merge_receipt_as_handoff",
            params={"target": target},
        )
    if not target:
        named = (
            f"; its passport.id {rv.named_id} is not a passport on this desk" if rv.named_id else ""
        )
        return MergeRefused(
            f"this receipt's lineage names no passport it answers{named}",
            hint="A receipt is never matched by its title: ask the sender for one that keeps "
            "the lineage of the handoff it answers. Nothing was changed.",
            code="merge_no_target",
            params={"named": rv.named_id or ""},
        )
    if into is not None and target != into:
        return MergeRefused(
            f"this receipt answers {target}, not {into}",
            hint=f"A receipt merges only into the passport that asked; use --into {target} "
            "(nothing was changed).",
            code="merge_wrong_target",
            params={"target": target, "into": into},
        )
    if not exists(target):
        return NotFound(
            f"this receipt answers {target}, which is not in this desk",
            hint="Land it on the desk that asked the questions.",
            code="merge_target_missing",
            params={"target": target},
        )
    if outbox is not None and rv.sealed_pack is not None:
        sent = asks_sent(outbox(target), target, rv.sealed_pack)
        if isinstance(sent, MergeRefused):
            return sent
    return None


def asks_sent(
    written: Sequence[PackWritten], into: str, pack: PackObject
) -> set[str] | MergeRefused:
    """The asks `into` sent in the handoff(s) this receipt answers: its outbox's handoff
    at the version the receipt's lineage names (any of its handoffs when it names none).
    A passport whose outbox (`written`) holds no such handoff never asked: refused."""
    chain = (pack.lineage.chain or []) if pack.lineage else []
    # the entry that names `into` (a one-entry chain is the receipt's own: no version)
    entry = next((e for e in reversed(chain) if e.rsplit("@", 1)[0] == into), "")
    entry = entry if len(chain) >= 2 else ""
    named = entry.rsplit("@", 1)
    version = int(named[1]) if len(named) == 2 and named[1].isdigit() else None
    handoffs = [p for p in written if p.kind == "handoff"]
    answered = [p for p in handoffs if version is None or p.version == version]
    if not answered:
        return MergeRefused(
            f"{into} has no handoff in its outbox that this receipt answers"
            + (f" (version {version})" if version is not None else "")
            + ", so it never asked these questions",
            hint="A receipt merges only into the passport that sent the handoff it answers; "
            "nothing was changed.",
            code="merge_nothing_sent",
            params={"target": into},
        )
    return {a for p in answered for a in p.asks}


def answerable(target: LocalPassport, incoming: Sequence[Ask], sent: set[str]) -> list[Ask]:
    """The receipt's asks that may touch `target`: answers only for the asks the handoff
    carried (`sent`) — never onto a draft ask this passport did not send; an ask the
    receipt adds is adopted, open."""
    mine = {a.id for a in target.asks or [] if a.id}
    return [a for a in incoming if a.id not in mine or a.id in sent]


# --- merging a receipt ----------------------------------------------------------------


@dataclass
class AskPlan:
    """What merging a receipt's asks does: the asks it answers, and those it adopts (id, and the ask it takes)."""

    answered: list[str] = field(default_factory=list)
    adopted: list[tuple[str, str]] = field(default_factory=list)


def merge_asks(
    target: LocalPassport, incoming: Sequence[Ask], pack: PackObject, *, apply: bool
) -> AskPlan:
    """§4.4.1 rules 2 and 3 on the asks: answers onto matching asks, the rest adopted open.

    An ask matches when the ids agree and, if both say `what`, the questions agree too
    (ids like ``a1`` are short and a busy passport may reuse one for another question).
    An answer never erases one: a receipt that still has an ask open leaves it alone.
    """
    plan = AskPlan()
    asks = target.asks if target.asks is not None else []
    origin = pack.origin
    who = sender_label(origin.actor, origin.machine) if origin else ""
    for theirs in incoming:
        mine = next(
            (a for a in asks if a.id and a.id == theirs.id and _same_question(a, theirs)), None
        )
        if mine is not None:
            answered = has_answer(theirs.to_data())
            status = theirs.status or ("answered" if answered else "open")
            if status == "open" and answered:
                status = "answered"  # an answer is an answer, whatever the status forgot
            if status == "open" or (mine.answer == theirs.answer and mine.status == status):
                continue  # still open, or answered so already (the same receipt again)
            plan.answered.append(mine.id or "")
            if apply:
                mine.answer = theirs.answer
                mine.status = status
                mine.answered_by = theirs.answered_by or who or None
                mine.answered_at = theirs.answered_at or pack.packed_at
            continue
        adopted = theirs.copy_record()
        old = theirs.id or ""
        # the ask becomes this desk's own question: an id that is no plain one (a sentence,
        # `问题1`) is not kept as its name here, where every front end would say it
        if not is_plain_id(adopted.id) or any(a.id == adopted.id for a in asks):
            adopted.id = next_ask_id(asks)
        adopted.status = "open"
        plan.adopted.append((old, adopted.id or ""))
        if apply:
            asks.append(adopted)
    if apply:
        target.asks = asks
    return plan


def _same_question(a: Ask, b: Ask) -> bool:
    return a.what is None or b.what is None or a.what.strip() == b.what.strip()


def claim_key(fact: Fact) -> str:
    """Facts are the same claim when their text is: a receipt never overwrites a fact the
    target already holds (its own copy may carry a ✓ proven here), it only adds new ones."""
    return " ".join((fact.claim or "").split()).casefold()


def still_waiting(store: Store, lp: LocalPassport) -> bool:
    """Does `lp` still have an open ask that it sent downstream in a handoff?"""
    sent = {a for p in store.packs_written(lp.id) if p.kind == "handoff" for a in p.asks}
    return any(a.id in sent and (a.status or "open") == "open" for a in lp.asks or [])
