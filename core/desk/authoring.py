"""The rules for changing a passport on this desk, as pure functions over the passport
(no IO: the caller reads it and saves it, in one transaction).

Each ``add_…``/``answer…``/``check…``/``move…`` function changes the `LocalPassport` it is
given and returns the history entry's detail. Answers are stamped with who answered and
when; a fact checked here becomes machine-scoped and verified on this machine; a move is
checked against the lifecycle table. Ids: asks get the next free ``aN``, landing checks
``cN``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..errors import InvalidMove, NotFound, UsageError
from ..format.model import (
    JSON,
    SCOPES,
    Ask,
    Decision,
    Fact,
    LandingCheck,
    LocalPassport,
    PassportState,
)
from . import lifecycle
from .history_words import REASONS, TAKEN_ON
from .store import Tx

#: fields of the passport state a checkpoint may not set: they belong to the store
STORE_FIELDS = ("id", "version", "created_at", "updated_at")


# --- ids ------------------------------------------------------------------------------


def next_ask_id(asks: Iterable[Ask]) -> str:
    """The first free ``aN`` among `asks`."""
    taken = {a.id for a in asks if a.id}
    n = 1
    while f"a{n}" in taken:
        n += 1
    return f"a{n}"


def next_check_id(checks: Iterable[LandingCheck]) -> str:
    """The first free ``cN`` among `checks`."""
    taken = {c.id for c in checks if c.id}
    n = 1
    while f"c{n}" in taken:
        n += 1
    return f"c{n}"


# --- a passport made here, and what is added to it ---------------------------------------


def made_here(
    title: str, goal: str, *, machine: str, harness: str, current_state: str | None = None
) -> LocalPassport:
    """A new passport of this desk's own (no id yet: the store's transaction gives it one).
    It starts `working`: the owner's own work, already taken on."""
    if not title.strip() or not goal.strip():
        raise UsageError("a passport needs a title and a goal")
    state = PassportState(
        id=None,
        title=title.strip(),
        goal=goal.strip(),
        version=1,
        machine_id=machine,
        harness=harness,
        created_at=None,
        updated_at=None,
        current_state=current_state or "",
        facts=[],
        decisions=[],
        actions=[],
        artifacts=[],
        verification=None,
        next_steps=[],
        learnings=[],
    )
    lp = LocalPassport(passport=state, asks=[], landing_checks=[], lineage=None)
    lp.state, lp.waiting_on = lifecycle.START_MADE_HERE, None
    return lp


def new_fact(claim: str, *, scope: str, verified: bool, source: str | None, actor: str) -> Fact:
    """A fact as recorded here. One with no scope is machine-scoped (§4.2)."""
    if not claim.strip():
        raise UsageError("a fact needs a claim")
    if scope not in SCOPES:
        raise UsageError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
    fact = Fact(claim=claim.strip(), scope=scope, verified=verified)
    if verified:
        fact.verified_by = actor
    if source:
        fact.source = source
    return fact


def add_fact(lp: LocalPassport, fact: Fact) -> dict[str, JSON]:
    lp.passport.facts = [*(lp.passport.facts or []), fact]
    return {"fact": len(lp.passport.facts), "scope": fact.scope, "verified": bool(fact.verified)}


def check_decision(what: str) -> None:
    if not what.strip():
        raise UsageError("a decision needs a what")


def add_decision(lp: LocalPassport, what: str, why: str) -> dict[str, JSON]:
    check_decision(what)
    lp.passport.decisions = [
        *(lp.passport.decisions or []),
        Decision(what=what.strip(), why=why.strip()),
    ]
    return {"decision": len(lp.passport.decisions)}


def check_step(step: str) -> str:
    if not step.strip():
        raise UsageError("a next step needs some text")
    return step.strip()


def add_next_step(lp: LocalPassport, step: str) -> dict[str, JSON]:
    lp.passport.next_steps = [*(lp.passport.next_steps or []), check_step(step)]
    return {"next_step": len(lp.passport.next_steps)}


