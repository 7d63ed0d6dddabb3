"""What every reader inside luggage shares (the formats are in :mod:`.archives`).

A reader is fed a stream's bytes and hands what it decodes to child scanners, one level
deeper, that its parent (the luggage scanner) makes for it; it charges every decoded
byte to the pack's allowance and stops (:class:`Stop`) once that runs out. The
compressed formats all decode through one interface, :class:`Decoder`.
"""

from __future__ import annotations

import bz2
import lzma
import zlib
from collections.abc import Callable
from typing import Any, Protocol

from ...errors import Finding
from .engines import Engine
from .scanner import scan_bytes

STEP = 1024 * 1024  # decode at most this much at a time


class Allowance(Protocol):
    """The decoded bytes a pack may still spend (the scan's budget)."""

    def take(self, n: int) -> bool: ...


class Child(Protocol):
    def feed(self, chunk: bytes | bytearray | memoryview) -> None: ...
    def finish(self) -> list[Finding]: ...
    def close(self) -> None: ...


class Parent(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def engine(self) -> Engine: ...
    @property
    def budget(self) -> Allowance: ...
    def nested(self, name: str) -> Child | None: ...


class Stop(Exception):
    """The budget ran out: stop looking inside."""


def clean_name(raw: bytes, engine: Engine, index: int) -> str:
    """An archive member's name fit to show: never a credential, never control characters."""
    if scan_bytes(raw, engine).credentials:
        return f"entry #{index}"
    text = raw.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 120 else text[:117] + "..."


# --- decoders: one interface over zlib, bz2 and lzma -----------------------------------------

_ZLIB = type(zlib.decompressobj())
DECODE_ERRORS = (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError)


class Decoder:
    """One compressed stream. `run` emits output in steps; returns what follows the end."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.head = b""  # zip LZMA: the 4-byte header and properties before the raw stream
        self.d: Any = None
        if kind == "deflate":
            self.d = zlib.decompressobj(-15)
        elif kind == "gzip":
            self.d = zlib.decompressobj(31)
        elif kind == "zlib":
            self.d = zlib.decompressobj(15)
        elif kind == "bz2":
            self.d = bz2.BZ2Decompressor()
        elif kind == "xz":
            self.d = lzma.LZMADecompressor(lzma.FORMAT_XZ)
        elif kind == "alone":
            self.d = lzma.LZMADecompressor(lzma.FORMAT_ALONE)
        elif kind != "zip-lzma":
            raise ValueError(kind)

    def run(self, data: bytes, emit: Callable[[bytes], None]) -> bytes | None:
        """Decode `data`; None while the stream wants more, else the bytes after its end."""
        if self.d is None:  # zip LZMA: version (2), properties size (2), properties
            self.head += data
            if len(self.head) < 4:
                return None
            size = int.from_bytes(self.head[2:4], "little")
            if size != 5:
                raise ValueError("unknown LZMA properties")
            if len(self.head) < 9:
                return None
            props, data, self.head = self.head[4:9], self.head[9:], b""
            lclppb, dict_size = props[0], int.from_bytes(props[1:5], "little")
            if lclppb >= 9 * 5 * 5:
                raise ValueError("bad LZMA properties")
            lc, lp, pb = lclppb % 9, (lclppb // 9) % 5, lclppb // 45
            self.d = lzma.LZMADecompressor(
                lzma.FORMAT_RAW,
                filters=[
                    {"id": lzma.FILTER_LZMA1, "dict_size": dict_size, "lc": lc, "lp": lp, "pb": pb}
                ],
            )
        d = self.d
        if isinstance(d, _ZLIB):
            while True:
                out = d.decompress(data, STEP)
                data = d.unconsumed_tail
                if out:
                    emit(out)
                if d.eof:
                    # the bytes after the end; never unconsumed_tail as well (the same bytes)
                    return bytes(d.unused_data)
                if not data and len(out) < STEP:
                    return None
        while True:
            out = d.decompress(data, STEP)
            data = b""
            if out:
                emit(out)
            if d.eof:
                return bytes(d.unused_data)
            if d.needs_input:
                return None


# --- the reader base -----------------------------------------------------------------------


class Reader:
    """Bytes in; members out to child scanners. `feed` returns the bytes that are not its
    own once it has ended or given up (`alive` False), for the parent to look at again."""

    def __init__(self, parent: Parent) -> None:
        self.parent = parent
        self.alive = True
        self.open: Child | None = None
        self.found: list[Finding] = []

    def child(self, name: str) -> Child | None:
        self.end_child()
        self.open = self.parent.nested(name)
        if self.open is None:
            raise Stop
        return self.open

    def end_child(self) -> None:
        """A member ended: report it now, so a zip of many members holds one open at a time."""
        if self.open is not None:
            child, self.open = self.open, None
            self.found += child.finish()

    def emit(self, sink: Child | None, out: bytes) -> None:
        if sink is None:
            return
        if not self.parent.budget.take(len(out)):
            raise Stop
        sink.feed(out)

    def feed(self, data: bytes) -> bytes:
        if not self.alive:
            return data
        try:
            return self._feed(data)
        except Stop:
            self.alive = False
            return b""

    def _feed(self, data: bytes) -> bytes:
        raise NotImplementedError

    def findings(self) -> list[Finding]:
        self.end_child()
        return self.found

    def close(self) -> None:
        if self.open is not None:
            self.open.close()
            self.open = None
