"""Looking inside luggage: archives, compressed streams and UTF-16/32 text, within bounds.

A luggage file's own bytes are always scanned. When they also *are* something that
holds other bytes, those are decoded as they stream past and fed to a child scanner one
level deeper (whose bytes may in turn be an archive, and so on):

* ZIP — local entries read front to back, no seeking, no disk: stored, deflate, bzip2
  and LZMA members; entries with data descriptors (a stored one is ended by checking the
  descriptor's CRC and size, so a descriptor cannot hide the members after it); a ZIP
  that does not start at byte 0 (a self-extractor stub, one byte in front) is found by
  its first local header anywhere in the stream, and reading resumes at the next local
  header after anything it cannot follow;
* gzip (concatenated members), bzip2 and xz (concatenated streams), ``.lzma``, zlib;
* tar (ustar, GNU, pax), whose members are scanned under their own names;
* UTF-16 and UTF-32 text (by BOM, or by the shape of its first bytes: ASCII with zero
  bytes between), transcoded to UTF-8 so every shape is seen.

These are the formats the standard library reads (zipfile, gzip, bz2, lzma, tarfile);
the readers are hand-written because those modules pull from a seekable file, and the
scanner is pushed chunks it must not keep.

All levels of all luggage files of one pack share one :class:`ScanBudget`: bytes decoded
(a base allowance plus a multiple of the pack's luggage), streams opened, and seconds
spent inside. Past any bound we stop looking inside, which is not a finding (the bytes
already seen were scanned). A damaged stream is the bytes it is.

This module never imports the scanner that uses it (``luggage``): a reader is given its
parent as a :class:`.readers.Parent` and asks it for children (:mod:`.readers` holds what
every reader shares).
"""

from __future__ import annotations

import codecs
import heapq
import struct
import time
import zlib

from .readers import (
    DECODE_ERRORS,
    STEP,
    Decoder,
    Parent,
    Reader,
    clean_name,
)

MAX_ARCHIVE_DEPTH = 16  # levels of archives inside archives (a quine zip stops here)
MAX_INFLATED_BYTES = 256 * 1024 * 1024  # decoded, per pack, before the luggage allowance
INFLATE_PER_LUGGAGE_BYTE = 8  # ... plus this many decoded bytes per byte of luggage
MAX_ARCHIVE_MEMBERS = 20_000  # members and streams looked into, per pack
MAX_INSIDE_SECONDS = 4.0  # time spent looking inside archives, per pack (a backstop)

SNIFF_BYTES = 512  # what a stream's first bytes must show to be recognised


class ScanBudget:
    """What looking inside archives may cost for one pack: every luggage file, every level.

    Bytes: :data:`MAX_INFLATED_BYTES` plus :data:`INFLATE_PER_LUGGAGE_BYTE` for every
    byte of luggage fed (so a bomb gets the base, and a big ordinary archive is read
    through); streams: :data:`MAX_ARCHIVE_MEMBERS`; time: :data:`MAX_INSIDE_SECONDS`.
    Once one runs out, nothing more is opened or decoded for the pack."""

    def __init__(self) -> None:
        self.left = MAX_INFLATED_BYTES
        self.streams = MAX_ARCHIVE_MEMBERS
        self.seconds = MAX_INSIDE_SECONDS
        self.exhausted = False

    def grow(self, luggage_bytes: int) -> None:
        if not self.exhausted:
            self.left += luggage_bytes * INFLATE_PER_LUGGAGE_BYTE

    def take(self, n: int) -> bool:
        if self.exhausted or n > self.left:
            self.exhausted = True
            return False
        self.left -= n
        return True

    def stream(self) -> bool:
        if self.exhausted or self.streams <= 0:
            self.exhausted = True
            return False
        self.streams -= 1
        return True

    def charge(self, seconds: float) -> None:
        self.seconds -= seconds
        if self.seconds <= 0:
            self.exhausted = True


# --- readers ---------------------------------------------------------------------------------


_MAGIC = {"gzip": b"\x1f\x8b", "bz2": b"BZh", "xz": b"\xfd7zXZ\x00"}


class _Compressed(Reader):
    """A gzip, bzip2, xz, .lzma or zlib stream; concatenated members are one file."""

    def __init__(self, parent: Parent, kind: str) -> None:
        super().__init__(parent)
        self.kind = kind
        self.sink = self.child(f"{parent.name} (inflated)")
        self.dec: Decoder | None = Decoder(kind)
        self.pending = b""

    def _feed(self, data: bytes) -> bytes:
        data, self.pending = self.pending + data, b""
        while data:
            if self.dec is None:  # between members: another one, or the end
                magic = _MAGIC.get(self.kind)
                if magic and len(data) < len(magic) and magic.startswith(data):
                    self.pending = data
                    return b""
                if not magic or not data.startswith(magic):
                    self.alive = False
                    return data
                self.dec = Decoder(self.kind)
            try:
                rest = self.dec.run(data, lambda out: self.emit(self.sink, out))
            except DECODE_ERRORS:
                self.alive = False  # damaged: its bytes were scanned as they are
                return b""
            if rest is None:
                return b""
            self.dec, data = None, rest
        return b""


