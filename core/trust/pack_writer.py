"""The one pack writer: every pack this project writes, in either encoding, passes through here.

`make_pack` seals machine-scoped facts (spec §4.2), refuses what must never travel
(§4.1 credentials and transcripts, §4.3 asks without `accept`, §4.5 instruction fields),
and only then lets `writing.write_pack` produce the file. The luggage is scanned while it
is written — one pass — and a refusal found there deletes the half-written file.

`convert` re-encodes a conformant pack *unchanged* — the pack object as read, every
luggage byte as it was — with the same refusals (the judge's checks on the pack object
first, the luggage scanned as it is re-encoded). It repairs nothing unless asked to.

The CLI, the GUI, the A2A endpoint and `convert` all call this; nothing else writes a pack.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import FormatError, IntegrityError, NotConformant, Refused
from ..format import canonical
from ..format.luggage import LuggageSource
from ..format.read_once import proven, read_once
from ..format.reading import OpenedPack, encoding_for, luggage_of
from ..format.writing import WriteResult, write_pack
from ..progress import CancelCheck, Progress
from .refusals import LuggageScan, engine_for, scan_pack_object
from .sealing import seal_facts

if TYPE_CHECKING:  # a pure re-encoding (`convert`) never builds the models
    from ..format.model import PackObject


def make_pack(
    pack: PackObject,
    luggage: Sequence[LuggageSource],
    out: Path | str,
    *,
    machine: str,
    encoding: str | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
    file_digest: bool = False,
) -> WriteResult:
    """Seal, refuse, write. `pack` is sealed in place (what was written is what you hold).

    `file_digest`: see `writing.write_pack` (the file's sha256 when it can be had in
    the one pass).

    Raises `Refused` (nothing written) when the pack or its luggage carries something
    the rules forbid; `PackError`/`IntegrityError` when a luggage source is broken.
    """
    out = Path(out)
    enc = encoding or encoding_for(out)
    sealed = seal_facts(pack, machine=machine)
    data = pack.to_data()
    findings = scan_pack_object(data)
    if findings:
        raise Refused(findings)
    scan = LuggageScan()  # the judge's scanner too (C7, C8): one budget for the pack

    def tap(name: str, chunk: bytes) -> None:
        scan.feed(name, chunk)

    def judge_luggage() -> None:
        found = scan.finish()
        if found:
            raise Refused(found)

    result = write_pack(
        data,
        luggage,
        out,
        encoding=enc,
        tap=tap,
        progress=progress,
        cancel=cancel,
        before_commit=judge_luggage,
        file_digest=file_digest,
    )
    result.sealed = sealed
    return result


#: checks whose failure `convert --repair` can repair: what the reader forgave (C0), tag
#: files and manifests (C1, rewritten from the bytes), sealing (C6) and the canonical
#: forms (C9). The others are the sender's to fix: a field of the wrong type (C2), kind
#: (C3), lineage (C4), an ask without accept (C5), a credential or transcript (C7, C8),
#: packed_at (C10).
REPAIRABLE = ("C0", "C1", "C6", "C9")


def convert(
    source: Path | str,
    out: Path | str,
    *,
    machine: str,
    repair: bool = False,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
) -> WriteResult:
    """Re-encode a pack; the encoding is chosen by `out`'s name.

    A conformant pack is re-encoded unchanged: the same pack object, the same luggage,
    so a round trip gives back the same entries (and, for our own packs, the same bytes).
    A pack the judge fails raises `NotConformant` with its reasons, and nothing is written
    — unless `repair`: then it goes through the one writer (`make_pack`: sealing, a spec
    declared), `result.repairs` lists each repair, and the output is judged once more
    (when it still fails, it is removed and `NotConformant` says why).
    A damaged or hostile file raises the reader's error, as `open_pack` would.
    """
    from .conformance import judge_head, judge_opened

    out = Path(out)
    was_repaired: list[bool] = []

    def reencode(opened: OpenedPack) -> WriteResult:
        if opened.problems:
            proven(opened)  # (a refusal from what was read: only from a proven reading)
            raise IntegrityError(opened.problems[0])
        if opened.schema_errors:
            proven(opened)
            place, msg = opened.schema_errors[0]
            raise FormatError(f"field {place or '(root)'}: {msg}", place=place)
        total = len(opened.passport_json) + sum(max(i.size, 0) for i in opened.luggage)
        engine = engine_for(total)
        failing = {cid: r for cid, r in judge_head(opened, engine=engine).items() if r}
        reasons = [f"{cid}: {r}" for cid, rs in failing.items() for r in rs]
        if failing and not repair:
            # nothing will be written: judge the luggage too, so every reason is given
            # (and a damaged file is said to be damaged, as any reader would say)
            report = judge_opened(opened, progress, cancel)
            proven(opened)
            if report.damage:
                raise report.damage[0]
            raise NotConformant(
                [f"{c.id}: {r}" for c in report.checks if c.ok is False for r in c.reasons]
            )
        if not failing:
            return _reencode(opened, out, engine=engine, progress=progress, cancel=cancel)
        fixed = [cid for cid in failing if cid not in REPAIRABLE]
        if fixed:
            proven(opened)
            raise NotConformant(
                [r for r in reasons if r.split(":", 1)[0] in fixed],
                message=f"Not converted: the pack fails {', '.join(fixed)}, which --repair cannot repair",
                hint="Only the sender can fix these; nothing was written.",
            )
        repaired = _repair(opened, out, machine=machine, progress=progress, cancel=cancel)
        repaired.repairs = [f"{r} — repaired" for r in reasons] + repaired.repairs
        was_repaired.append(True)
        return repaired

    # read once: a flat pack's attachments are re-encoded in the same pass that finds them
    # (a guess the pass does not bear out is read again as written, see `read_once`)
    result = read_once(source, None, reencode, strict=False)
    if not was_repaired:
        return result
    _judge_repaired(result)
    return result


def _reencode(
    opened: OpenedPack,
    out: Path,
    *,
    engine: str | None,
    progress: Progress | None,
    cancel: CancelCheck | None,
) -> WriteResult:
    """The pack object as read and every luggage byte, in the other encoding (one pass:
    each digest verified, every byte scanned, the flat text rule checked as it streams)."""
    from .conformance import text_rule

    scan = LuggageScan(engine=engine)  # the judge's and the writer's scanner
    for i in opened.luggage:
        scan.file(i.name)
    texts = (
        {i.name: canonical.TextEligibility() for i in opened.luggage}
        if opened.encoding != "bag"
        else {}
    )

    def tap(name: str, chunk: bytes) -> None:
        scan.feed(name, chunk)
        if texts:
            texts[name].feed(chunk)

    def judge_luggage() -> None:
        found = scan.finish()
        if found:
            raise Refused(found)
        c9 = text_rule(opened, {name: t.finish() for name, t in texts.items()})
        if c9:
            raise NotConformant([f"C9: {r}" for r in c9])

    return write_pack(
        opened.data,
        luggage_of(opened),
        out,
        encoding=encoding_for(out),
        tap=tap,
        progress=progress,
        cancel=cancel,
        before_commit=judge_luggage,
    )


def _repair(
    opened: OpenedPack,
    out: Path,
    *,
    machine: str,
    progress: Progress | None,
    cancel: CancelCheck | None,
) -> WriteResult:
    from ..format.vocabulary import BAG_SPEC

    pack = opened.pack
    repairs = []
    if pack.spec is None:
        pack.spec = BAG_SPEC
        repairs.append(f"declared spec {BAG_SPEC!r}")
    origin_machine = pack.origin.machine if pack.origin else None
    result = make_pack(
        pack,
        luggage_of(opened),
        out,
        machine=origin_machine or machine,
        progress=progress,
        cancel=cancel,
    )
    result.repairs = repairs  # what sealing did is in result.sealed
    return result


def _judge_repaired(result: WriteResult) -> None:
    from .conformance import judge

    report = judge(result.path)
    if not report.conformant:
        with contextlib.suppress(FileNotFoundError):
            result.path.unlink()
        raise NotConformant(
            [f"{c.id}: {r}" for c in report.checks if c.ok is False for r in c.reasons],
            message="Not converted: the repaired pack would still not be conformant",
            hint="Nothing was written; see `taskpack conformance` on the original.",
        )
