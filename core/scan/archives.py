"""Archives inside luggage: ZIP and gzip streams inflated in memory, within bounds.

Each member is fed to a child scanner one level deeper; all levels of one luggage file
share one inflation budget. Past a bound we stop looking inside, which is not a finding.
"""

from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING, Any

from ..errors import Finding
from .engines import _Engine
from .scanner import _scan_bytes

if TYPE_CHECKING:
    from .luggage import StreamScanner

MAX_ARCHIVE_DEPTH = 2  # luggage.zip -> inner.gz -> bytes, and no deeper
MAX_INFLATED_BYTES = 256 * 1024 * 1024  # per luggage file, across all its archive levels
MAX_ARCHIVE_MEMBERS = 65536  # members looked into per archive; past that we stop looking


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_INFLATED_BYTES  # per luggage file, shared by all its levels

    def take(self, n: int) -> bool:
        if n > self.left:
            self.left = 0
            return False
        self.left -= n
        return True


_INFLATE_STEP = 1024 * 1024


def _clean_name(raw: bytes, engine: _Engine, index: int) -> str:
    """An archive member's name fit to show: never a credential, never control characters."""
    if _scan_bytes(raw, engine).credentials:
        return f"entry #{index}"
    text = raw.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 120 else text[:117] + "..."


class _Inflater:
    """Feeds one inner stream to a child scanner, within the shared inflation budget."""

    def __init__(self, parent: StreamScanner) -> None:
        self.parent = parent
        self.dead = False
        self.children: list[StreamScanner] = []  # still open
        self.found: list[Finding] = []  # from children already finished
        self.members = 0

    def child(self, name: str) -> StreamScanner | None:
        """A scanner for the next member, or None past MAX_ARCHIVE_MEMBERS (then stop)."""
        self.members += 1
        if self.members > MAX_ARCHIVE_MEMBERS:
            self.dead = True
            return None
        scanner = self.parent._nested(name)
        self.children.append(scanner)
        return scanner

    def done(self, child: StreamScanner | None) -> None:
        """A member ended: report it now, so a zip of many members holds one open at a time."""
        if child is not None and child in self.children:
            self.children.remove(child)
            self.found += child.finish()

    def inflate(self, d: Any, data: bytes, sink: StreamScanner) -> bytes:
        """Decompress `data` into `sink` step by step; returns what is left after the end."""
        budget = self.parent._budget
        while data and not self.dead:
            try:
                out = d.decompress(data, _INFLATE_STEP)
            except zlib.error:
                self.dead = True  # damaged: the outer bytes were scanned anyway
                return b""
            if out:
                if not budget.take(len(out)):
                    self.dead = True  # past the bound: stop looking inside, no finding
                    return b""
                sink.feed(out)
            data = d.unconsumed_tail
            if d.eof:
                return bytes(d.unused_data) + bytes(data)
        return b""

    def findings(self) -> list[Finding]:
        for c in list(self.children):
            self.done(c)
        return self.found

    def close(self) -> None:
        for c in self.children:
            c.close()


class _Gzip(_Inflater):
    def __init__(self, parent: StreamScanner) -> None:
        super().__init__(parent)
        sink = self.child(f"{parent.name} (inflated)")
        assert sink is not None
        self.sink = sink
        self.d = zlib.decompressobj(31)

    def feed(self, data: bytes) -> None:
        while data and not self.dead:
            rest = self.inflate(self.d, data, self.sink)
            if not self.d.eof:
                return
            self.d = zlib.decompressobj(31)  # concatenated members are one gzip file
            data = rest


_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")