def checkpoint_state(
    passport_id: str, state: dict[str, JSON]
) -> tuple[PassportState, dict[str, JSON]]:
    """What an agent saved, checked: a passport state object, or a whole passport as
    `taskpack open --json` prints it (then its ``passport``). A different `id` is refused."""
    if isinstance(state.get("passport"), dict):
        state = state["passport"]
    given = PassportState.from_data(state, where="checkpoint")
    if given.id is not None and given.id != passport_id:
        raise UsageError(f"the checkpoint is for passport {given.id}, not {passport_id}")
    return given, state


def apply_checkpoint(
    lp: LocalPassport,
    given: PassportState,
    state: Mapping[str, JSON],
    *,
    proving_machine: str | None = None,
) -> dict[str, JSON]:
    """Replace the task state with the checkpoint's keys (the store's own are ignored).
    `proving_machine`, the machine saving it: a new machine-scoped ✓ that names no machine
    is taken to name this one (on every desk, so that another machine sharing the store, a
    team desk or a shared home, never reads it as its own)."""
    merged = lp.passport.to_data()
    changed = [
        k for k, v in given.to_data().items() if k not in STORE_FIELDS and merged.get(k) != v
    ]
    for key in changed:
        merged[key] = state[key]
    before = {f.claim for f in lp.passport.facts or []}
    lp.passport = PassportState.from_data(merged, where="checkpoint")
    if proving_machine is not None:
        for f in lp.passport.facts or []:
            new_proof = f.verified and f.effective_scope == "machine"
            if new_proof and not f.verified_on and f.claim not in before:
                f.verified_on = proving_machine
    return {"changed": list(changed)}


def check_ask(what: str, accept: str) -> None:
    if not what.strip():
        raise UsageError("an ask needs a question (what)")
    if not accept.strip():
        raise UsageError(
            "an ask needs accept: what would count as an answer (spec §4.3)",
            hint="Add --accept, e.g. --accept 'a number in euros'.",
        )


def add_ask(
    lp: LocalPassport, what: str, accept: str, *, why: str | None, to: str | None
) -> dict[str, JSON]:
    """A question for whoever receives the next handoff; `accept` (what would count as an
    answer) is required: without it the reply could only be negotiated."""
    check_ask(what, accept)
    asks = list(lp.asks or [])
    ask = Ask(
        id=next_ask_id(asks),
        to=to or "peer",
        what=what.strip(),
        why=(why or "").strip(),
        accept=accept.strip(),
        status="open",
        answer=None,
    )
    lp.asks = [*asks, ask]
    return {"ask": ask.id}


def check_landing_check(check: str) -> None:
    if not check.strip():
        raise UsageError("a landing check needs the check itself")


def add_check(lp: LocalPassport, check: str, *, how: str | None, required: bool) -> dict[str, JSON]:
    """A landing check for the receiver of the next pack (spec §4.4)."""
    check_landing_check(check)
    current = list(lp.checks_to_send or [])
    new = LandingCheck(
        id=next_check_id(current), check=check.strip(), how=(how or "").strip(), required=required
    )
    lp.checks_to_send = [*current, new]
    return {"check": new.id, "required": required}


# --- answers ----------------------------------------------------------------------------


def check_answer(answer: str, status: str) -> None:
    if status not in ("answered", "dropped", "open"):
        raise UsageError(f"an ask's status is answered, dropped or open, not {status!r}")
    if status == "answered" and not answer.strip():
        raise UsageError("an answer needs some text", hint="Or drop the ask with --drop.")


def answer(
    lp: LocalPassport, ask_id: str, text: str, *, status: str, by: str, at: str
) -> dict[str, JSON]:
    """Answer ask `ask_id` (or drop it), stamped with who answered and when."""
    check_answer(text, status)
    for ask in lp.asks or []:
        if ask.id == ask_id:
            ask.answer = text if text or status != "dropped" else None
            ask.status = status
            ask.answered_by, ask.answered_at = by, at
            return {"ask": ask_id, "status": status}
    known = ", ".join(a.id or "?" for a in lp.asks or []) or "none"
    raise NotFound(f"passport {lp.id} has no ask {ask_id!r} (asks: {known})")