_LOCAL = b"PK\x03\x04"
_CENTRAL = b"PK\x01\x02"
_DESCRIPTOR = b"PK\x07\x08"
_NEXT = (_LOCAL, _CENTRAL, b"PK\x05\x06", b"PK\x06\x06")
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_METHODS = {8: "deflate", 12: "bz2", 14: "zip-lzma"}


class ZipReader(Reader):
    """Reads local entries front to back, as the bytes arrive: no seeking, no disk.

    What it cannot follow (an encrypted or unknown member of unknown length, the central
    directory) ends it; the bytes after are handed back, and the scanner looks for the
    next local header in them."""

    def __init__(self, parent: Parent) -> None:
        super().__init__(parent)
        self.buf = b""
        self.pos = 0
        self.state = "header"
        self.remaining: int | None = 0  # bytes of the current entry, None: until its end
        self.dec: Decoder | None = None
        self.descriptor = False
        self.index = 0
        self.crc = 0  # stored entry of unknown length: CRC and size of what was fed
        self.fed = 0

    def _feed(self, data: bytes) -> bytes:
        self.buf = self.buf[self.pos :] + data if self.pos < len(self.buf) else data
        self.pos = 0
        while self.alive and self.pos <= len(self.buf) and self._step():
            pass
        if not self.alive:
            rest, self.buf, self.pos = self.buf[self.pos :], b"", 0
            return rest
        return b""

    def _give_up(self) -> bool:
        self.end_child()
        self.alive = False
        return False

    def _entry_done(self) -> None:
        self.end_child()
        self.dec = None
        self.state = "descriptor" if self.descriptor else "header"

    def _step(self) -> bool:
        """Advance one state; False when more bytes are needed (or it ended)."""
        if self.state == "header":
            return self._header()
        if self.state == "descriptor":
            return self._after_descriptor()
        if self.state == "stored-dd":
            return self._stored_until_descriptor()
        if self.remaining is None:  # a self-ending stream: deflate, bzip2, LZMA with EOS
            if self.pos >= len(self.buf):
                return False
            assert self.dec is not None
            data, self.buf, self.pos = self.buf[self.pos :], b"", 0
            try:
                rest = self.dec.run(data, lambda out: self.emit(self.open, out))
            except DECODE_ERRORS:
                self.buf = data[1:]  # lost the thread: look for the next header after
                return self._give_up()
            if rest is None:
                return False
            self.buf = rest
            self._entry_done()
            return True
        take = self.buf[self.pos : self.pos + self.remaining]
        self.pos += len(take)
        self.remaining -= len(take)
        if take and self.open is not None:
            if self.dec is None:
                self.emit(self.open, take)
            else:
                try:
                    self.dec.run(take, lambda out: self.emit(self.open, out))
                except DECODE_ERRORS:
                    self.end_child()  # damaged member: step over the rest of it
                    self.dec = None
        if self.remaining == 0:
            self._entry_done()
            return True
        return False

    def _header(self) -> bool:
        buf, pos = self.buf, self.pos
        if len(buf) - pos < 30:
            if buf[pos : pos + 4] != _LOCAL[: len(buf) - pos]:
                return self._give_up()
            return False
        (sig, _ver, flags, method, _t, _d, _crc, csize, usize, nlen, xlen) = _LOCAL_HEADER.unpack(
            buf[pos : pos + 30]
        )
        if sig != _LOCAL:
            return self._give_up()  # the central directory (or garbage): this zip ends here
        if len(buf) - pos < 30 + nlen + xlen:
            return False
        raw_name = buf[pos + 30 : pos + 30 + nlen]
        extra = buf[pos + 30 + nlen : pos + 30 + nlen + xlen]
        self.pos = pos + 30 + nlen + xlen
        if csize == 0xFFFFFFFF or usize == 0xFFFFFFFF:
            csize = _zip64_csize(extra, usize, csize)
        self.descriptor = bool(flags & 0x08)
        self.index += 1
        name = f"{self.parent.name}!/{clean_name(raw_name, self.parent.engine, self.index)}"
        encrypted = bool(flags & 0x01)
        known = not (self.descriptor and csize == 0)
        self.remaining = csize if known else None
        self.dec = None
        if encrypted or (method != 0 and method not in _METHODS):
            if not known:  # its length is only in the central directory: resynchronise
                self.pos = pos + 4
                return self._give_up()
            self.state = "data"  # step over it, unread
        elif method == 0:
            self.child(name)
            if known:
                self.state = "data"
            else:
                self.state, self.crc, self.fed = "stored-dd", 0, 0
        else:
            if not known and method == 14 and not flags & 0x02:
                self.pos = pos + 4  # LZMA without an end marker, length unknown
                return self._give_up()
            self.child(name)
            self.dec = Decoder(_METHODS[method])
            self.state = "data"
        if self.remaining == 0:
            self._entry_done()
        return True

    def _after_descriptor(self) -> bool:
        """After an entry with a data descriptor: skip it (signature optional, 32/64-bit)."""
        at = self.pos
        if len(self.buf) - at < 4:
            return False
        if self.buf[at : at + 4] == _DESCRIPTOR:
            at += 4
        if len(self.buf) - at < 24:
            return False
        for size in (12, 20):
            if self.buf[at + size : at + size + 4] in _NEXT:
                self.pos = at + size
                self.state = "header"
                return True
        self.pos = at
        return self._give_up()

    def _stored_until_descriptor(self) -> bool:
        """A stored entry of unknown length ends where a data descriptor holding the CRC
        and size of the bytes before it stands (with its signature, or right before the
        next header without). Bytes that might still be that descriptor are held back.

        Candidate ends are checked in order with a running CRC, sizes first, so a member
        full of fake signatures costs one pass."""
        window = self.buf[self.pos :]
        crc, upto = self.crc, 0
        safe = max(0, len(window) - 24)
        heap: list[tuple[int, int, int]] = []  # (end of content, descriptor size, next at)

        def check(end: int, dsize: int, next_at: int) -> int | None:
            nonlocal crc, upto
            size = self.fed + end
            if dsize in (12, 16):
                at = end + (4 if dsize == 16 else 0)
                _c, a, b = struct.unpack_from("<III", window, at)
                if a != size & 0xFFFFFFFF or b != a:
                    return None
            else:
                at = end + (4 if dsize == 24 else 0)
                a, b = struct.unpack_from("<QQ", window, at + 4)
                if a != size or b != size:
                    return None
            crc = zlib.crc32(window[upto:end], crc)
            upto = end
            return next_at if struct.unpack_from("<I", window, at)[0] == crc else None

        i = 0
        while True:
            k = _find_any(window, (_DESCRIPTOR, _LOCAL, _CENTRAL), i)
            while heap and (k < 0 or heap[0][0] <= k - 20):
                end, dsize, next_at = heapq.heappop(heap)
                if end >= upto and (found := check(end, dsize, next_at)) is not None:
                    return self._stored_end(window, end, found)
            if k < 0:
                break
            if window[k : k + 4] == _DESCRIPTOR:
                if len(window) - k < 28:  # cannot tell yet
                    safe = min(safe, k)
                    break
                heapq.heappush(heap, (k, 16, k + 16))
                heapq.heappush(heap, (k, 24, k + 24))
            else:
                for dsize in (20, 12):
                    if k - dsize >= 0:
                        heapq.heappush(heap, (k - dsize, dsize, k))
            i = k + 1
        while heap:  # what is left before an undecided end
            end, dsize, next_at = heapq.heappop(heap)
            if end < safe and end >= upto and (found := check(end, dsize, next_at)) is not None:
                return self._stored_end(window, end, found)
        if safe:
            crc = zlib.crc32(window[upto:safe], crc) if safe > upto else crc
            self.emit(self.open, window[:safe])
            self.crc, self.fed = crc, self.fed + safe
        self.buf, self.pos = window[safe:], 0
        return False

    def _stored_end(self, window: bytes, end: int, next_at: int) -> bool:
        self.emit(self.open, window[:end])
        self.buf, self.pos = window[next_at:], 0
        self.end_child()
        self.state = "header"
        return True


