"""The scanner core: chunks in, raw results out.

Engine positions become windows (``BEFORE`` bytes before a position, ``AFTER`` after it),
and a window is verified only once all its bytes have arrived, so chunking never changes
a result. ``scan_bytes`` does the same for a whole value in one engine call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import Finding
from .engines import Engine, _EngineStream
from .transcripts import _message_at, _Transcript, _turn_at
from .triggers import _TMAX
from .verifiers import _credential_at

BEFORE = 512  # bytes of context a verifier may look at before a trigger
AFTER = 1024  # ... and after it
_KEEP = BEFORE + AFTER + _TMAX  # bytes of the stream a scanner must remember

# the rule a finding names (errors.Finding.rule)
RULE_CREDENTIAL = "credential"
RULE_TRANSCRIPT = "transcript"
RULE_INSTRUCTION = "instruction_field"
RULE_ASK = "ask"


@dataclass
class _Raw:
    """What one scanned byte stream holds: first offset and count per credential kind."""

    credentials: dict[str, list[int]] = field(default_factory=dict)
    turns: _Transcript = field(default_factory=_Transcript)
    messages: _Transcript = field(default_factory=_Transcript)

    def findings(self, place: Callable[[int], str]) -> list[Finding]:
        out = []
        for kind, (first, count) in self.credentials.items():
            more = f"{count} in all; the first is shown" if count > 1 else ""
            out.append(Finding(RULE_CREDENTIAL, kind, place(first), more))
        if self.turns.found:
            at, a, b = self.turns.found
            out.append(
                Finding(
                    RULE_TRANSCRIPT,
                    "chat transcript",
                    place(at),
                    f"role-prefixed turns by {a} and {b}",
                )
            )
        if self.messages.found:
            at, a, b = self.messages.found
            out.append(
                Finding(
                    RULE_TRANSCRIPT,
                    "chat transcript",
                    place(at),
                    f"chat messages in JSON by {a} and {b}",
                )
            )
        return out


class _Core:
    """Engine positions -> windows -> verifiers, independent of how bytes were chunked."""

    def __init__(self, engine: Engine) -> None:
        self._stream: _EngineStream | None = engine.open()
        self._end = 0  # bytes fed so far
        self._tail = b""  # the last _KEEP bytes fed
        self._pending: list[int] = [0]  # the start of a value is always worth a look
        self._seen: set[int] = {0}
        self._zero_hit = False  # did a trigger start at byte 0, or is it only a turn check?
        self.raw = _Raw()
        self.zips: list[int] = []  # where ZIP local headers start (the caller takes them)

    def feed(self, chunk: bytes | bytearray | memoryview) -> None:
        n = len(chunk)
        if n == 0 or self._stream is None:
            return
        self._add(self._stream.scan(chunk))
        if self._stream.zips:
            self.zips += self._stream.zips
            self._stream.zips.clear()
        start, end = self._end, self._end + n
        if self._pending and self._pending[0] + AFTER <= end:
            ready = [p for p in self._pending if p + AFTER <= end]
            self._pending = [p for p in self._pending if p + AFTER > end]
            tail, tail_start = self._tail, start - len(self._tail)
            for p in ready:
                lo, hi = max(0, p - BEFORE), min(p + AFTER, end)
                parts = []
                if lo < start:
                    parts.append(tail[lo - tail_start : min(hi, start) - tail_start])
                if hi > start:
                    parts.append(bytes(chunk[max(lo, start) - start : hi - start]))
                self._verify(b"".join(parts), p - lo, p, lo == 0)
        self._tail = (self._tail + bytes(chunk[-_KEEP:]))[-_KEEP:]
        self._end = end
        if len(self._seen) > 256:
            self._seen = {p for p in self._seen if p >= end - _TMAX}

    def finish(self) -> _Raw:
        if self._stream is not None:
            self._add(self._stream.close())
            self._stream = None
            tail_start = self._end - len(self._tail)
            for p in self._pending:
                lo = max(0, p - BEFORE)
                window = self._tail[lo - tail_start : min(p + AFTER, self._end) - tail_start]
                if p < self._end:
                    self._verify(window, p - lo, p, lo == 0)
            self._pending = []
        return self.raw

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _add(self, hits: list[int]) -> None:
        for p in hits:
            if p == 0:
                self._zero_hit = True
            if p not in self._seen:
                self._seen.add(p)
                self._pending.append(p)
        self._pending.sort()

    def _verify(self, w: bytes, at: int, p: int, sos: bool) -> None:
        _verify_into(self.raw, w, at, p, sos, turns_only=p == 0 and not self._zero_hit)


def _verify_into(raw: _Raw, w: bytes, at: int, p: int, sos: bool, *, turns_only: bool) -> None:
    """Run the verifiers on window `w` (stream position `p` is `w[at]`) and record."""
    turn = _turn_at(w, at, sos)
    if turn is not None:
        role, where = turn
        raw.turns.add(p + where - at, role)
    if turns_only:
        return
    cred = _credential_at(w, at)
    if cred is not None:
        kind, where = cred
        entry = raw.credentials.setdefault(kind, [p + where - at, 0])
        entry[1] += 1
    msg = _message_at(w, at)
    if msg is not None:
        raw.messages.add(p, msg)


def scan_bytes(data: bytes, engine: Engine) -> _Raw:
    """A whole value at once: the same positions and windows as a stream, one engine call."""
    raw = _Raw()
    if not data:
        return raw
    hits = sorted(set(engine.positions(data)))
    if not hits or hits[0] != 0:
        _verify_into(raw, data[:AFTER], 0, 0, True, turns_only=True)
    for p in hits:
        lo = max(0, p - BEFORE)
        _verify_into(raw, data[lo : p + AFTER], p - lo, p, lo == 0, turns_only=False)
    return raw
