"""Luggage: ``StreamScanner`` for files of any size fed in chunks, and a read loop."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from ..errors import Finding
from .archives import MAX_ARCHIVE_DEPTH, _Budget, _Gzip, _Zip
from .engines import _engine
from .scanner import RULE_CREDENTIAL, _Core, _scan_bytes

DEFAULT_CHUNK_SIZE = 4 * 1024 * 1024


class StreamScanner:
    """Credential and transcript scanner for luggage bytes of any size, fed in chunks.

    ``name`` is how the file appears in findings (e.g. ``files/notes.txt``); a finding's
    place reads ``files/notes.txt @ byte 10485771``. Chunks may be any size and split
    anything; the findings are the same. A ZIP or gzip stream (recognised by its first
    bytes) is also inflated in memory, at most :data:`MAX_ARCHIVE_DEPTH` levels and
    :data:`MAX_INFLATED_BYTES` in all, and what is inside is scanned too
    (``files/a.zip!/notes.txt @ byte 12``). Memory use is bounded whatever the input.

    Use it as a context manager, or call :meth:`finish` (or :meth:`close`) exactly once.
    """

    def __init__(
        self,
        name: str,
        *,
        engine: str | None = None,
        _depth: int = 0,
        _budget: _Budget | None = None,
        _checked_name: bool = False,
    ) -> None:
        self._engine = _engine(engine)
        self._depth = _depth
        self._budget = _budget or _Budget()
        self._name_findings: list[Finding] = []
        if (
            not _checked_name
            and _scan_bytes(name.encode("utf-8", "surrogatepass"), self._engine).credentials
        ):
            self._name_findings.append(
                Finding(RULE_CREDENTIAL, "credential in a file name", "the name of a luggage file")
            )
            name = "(a luggage file whose name holds a credential)"
        self.name = name
        self._core = _Core(self._engine)
        self._head = b""  # the first bytes, until we know whether this is an archive
        self._inner: _Zip | _Gzip | None = None
        self._sniffed = _depth >= MAX_ARCHIVE_DEPTH
        self._result: list[Finding] | None = None

    def feed(self, chunk: bytes | bytearray | memoryview) -> None:
        """Scan the next bytes of the stream."""
        if self._result is not None:
            raise ValueError("feed() after finish()")
        self._core.feed(chunk)
        if not self._sniffed:
            self._head += bytes(chunk)  # at most once with more than 3 bytes
            if len(self._head) < 4:
                return
            self._sniff()
            head, self._head = self._head, b""
            if self._inner is not None:
                self._inner.feed(head)
            return
        if self._inner is not None and not self._inner.dead:
            self._inner.feed(bytes(chunk))

    def _sniff(self) -> None:
        self._sniffed = True
        if self._head.startswith(b"PK\x03\x04"):
            self._inner = _Zip(self)
        elif self._head.startswith(b"\x1f\x8b\x08"):
            self._inner = _Gzip(self)

    def finish(self) -> list[Finding]:
        """Findings for the whole stream (and what was inside it), in a stable order."""
        if self._result is None:
            if not self._sniffed and self._head:
                self._sniff()
                if self._inner is not None:
                    self._inner.feed(self._head)
            raw = self._core.finish()
            self._core.close()
            found = list(self._name_findings)
            found += raw.findings(lambda offset: f"{self.name} @ byte {offset}")
            if self._inner is not None:
                found += self._inner.findings()
            self._result = found
        return list(self._result)

    def close(self) -> None:
        """Release the engine stream without reporting (e.g. after an error)."""
        self._core.close()
        if self._inner is not None:
            self._inner.close()

    def _nested(self, name: str) -> StreamScanner:
        """A scanner for a member of this archive: one level deeper, the same budget."""
        return StreamScanner(
            name,
            engine=self._engine.name,
            _depth=self._depth + 1,
            _budget=self._budget,
            _checked_name=True,
        )

    def __enter__(self) -> StreamScanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


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