def _find_any(data: bytes, needles: tuple[bytes, ...], start: int) -> int:
    found = [i for i in (data.find(n, start) for n in needles) if i >= 0]
    return min(found) if found else -1


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


class _Tar(Reader):
    """ustar / GNU / pax: 512-byte headers, members padded to 512 bytes."""

    def __init__(self, parent: Parent) -> None:
        super().__init__(parent)
        self.buf = b""
        self.remaining = 0
        self.pad = 0
        self.zeros = 0
        self.index = 0

    def _feed(self, data: bytes) -> bytes:
        buf, pos = self.buf + data, 0
        while True:
            if self.remaining:
                take = buf[pos : pos + self.remaining]
                pos += len(take)
                self.remaining -= len(take)
                self.emit(self.open, take)
                if self.remaining:
                    break
                self.end_child()
            if self.pad:
                skip = min(self.pad, len(buf) - pos)
                pos += skip
                self.pad -= skip
                if self.pad:
                    break
            if len(buf) - pos < 512:
                break
            block = buf[pos : pos + 512]
            if block == bytes(512):
                pos += 512
                self.zeros += 1
                if self.zeros == 2:
                    self.alive = False
                    self.buf = b""
                    return buf[pos:]
                continue
            size = _tar_header(block)
            if size is None:  # not a header: this archive ends here
                self.alive = False
                self.buf = b""
                return buf[pos:]
            pos += 512
            self.zeros = 0
            self.index += 1
            if size:
                raw = block[345:500].rstrip(b"\0")
                raw = raw + b"/" + block[:100].rstrip(b"\0") if raw else block[:100].rstrip(b"\0")
                name = clean_name(raw, self.parent.engine, self.index)
                self.child(f"{self.parent.name}!/{name}")
                self.remaining, self.pad = size, -size % 512
        self.buf = buf[pos:]
        return b""


