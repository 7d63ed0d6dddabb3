"""Every error TaskPack raises, in one tree — every error a command can end with.

The first question about any failure is *whose fault is it*: the caller's (a wrong
argument, an unknown passport, a stale version), the file's (a corrupt or hostile
pack), the rules' (the pack is fine, but it must not be produced or landed), or the
store's. The number after each class is the exit code the CLI ends with::

    TaskPackError                   base; .message is one sentence, .hint says what to do   1
    ├── UsageError                  the caller misused the API or the command line          1
    │   ├── NotFound                no passport / ask / fact with that id                   1
    │   ├── VersionConflict         expected_version did not match (someone else wrote)     1
    │   ├── InvalidMove             a lifecycle move the table does not allow (invalid_state) 1
    │   ├── RestoreRefused          restoring a ✓ is not allowed here (spec §4.2)           2
    │   ├── MergeRefused            a receipt into the wrong passport; a handoff never (§4.4.1) 2
    │   ├── ClaimTaken              a landing's key (A2A: principal, messageId) went to another pack 1
    │   ├── SettingsError  (app)    the desk's settings.json cannot be read                 1
    │   └── KeyringUnavailable (app) no system keyring to keep A2A tokens in                1
    ├── PackError                   the file is at fault: corrupt, hostile or not a pack    1
    │   ├── FormatError             not a zip / not JSON / not a bag / a field of the wrong type
    │   ├── UnsupportedVersion      a `taskpack` or `spec` value we do not recognise (§8)
    │   ├── UnsafeEntry             an entry name or type that could escape or collide
    │   ├── IntegrityError          a digest, CRC, size or manifest entry that does not agree
    │   ├── LimitExceeded           a bomb: too large, too many entries, too deep, too long
    │   ├── Unreadable              the judge cannot judge the file at all (not a pack, hostile)
    │   ├── UnprovenRead            a flat pack read on a guess not yet borne out: read again
    │   └── NotConformant           intact, but the judge fails it: `convert` re-encodes     2
    │                               only a conformant pack (`--repair` repairs and lists)
    ├── Refused                     the rules forbid producing this pack (§4.1, §4.3, §4.5)  2
    │   └── LandingRefused          a pack or receipt carrying a credential or transcript   2
    │                               is not landed: nothing was stored
    ├── StoreError                  the store itself is unusable (newer schema, damaged)    1
    │   ├── AlreadyLanded           this pack already landed (landing answers "already")    1
    │   └── Lost  (app)             the team desk's server dropped the connection under a   1
    │                               statement: a read runs again, a write was rolled back
    ├── DiskFull                    no space left: says how much was needed; nothing was kept 1
    ├── RemoteError  (app)          the other desk or the network said no over A2A          1
    ├── A2AStoreError  (app)        the A2A ledger (a2a.sqlite3) is locked or unusable      1
    └── Cancelled                   the caller asked a long operation to stop              130

Classes marked (app) are defined beside the code that raises them (`app/settings.py`,
`app/a2a/`), since core knows nothing of settings files, keyrings or the network; they are
drawn here so this is the one list. Outside the tree a command can also end with an OSError (a path that cannot be read or
written: exit 1) or KeyboardInterrupt (exit 130); `app.cli.main` turns both into one line.

`str(error)` is the one line a person sees (English, for the CLI). A window translates
instead: every error has a stable `code` (``"not_found"``, ``"merge_wrong_target"`` …)
and `params`, the values its sentence is built from, so a translated template can say
the same thing. `exit_code` is what the CLI ends with. Nothing here ever includes the
bytes of a secret: refusals name the *kind* and the *place* only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

EXIT_ERROR, EXIT_REFUSED, EXIT_CANCELLED = 1, 2, 130


#: an error's params that hold what a pack chose (a name, an id, a lineage target, a kind):
#: every front end quotes or withholds these, never prints them as its own words
SENDER_PARAMS = (
    "name",
    "other",
    "id",
    "path",
    "target",
    "named",
    "kind",
    "asks",
    "key",
    "spec",
    "field",
)


class TaskPackError(Exception):
    """Base of every TaskPack error. `str()` is one sentence a person can act on."""

    #: what a person should do about it; appended to the message when shown
    hint: str = ""
    #: stable identifier of the sentence, for translation (a subclass or a raise site
    #: may name a more precise one); `params` are the values the sentence is built from
    code: str = "error"
    #: what the CLI exits with when a command ends with this error
    exit_code: int = EXIT_ERROR

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        text = self.message.rstrip(".")
        return f"{text}. {self.hint}" if self.hint else f"{text}."


# --- the caller's fault -------------------------------------------------------------


class UsageError(TaskPackError):
    """The caller asked for something that cannot be done as asked."""

    code = "usage"


class NotFound(UsageError):
    hint = "Check the id with `taskpack list`."
    code = "not_found"


class VersionConflict(UsageError):
    hint = "Someone else changed it first: read it again and retry with the new version."
    code = "version_conflict"


class InvalidMove(UsageError):
    """A lifecycle move the state table does not list. Its code is `invalid_state`."""

    code = "invalid_state"


class RestoreRefused(UsageError):
    """Restoring a ✓ needs this machine = verified_on and this desk's record that it proved
    the fact here and sealed it when it packed (never a pack's word)."""

    code = "restore_refused"
    exit_code = EXIT_REFUSED


class MergeRefused(UsageError):
    """A receipt may merge only into the passport it answers, and a handoff never (§4.4.1).

    Codes: ``merge_handoff`` (a handoff given --into), ``merge_receipt_as_handoff`` (a
    receipt landed as if it were a handoff; params ``target``), ``merge_no_target``
    (lineage names nothing), ``merge_wrong_target`` (params ``target``, ``into``).
    """

    hint = "Nothing was changed."
    code = "merge_refused"
    exit_code = EXIT_REFUSED


# --- the file's fault -----------------------------------------------------------------


class PackError(TaskPackError):
    """The file is at fault. `place` names where (entry name, field path), if known."""

    hint = "Ask the sender for a fresh copy; nothing was written."
    code = "pack_error"

    def __init__(
        self,
        message: str,
        *,
        place: str | None = None,
        hint: str | None = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message, hint=hint, code=code, params=params)
        self.place = place
        if place is not None:
            self.params.setdefault("place", place)


class FormatError(PackError):
    code = "format"


class UnsupportedVersion(PackError):
    hint = "It was made by a newer or different tool; ask the sender for a TaskPack 0.1 file."
    code = "unsupported_version"


class UnsafeEntry(PackError):
    hint = "The file may be hostile; nothing was written. Do not open it with other tools."
    code = "unsafe_entry"


class IntegrityError(PackError):
    hint = "The file was damaged or altered in transit; ask the sender to send it again."
    code = "integrity"


class LimitExceeded(PackError):
    hint = "The file may be a decompression bomb; nothing was written."
    code = "limit_exceeded"


class Unreadable(PackError):
    """The file cannot be judged at all (not a pack, or hostile): exit 1, not 2."""

    code = "unreadable"


class NotConformant(PackError):
    """The pack is readable and intact but not conformant as written (spec §6), so
    `convert` will not re-encode it unchanged. `reasons` are the judge's, each
    ``"C6: …"`` (also in `params["reasons"]`)."""

    hint = (
        "See `taskpack conformance` for the whole report, or convert with --repair to "
        "have it repaired (each repair is listed)."
    )
    code = "not_conformant"
    exit_code = EXIT_REFUSED

    def __init__(
        self, reasons: Sequence[str], *, message: str | None = None, hint: str | None = None
    ) -> None:
        self.reasons = list(reasons)
        checks = sorted(
            {r.split(":", 1)[0] for r in self.reasons},
            key=lambda c: int(c[1:]) if c[1:].isdigit() else 99,
        )
        super().__init__(
            message
            or f"Not converted: the pack is not conformant as written (fails {', '.join(checks)})",
            hint=hint,
            params={"reasons": self.reasons, "checks": checks},
        )


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

    def to_data(self) -> dict[str, str]:
        return {"rule": self.rule, "kind": self.kind, "place": self.place, "detail": self.detail}


def _findings_text(findings: Sequence[Finding]) -> str:
    shown = "; ".join(str(f) for f in findings[:3])
    more = f" (and {len(findings) - 3} more)" if len(findings) > 3 else ""
    return shown + more


class Refused(TaskPackError):
    """The pack must not be produced. `findings` says what and where, never the secret.

    `params["findings"]` holds each finding as data (rule, kind, place, detail)."""

    hint = "Remove it from the passport or luggage and pack again."
    code = "refused"
    exit_code = EXIT_REFUSED
    verb = "Refusing to pack"

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = list(findings)
        super().__init__(
            f"{self.verb}: {_findings_text(self.findings)}",
            params={"findings": [f.to_data() for f in self.findings]},
        )


class LandingRefused(Refused):
    """A pack or receipt carrying a credential or a chat transcript is not landed (§4.1):
    the landing path refuses it before anything is stored."""

    hint = (
        "Nothing was stored. Ask the sender to rotate that secret (treat it as leaked) "
        "and send a clean pack."
    )
    code = "landing_refused"
    verb = "Not landing this pack, it carries"


class ClaimTaken(UsageError):
    """A landing's idempotency key was claimed first by a pack with other content: the
    landing was refused whole, nothing stored (A2A answers 409 DUPLICATE_MESSAGE_ID)."""

    hint = "Send other content under a new key; a retry of the same content gets its result."
    code = "claim_taken"

    def __init__(self, scope: str, key: str, passport_id: str) -> None:
        super().__init__(
            f"the key {key!r} already names another landing; nothing was landed",
            params={"scope": scope, "key": key, "passport_id": passport_id},
        )
        self.passport_id = passport_id


# --- the store's fault ----------------------------------------------------------------


class StoreError(TaskPackError):
    """The store itself is unusable (newer schema, damaged database)."""

    hint = "Close other TaskPack Desk windows, or point TASKPACK_HOME at another folder."
    code = "store"


class AlreadyLanded(StoreError):
    """The store refused a second landing of the same pack; names the passport it went to.

    Landing catches it and answers "already landed as …" — a person does not see it."""

    hint = "The same pack lands once; nothing changed."
    code = "already_landed"

    def __init__(self, passport_id: str) -> None:
        super().__init__(
            f"this pack already landed in {passport_id}", params={"passport_id": passport_id}
        )
        self.passport_id = passport_id


class DiskFull(TaskPackError):
    """The disk (or quota) ran out. Whatever was half-written has been removed."""

    hint = "Free some space on that disk and try again."
    code = "disk_full"

    def __init__(self, where: str, *, needed: int | None = None, free: int | None = None) -> None:
        need = f" {_size(needed)} were needed" if needed else ""
        have = f" and {_size(free)} are free" if free is not None else ""
        joint = ":" if need or have else ""
        super().__init__(
            f"the disk holding {where} is full{joint}{need}{have}; nothing was written",
            params={"where": where, "needed": needed, "free": free},
        )
        self.where, self.needed, self.free = where, needed, free


def _size(n: int | None) -> str:
    value = float(n or 0)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"  # pragma: no cover - the loop returns


class Cancelled(TaskPackError):
    code = "cancelled"
    exit_code = EXIT_CANCELLED

    def __init__(self, message: str = "Cancelled") -> None:
        super().__init__(message)


def sentence(exc: BaseException, *, unknown: str | None = None) -> str:
    """One line a person can act on, for any exception (English; a window translates a
    TaskPackError by its `code` instead). Never a traceback, never a secret's bytes:
    an exception from outside the tree is named by its type only, or told as `unknown`."""
    if isinstance(exc, TaskPackError):
        return str(exc)
    if isinstance(exc, OSError):
        target = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror or exc}{target}. Check the path and its permissions."
    return (
        unknown or f"Something unexpected went wrong ({type(exc).__name__}); nothing was changed."
    )