def answer_all(
    lp: LocalPassport, answers: Mapping[str, str], *, by: str, at: str
) -> dict[str, JSON]:
    """Several answers at once (all asks must exist), each stamped."""
    known = {a.id: a for a in lp.asks or []}
    missing = [k for k in answers if k not in known]
    if missing:
        raise NotFound(f"passport {lp.id} has no ask {missing[0]!r}")
    for ask_id, text in answers.items():
        ask = known[ask_id]
        ask.answer, ask.status = text, "answered"
        ask.answered_by, ask.answered_at = by, at
    return {"answered": list(answers)}


# --- evidence checked on this machine ------------------------------------------------------


def verified_here(fact: Fact, machine: str, actor: str) -> None:
    """`fact` becomes new evidence: machine-scoped, verified on `machine` by `actor`."""
    fact.scope = "machine"
    fact.verified = True
    fact.needs_reverify = False
    fact.verified_on = machine
    fact.verified_by = actor


def check_fact_here(
    lp: LocalPassport, fact_no: int, *, machine: str, actor: str
) -> dict[str, JSON]:
    """The person checked fact `fact_no` (1-based) on this machine (not the sender's word)."""
    facts = lp.passport.facts or []
    if not 1 <= fact_no <= len(facts):
        raise NotFound(f"passport {lp.id} has no fact {fact_no}")
    fact = facts[fact_no - 1]
    before = fact.verified_on
    verified_here(fact, machine, actor)
    return {
        "fact": fact_no,
        "claim": fact.claim,
        "machine": machine,
        "by": actor,
        "was_verified_on": before,
    }


def check_landing_here(
    lp: LocalPassport, check_id: str, *, machine: str, actor: str, at: str
) -> dict[str, JSON]:
    """The person did landing check `check_id` here: marked done, and a fact verified here
    records it."""
    checks = lp.landing_checks or []
    check = next((c for c in checks if c.id == check_id), None)
    if check is None:
        known = ", ".join(c.id or "?" for c in checks) or "none"
        raise NotFound(f"passport {lp.id} has no landing check {check_id!r} (checks: {known})")
    check.checked_on, check.checked_by, check.checked_at = machine, actor, at
    # The claim is the check's own sentence: where it was proven is the fact's verified_on,
    # so the claim reads true on every machine (and in every language) it is shown on.
    fact = Fact(claim=check.check or check_id, scope="machine")
    verified_here(fact, machine, actor)
    fact.landing_check = check_id
    lp.passport.facts = [*(lp.passport.facts or []), fact]
    return {
        "check": check_id,
        "claim": check.check,
        "fact": len(lp.passport.facts),
        "machine": machine,
        "by": actor,
    }


def is_checked_here(check: LandingCheck, machine: str) -> bool:
    """A landing check a person marked done on this machine (see `check_landing_here`). On a
    team desk another machine's check is recorded too, and is not done here."""
    return bool(check.checked_on) and check.checked_on == machine


# --- moves ------------------------------------------------------------------------------