def _tar_header(block: bytes) -> int | None:
    """The member size a tar header declares, or None if `block` is no tar header."""
    try:
        stored = int(block[148:156].replace(b"\0", b" ").strip() or b"-1", 8)
    except ValueError:
        return None
    if stored != sum(block[:148]) + 8 * 32 + sum(block[156:]):
        return None
    field = block[124:136]
    if field[0] & 0x80:  # GNU base-256
        return int.from_bytes(field[1:], "big")
    try:
        return int(field.replace(b"\0", b" ").strip() or b"0", 8)
    except ValueError:
        return None


class _Text(Reader):
    """UTF-16 or UTF-32 text, transcoded to UTF-8 for the scanner."""

    def __init__(self, parent: Parent, encoding: str, label: str) -> None:
        super().__init__(parent)
        self.sink = self.child(f"{parent.name} ({label} text)")
        self.dec = codecs.getincrementaldecoder(encoding)("replace")

    def _feed(self, data: bytes) -> bytes:
        for i in range(0, len(data), STEP):
            self.emit(self.sink, self.dec.decode(data[i : i + STEP]).encode("utf-8"))
        return b""


def _wide_text(head: bytes) -> tuple[str, str] | None:
    """(codec, label) if `head` starts UTF-32 or UTF-16 text, by BOM or by shape."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32", "UTF-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16", "UTF-16"
    n = len(head) // 4 * 4
    if n < 16:
        return None
    zero = [sum(1 for i in range(r, n, 4) if head[i] == 0) / (n // 4) for r in range(4)]
    if zero[1] == zero[2] == zero[3] == 1.0 and zero[0] < 0.2:
        return "utf-32-le", "UTF-32"
    if zero[0] == zero[1] == zero[2] == 1.0 and zero[3] < 0.2:
        return "utf-32-be", "UTF-32"
    odd, even = (zero[1] + zero[3]) / 2, (zero[0] + zero[2]) / 2
    if odd >= 0.7 and even < 0.1:
        return "utf-16-le", "UTF-16"
    if even >= 0.7 and odd < 0.1:
        return "utf-16-be", "UTF-16"
    return None


def open_reader(head: bytes, parent: Parent) -> Reader | None:
    """The reader for a stream that starts with `head` (its first SNIFF_BYTES count), if any."""
    head = head[:SNIFF_BYTES]
    kind: str | None = None
    if head.startswith(_LOCAL):
        return ZipReader(parent)
    if head.startswith(b"\x1f\x8b\x08"):
        kind = "gzip"
    elif (
        head[:3] == b"BZh"
        and head[3:4].isdigit()
        and head[4:10]
        in (
            b"1AY&SY",
            b"\x17rE8P\x90",
        )
    ):
        kind = "bz2"
    elif head.startswith(b"\xfd7zXZ\x00"):
        kind = "xz"
    elif head[:1] == b"\x5d" and head[5:13] == b"\xff" * 8:
        kind = "alone"
    elif (
        len(head) >= 2
        and head[0] & 0x0F == 8
        and head[0] >> 4 <= 7
        and int.from_bytes(head[:2], "big") % 31 == 0
    ):
        kind = "zlib"
    if kind is not None:
        return _Compressed(parent, kind)
    if len(head) >= 263 and head[257:262] == b"ustar" and _tar_header(head[:512]) is not None:
        return _Tar(parent)
    wide = _wide_text(head)
    if wide is not None:
        return _Text(parent, *wide)
    return None


def find_zip(data: bytes, start: int = 0) -> int:
    """Where the next ZIP local header starts in `data`, or -1."""
    return data.find(_LOCAL, start)


def now() -> float:
    return time.monotonic()
