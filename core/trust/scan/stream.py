"""Luggage: ``StreamScanner`` for files of any size fed in chunks, and a read loop."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from ...errors import Finding
from .archives import (
    MAX_ARCHIVE_DEPTH,
    SNIFF_BYTES,
    ScanBudget,
    ZipReader,
    now,
    open_reader,
)
from .engines import SMALL, Engine, engine_named
from .readers import Reader, Stop
from .scanner import RULE_CREDENTIAL, _Core, scan_bytes

DEFAULT_CHUNK_SIZE = 4 * 1024 * 1024
#: the most a reader holds back when it stops (a zip header's name and extra field)
_READER_HOLD = 30 + 2 * 65535


class StreamScanner:
    """Credential and transcript scanner for luggage bytes of any size, fed in chunks.

    ``name`` is how the file appears in findings (e.g. ``files/notes.txt``); a finding's
    place reads ``files/notes.txt @ byte 10485771``. Chunks may be any size and split
    anything; the findings are the same. What the bytes hold is looked into as well
    (archives, compressed streams, UTF-16/32 text: :mod:`.archives`), levels deep, within
    one :class:`ScanBudget` (pass the pack's, or each scanner gets its own), and what is
    inside is scanned too (``files/a.zip!/notes.txt @ byte 12``). Memory use is bounded
    whatever the input.

    Use it as a context manager, or call :meth:`finish` (or :meth:`close`) exactly once.
    """

    def __init__(
        self,
        name: str,
        *,
        engine: str | None = None,
        budget: ScanBudget | None = None,
        _depth: int = 0,
        _checked_name: bool = False,
    ) -> None:
        self._engine = engine_named(engine)
        # what an archive holds is not small: a small stream's members get the fastest engine
        self._nested_engine = None if engine == SMALL else self._engine.name
        self._depth = _depth
        self._budget = budget if budget is not None else ScanBudget()
        self._name_findings: list[Finding] = []
        # a name is short: the pure-Python engine, whatever scans the bytes (same findings)
        if (
            not _checked_name
            and scan_bytes(name.encode("utf-8", "surrogatepass"), engine_named(SMALL)).credentials
        ):
            self._name_findings.append(
                Finding(RULE_CREDENTIAL, "credential in a file name", "the name of a luggage file")
            )
            name = "(a luggage file whose name holds a credential)"
        self._name = name
        self._core = _Core(self._engine)
        self._look = _depth < MAX_ARCHIVE_DEPTH
        self._head = b""  # the first bytes, until we know what they are
        self._sniffed = not self._look
        self._inner: Reader | None = None
        self._inside: list[Finding] = []  # from readers already finished
        self._tail = b""  # the last 3 bytes fed: a zip header may start in them
        self._fed = 0
        self._hunt_from = 0  # zip headers before this offset are not looked at (again)
        self._result: list[Finding] | None = None

    # what a reader (readers.Parent) asks of us
    @property
    def name(self) -> str:
        return self._name

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def budget(self) -> ScanBudget:
        return self._budget

    def nested(self, name: str) -> StreamScanner | None:
        """A scanner for a member of what this stream holds: one level deeper, the same
        budget; None once the budget has no stream left."""
        if not self._budget.stream():
            return None
        return StreamScanner(
            name,
            engine=self._nested_engine,
            budget=self._budget,
            _depth=self._depth + 1,
            _checked_name=True,
        )

    def feed(self, chunk: bytes | bytearray | memoryview) -> None:
        """Scan the next bytes of the stream."""
        if self._result is not None:
            raise ValueError("feed() after finish()")
        self._core.feed(chunk)
        start = self._fed
        self._fed += len(chunk)
        if self._look and len(chunk):
            if self._depth == 0:
                self._budget.grow(len(chunk))
                t0 = now()
                try:
                    self._look_inside(chunk, start)
                finally:
                    self._budget.charge(now() - t0)
            else:
                self._look_inside(chunk, start)
            self._tail = (self._tail + bytes(chunk[-3:]))[-3:]

    def _look_inside(self, chunk: bytes | bytearray | memoryview, start: int) -> None:
        zips = self._core.zips
        if self._budget.exhausted:
            zips.clear()
            return
        if not self._sniffed:
            self._head += bytes(chunk)
            if len(self._head) < SNIFF_BYTES:
                return
            self._sniff()
            return
        if self._inner is not None:
            self._route(bytes(chunk), start)
            if self._inner is not None and zips:  # headers it read itself need no hunting
                keep = start - _READER_HOLD
                if zips[0] < keep:
                    self._core.zips = [p for p in zips if p >= keep]
        elif zips and zips[-1] >= self._hunt_from:  # a zip starts here (not at byte 0)
            self._route(self._tail + bytes(chunk), start - len(self._tail))
        else:
            zips.clear()

    def _sniff(self) -> None:
        self._sniffed = True
        head, self._head = self._head, b""
        try:
            self._inner = open_reader(head, self)
        except Stop:
            self._inner = None
        self._route(head, 0)

    def _route(self, data: bytes, at: int) -> None:
        """Give `data` (the stream from offset `at` to what was fed) to the reader; when
        it ends, look for the next zip local header in what it did not take."""
        while not self._budget.exhausted:
            if self._inner is not None:
                rest = self._inner.feed(data)
                if self._inner.alive:
                    return
                self._inside += self._inner.findings()
                self._inner = None
                data, at = rest, self._fed - len(rest)
                self._hunt_from = max(self._hunt_from, at)
            p = self._next_zip()
            if p is None or p < at:
                return
            data, at = data[p - at :], p
            self._hunt_from = p + 1
            if not self._budget.stream():
                return
            self._inner = ZipReader(self)

    def _next_zip(self) -> int | None:
        zips = self._core.zips
        while zips and zips[0] < self._hunt_from:
            zips.pop(0)
        return zips[0] if zips else None

    def finish(self) -> list[Finding]:
        """Findings for the whole stream (and what was inside it), in a stable order."""
        if self._result is None:
            if not self._sniffed:
                t0 = now()
                self._sniff()
                if self._depth == 0:
                    self._budget.charge(now() - t0)
            raw = self._core.finish()
            self._core.close()
            found = list(self._name_findings)
            found += raw.findings(lambda offset: f"{self.name} @ byte {offset}")
            found += self._inside
            if self._inner is not None:
                found += self._inner.findings()
                self._inner = None
            self._result = found
        return list(self._result)

    def close(self) -> None:
        """Release the engine stream without reporting (e.g. after an error)."""
        self._core.close()
        if self._inner is not None:
            self._inner.close()

    def __enter__(self) -> StreamScanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class LuggageScan:
    """One pack's luggage, scanned file by file with one :class:`ScanBudget` for all.

    The writer and the judge (C7, C8) both scan through this, so neither is looser
    (spec §6): ``scan.feed(name, chunk)`` as the bytes stream past, then ``finish()``."""

    def __init__(self, *, engine: str | None = None) -> None:
        self.budget = ScanBudget()
        self._engine = engine
        self._files: dict[str, StreamScanner] = {}

    def file(self, name: str) -> StreamScanner:
        scanner = self._files.get(name)
        if scanner is None:
            scanner = self._files[name] = StreamScanner(
                name, engine=self._engine, budget=self.budget
            )
        return scanner

    def feed(self, name: str, chunk: bytes | bytearray | memoryview) -> None:
        self.file(name).feed(chunk)

    def finish(self) -> list[Finding]:
        """Every file's findings, in the order the files were first seen."""
        return [f for scanner in self._files.values() for f in scanner.finish()]

    def close(self) -> None:
        for scanner in self._files.values():
            scanner.close()


class _Readable(Protocol):
    def readinto(self, buffer: bytearray | memoryview, /) -> int | None: ...


class _Digest(Protocol):
    def update(self, data: bytes | bytearray | memoryview, /) -> None: ...


def scan_luggage_stream(
    name: str,
    fileobj: _Readable,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    *,
    digest: _Digest | None = None,
    engine: str | None = None,
) -> list[Finding]:
    """Scan a binary file object to its end. `digest`, if given, is fed the same bytes,
    so a judge can hash and scan in one read."""
    buf = bytearray(chunk_size)
    view = memoryview(buf)
    with StreamScanner(name, engine=engine) as scanner:
        while n := fileobj.readinto(buf):
            if digest is not None:
                digest.update(view[:n])
            scanner.feed(view[:n])
        return scanner.finish()
