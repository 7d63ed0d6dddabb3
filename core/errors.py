"""Every error TaskPack raises, in one tree.

The first question about any failure is *whose fault is it*: the caller's (a wrong
argument, an unknown passport, a stale version), the file's (a corrupt or hostile
pack), or nobody's (the pack is fine, but the rules say it must not be produced)::

    TaskPackError                   base; .message is one sentence, .hint says what to do
    ├── UsageError                  the caller misused the API or the command line
    │   ├── NotFound                no passport / ask / fact with that id
    │   ├── VersionConflict         expected_version did not match (someone else wrote)
    │   ├── InvalidMove             a lifecycle move the table does not allow (invalid_state)
    │   └── RestoreRefused          restoring a ✓ is not allowed here (spec §4.2)
    ├── PackError                   the file is at fault: corrupt, hostile or not a pack
    │   ├── FormatError             not a zip / not JSON / not a bag / a field of the wrong type
    │   ├── UnsupportedVersion      a `taskpack` or `spec` value we do not recognise (§8)
    │   ├── UnsafeEntry             an entry name or type that could escape or collide
    │   ├── IntegrityError          a digest, CRC, size or manifest entry that does not agree
    │   └── LimitExceeded           a bomb: too large, too many entries, too deep, too long
    ├── Refused                     the rules forbid producing this pack (§4.1, §4.3, §4.5)
    ├── DiskFull                    no space left: says how much was needed; nothing was kept
    └── Cancelled                   the caller asked a long operation to stop

`str(error)` is the one line a person sees. Nothing here ever includes the bytes of a
secret: refusals name the *kind* and the *place* only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class TaskPackError(Exception):
    """Base of every TaskPack error. `str()` is one sentence a person can act on."""

    #: what a person should do about it; appended to the message when shown
    hint: str = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint

    def __str__(self) -> str:
        text = self.message.rstrip(".")
        return f"{text}. {self.hint}" if self.hint else f"{text}."


# --- the caller's fault -------------------------------------------------------------


class UsageError(TaskPackError):
    """The caller asked for something that cannot be done as asked."""


class NotFound(UsageError):
    hint = "Check the id with `taskpack list`."


class VersionConflict(UsageError):
    hint = "Someone else changed it first: read it again and retry with the new version."


class InvalidMove(UsageError):
    """A lifecycle move the state table does not list. Its code is `invalid_state`."""

    code = "invalid_state"


class RestoreRefused(UsageError):
    """Restoring a ✓ needs this machine = verified_on and a pack this desk wrote."""


# --- the file's fault -----------------------------------------------------------------


class PackError(TaskPackError):
    """The file is at fault. `place` names where (entry name, field path), if known."""

    hint = "Ask the sender for a fresh copy; nothing was written."

    def __init__(self, message: str, *, place: str | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.place = place


class FormatError(PackError):
    pass


class UnsupportedVersion(PackError):
    hint = "It was made by a newer or different tool; ask the sender for a TaskPack 0.1 file."


class UnsafeEntry(PackError):
    hint = "The file may be hostile; nothing was written. Do not open it with other tools."


class IntegrityError(PackError):
    hint = "The file was damaged or altered in transit; ask the sender to send it again."


class LimitExceeded(PackError):
    hint = "The file may be a decompression bomb; nothing was written."


# --- the rules' refusal ---------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One reason a pack must not be produced: what kind of thing, and where.

    `place` is a field path (``passport.facts[2].claim``) or a luggage place
    (``files/notes.txt @ byte 10485771``). `detail` never contains the matched text.
    """

    rule: str  # "credential" | "transcript" | "instruction_field" | "ask"
    kind: str  # e.g. "GitHub token", "chat transcript (User:/Assistant:)", "ask without accept"
    place: str
    detail: str = ""

    def __str__(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"{self.kind} at {self.place}{extra}"


class Refused(TaskPackError):
    """The pack must not be produced. `findings` says what and where, never the secret."""

    hint = "Remove it from the passport or luggage and pack again."

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = list(findings)
        shown = "; ".join(str(f) for f in self.findings[:3])
        more = f" (and {len(self.findings) - 3} more)" if len(self.findings) > 3 else ""
        super().__init__(f"Refusing to pack: {shown}{more}")


class DiskFull(TaskPackError):
    """The disk (or quota) ran out. Whatever was half-written has been removed."""

    hint = "Free some space on that disk and try again."

    def __init__(self, where: str, *, needed: int | None = None, free: int | None = None) -> None:
        need = f" {_size(needed)} were needed" if needed else ""
        have = f" and {_size(free)} are free" if free is not None else ""
        joint = ":" if need or have else ""
        super().__init__(f"the disk holding {where} is full{joint}{need}{have}; nothing was written")
        self.where, self.needed, self.free = where, needed, free


def _size(n: int | None) -> str:
    value = float(n or 0)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"  # pragma: no cover - the loop returns


class Cancelled(TaskPackError):
    def __init__(self, message: str = "Cancelled") -> None:
        super().__init__(message)
