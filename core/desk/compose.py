"""What the composer does beyond adding: change or remove one item of a passport, and
see a handoff as its receiver will before anything is written.

The preview is the writer's own first half (`export.handoff_object`: the same asks, the
same pack object, sealed by `trust.sealing.seal_facts`, scanned by the same refusal
scanner); only the writing is left out. Luggage is scanned once, through the writer's
`LuggageScan`, each byte read one time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import Cancelled, Finding, UsageError
from ..format.model import JSON, Ask, Decision, Fact, LandingCheck, LocalPassport, PackObject
from ..progress import CancelCheck, Progress
from ..trust.ask_lint import lint_accept
from ..trust.scan.stream import LuggageScan
from ..trust.scan.values import scan_pack_object
from ..trust.sealing import seal_facts
from .authoring import check_ask, check_decision, check_landing_check, check_step, new_fact
from .export import pack_object_for
from .store import Store

#: the items a person edits one by one (the CLI's words for them)
ITEM_KINDS = ("fact", "decision", "step", "ask", "check")

_CHUNK = 1 << 20


def _items(lp: LocalPassport, kind: str) -> list[object]:
    if kind == "fact":
        return list(lp.passport.facts or [])
    if kind == "decision":
        return list(lp.passport.decisions or [])
    if kind == "step":
        return list(lp.passport.next_steps or [])
    if kind == "ask":
        return list(lp.asks or [])
    if kind == "check":
        return list(lp.checks_to_send or [])
    raise UsageError(f"an item is one of {', '.join(ITEM_KINDS)}, not {kind!r}")


def _put(lp: LocalPassport, kind: str, items: list[object]) -> None:
    if kind == "fact":
        lp.passport.facts = items  # type: ignore[assignment]
    elif kind == "decision":
        lp.passport.decisions = items  # type: ignore[assignment]
    elif kind == "step":
        lp.passport.next_steps = items  # type: ignore[assignment,unused-ignore]
    elif kind == "ask":
        lp.asks = items  # type: ignore[assignment]
    else:
        lp.checks_to_send = items  # type: ignore[assignment]


def _text(fields: Mapping[str, JSON], key: str) -> str:
    value = fields.get(key)
    return value.strip() if isinstance(value, str) else ""


def _revised(
    old: object, kind: str, fields: Mapping[str, JSON], *, actor: str, machine: str
) -> object:
    if kind == "fact":
        scope = _text(fields, "scope") or "machine"
        fact: Fact = new_fact(
            _text(fields, "claim"),
            scope=scope,
            verified=fields.get("verified") is True,
            source=_text(fields, "source") or None,
            actor=actor,
        )
        if fact.verified and fact.effective_scope == "machine":
            fact.verified_on = machine
        return fact
    if kind == "decision":
        check_decision(_text(fields, "what"))
        return Decision(what=_text(fields, "what"), why=_text(fields, "why"))
    if kind == "step":
        return check_step(_text(fields, "step"))
    if kind == "ask":
        assert isinstance(old, Ask)
        if (old.status or "open") != "open":
            raise UsageError(
                f"ask {old.id} is {old.status}: it cannot be changed now",
                hint="Add a new ask instead.",
            )
        check_ask(_text(fields, "what"), _text(fields, "accept"))
        ask = old.copy_record()
        ask.what = _text(fields, "what")
        ask.why = _text(fields, "why")
        ask.accept = _text(fields, "accept")
        ask.to = _text(fields, "to") or "peer"
        return ask
    assert isinstance(old, LandingCheck)
    check_landing_check(_text(fields, "check"))
    check = old.copy_record()
    check.check = _text(fields, "check")
    check.how = _text(fields, "how")
    check.required = fields.get("required") is not False
    return check


def revise_item(
    lp: LocalPassport,
    kind: str,
    number: int,
    fields: Mapping[str, JSON] | None,
    *,
    actor: str,
    machine: str,
) -> dict[str, JSON]:
    """Replace item `number` (1-based) of `kind` with `fields`, or remove it (None).

    The caller saves with the version the person read: an item is found by its number,
    so a change made meanwhile elsewhere is refused (VersionConflict), never misapplied."""
    items = _items(lp, kind)
    if not 1 <= number <= len(items):
        raise UsageError(f"there is no {kind} {number}", hint="Reload the passport.")
    if fields is None:
        del items[number - 1]
    else:
        items[number - 1] = _revised(items[number - 1], kind, fields, actor=actor, machine=machine)
    _put(lp, kind, items)
    return {"kind": kind, "item": number, "removed": fields is None}


@dataclass
class HandoffPreview:
    """A handoff as its receiver would read it, and what would stop it going."""

    #: the pack object, sealed as the writer seals it
    pack: PackObject
    #: one sentence per fact sealed or annotated (the writer's own notes)
    sealed: list[str]
    #: what the refusal scanner found in the pack object (note, texts, asks): it cannot go
    refusals: list[Finding]
    #: (name, size) of each file that would travel
    luggage: list[tuple[str, int]]
    #: open asks whose accept is too vague to judge an answer against (it can go)
    warnings: list[str] = field(default_factory=list)
    #: the passport's version the preview was made from
    version: int = 0


def scan_stored_luggage(
    store: Store,
    passport_id: str,
    *,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> list[Finding]:
    """Credentials and transcripts in the stored luggage, through the writer's scanner;
    every byte is read once."""
    items = store.luggage(passport_id)
    total = sum(i.size for i in items)
    done = 0
    scan = LuggageScan()
    try:
        for item in items:
            with store.open_blob(item.sha256, name=item.name, size=item.size) as src:
                while chunk := src.read(_CHUNK):
                    if cancel is not None and cancel():
                        raise Cancelled("the check of the attached files was stopped")
                    scan.feed(item.name, chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total)
        return scan.finish()
    finally:
        scan.close()


def preview_handoff(
    store: Store,
    passport_id: str,
    *,
    machine: str,
    actor: str,
    harness: str,
    note: str | None,
) -> HandoffPreview:
    """The handoff `export_passport` would write now, sealed, with the refusals its
    scanner would raise on the pack object; no luggage byte is read."""
    lp, asks, pack = pack_object_for(
        store,
        passport_id,
        kind="handoff",
        machine=machine,
        actor=actor,
        harness=harness,
        note=note,
    )
    sealed = seal_facts(pack, machine=machine)
    refusals = scan_pack_object(pack.to_data())
    warnings = [
        f"ask {a.id}: {w}"
        for a in asks
        if (a.status or "open") == "open"
        for w in lint_accept(a.accept, a.what)
    ]
    luggage = [(i.name, i.size) for i in store.luggage(passport_id)]
    return HandoffPreview(
        pack=pack,
        sealed=sealed,
        refusals=refusals,
        luggage=luggage,
        warnings=warnings,
        version=lp.version,
    )
