"""What landing forgives in a hand-written pack, and the plain words that say so (§2.2, §6).

A colleague's AI writing a receipt by hand gets things wrong that have one obvious
meaning: an attachment with no ``sha256`` (§2.2 allows it on read), an ask whose
``answer`` is filled in but whose ``status`` still says ``open``, no ``packed_at``, no
``answered_at``, an attachment with no ``encoding``, a flat pack whose ``taskpack`` is
``0.1`` but whose pack object declares no ``spec``. Landing repairs those and lists each
repair; judging does not (C0): :func:`find_repairs` is what both read, so the judge names
exactly what landing would have repaired.

What is never repaired lives elsewhere and stays a refusal: a handoff is never merged
(§4.4.1), the receipt's target comes from its lineage (`landing`), a credential or a
transcript is refused before anything is stored, a machine fact marked verified is still
sealed (§4.2), and a `taskpack` or `spec` value we do not know is still rejected (§8).

Every function here is pure: data in, repairs (or sentences) out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..format.vocabulary import BAG_SPEC
from .visible_text import visible

if TYPE_CHECKING:
    from ..format.model import PackObject
    from ..format.reading import OpenedPack

#: an attachment no larger than this gets its computed digest written into the repair
SHOW_DIGEST_BYTES = 1 << 20


@dataclass(frozen=True)
class Repair:
    """One thing a file gets wrong that landing can put right."""

    #: spec | packed_at | status | answered_at | digest | size | encoding
    code: str
    #: where: a field path (``asks[1]``) or an attachment's name
    place: str
    #: what the file gets wrong, as the judge reports it
    problem: str
    #: the ask's id, or the attachment's name (for the sentence that says what was done)
    subject: str = ""
    #: False when the file is conformant in this respect (an optional field left out)
    judged: bool = True


def has_answer(ask: Mapping[str, Any]) -> bool:
    """An ask carries an answer: anything but null, an empty string or only spaces."""
    answer = ask.get("answer")
    return answer is not None and not (isinstance(answer, str) and not answer.strip())


_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


def ask_name(given: Any, n: int) -> str:
    """How a repair sentence names the ask at index `n`: its id when it is a plain token
    (``a1``), else the id quoted and made visible (a sender's id must not write the
    desk's sentence: ``ask "SYSTEM: …"``, never ``ask SYSTEM: …``); ``#n`` without one."""
    if not isinstance(given, str) or not given:
        return f"#{n + 1}"
    if _PLAIN_ID.fullmatch(given):
        return given
    shown = visible(given).replace('"', '\\"')
    return '"' + (shown if len(shown) <= 60 else shown[:59] + "…") + '"'


def find_repairs(
    data: Mapping[str, Any],
    *,
    encoding: str,
    declared: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Repair]:
    """What landing would repair in the pack object `data` (and, for the flat form, in
    its attachments' keys as `declared`), in the order a person reads the pack."""
    out: list[Repair] = []
    if encoding == "flat" and data.get("spec") is None:
        out.append(
            Repair("spec", "spec", "the pack object declares no spec (its file says taskpack 0.1)")
        )
    packed_at = data.get("packed_at")
    if not isinstance(packed_at, str) or not packed_at.strip():
        out.append(Repair("packed_at", "packed_at", "the pack declares no packed_at"))
    asks = data.get("asks")
    for n, ask in enumerate(asks if isinstance(asks, list) else []):
        if not isinstance(ask, dict):
            continue
        given = ask.get("id")
        aid = ask_name(given, n)
        status = ask.get("status")
        if has_answer(ask) and status in (None, "open"):
            said = "says open" if status == "open" else "is missing"
            out.append(
                Repair(
                    "status",
                    f"asks[{n}]",
                    f"ask {aid} has an answer but its status {said}",
                    subject=aid,
                )
            )
        answered = has_answer(ask) and status in (None, "open", "answered")
        if answered and data.get("kind") == "receipt" and not ask.get("answered_at"):
            out.append(
                Repair(
                    "answered_at",
                    f"asks[{n}]",
                    f"ask {aid} declares no answered_at",
                    subject=aid,
                    judged=False,
                )
            )  # optional (§4.3)
    for name, meta in (declared or {}).items():
        for key, code in (("sha256", "digest"), ("bytes", "size"), ("encoding", "encoding")):
            if key not in meta:
                out.append(
                    Repair(code, name, f"attachment {name!r} declares no {key}", subject=name)
                )
    return out


def apply_repairs(
    pack: PackObject,
    repairs: Sequence[Repair],
    *,
    now: str,
    digests: Mapping[str, tuple[str | None, int]] | None = None,
) -> list[str]:
    """Make each repair on `pack` (a copy the caller owns) and say what was done, one
    plain sentence per repair. `now` is the landing time; `digests` gives an
    attachment's computed (sha256 or None, size) for the sentences."""
    said: list[str] = []
    asks = pack.asks or []
    for r in repairs:
        if r.code == "spec":
            pack.spec = BAG_SPEC
            said.append(
                f"the pack object declared no spec; its file says taskpack 0.1, so it "
                f"was read as {BAG_SPEC}"
            )
        elif r.code == "packed_at":
            pack.packed_at = now
            said.append(
                f"the pack declared no packed_at; the landing time {now} was recorded in its place"
            )
        elif r.code == "status":
            ask = _own_ask_at(asks, r.place)
            if ask is not None:
                ask.status = "answered"
            said.append(
                f"ask {r.subject} has an answer but its status said "
                f"{'open' if 'open' in r.problem else 'nothing'}; it was taken as "
                "answered"
            )
        elif r.code == "answered_at":
            ask = _own_ask_at(asks, r.place)
            if ask is not None:
                ask.answered_at = now
            said.append(
                f"ask {r.subject} declared no answered_at; the landing time {now} was "
                "recorded as its answer time"
            )
        elif r.code == "digest":
            sha = (digests or {}).get(r.subject, (None, -1))[0]
            shown = f" (sha256 {sha})" if sha else ""
            said.append(
                f"attachment {r.subject!r} declared no sha256; its digest was computed "
                f"here{shown}, so this desk vouches for the bytes as they arrived, not "
                "the sender"
            )
        elif r.code == "size":
            size = (digests or {}).get(r.subject, (None, -1))[1]
            shown = f" ({size} bytes)" if size >= 0 else ""
            said.append(f"attachment {r.subject!r} declared no size; it was counted here{shown}")
        elif r.code == "encoding":
            said.append(f"attachment {r.subject!r} declared no encoding; it was read as utf8")
    return said


def repair_on_landing(
    opened: OpenedPack, pack: PackObject, *, now: str | Callable[[], str]
) -> list[str]:
    """The landing hook: find what `opened` needs, repair `pack` (a copy), say what was done.

    `now` may be the desk's clock: it is read only when there is something to repair, so a
    pack that needs nothing does not move the clock (the sample packs rely on that)."""
    repairs = find_repairs(opened.data, encoding=opened.encoding, declared=opened.declared)
    if not repairs:
        return []
    digests: dict[str, tuple[str | None, int]] = {}
    for item in opened.luggage:
        if any(r.subject == item.name and r.code in ("digest", "size") for r in repairs):
            sha = item.sha256
            if sha is None and 0 <= item.size <= SHOW_DIGEST_BYTES:
                sha = opened.digest_of(item)
            digests[item.name] = (sha, item.size)
    return apply_repairs(pack, repairs, now=now() if callable(now) else now, digests=digests)


def _own_ask_at(asks: list[Any], place: str) -> Any:
    """The ask at `place`, replaced in `asks` by a copy of its own before it is changed: the
    pack's list may share its records with the pack as read (`Record.copy_record(sharing=…)`)."""
    n = int(place[len("asks[") : -1])
    if not 0 <= n < len(asks):
        return None
    asks[n] = asks[n].copy_record()
    return asks[n]


__all__ = ["Repair", "apply_repairs", "find_repairs", "has_answer", "repair_on_landing"]
