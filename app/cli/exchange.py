"""Passport verbs that cross desks: packing a passport and landing a pack.

    taskpack pack ID --out FILE [--kind handoff|receipt] [--file PATH]… [--note N] [--to WHO]
    taskpack land FILE [--dry-run] [--into TP-ID]

`land --dry-run` prints the desk's one review (`Desk.review`): what landing would do,
and — with `--into` — why merging into that passport would be refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.cli.boundary import desk_sentence, ident, place, quoted, token
from taskpack.app.cli.main import EXIT_OK, emit_json, say, warn
from taskpack.app.cli.passports import _add_json, _pid, _verb, safe
from taskpack.core.desk import lifecycle
from taskpack.core.desk.identity import origin_label
from taskpack.core.errors import LandingRefused

if TYPE_CHECKING:  # the desk pulls in the codec: imported when a verb runs, not for --help
    from taskpack.app.desk import Desk
    from taskpack.core.desk.review import LandingReview

Verb = Callable[..., argparse.ArgumentParser]


def register(verb: Verb) -> None:
    """Add `pack` and `land` (called from `passports.register`, where they are listed)."""
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

    from taskpack.app.cli import work

    work.register(verb)


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
        report(f"  sealed: {desk_sentence(s)}")
    if out.asks_sent:
        report(
            f"  asks sent: {', '.join(ident(a) for a in out.asks_sent)} (kept on {out.passport_id} for the answers)"
        )
    if out.moved_to:
        report(f"  {out.passport_id} is now {out.moved_to} until a receipt answers them.")
    if message is not None:
        sys.stdout.write(message)
    return EXIT_OK


@_verb
def cmd_land(args: argparse.Namespace, desk: Desk) -> int:
    into = _pid(args.into) if args.into else None
    shown = "standard input" if args.file == "-" else Path(args.file).name
    args.file, text_notes = _pack_file(args.file, desk)
    if not args.json:
        for note in text_notes:
            say(f"read from text: {safe(note)}")
    if args.dry_run:
        rv = desk.review(args.file, into=into)
        if rv.secrets and not rv.already:  # refused as landing would be; none of its text shown
            raise LandingRefused(rv.secrets)
        if into and rv.refusal is not None:  # the rule the landing applies, without landing
            raise rv.refusal
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
        if merged.already and merged.review.nothing_new:  # the same answers, another file
            say(
                f"Already merged into {merged.id}: nothing in this receipt is new; nothing changed."
            )
            return EXIT_OK
        if merged.already:
            say(f"Already merged into {merged.id}; nothing changed.")
            return EXIT_OK
        say(f"Merged {safe(shown)} into {merged.id} (now v{merged.passport.version}).")
        say(f"  answered: {', '.join(ident(a) for a in merged.answered) or 'none'}")
        for r in merged.repairs:  # the same words the history keeps
            say(f"  repaired: {desk_sentence(r)}")
        for old, new in merged.adopted:
            say(f"  adopted as an open ask for you: {ident(old)} → {ident(new)}")
        if merged.facts_added:
            say(f"  facts added: {merged.facts_added} (machine facts arrive sealed)")
        if merged.sender_checks:
            say("  the sender's landing checks (about their machine; reported, not adopted):")
            for c in merged.sender_checks:
                say(f"    - {quoted(c.check)}")
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
        target = token(rv.receipt_target) if rv.kind == "receipt" else ""
        say(
            f"{safe(rv.path.name)}: {token(rv.kind)} from {quoted(origin_label(origin))}"
            f" — {verb} {target}".rstrip()
        )
        if rv.nothing_new:
            say(f"  already merged into {rv.already}: nothing in it is new")
        elif rv.already:
            say(f"  already landed as {rv.already}")
        if rv.kind == "handoff":
            say(f"  it would start {rv.initial_state}")
        else:
            say(
                f"  target here: {'yes' if rv.target_here else 'no'}; "
                f"would answer: {', '.join(map(ident, rv.would_answer)) or 'none'}; "
                f"would adopt: {', '.join(map(ident, rv.would_adopt)) or 'none'}"
            )
        say(f"  Title: {quoted(rv.title)}")
        say(f"  Goal:  {quoted(rv.goal)}")
    if rv.note:
        say(f"  Note (the sender's words): {quoted(rv.note)}")
    if rv.kind == "handoff":
        _say_next_steps(rv)
    for s in rv.sealed:
        say(f"  sealed: {desk_sentence(s)}")
    if rv.asks:
        say("  Asks:")
        for a in rv.asks:
            say(
                f"    {ident(a.id)} [{token(a.status or 'open')}] {quoted(a.what)}  (accept: {quoted(a.accept)})"
            )
    for r in rv.repairs:
        say(f"  {'would repair' if dry else 'repaired'}: {desk_sentence(r)}")
    for n in rv.notes:
        say(f"  note: {desk_sentence(n)}")
    _say_imperatives(rv)


def _say_next_steps(rv: LandingReview) -> None:
    """The required landing checks first, then the sender's next steps: each quoted."""
    checks = [c for c in rv.landing_checks if c.is_required]
    steps = [
        f"Landing check (required): {quoted(c.check)}"
        + (f" — sender's suggestion, not run: {quoted(c.how)}" if c.how else "")
        for c in checks
    ] + [quoted(s) for s in rv.next_steps[len(checks) :]]
    if steps:
        say("Next steps (required landing checks first; suggestions are quoted, never run):")
        for n, step in enumerate(steps, 1):
            say(f"  {n}. {step}")


def _say_imperatives(rv: LandingReview) -> None:
    if rv.imperatives:
        say("  Imperative sentences found (data, not instructions; nothing was run):")
        for imp in rv.imperatives:
            say(f"    {place(imp.get('place'))}: {quoted(imp.get('sentence'))}")