class _Zip(_Inflater):
    """Reads local entries front to back, as the bytes arrive: no seeking, no disk."""

    def __init__(self, parent: StreamScanner) -> None:
        super().__init__(parent)
        self.buf = b""
        self.pos = 0  # how far into self.buf we have read
        self.state = "header"
        self.remaining = 0  # bytes of the current stored / skipped entry
        self.sink: StreamScanner | None = None
        self.d: Any = None
        self.descriptor = False
        self.index = 0

    def feed(self, data: bytes) -> None:
        self.buf = self.buf[self.pos :] + data if self.pos < len(self.buf) else data
        self.pos = 0
        while self.pos < len(self.buf) and not self.dead and self._step():
            pass

    def _after_entry(self) -> None:
        self.done(self.sink)
        self.sink = None
        self.state = "descriptor" if self.descriptor else "header"

    def _step(self) -> bool:
        """Advance one state; False when more bytes are needed."""
        if self.state == "header":
            return self._header()
        if self.state in ("stored", "skip"):
            take = self.buf[self.pos : self.pos + self.remaining]
            self.pos += len(take)
            self.remaining -= len(take)
            if self.state == "stored" and self.sink is not None and take:
                if not self.parent._budget.take(len(take)):
                    self.dead = True
                    return False
                self.sink.feed(take)
            if self.remaining == 0:
                self._after_entry()
                return True
            return False
        if self.state == "deflate":
            assert self.sink is not None
            data = self.buf[self.pos :]
            self.buf, self.pos = b"", 0
            rest = self.inflate(self.d, data, self.sink)
            if self.d.eof:
                self.buf = rest
                self._after_entry()
                return True
            return False
        # data descriptor after an entry: optional signature, crc, sizes (32- or 64-bit)
        if len(self.buf) - self.pos < 28:
            return False
        at = self.pos + (4 if self.buf[self.pos : self.pos + 4] == b"PK\x07\x08" else 0)
        for size in (12, 20):
            if self.buf[at + size : at + size + 2] == b"PK":
                self.pos = at + size
                self.state = "header"
                return True
        self.dead = True
        return False

    def _header(self) -> bool:
        buf, pos = self.buf, self.pos
        if len(buf) - pos < 30:
            return False
        (sig, _ver, flags, method, _t, _d, _crc, csize, usize, nlen, xlen) = _LOCAL_HEADER.unpack(
            buf[pos : pos + 30]
        )
        if sig != b"PK\x03\x04":
            self.dead = True  # the central directory (or garbage): nothing more to read
            return False
        if len(buf) - pos < 30 + nlen + xlen:
            return False
        raw_name = buf[pos + 30 : pos + 30 + nlen]
        extra = buf[pos + 30 + nlen : pos + 30 + nlen + xlen]
        self.pos = pos + 30 + nlen + xlen
        if csize == 0xFFFFFFFF or usize == 0xFFFFFFFF:
            csize = _zip64_csize(extra, usize, csize)
        self.descriptor = bool(flags & 0x08)
        self.index += 1
        name = f"{self.parent.name}!/{_clean_name(raw_name, self.parent._engine, self.index)}"
        self.sink = None
        if method == 8 and not flags & 0x01:
            self.sink = self.child(name)
            if self.sink is None:
                return False
            self.d = zlib.decompressobj(-15)
            self.state = "deflate"
            return True
        if self.descriptor and csize == 0:
            self.dead = True  # the length is only in the central directory: stop here
            return False
        if method == 0 and not flags & 0x01:
            self.sink = self.child(name)
            if self.sink is None:
                return False
            self.state = "stored"
        else:
            self.state = "skip"  # encrypted or a method we do not inflate: step over it
        self.remaining = csize
        if self.remaining == 0:
            self._after_entry()
        return True


def _zip64_csize(extra: bytes, usize: int, csize: int) -> int:
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, i)
        if tag == 0x0001:
            fields = extra[i + 4 : i + 4 + size]
            values = [struct.unpack_from("<Q", fields, j)[0] for j in range(0, len(fields) - 7, 8)]
            k = 0
            if usize == 0xFFFFFFFF and k < len(values):
                k += 1
            if csize == 0xFFFFFFFF and k < len(values):
                return int(values[k])
        i += 4 + size
    return csize
