"""CLI verbs that work on pack files without touching the store: convert, show, verify,
conformance."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskpack.app.cli.boundary import name, quoted, token
from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, EXIT_REFUSED, emit_json, say, warn
from taskpack.app.heap import BIG_PACK, keep_freed_heap
from taskpack.core.trust.visible_text import visible

if TYPE_CHECKING:  # the codec is imported when a verb runs, never to build the parser
    from taskpack.core.format.reading import OpenedPack

_ID = re.compile(r"^TP-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$")


def _progress(label: str) -> Any:
    """A progress bar on the terminal (a no-op when output is not a terminal)."""
    from taskpack.app.cli.progress_bar import progress_bar

    return progress_bar(label)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a pack between .taskpack and .taskpack.json",
        description="Re-encode a pack; the encoding is chosen by the output name "
        "(*.taskpack.json → flat JSON, anything else → .taskpack zip). A conformant pack "
        "is re-encoded unchanged (its pack object and every luggage byte), with the same "
        "refusals as any pack this tool writes; convert repairs nothing. A pack the judge "
        "fails is refused with the reasons (exit 2), unless --repair is given.",
    )
    p.add_argument("source", metavar="IN")
    p.add_argument("--out", "-o", required=True, metavar="OUT")
    p.add_argument(
        "--repair",
        action="store_true",
        help="repair what can be repaired (sealing, manifests, canonical forms) and list each repair",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(handler=cmd_convert)

    p = sub.add_parser(
        "show",
        help="show what a pack file (or a passport ID) contains, without landing it",
        description="Read-only: prints the pack's sender, lineage, facts (sealed ones marked), "
        "required checks first, asks and luggage. Nothing is landed, nothing is run. "
        "Given a passport id (TP-XXXX-XXXX) instead of a file, shows that passport.",
    )
    p.add_argument(
        "file",
        metavar="FILE|ID",
        help="a pack file, any text file holding one (.txt, .md, …), - for standard "
        "input, or a passport id",
    )
    p.add_argument("--json", action="store_true", help="print the pack object and luggage as JSON")
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser(
        "verify",
        help="check a pack's structure and every digest (exit 0 ok, 1 broken)",
        description="Checks the container, names, manifests and the sha256 of every luggage "
        "byte. Does not judge the rules; for that see `taskpack conformance`.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_verify)

    p = sub.add_parser(
        "conformance",
        help="judge a pack strictly against TaskPack 0.1 (C0–C10): exit 0 conformant, 2 not",
        description="Judges the bytes as written and repairs nothing. Each check C0–C10 is "
        "reported with its reason. Exit 0 conformant, 2 not conformant, 1 when the file "
        "cannot be read at all (not a pack, or hostile).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(handler=cmd_conformance)


def cmd_convert(args: argparse.Namespace) -> int:
    from taskpack.app.paths import machine_name
    from taskpack.core.trust.pack_writer import convert

    out = Path(args.out)
    if Path(args.source).resolve() == out.resolve():
        warn("the output must be a different file from the input.")
        return EXIT_ERROR
    from taskpack.core.errors import NotConformant

    try:
        result = convert(
            args.source,
            out,
            machine=machine_name(),
            repair=args.repair,
            progress=_progress("converting"),
        )
    except NotConformant as exc:
        warn(str(exc))
        for reason in exc.reasons:
            warn(f"  {reason}")
        return EXIT_REFUSED
    if args.json:
        emit_json(
            {
                "path": str(result.path),
                "encoding": result.encoding,
                "bytes": result.size,
                "content_digest": result.content_digest,
                "warnings": result.warnings,
                "sealed": result.sealed,
                "repairs": result.repairs,
            }
        )
    else:
        say(
            f"wrote {result.path} ({'flat JSON' if result.encoding == 'flat' else '.taskpack zip'}, {result.size} bytes)"
        )
        for line in result.repairs:
            warn(f"repaired: {line}")
        for line in result.sealed:
            warn(f"sealed on the way: {visible(line)}")
        for line in result.warnings:
            warn(f"warning: {visible(line)}")
    return EXIT_OK


def _prepare_for(given: str, *, scan: bool = True) -> None:
    """Ready this process for the pack at `given`: a big one's scan engine is built while
    the judge is imported, and its heap is kept across the pass (`app.heap`)."""
    try:
        size = 0 if given == "-" else Path(given).stat().st_size
    except (OSError, ValueError):
        return  # the reader names what is wrong with it
    if scan:
        from taskpack.core.trust.scan.engines import prepare_for

        prepare_for(size)
    if size >= BIG_PACK:
        keep_freed_heap()


def _is_zip(given: str) -> bool:
    """Does the file start as a zip does (what `find_pack_in_file` would take as a bag)?"""
    try:
        with open(given, "rb") as f:
            return f.read(4) in (b"PK\x03\x04", b"PK\x05\x06")
    except OSError:
        return False  # the reader names what is wrong with it


@contextlib.contextmanager
def _as_pack_file(given: str) -> Iterator[tuple[Path, list[str]]]:
    """A pack file for `given`: itself, or the pack found in a text file or in standard
    input (`-`), written to a temporary file that is gone afterwards. Reading never
    writes into the desk."""
    if given != "-" and _is_zip(given):  # a .taskpack is never text: no text reader to load
        yield Path(given), []
        return
    from taskpack.core.format.pack_in_text import (
        MAX_TEXT_BYTES,
        decode_text,
        find_pack_in_file,
        find_pack_in_text,
    )

    if given == "-":
        text, notes = decode_text(sys.stdin.buffer.read(MAX_TEXT_BYTES + 1))
        found = find_pack_in_text(text)
        found_notes = [
            "standard input is text, not a pack file; the pack was read out of it",
            *notes,
            *found.notes,
        ]
    else:
        maybe = find_pack_in_file(given)
        if maybe is None:
            yield Path(given), []
            return
        found, found_notes = maybe, list(maybe.notes)
    import tempfile  # here: a pack file itself needs no temporary file

    with tempfile.TemporaryDirectory(prefix="taskpack-text-") as tmp:
        name = "stdin" if given == "-" else Path(given).name
        path = Path(tmp) / f"{name}.taskpack.json"
        path.write_bytes(found.flat_bytes)
        yield path, found_notes


def cmd_conformance(args: argparse.Namespace) -> int:
    _prepare_for(args.file)
    from taskpack.core.trust.conformance import judge

    with _as_pack_file(args.file) as (path, text_notes):
        report = judge(path, progress=_progress("judging"))
    if text_notes:  # judging is strict: a pack that had to be dug out of text is not one
        report.path = args.file
        c0 = report.checks[0]
        c0.ok = False
        c0.reasons[:0] = [f"not a pack file: {n}" for n in text_notes]
    if args.json:
        emit_json(report.to_data())
    else:
        for c in report.checks:
            mark = "✓" if c.ok else ("✗" if c.ok is False else "–")
            say(f"{c.id:>3} {mark} {c.requirement}")
            for r in c.reasons[:5]:
                say(f"      {quoted(r)}")  # the judge's reason quotes the pack
            if len(c.reasons) > 5:
                say(f"      … and {len(c.reasons) - 5} more")
        passed = sum(c.ok is True for c in report.checks)
        verdict = "conformant" if report.conformant else "NOT conformant"
        say(f"{args.file}: {verdict} ({passed}/{len(report.checks)} checks pass)")
    return EXIT_OK if report.conformant else EXIT_REFUSED


def cmd_verify(args: argparse.Namespace) -> int:
    _prepare_for(args.file, scan=False)
    from taskpack.core.format.read_once import read_once

    def check(opened: OpenedPack) -> OpenedPack:
        opened.verify(progress=_progress("verifying"))
        return opened

    # read once: a flat pack's attachments are verified in the same pass that finds them
    opened = read_once(args.file, None, check)
    if args.json:
        emit_json(
            {
                "ok": True,
                "encoding": opened.encoding,
                "luggage": len(opened.luggage),
                "bytes": sum(i.size for i in opened.luggage),
                "notes": opened.notes,
            }
        )
    else:
        n = len(opened.luggage)
        say(
            f"ok: {args.file} is intact ({opened.encoding}, {n} luggage file{'s' if n != 1 else ''}, every digest matches)"
        )
        for note in opened.notes:
            say(f"note: {visible(note)}")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    if _ID.match(args.file) and not Path(args.file).exists():
        from taskpack.app.cli.passports import show_passport

        return int(show_passport(args))
    from taskpack.core.format.reading import open_pack
    from taskpack.core.trust.refusals import redact_value, scan_value, shown_text

    with _as_pack_file(args.file) as (path, text_notes), open_pack(path) as opened:
        # a pack is untrusted: a credential in it is named by kind and place, never printed
        secrets = [f for f in scan_value(opened.data) if f.rule == "credential"]
        if args.json:
            emit_json(
                {
                    "encoding": opened.encoding,
                    "pack": redact_value(opened.data) if secrets else opened.data,
                    "luggage": [
                        {"name": shown_text(i.name), "bytes": i.size, "sha256": i.sha256}
                        for i in opened.luggage
                    ],
                    "notes": opened.notes,
                    "read_from_text": text_notes,
                    "credentials": [f.to_data() for f in secrets],
                }
            )
        else:
            for note in text_notes:
                say(f"read from text: {_q(note)[1:-1]}")
            if secrets:
                say(
                    "This pack carries a credential, so it cannot land; each text holding one "
                    "is withheld below. Ask the sender to rotate it (treat it as leaked):"
                )
                for f in secrets:
                    say(f"  {visible(f.kind)} at {visible(f.place)}")
            say(describe(opened))
    return EXIT_OK


_q = quoted
_t = token


def describe(opened: OpenedPack) -> str:
    """A person-readable summary of an opened pack. Every pack string is quoted."""
    pk = opened.pack
    st = pk.passport
    origin = pk.origin
    out = [
        f"{_t(pk.kind or '?')} pack ({opened.encoding}), spec {_t(pk.spec or '?')}, packed {_t(pk.packed_at or '(no time)')}",
        f"from: {_q(origin.actor if origin else '')} on {_q(origin.machine if origin else '')}",
    ]
    if pk.lineage:
        chain = " → ".join(_t(c) for c in (pk.lineage.chain or []))
        out.append(
            f"lineage: root {_t(pk.lineage.root_id)}, from version {_t(pk.lineage.from_version)}, chain {chain}"
        )
    if pk.note:
        out.append(f"note: {_q(pk.note)}")
    if st:
        out += [
            f"title: {_q(st.title)}",
            f"goal: {_q(st.goal)}",
            f"current state: {_q(st.current_state)}",
        ]
    checks = pk.landing_checks or []
    required = [c for c in checks if c.is_required]
    if required:
        out.append(
            "required landing checks (do these first; the `how` is the sender's suggestion, not run):"
        )
        for c in required:
            out.append(
                f"  [{_t(c.id)}] {_q(c.check)}"
                + (f"\n        sender suggests: {_q(c.how)}" if c.how else "")
            )
    facts = pk.facts
    if facts:
        out.append("facts:")
        for f in facts:
            if f.verified and f.effective_scope != "machine":
                mark = f"✓ ({f.effective_scope})"
            elif f.needs_reverify or f.verified is False:
                mark = (
                    f"unproven here (verified on {_q(f.verified_on)})"
                    if f.verified_on
                    else "unproven"
                )
            else:
                mark = "✓ machine-scoped, NOT sealed" if f.verified else "unproven"
            out.append(f"  - {_q(f.claim)} — {mark}")
    if st and st.next_steps:
        out.append("sender's next steps (after the checks):")
        out += [f"  - {_q(s)}" for s in st.next_steps]
    optional = [c for c in checks if not c.is_required]
    if optional:
        out.append("optional checks:")
        out += [
            f"  [{_t(c.id)}] {_q(c.check)}" + (f" — sender suggests: {_q(c.how)}" if c.how else "")
            for c in optional
        ]
    if pk.asks:
        out.append("asks:")
        for a in pk.asks:
            out.append(
                f"  [{_t(a.id)}] {_q(a.what)} — answered when: {_q(a.accept)} — {_t(a.status or 'open')}"
            )
            if a.answer is not None:
                out.append(f"        answer: {_q(a.answer)}")
    if opened.luggage:
        out.append("luggage:")
        out += [f"  {name(i.name)}  ({i.size} bytes)" for i in opened.luggage]
    for note in opened.notes:
        out.append(f"note: {visible(note)}")
    return "\n".join(out)


__all__ = ["EXIT_REFUSED", "describe", "register"]
