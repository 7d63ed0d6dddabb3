"""Passport verbs: authoring, restore, lifecycle, history (packing and landing: `exchange`).

    taskpack new --title T --goal G              taskpack list [--state S]
    taskpack open ID                             (taskpack show ID does the same)
    taskpack fact ID --claim C --scope S [--verified] [--source X]
    taskpack decide ID --what W --why Y          taskpack next ID "step"
    taskpack checkpoint ID --file state.json --expected-version N
    taskpack ask ID --what W --accept A [--why Y] [--to P]
    taskpack check ID --check C [--how H] [--optional]
    taskpack answer ID ASK --answer "…" [--drop]
    taskpack attach ID FILE…
    taskpack pack ID --out FILE [--kind handoff|receipt] [--file PATH]… [--note N] [--to WHO]
    taskpack land FILE [--dry-run] [--into TP-ID]
    taskpack restore ID FACT --yes
    taskpack move ID STATE [--waiting-on W]      taskpack result ID --summary S --evidence K:S[:URL]…
    taskpack take ID
    taskpack history ID                          taskpack settings [set KEY VALUE]

Every verb that prints data takes ``--json``. Text from a pack is shown with control
characters escaped, so a hostile pack cannot repaint the terminal.
Exit codes: 0 ok, 1 error, 2 refused by the rules (a pack refusal, a receipt merged into
the wrong passport, a ✓ that may not be restored here).
"""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.app.cli.boundary import (
    answered_words,
    ask_named,
    history_detail,
    ident,
    name,
    place,
    quoted,
    standing_words,
    token,
)
from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, emit_json, say, warn
from taskpack.app.settings import Settings
from taskpack.core.desk import lifecycle
from taskpack.core.desk.history_words import english_detail
from taskpack.core.desk.identity import origin_label
from taskpack.core.errors import RestoreRefused
from taskpack.core.format import ids
from taskpack.core.format.vocabulary import SCOPES
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:  # the desk pulls in the codec: imported when a verb runs, not for --help
    from taskpack.app.desk import Desk
    from taskpack.core.format.model import JSON, LocalPassport

Handler = Callable[[argparse.Namespace], int]


# --- plumbing -------------------------------------------------------------------------


def _verb(fn: Callable[[argparse.Namespace, Desk], int]) -> Handler:
    """Open the desk, run the verb, close it (errors end in `cli.main`, with their code)."""

    @functools.wraps(fn)
    def run(args: argparse.Namespace) -> int:
        from taskpack.app.desk import Desk

        desk = Desk.open()
        try:
            code = fn(args, desk)
            desk.housekeep()  # daily backup / crash leftovers: a stat when nothing is due
            return code
        finally:
            desk.close()

    return run


def _pid(text: str) -> str:
    return ids.parse_id(text)


def safe(value: Any) -> str:
    """Pack text for a terminal, on one line (`taskpack.core.trust.visible_text.visible`)."""
    return visible(value)


def _add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print data as JSON")


