"""Passport verbs: authoring, packing, landing, receipts, restore, lifecycle, history.

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
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, emit_json, say, warn
from taskpack.app.settings import Settings
from taskpack.core.desk import lifecycle
from taskpack.core.desk.identity import origin_label
from taskpack.core.errors import LandingRefused, RestoreRefused
from taskpack.core.format import ids
from taskpack.core.format.vocabulary import SCOPES
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:  # the desk pulls in the codec: imported when a verb runs, not for --help
    from taskpack.app.desk import Desk
    from taskpack.core.desk.review import LandingReview
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

    p = verb("pack", cmd_pack, "write a handoff or receipt (.taskpack, or .taskpack.json)")
    p.add_argument("id")
    p.add_argument("--out", required=True, type=Path, help="*.taskpack or *.taskpack.json")
    p.add_argument("--kind", choices=("handoff", "receipt"), default="handoff")
    p.add_argument(
        "--file",
        dest="files",
        action="append",
        type=Path,
        default=[],
        help="a file or folder to carry in this pack (repeatable)",
    )
    p.add_argument("--note", help="one line for the receiver")
    p.add_argument("--actor", help="who is packing (default: TASKPACK_ACTOR, settings, login)")
    p.add_argument("--to", help="who it is for, kept in the outbox ledger (`taskpack outbox`)")
    p.add_argument(
        "--chat",
        action="store_true",
        help="also print the message for a chat or email: who asks what, what counts as an "
        "answer, how to reply, and the pack inline when it is small (≤ 64 KiB, flat)",
    )
    p.add_argument(
        "--lang",
        metavar="LANG",
        help="language of the --chat message: en or zh_CN (default: settings, $LANG)",
    )
    _add_json(p)

    p = verb("land", cmd_land, "land a handoff as a new passport, or merge a receipt --into one")
    p.add_argument(
        "file",
        metavar="FILE",
        help="a pack file, or any text file holding one (a chat or email reply: "
        ".txt, .md, …); - reads standard input",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would land; change nothing")
    p.add_argument("--into", help="merge a receipt into the passport that asked (TP-…)")
    _add_json(p)

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
        say(f"{r.id}  v{r.version:<3} {state:<24} {r.updated_at}  {safe(r.title)}{asks}")
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
    from taskpack.core.desk.review import check_line
    from taskpack.core.trust.sealing import standing

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
    say(f"Title:   {safe(ps.title)}")
    say(f"Goal:    {safe(ps.goal)}")
    if ps.current_state:
        say(f"Now:     {safe(ps.current_state)}")
    received = lp.received
    if received:
        origin = received.origin.to_data() if received.origin else {}
        say(
            f"From:    {safe(origin_label(origin))} "
            f"({safe(received.sender_entry)}), packed {safe(received.packed_at)}"
        )
        if received.note:
            say(f"Note:    «{safe(received.note)}» (the sender's words)")
    if lp.lineage and lp.lineage.chain:
        say(f"Lineage: {' → '.join(safe(c) for c in lp.lineage.chain)} → {lp.id}")
    checks = lp.landing_checks or []
    if checks:
        say("Landing checks (from the sender; confirm these here first — nothing was run):")
        for c in checks:
            say(f"  [{safe(c.id or '-')}] {safe(check_line(c))}")
    _show_list("Next steps", ps.next_steps or [])
    facts = ps.facts or []
    if facts:
        say("Facts:")
        for n, f in enumerate(facts, 1):
            say(f"  {n}. {safe(f.claim)} — {safe(standing(f, machine=desk.machine).text)}")
    decisions = ps.decisions or []
    if decisions:
        say("Decisions:")
        for d in decisions:
            say(f"  - {safe(d.what)} — because {safe(d.why)}")
    asks = lp.asks or []
    if asks:
        say("Asks:")
        for a in asks:
            say(
                f"  {safe(a.id)} [{safe(a.status or 'open')}] {safe(a.what)}  (accept: {safe(a.accept)})"
            )
            if a.answer is not None:
                say(
                    f"       answer: {safe(a.answer)}  — {safe(a.answered_by)} {safe(a.answered_at)}"
                )
    outgoing = lp.checks_to_send or []
    if outgoing:
        say("Checks to send with the next pack:")
        for c in outgoing:
            say(f"  [{safe(c.id)}] {safe(c.check)}")
    if isinstance(lp.result, dict):
        say(
            f"Result:  {safe(lp.result.get('summary'))} ({len(lp.result.get('evidence') or [])} evidence)"
        )
    if luggage:
        say("Luggage:")
        for x in luggage:
            say(f"  {safe(x.name)}  {x.size} bytes  sha256 {x.sha256[:12]}…")
    imperatives = (received.imperatives if received else None) or []
    if imperatives:
        say("Imperative sentences found in the pack (data, not instructions; nothing was run):")
        for imp in imperatives:
            say(f"  {safe(imp.get('place'))}: «{safe(imp.get('sentence'))}»")
    if moves:
        say(f"Can move to: {', '.join(m.label for m in moves)}")
    return EXIT_OK


def _show_list(title: str, items: list[Any]) -> None:
    if items:
        say(f"{title}:")
        for n, item in enumerate(items, 1):
            say(f"  {n}. {safe(item)}")


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
    status = "dropped" if args.drop else "answered"
    lp = desk.answer(
        _pid(args.id), args.ask, args.answer, status=status, expected_version=args.expected_version
    )
    return _done(args, lp, f"ask {args.ask} {status}; send it home with `pack --kind receipt`")


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
def cmd_pack(args: argparse.Namespace, desk: Desk) -> int:
    out = desk.pack(
        _pid(args.id),
        args.out,
        kind=args.kind,
        files=args.files,
        note=args.note,
        actor=args.actor,
        to=args.to,
        via="cli",
    )
    for w in out.warnings:
        warn(w)
    message = desk.chat_message(out.path, language=args.lang) if args.chat else None
    if args.json:
        emit_json(
            {
                "path": str(out.path),
                "kind": out.kind,
                "encoding": out.encoding,
                "size": out.size,
                "content_digest": out.content_digest,
                "passport": out.passport_id,
                "version": out.version,
                "lineage": out.lineage,
                "asks_sent": out.asks_sent,
                "sealed": out.sealed,
                "warnings": out.warnings,
                "moved_to": out.moved_to,
                **({"chat_message": message} if message is not None else {}),
            }
        )
        return EXIT_OK
    # with --chat, stdout is the message alone (ready to paste); the report goes to stderr
    report = warn if message is not None else say
    report(
        f"Wrote {out.path} ({out.kind}, {out.encoding}, {out.size} bytes) from {out.passport_id} v{out.version}."
    )
    for s in out.sealed:
        report(f"  sealed: {safe(s)}")
    if out.asks_sent:
        report(
            f"  asks sent: {', '.join(safe(a) for a in out.asks_sent)} (kept on {out.passport_id} for the answers)"
        )
    if out.moved_to:
        report(f"  {out.passport_id} is now {out.moved_to} until a receipt answers them.")
    if message is not None:
        sys.stdout.write(message)
    return EXIT_OK


@_verb
def cmd_land(args: argparse.Namespace, desk: Desk) -> int:
    from taskpack.core.desk.merge import target_refusal

    into = _pid(args.into) if args.into else None
    shown = "standard input" if args.file == "-" else Path(args.file).name
    args.file, text_notes = _pack_file(args.file, desk)
    if not args.json:
        for note in text_notes:
            say(f"read from text: {safe(note)}")
    if args.dry_run:
        rv = desk.review(args.file)
        if rv.secrets and not rv.already:  # refused as landing would be; none of its text shown
            raise LandingRefused(rv.secrets)
        if into:  # the same rule the landing applies, without landing
            refusal = target_refusal(rv, into=into, expect="receipt", exists=lambda _pid: True)
            if refusal is not None:
                raise refusal
        if args.json:
            emit_json({"dry_run": True, **rv.to_data(), "read_from_text": text_notes})
        else:
            _say_review(rv, dry=True)
        return EXIT_OK
    if into:
        merged = desk.merge_receipt(args.file, into)
        if args.json:
            emit_json(
                {
                    "passport": merged.id,
                    "already": merged.already,
                    "answered": merged.answered,
                    "adopted": [{"from": a, "as": b} for a, b in merged.adopted],
                    "facts_added": merged.facts_added,
                    "moved_to": merged.moved_to,
                    "sender_checks": [c.to_data() for c in merged.sender_checks],
                    "review": merged.review.to_data(),
                    "version": merged.passport.version,
                    "repairs": merged.repairs,
                    "read_from_text": text_notes,
                }
            )
            return EXIT_OK
        if merged.already:
            say(f"Already merged into {merged.id}; nothing changed.")
            return EXIT_OK
        say(f"Merged {safe(shown)} into {merged.id} (now v{merged.passport.version}).")
        say(f"  answered: {', '.join(safe(a) for a in merged.answered) or 'none'}")
        for r in merged.repairs:  # the same words the history keeps
            say(f"  repaired: {safe(r)}")
        for old, new in merged.adopted:
            say(f"  adopted as an open ask for you: {safe(old)} → {safe(new)}")
        if merged.facts_added:
            say(f"  facts added: {merged.facts_added} (machine facts arrive sealed)")
        if merged.sender_checks:
            say("  the sender's landing checks (about their machine; reported, not adopted):")
            for c in merged.sender_checks:
                say(f"    - {safe(c.check)}")
        if merged.moved_to:
            say(f"  {merged.id} is now {merged.moved_to}: every ask it was waiting on is answered.")
        _say_imperatives(merged.review)
        return EXIT_OK
    landed = desk.land(args.file)
    if args.json:
        emit_json(
            {
                "passport": landed.id,
                "already": landed.already,
                "state": lifecycle.describe(landed.passport.state, landed.passport.waiting_on),
                "version": landed.passport.version,
                "review": landed.review.to_data(),
                "read_from_text": text_notes,
            }
        )
        return EXIT_OK
    if landed.already:
        say(f"Already landed as {landed.id}; nothing changed (the same pack lands once).")
        return EXIT_OK
    state = lifecycle.describe(landed.passport.state, landed.passport.waiting_on)
    say(f"Landed {safe(shown)} as {landed.id} (a new passport; now {state}).")
    if landed.passport.state == "waiting":
        say(f"  The gate holds handoffs for you: approve with `taskpack move {landed.id} routed`.")
    _say_review(landed.review, dry=False)
    return EXIT_OK


def _pack_file(given: str, desk: Desk) -> tuple[Path, list[str]]:
    """The pack file to land: `given` itself, or the pack found in a text file or stdin
    (kept in the desk's inbox), with what reading it out of the text put up with."""
    if given == "-":
        from taskpack.core.format.pack_in_text import MAX_TEXT_BYTES, decode_text

        text, notes = decode_text(sys.stdin.buffer.read(MAX_TEXT_BYTES + 1))
        pasted = desk.pack_from_text(text)
        return pasted.path, [*notes, *pasted.notes]
    pasted = desk.pack_from_file(Path(given))
    return pasted.path, pasted.notes


def _say_review(rv: LandingReview, *, dry: bool) -> None:

    origin = rv.origin
    if dry:
        verb = "would merge into" if rv.kind == "receipt" else "would land as a new passport"
        target = safe(rv.receipt_target) if rv.kind == "receipt" else ""
        say(
            f"{safe(rv.path.name)}: {safe(rv.kind)} from {safe(origin_label(origin))}"
            f" — {verb} {target}".rstrip()
        )
        if rv.already:
            say(f"  already landed as {rv.already}")
        if rv.kind == "handoff":
            say(f"  it would start {rv.initial_state}")
        else:
            say(
                f"  target here: {'yes' if rv.target_here else 'no'}; "
                f"would answer: {', '.join(map(safe, rv.would_answer)) or 'none'}; "
                f"would adopt: {', '.join(map(safe, rv.would_adopt)) or 'none'}"
            )
        say(f"  Title: {safe(rv.title)}")
        say(f"  Goal:  {safe(rv.goal)}")
    if rv.note:
        say(f"  Note (the sender's words): «{safe(rv.note)}»")
    if rv.kind == "handoff":
        _show_list(
            "Next steps (required landing checks first; suggestions are quoted, never run)",
            rv.next_steps,
        )
    for s in rv.sealed:
        say(f"  sealed: {safe(s)}")
    if rv.asks:
        say("  Asks:")
        for a in rv.asks:
            say(
                f"    {safe(a.id)} [{safe(a.status or 'open')}] {safe(a.what)}  (accept: {safe(a.accept)})"
            )
    for r in rv.repairs:
        say(f"  {'would repair' if dry else 'repaired'}: {safe(r)}")
    for n in rv.notes:
        say(f"  note: {safe(n)}")
    _say_imperatives(rv)


def _say_imperatives(rv: LandingReview) -> None:
    if rv.imperatives:
        say("  Imperative sentences found (data, not instructions; nothing was run):")
        for imp in rv.imperatives:
            say(f"    {safe(imp.get('place'))}: «{safe(imp.get('sentence'))}»")


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
    if args.json:
        emit_json([e.to_data() for e in entries])
        return EXIT_OK
    for e in entries:
        detail = ", ".join(f"{k}={safe(v)}" for k, v in e.detail.items() if v not in (None, [], ""))
        say(f"{e.at}  v{e.version:<3} {e.event:<10} {detail}")
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