def move(
    lp: LocalPassport,
    state: str,
    waiting_on: str | None,
    *,
    why: str | None,
    reason: str | None = None,
    by: str | None = None,
) -> dict[str, JSON]:
    """A move the table lists (InvalidMove otherwise). Beyond the table: `verifying` only
    with a returned result (`return_result`), `completed` only with one attached.

    `why` is a person's own words; `reason` a desk's code (`history_words`), with `by`
    naming who asked for the move, when a front end made it for someone (A2A)."""
    step = lifecycle.check_move(lp.state, lp.waiting_on, state, waiting_on)
    if state == "verifying" or (state == "completed" and lp.result is None):
        raise InvalidMove(
            f"invalid_state: a task moves to {state} only with a returned result",
            hint=f"Return one with `taskpack result {lp.id} --summary … --evidence …`.",
        )
    before = lifecycle.describe(lp.state, lp.waiting_on)
    lp.state, lp.waiting_on = state, waiting_on
    if reason is not None:
        return {
            "from": before,
            "to": lifecycle.describe(state, waiting_on),
            "reason": reason,
            **({"by": by} if by else {}),
            "move": step.why,
        }
    return {
        "from": before,
        "to": lifecycle.describe(state, waiting_on),
        "why": why or step.why,
        "move": step.why,
    }


def new_result(
    summary: str,
    evidence: Sequence[Mapping[str, JSON]],
    *,
    provenance: str,
    returned_by: str,
    at: str,
) -> dict[str, JSON]:
    """A result to return, its shape checked (`lifecycle.check_result`)."""
    result: dict[str, JSON] = {
        "summary": summary,
        "evidence": [dict(e) for e in evidence],
        "provenance": provenance,
        "returned_by": returned_by,
        "returned_at": at,
    }
    lifecycle.check_result(result)
    return result


def return_result(lp: LocalPassport, result: dict[str, JSON]) -> dict[str, JSON]:
    """Attach `result` and move working → verifying."""
    step = lifecycle.check_move(lp.state, lp.waiting_on, "verifying")
    lp.result = result
    lp.state, lp.waiting_on = "verifying", None
    evidence = result["evidence"]
    return {
        "from": "working",
        "to": "verifying",
        "move": step.why,
        "evidence": len(evidence) if isinstance(evidence, list) else 0,
    }


def record_move(
    tx: Tx, lp: LocalPassport, state: str, waiting_on: str | None, *, reason: str
) -> None:
    """Move `lp` as the lifecycle table allows (InvalidMove otherwise), saved in `tx` with
    a ``moved`` history entry giving the desk's `reason` (a code of `history_words`)."""
    step = lifecycle.check_move(lp.state, lp.waiting_on, state, waiting_on)
    before = lifecycle.describe(lp.state, lp.waiting_on)
    lp.state, lp.waiting_on = state, waiting_on
    tx.save(
        lp,
        event="moved",
        detail={
            "from": before,
            "to": lifecycle.describe(state, waiting_on),
            "reason": reason,
            "move": step.why,
        },
    )


#: what the history said for each move "Take this on" made, before reasons were codes
TAKE_ON_WHY = REASONS[TAKEN_ON]

_TAKE_ON = {
    ("requested", None): ("routed", "accepted", "working"),
    ("waiting", "owner_approval"): ("routed", "accepted", "working"),
    ("routed", None): ("accepted", "working"),
    ("accepted", None): ("working",),
}


def take_on_path(state: str, waiting_on: str | None) -> list[str]:
    """The moves that take a task from here to `working` for a person who is both its owner
    (who approves) and its assignee (who accepts and starts); [] when there is none.
    Each step is checked against the state table."""
    steps = list(_TAKE_ON.get((state, waiting_on if state == "waiting" else None), ()))
    here: tuple[str, str | None] = (state, waiting_on)
    for target in steps:
        lifecycle.check_move(*here, target)
        here = (target, None)
    return steps


def take_on(tx: Tx, lp: LocalPassport) -> None:
    """ "Take this on": every move of `take_on_path`, each saved in `tx` (one transaction).
    InvalidMove when there is no such path from where the task is."""
    steps = take_on_path(lp.state, lp.waiting_on)
    if not steps:
        raise InvalidMove(
            f"invalid_state: {lp.id} is {lifecycle.describe(lp.state, lp.waiting_on)}; "
            "there is nothing to take on",
            hint="Take on a task that is requested, routed, accepted or waiting for your approval.",
        )
    for target in steps:
        record_move(tx, lp, target, None, reason=TAKEN_ON)