def _add_expected(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    p.add_argument(
        "--expected-version",
        type=int,
        required=required,
        metavar="N",
        help="fail instead of writing if the passport is no longer at version N",
    )


def _nonempty(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


# --- registration ---------------------------------------------------------------------


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def verb(name: str, fn: Handler, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(handler=fn)
        return p

    p = verb("new", cmd_new, "start a passport for work you are doing (it starts `working`)")
    p.add_argument("--title", required=True, type=_nonempty)
    p.add_argument("--goal", required=True, type=_nonempty)
    p.add_argument("--state", dest="current_state", help="where the work stands now")
    _add_json(p)

    p = verb("list", cmd_list, "list this desk's passports, most recently changed first")
    p.add_argument("--state", choices=lifecycle.STATES)
    p.add_argument("--limit", type=int)
    _add_json(p)

    p = verb("open", cmd_open, "show a passport: state, facts, asks, checks, luggage, moves")
    p.add_argument("id")
    p.add_argument("--version", type=int, help="an older version from its history")
    _add_json(p)

    p = verb("fact", cmd_fact, "record a fact; say how far it travels with --scope")
    p.add_argument("id")
    p.add_argument("--claim", required=True, type=_nonempty)
    p.add_argument(
        "--scope",
        required=True,
        choices=SCOPES,
        help="universal/org keep their ✓ across machines; machine facts are sealed when packed",
    )
    p.add_argument("--verified", action="store_true", help="you checked it yourself")
    p.add_argument("--source")
    _add_expected(p)
    _add_json(p)

    p = verb("decide", cmd_decide, "record a decision and why it was taken")
    p.add_argument("id")
    p.add_argument("--what", required=True, type=_nonempty)
    p.add_argument("--why", required=True)
    _add_expected(p)
    _add_json(p)

    p = verb("next", cmd_next, "add a next step")
    p.add_argument("id")
    p.add_argument("step", type=_nonempty)
    _add_expected(p)
    _add_json(p)

    p = verb("checkpoint", cmd_checkpoint, "save an agent's task state from a JSON file")
    p.add_argument("id")
    p.add_argument("--file", required=True, type=Path, help="a passport state object (JSON)")
    _add_expected(p, required=True)
    _add_json(p)

    p = verb("ask", cmd_ask, "add a question for the receiver of the next handoff")
    p.add_argument("id")
    p.add_argument("--what", required=True, type=_nonempty)
    p.add_argument("--accept", required=True, help="what would count as an answer (required)")
    p.add_argument("--why")
    p.add_argument("--to", help="who should answer (default: peer)")
    _add_expected(p)
    _add_json(p)

    p = verb("check", cmd_check, "add a landing check the receiver must confirm first")
    p.add_argument("id")
    p.add_argument("--check", required=True, type=_nonempty, help="what must be true there")
    p.add_argument("--how", help="your suggestion of how to confirm it (shown, never run)")
    p.add_argument("--optional", action="store_true", help="not required")
    _add_expected(p)
    _add_json(p)

    p = verb("answer", cmd_answer, "answer an ask (it goes home in a receipt)")
    p.add_argument("id")
    p.add_argument("ask", help="the ask's id, e.g. a1")
    p.add_argument("--answer", default="")
    p.add_argument("--drop", action="store_true", help="mark the ask dropped instead")
    _add_expected(p)
    _add_json(p)

    p = verb("attach", cmd_attach, "keep files as the passport's luggage")
    p.add_argument("id")
    p.add_argument("files", nargs="+", type=Path)
    _add_json(p)

    from taskpack.app.cli import exchange

    exchange.register(verb)

    p = verb("restore", cmd_restore, "give a sealed fact its ✓ back (same machine, own pack)")
    p.add_argument("id")
    p.add_argument("fact", type=int, help="the fact's number in `taskpack open`")
    p.add_argument("--yes", action="store_true", help="you choose to restore it")
    _add_json(p)

    p = verb("move", cmd_move, "move a task to another lifecycle state")
    p.add_argument("id")
    p.add_argument("state", choices=lifecycle.STATES)
    p.add_argument("--waiting-on", choices=lifecycle.WAITING_ON)
    p.add_argument("--why")
    _add_expected(p)
    _add_json(p)

    p = verb(
        "take",
        cmd_take,
        "take a task on: approve, accept and start it (you own it and do it); it becomes `working`",
    )
    p.add_argument("id")
    _add_json(p)

    p = verb("result", cmd_result, "return a result with evidence (working → verifying)")
    p.add_argument("id")
    p.add_argument("--summary", required=True, type=_nonempty)
    p.add_argument(
        "--evidence",
        action="append",
        required=True,
        type=parse_evidence,
        metavar="KIND:SUMMARY[:URL]",
        help=f"repeatable; KIND is one of {', '.join(lifecycle.EVIDENCE_KINDS)}",
    )
    p.add_argument("--provenance", choices=lifecycle.PROVENANCES, default="agent_generated")
    p.add_argument("--returned-by", help="owner/agent (default: from actor and machine)")
    _add_expected(p)
    _add_json(p)

    p = verb("history", cmd_history, "every change to a passport, oldest first")
    p.add_argument("id")
    _add_json(p)

    p = verb("settings", cmd_settings, "show or change this desk's settings")
    p.add_argument("action", nargs="?", choices=("show", "set"), default="show")
    p.add_argument("key", nargs="?", choices=Settings.SETTABLE)
    p.add_argument("value", nargs="?", default=None)
    _add_json(p)


_EVIDENCE_RE = re.compile(
    r"^(?P<kind>[a-z_]+):(?P<summary>.*?)(?::(?P<url>[A-Za-z][A-Za-z0-9+.-]*://\S+))?$", re.S
)


def parse_evidence(text: str) -> dict[str, JSON]:
    """``KIND:SUMMARY[:URL]`` → an evidence object; the URL is recognised by its scheme."""
    m = _EVIDENCE_RE.match(text)
    if not m or m.group("kind") not in lifecycle.EVIDENCE_KINDS:
        raise argparse.ArgumentTypeError(
            f"evidence is KIND:SUMMARY[:URL] with KIND one of {', '.join(lifecycle.EVIDENCE_KINDS)}"
        )
    out: dict[str, JSON] = {"kind": m.group("kind"), "summary": m.group("summary")}
    if m.group("url"):
        out["url"] = m.group("url")
    return out


# --- authoring ------------------------------------------------------------------------


def _done(args: argparse.Namespace, lp: LocalPassport, text: str) -> int:
    if args.json:
        emit_json(lp.to_data())
    else:
        say(f"{lp.id} v{lp.version}: {text}")
    return EXIT_OK


@_verb
def cmd_new(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.new(args.title, args.goal, current_state=args.current_state)
    if args.json:
        emit_json(lp.to_data())
    else:
        say(f"{lp.id}  created ({lp.state}): {safe(lp.passport.title)}")
    return EXIT_OK


@_verb
def cmd_list(args: argparse.Namespace, desk: Desk) -> int:
    rows = desk.passports(state=args.state, limit=args.limit)
    if args.json:
        emit_json([r.to_data() for r in rows])
        return EXIT_OK
    if not rows:
        say("No passports yet. Start one with `taskpack new` or land a pack with `taskpack land`.")
        return EXIT_OK
    for r in rows:
        state = lifecycle.describe(r.state, r.waiting_on)
        asks = f"  {r.open_asks} open ask(s)" if r.open_asks else ""
        say(f"{r.id}  v{r.version:<3} {state:<24} {r.updated_at}  {quoted(r.title)}{asks}")
    return EXIT_OK


def show_passport(args: argparse.Namespace) -> int:
    """`taskpack show TP-…`: the codec's `show` hands a passport id over to here."""
    for attr in ("id", "target", "file", "path", "pack"):
        value = getattr(args, attr, None)
        if isinstance(value, str | Path) and ids.looks_like_id(str(value)):
            ns = argparse.Namespace(
                id=str(value),
                version=getattr(args, "version", None),
                json=bool(getattr(args, "json", False)),
            )
            return cmd_open(ns)
    warn("show needs a pack file or a passport id (TP-XXXX-XXXX).")
    return EXIT_ERROR


@_verb
def cmd_open(args: argparse.Namespace, desk: Desk) -> int:
    pid = _pid(args.id)
    lp = desk.get_version(pid, args.version) if args.version else desk.get(pid)
    luggage = desk.luggage(pid)
    moves = desk.allowed_moves(pid) if not args.version else []
    if args.json:
        data = lp.to_data()
        data["luggage"] = [x.to_data() for x in luggage]
        data["allowed_moves"] = [m.label for m in moves]
        emit_json(data)
        return EXIT_OK
    ps = lp.passport
    say(f"{lp.id}  v{lp.version}  {lifecycle.describe(lp.state, lp.waiting_on)}")
    say(f"Title:   {quoted(ps.title)}")
    say(f"Goal:    {quoted(ps.goal)}")
    if ps.current_state:
        say(f"Now:     {quoted(ps.current_state)}")
    received = lp.received
    if received:
        origin = received.origin.to_data() if received.origin else {}
        say(
            f"From:    {quoted(origin_label(origin))} "
            f"({token(received.sender_entry)}), packed {token(received.packed_at)}"
        )
        if received.note:
            say(f"Note:    {quoted(received.note)} (the sender's words)")
    if lp.lineage and lp.lineage.chain:
        say(f"Lineage: {' → '.join(token(c) for c in lp.lineage.chain)} → {lp.id}")
    checks = lp.landing_checks or []
    if checks:
        say("Landing checks (from the sender; confirm these here first — nothing was run):")
        for c in checks:
            kind = "required" if c.is_required else "optional"
            how = f" — sender's suggestion, not run: {quoted(c.how)}" if c.how else ""
            say(f"  [{ident(c.id or '-')}] ({kind}) {quoted(c.check)}{how}")
    _show_list("Next steps", ps.next_steps or [])
    facts = ps.facts or []
    if facts:
        say("Facts:")
        for n, f in enumerate(facts, 1):
            say(f"  {n}. {quoted(f.claim)} — {standing_words(f, desk.machine)}")
    decisions = ps.decisions or []
    if decisions:
        say("Decisions:")
        for d in decisions:
            say(f"  - {quoted(d.what)} — because {quoted(d.why)}")
    asks = lp.asks or []
    if asks:
        say("Asks:")
        came = desk.answer_sources(pid, args.version)
        for a in asks:
            say(
                f"  {ident(a.id)} [{token(a.status or 'open')}] {quoted(a.what)}  (accept: {quoted(a.accept)})"
            )
            if a.answer is not None:
                say(f"       answer: {quoted(a.answer)}  — {answered_words(a, came.of(a.id))}")
    outgoing = lp.checks_to_send or []
    if outgoing:
        say("Checks to send with the next pack:")
        for c in outgoing:
            say(f"  [{ident(c.id)}] {quoted(c.check)}")
    if isinstance(lp.result, dict):
        say(
            f"Result:  {quoted(lp.result.get('summary'))} ({len(lp.result.get('evidence') or [])} evidence)"
        )
    if luggage:
        say("Luggage:")
        for x in luggage:
            say(f"  {name(x.name)}  {x.size} bytes  sha256 {x.sha256[:12]}…")
    imperatives = (received.imperatives if received else None) or []
    if imperatives:
        say("Imperative sentences found in the pack (data, not instructions; nothing was run):")
        for imp in imperatives:
            say(f"  {place(imp.get('place'))}: {quoted(imp.get('sentence'))}")
    if moves:
        say(f"Can move to: {', '.join(m.label for m in moves)}")
    return EXIT_OK


def _show_list(title: str, items: list[Any]) -> None:
    if items:
        say(f"{title}:")
        for n, item in enumerate(items, 1):
            say(f"  {n}. {quoted(item)}")


@_verb
def cmd_fact(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.add_fact(
        _pid(args.id),
        args.claim,
        scope=args.scope,
        verified=args.verified,
        source=args.source,
        expected_version=args.expected_version,
    )
    return _done(args, lp, f"fact {len(lp.passport.facts or [])} recorded ({args.scope})")


@_verb
def cmd_decide(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.decide(_pid(args.id), args.what, args.why, expected_version=args.expected_version)
    return _done(args, lp, "decision recorded")


@_verb
def cmd_next(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.add_next(_pid(args.id), args.step, expected_version=args.expected_version)
    return _done(args, lp, f"next step {len(lp.passport.next_steps or [])} added")


@_verb
def cmd_checkpoint(args: argparse.Namespace, desk: Desk) -> int:
    from taskpack.app.desk import load_json_file

    state = load_json_file(args.file, what="a passport state")
    lp = desk.checkpoint(_pid(args.id), state, expected_version=args.expected_version)
    return _done(args, lp, "checkpoint saved")


@_verb
def cmd_ask(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.add_ask(
        _pid(args.id),
        args.what,
        args.accept,
        why=args.why,
        to=args.to,
        expected_version=args.expected_version,
    )
    ask = (lp.asks or [])[-1]
    return _done(args, lp, f"ask {ask.id} added; it goes out with the next handoff")


@_verb
def cmd_check(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.add_check(
        _pid(args.id),
        args.check,
        how=args.how,
        required=not args.optional,
        expected_version=args.expected_version,
    )
    return _done(args, lp, "landing check added; it goes out with the next pack")


@_verb
def cmd_answer(args: argparse.Namespace, desk: Desk) -> int:
    status, pid = "dropped" if args.drop else "answered", _pid(args.id)
    ask = ask_named(desk, pid, args.ask)  # its id, or the #handle a non-plain id is given
    lp = desk.answer(pid, ask, args.answer, status=status, expected_version=args.expected_version)
    return _done(args, lp, f"ask {ident(ask)} {status}; send it home with `pack --kind receipt`")


@_verb
def cmd_attach(args: argparse.Namespace, desk: Desk) -> int:
    pid = _pid(args.id)
    skipped: list[str] = []
    stored = desk.attach(pid, args.files, skipped=skipped)
    for why in skipped:
        warn(f"left out of the luggage: {why}")
    if args.json:
        emit_json([x.to_data() for x in stored])
    else:
        say(f"{pid}: {len(stored)} luggage file(s) kept")
    return EXIT_OK


# --- packing and landing --------------------------------------------------------------


@_verb
def cmd_restore(args: argparse.Namespace, desk: Desk) -> int:
    pid = _pid(args.id)
    ok, reason = desk.can_restore(pid, args.fact)
    if not ok:
        raise RestoreRefused(f"cannot restore the ✓ of fact {args.fact}: {reason}")
    if not args.yes:
        warn(
            f"fact {args.fact} may be restored here ({reason}); restoring is your explicit "
            "choice: run again with --yes."
        )
        return EXIT_ERROR
    lp = desk.restore(pid, args.fact)
    return _done(args, lp, f"fact {args.fact} restored to ✓ ({reason}); recorded in the history")


# --- lifecycle and history ------------------------------------------------------------


@_verb
def cmd_move(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.move(
        _pid(args.id),
        args.state,
        args.waiting_on,
        why=args.why,
        expected_version=args.expected_version,
    )
    return _done(args, lp, f"now {lifecycle.describe(lp.state, lp.waiting_on)}")


@_verb
def cmd_take(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.take_on(_pid(args.id))
    return _done(args, lp, f"taken on: now {lifecycle.describe(lp.state, lp.waiting_on)}")


@_verb
def cmd_result(args: argparse.Namespace, desk: Desk) -> int:
    lp = desk.return_result(
        _pid(args.id),
        args.summary,
        args.evidence,
        provenance=args.provenance,
        returned_by=args.returned_by,
        expected_version=args.expected_version,
    )
    return _done(
        args, lp, "result returned; now verifying (move it to completed, approval or working)"
    )


@_verb
def cmd_history(args: argparse.Namespace, desk: Desk) -> int:
    entries = desk.history(_pid(args.id))
    # the desk stores reason codes; the CLI says them in the English it always printed
    if args.json:
        emit_json([{**e.to_data(), "detail": english_detail(e.detail)} for e in entries])
        return EXIT_OK
    for e in entries:
        words = english_detail(e.detail)
        detail = history_detail(words)
        by = f"  by {safe(e.who)}" if e.who else ""  # a team desk says who (and their role)
        say(f"{e.at}  v{e.version:<3} {e.event:<10} {detail}{by}")
    return EXIT_OK


def cmd_settings(args: argparse.Namespace) -> int:
    from taskpack.app import paths

    home = paths.home()
    settings = Settings.load(home)
    if args.action == "set":
        if not args.key or args.value is None:
            warn("usage: taskpack settings set KEY VALUE (lists are comma-separated).")
            return EXIT_ERROR
        settings.set(args.key, args.value)
        settings.save(home)
    data = settings.to_data()
    if args.json:
        emit_json(
            {
                "home": str(home),
                "machine": paths.machine_name(settings),
                "actor": paths.actor_name(settings),
                "settings": data,
            }
        )
    else:
        say(f"home:    {home}")
        say(f"machine: {paths.machine_name(settings)}")
        say(f"actor:   {paths.actor_name(settings)}")
        gate = ", ".join(settings.gate_allow) or "nobody (every handoff waits for your approval)"
        say(f"gate allows: {gate}")
        if settings.watched_folders:
            say(f"watched folders: {', '.join(settings.watched_folders)}")
        if settings.language:
            say(f"language: {settings.language}")
    return EXIT_OK
