"""ZIP, written deterministically and read defensively.

Why our own writer rather than `zipfile`'s: a bag lists every payload digest in
``manifest-sha256.txt``, which comes *before* the payload in the entry order. To stream
luggage in one pass we reserve the manifest entries (their size is known in advance:
stored, fixed-width lines), write the payload while hashing it, then go back and fill the
reserved space. `zipfile` writes strictly in order and cannot reserve. Reading uses
`zipfile` (well kept, ZIP64-aware) behind the checks in `SafeZip`.

Writer conventions (docs/format.md): no root folder, UTF-8 name flag on every entry,
no extra fields except ZIP64 when an entry or offset needs it, version made by 2.0
(MS-DOS attributes, as the reference), one timestamp for every entry.
"""

from __future__ import annotations

import contextlib
import io
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import BinaryIO, cast

from ..errors import FormatError, IntegrityError, LimitExceeded, UnsafeEntry
from ..portable import positional
from . import canonical
from .streams import CHUNK, Background
from .zip_entries import CheckedEntry, StoredEntry, fast_crc32

_LOCAL = struct.Struct("<IHHHHHIIIHH")  # 30 bytes
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")  # 46 bytes
_EOCD = struct.Struct("<IHHHHIIH")  # 22 bytes
_EOCD64 = struct.Struct("<IQHHIIQQQQ")  # 56 bytes
_LOC64 = struct.Struct("<IIQI")  # 20 bytes
FLAG_UTF8 = 0x0800
#: an entry of at most this many bytes (declared, either size) is read whole when opened
#: (`SafeZip._whole`), if it is exactly what it declares
WHOLE_ENTRY_BYTES = 64 << 10
#: the flags such an entry may carry: deflate's options (bits 1-2), a data descriptor
#: (bit 3, its sizes and CRC taken from the directory, as zipfile takes them), UTF-8
_WHOLE_FLAGS = 0x0002 | 0x0004 | 0x0008 | FLAG_UTF8
_WHOLE_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
U32 = 0xFFFFFFFF
ZIP64_AT = 0xFFFF0000  # sizes/offsets from here on are written as ZIP64


def dos_datetime(ts: tuple[int, int, int, int, int, int]) -> tuple[int, int]:
    y, mo, d, h, mi, s = ts
    return (h << 11) | (mi << 5) | (s // 2), ((y - 1980) << 9) | (mo << 5) | d


@dataclass
class _Entry:
    """One entry the writer has put in the archive, for its central directory record."""

    name: bytes
    method: int
    crc: int
    csize: int
    usize: int
    offset: int
    zip64: bool


class ZipWriter:
    """Write entries to a seekable binary file; `reserve` + `fill` for late content."""

    def __init__(self, fp: BinaryIO, timestamp: tuple[int, int, int, int, int, int]) -> None:
        self._fp = fp
        self._time, self._date = dos_datetime(timestamp)
        self._entries: list[_Entry] = []
        self._base = fp.tell()

    def _pos(self) -> int:
        return self._fp.tell() - self._base

    def _local_header(self, e: _Entry) -> bytes:
        need = 45 if e.zip64 else 20
        csize, usize = (U32, U32) if e.zip64 else (e.csize, e.usize)
        extra = struct.pack("<HHQQ", 1, 16, e.usize, e.csize) if e.zip64 else b""
        return (
            _LOCAL.pack(
                0x04034B50,
                need,
                FLAG_UTF8,
                e.method,
                self._time,
                self._date,
                e.crc,
                csize,
                usize,
                len(e.name),
                len(extra),
            )
            + e.name
            + extra
        )

    def add_bytes(self, name: str, data: bytes, *, deflate: bool) -> None:
        """A small entry whose bytes are known: deflated if asked (the caller decided)."""
        body = _deflate_all(data) if deflate else data
        e = _Entry(
            name.encode("utf-8"),
            8 if deflate else 0,
            zlib.crc32(data),
            len(body),
            len(data),
            self._pos(),
            len(data) >= ZIP64_AT,
        )
        self._fp.write(self._local_header(e))
        self._fp.write(body)
        self._entries.append(e)

    def reserve(self, name: str, size: int) -> int:
        """Leave room for a stored entry of exactly `size` bytes; returns its index."""
        e = _Entry(name.encode("utf-8"), 0, 0, size, size, self._pos(), size >= ZIP64_AT)
        self._fp.write(b"\0" * (len(self._local_header(e)) + size))
        self._entries.append(e)
        return len(self._entries) - 1

    def fill(self, index: int, data: bytes) -> None:
        e = self._entries[index]
        if len(data) != e.usize:
            raise AssertionError(f"reserved {e.usize} bytes for {e.name!r}, got {len(data)}")
        e.crc = zlib.crc32(data)
        end = self._fp.tell()
        self._fp.seek(self._base + e.offset)
        self._fp.write(self._local_header(e))
        self._fp.write(data)
        self._fp.seek(end)

    def begin_stream(self, name: str, size: int, *, deflate: bool) -> _StreamEntry:
        """Start an entry whose bytes arrive in chunks; its header is patched at the end."""
        e = _Entry(
            name.encode("utf-8"), 8 if deflate else 0, 0, 0, size, self._pos(), size >= ZIP64_AT
        )
        self._fp.write(self._local_header(e))
        self._entries.append(e)
        return _StreamEntry(self, e)

    def _finish_stream(self, e: _Entry) -> None:
        end = self._fp.tell()
        self._fp.seek(self._base + e.offset)
        self._fp.write(self._local_header(e))
        self._fp.seek(end)

    def close(self) -> None:
        """Write the central directory and the end records (ZIP64 ones only if needed)."""
        cd_start = self._pos()
        for e in self._entries:
            big_offset = e.offset >= ZIP64_AT
            fields = []
            if e.zip64:
                fields += [e.usize, e.csize]
            if big_offset:
                fields.append(e.offset)
            extra = (
                struct.pack(f"<HH{len(fields)}Q", 1, 8 * len(fields), *fields) if fields else b""
            )
            need = 45 if extra else 20
            self._fp.write(
                _CENTRAL.pack(
                    0x02014B50,
                    need,
                    need,
                    FLAG_UTF8,
                    e.method,
                    self._time,
                    self._date,
                    e.crc,
                    U32 if e.zip64 else e.csize,
                    U32 if e.zip64 else e.usize,
                    len(e.name),
                    len(extra),
                    0,
                    0,
                    0,
                    0,
                    U32 if big_offset else e.offset,
                )
                + e.name
                + extra
            )
        cd_size = self._pos() - cd_start
        count = len(self._entries)
        if count >= 0xFFFF or cd_start >= ZIP64_AT or cd_size >= ZIP64_AT:
            eocd64_at = self._pos()
            self._fp.write(
                _EOCD64.pack(0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_start)
            )
            self._fp.write(_LOC64.pack(0x07064B50, 0, eocd64_at, 1))
            self._fp.write(_EOCD.pack(0x06054B50, 0, 0, 0xFFFF, 0xFFFF, U32, U32, 0))
        else:
            self._fp.write(_EOCD.pack(0x06054B50, 0, 0, count, count, cd_size, cd_start, 0))


class _StreamEntry:
    def __init__(self, writer: ZipWriter, entry: _Entry) -> None:
        self._w = writer
        self._e = entry
        self._z = (
            zlib.compressobj(canonical.DEFLATE_LEVEL, zlib.DEFLATED, -15)
            if entry.method == 8
            else None
        )
        self._crc = 0
        self._in = 0
        self._out = 0
        # the file write releases the GIL: let it overlap the next chunk's CRC and scan
        self._sink = Background(writer._fp.write, name="zip-write")

    def write(self, chunk: bytes) -> None:
        self._crc = fast_crc32(chunk, self._crc)
        self._in += len(chunk)
        body = self._z.compress(chunk) if self._z else chunk
        if body:
            self._sink.put(body)
            self._out += len(body)

    def finish(self) -> int:
        """Patch the header; returns the number of bytes the entry's data takes."""
        if self._z:
            tail = self._z.flush()
            self._sink.put(tail)
            self._out += len(tail)
        self._sink.drain()
        e = self._e
        if self._in != e.usize:
            raise IntegrityError(
                f"{e.name.decode()} changed size while it was being packed",
                code="changed_while_packing",
                params={"name": e.name.decode()},
            )
        e.crc, e.csize = self._crc, self._out
        self._w._finish_stream(e)
        return self._out

    def discard(self) -> None:
        """Undo this entry (e.g. deflate did not pay off): truncate back to its start."""
        self._sink.drain()
        w = self._w
        w._entries.remove(self._e)
        w._fp.seek(w._base + self._e.offset)
        w._fp.truncate()


def _deflate_all(data: bytes) -> bytes:
    z = zlib.compressobj(canonical.DEFLATE_LEVEL, zlib.DEFLATED, -15)
    return z.compress(data) + z.flush()


def deflate_pays(sample: bytes, *, gain: float = 1.0) -> bool:
    """Would deflating `sample` make it smaller than `gain` × its size?"""
    return len(_deflate_all(sample)) < len(sample) * gain


# --- reading --------------------------------------------------------------------------


@dataclass(frozen=True)
class ZipLimits:
    """How big a zip the reader takes: entries, central directory, inflated bytes and ratio."""

    max_entries: int = 100_000
    max_central_directory: int = 64 << 20
    max_total_bytes: int = 1 << 40  # 1 TiB inflated in all
    max_ratio: int = 200  # inflated total may exceed 200 × the file size ...
    ratio_floor: int = 64 << 20  # ... only by this much


def _read_eocd(fp: BinaryIO, file_size: int) -> tuple[int, int, int, int]:
    """(entry count, central directory size, its offset, where it ends in the file) — read
    before zipfile parses it. (zipfile, too, finds the directory by where it ends.)"""
    tail_len = min(file_size, 22 + 0xFFFF)
    fp.seek(file_size - tail_len)
    tail = fp.read(tail_len)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        raise FormatError("not a zip file (no end-of-central-directory record)", code="not_zip")
    _, _, _, _, count, cd_size, cd_offset, _ = _EOCD.unpack_from(tail, at)
    cd_end = file_size - tail_len + at
    if count == 0xFFFF or cd_size == U32 or cd_offset == U32:
        loc_at = at - 20
        if loc_at >= 0 and tail[loc_at : loc_at + 4] == b"PK\x06\x07":
            _, _, eocd64_at, _ = _LOC64.unpack_from(tail, loc_at)
            fp.seek(eocd64_at)
            raw = fp.read(56)
            if len(raw) == 56 and raw[:4] == b"PK\x06\x06":
                _, _, _, _, _, _, _, count, cd_size, cd_offset = _EOCD64.unpack(raw)
                cd_end -= 56 + 20
    return count, cd_size, cd_offset, cd_end


def _count_central_records(fp: BinaryIO, start: int, size: int) -> int:
    """How many central-directory signatures the directory holds (an upper bound on its
    records), counted a MiB at a time — so an end record that lies about the count cannot
    make zipfile build a million entries before we can say no."""
    fp.seek(max(start, 0))
    count, left, carry = 0, size, b""
    while left > 0:
        chunk = fp.read(min(CHUNK, left))
        if not chunk:
            break
        left -= len(chunk)
        window = carry + chunk
        count += window.count(b"PK\x01\x02")
        carry = window[-3:]  # a signature cut by the chunk edge is counted in the next window
    return count


class SafeZip:
    """A zip opened for untrusted reading: every entry checked before any is read.

    Checks: entry count and central directory size; names (no ``..``, absolute, drive
    letters, backslashes, control characters); duplicates and case-insensitive
    collisions; symlinks and special files; encryption and unknown methods; local
    header agreeing with the central directory; overlapping entries; declared sizes
    against a total and a ratio limit. Reading an entry then checks its size and CRC.
    """

    def __init__(self, fp: BinaryIO, file_size: int, limits: ZipLimits | None = None) -> None:
        self.limits = limits or ZipLimits()
        count, cd_size, _, cd_end = _read_eocd(fp, file_size)
        if count > self.limits.max_entries:
            raise LimitExceeded(
                f"the zip has {count} entries, more than the {self.limits.max_entries} allowed",
                code="zip_too_many_entries",
                params={"limit": self.limits.max_entries},
            )
        if cd_size > self.limits.max_central_directory:
            raise LimitExceeded(
                "the zip's central directory is unreasonably large", code="zip_directory_too_large"
            )
        if _count_central_records(fp, cd_end - cd_size, cd_size) > self.limits.max_entries:
            raise LimitExceeded(
                f"the zip has more than {self.limits.max_entries} entries",
                code="zip_too_many_entries",
                params={"limit": self.limits.max_entries},
            )
        fp.seek(0)
        try:
            self.zf = zipfile.ZipFile(fp)
        except zipfile.BadZipFile as exc:
            raise FormatError(f"not a readable zip file ({exc})", code="not_zip") from None
        except (OSError, ValueError, struct.error) as exc:
            raise FormatError(f"not a readable zip file ({exc})", code="not_zip") from None
        except NotImplementedError as exc:  # e.g. "zip file version 9.9"
            raise FormatError(
                f"the zip needs a feature this reader does not support ({exc})",
                code="zip_unsupported_feature",
            ) from None
        self.infos = self.zf.infolist()
        if len(self.infos) > self.limits.max_entries:
            raise LimitExceeded(
                f"the zip has more than {self.limits.max_entries} entries",
                code="zip_too_many_entries",
                params={"limit": self.limits.max_entries},
            )
        self._fp = fp
        self._data_at: dict[int, int] = {}  # id(ZipInfo) → where its data starts
        self._check_entries(file_size)

    def _check_entries(self, file_size: int) -> None:
        total = 0
        spans = []
        for info in self.infos:
            name = info.filename
            if info.flag_bits & 0x41:  # bit 0: encrypted; bit 6: strong encryption
                raise UnsafeEntry(
                    f"zip entry {name!r} is encrypted",
                    place=name,
                    code="zip_encrypted",
                    params={"name": name},
                )
            if info.flag_bits & 0x20:  # bit 5: compressed patched data
                raise FormatError(
                    f"zip entry {name!r} uses patched data, which is not supported",
                    place=name,
                    code="zip_unsupported_entry",
                    params={"name": name},
                )
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise FormatError(
                    f"zip entry {name!r} uses an unsupported compression method",
                    place=name,
                    code="zip_unsupported_entry",
                    params={"name": name},
                )
            mode = info.external_attr >> 16
            if info.create_system == 3 and mode:
                if stat.S_ISLNK(mode):
                    raise UnsafeEntry(
                        f"zip entry {name!r} is a symbolic link",
                        place=name,
                        code="zip_symlink",
                        params={"name": name},
                    )
                # no type bits at all (zipfile.writestr writes 0o600) is a plain file
                if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    raise UnsafeEntry(
                        f"zip entry {name!r} is a special file (device, pipe or socket)",
                        place=name,
                        code="zip_special_file",
                        params={"name": name},
                    )
            total += info.file_size
            spans.append(info)
        limit = min(
            self.limits.max_total_bytes, self.limits.max_ratio * file_size + self.limits.ratio_floor
        )
        if total > limit:
            raise LimitExceeded(
                f"the zip would inflate to {total} bytes from a {file_size}-byte file (a zip bomb?)",
                code="zip_bomb",
                params={"total": total, "size": file_size},
            )
        spans.sort(key=lambda i: i.header_offset)
        prev_end = 0
        prev_name = ""
        for info in spans:
            header = self._local_header(info)
            self._data_at[id(info)] = info.header_offset + header
            if info.header_offset < prev_end:
                raise UnsafeEntry(
                    f"zip entries {prev_name!r} and {info.filename!r} overlap",
                    place=info.filename,
                    code="zip_overlap",
                    params={"name": info.filename, "other": prev_name},
                )
            prev_end = info.header_offset + header + info.compress_size
            prev_name = info.filename
            if prev_end > file_size:
                raise IntegrityError(
                    f"zip entry {info.filename!r} runs past the end of the file",
                    place=info.filename,
                    code="zip_entry_truncated",
                    params={"name": info.filename},
                )

    def _local_header(self, info: zipfile.ZipInfo) -> int:
        if (
            info.header_offset < 0
        ):  # zipfile shifts offsets when data before the directory is missing
            raise IntegrityError(
                f"zip entry {info.filename!r} has no local header where the directory says",
                place=info.filename,
                code="zip_entry_damaged",
                params={"name": info.filename},
            )
        self._fp.seek(info.header_offset)
        raw = self._fp.read(30)
        if len(raw) < 30 or raw[:4] != b"PK\x03\x04":
            raise IntegrityError(
                f"zip entry {info.filename!r} has no local header where the directory says",
                place=info.filename,
                code="zip_entry_damaged",
                params={"name": info.filename},
            )
        fields = _LOCAL.unpack(raw)
        name_len, extra_len = int(fields[9]), int(fields[10])
        local_name = self._fp.read(name_len)
        central_name = info.orig_filename.encode(
            "utf-8" if info.flag_bits & FLAG_UTF8 else "cp437", "surrogateescape"
        )
        if local_name != central_name:
            raise UnsafeEntry(
                f"zip entry {info.filename!r} has a different name in its local header",
                place=info.filename,
                code="zip_local_name",
                params={"name": info.filename},
            )
        return 30 + name_len + extra_len

    def open(self, info: zipfile.ZipInfo) -> BinaryIO:
        """Stream one entry's bytes; its size and CRC are checked when it ends.

        A small entry is read whole here when it is exactly what it declares
        (`_whole`); a stored one is read straight from the file with positioned reads
        (any number may be open at once) and a fast CRC; a deflated one goes through
        `zipfile`.
        """
        fd: int | None = None
        if positional.AVAILABLE:  # else through zipfile (Windows: see core/portable)
            try:
                fd = int(self._fp.fileno())
            except (AttributeError, OSError, ValueError):
                fd = None
        if info.file_size <= WHOLE_ENTRY_BYTES and info.compress_size <= WHOLE_ENTRY_BYTES:
            whole = self._whole(info, fd)
            if whole is not None:
                return cast(BinaryIO, io.BytesIO(whole))
        entry: StoredEntry | CheckedEntry
        if info.compress_type == zipfile.ZIP_STORED and fd is not None and not info.flag_bits & 0x8:
            entry = StoredEntry(fd, self._data_at[id(info)], info)
        else:
            entry = CheckedEntry(self.zf, info)
        return cast(BinaryIO, entry)  # the read/close/context subset of BinaryIO

    def _whole(self, info: zipfile.ZipInfo, fd: int | None) -> bytes | None:
        """A small entry's bytes, read at once (one read; inflate and CRC in zlib), if
        they are exactly what the entry declares: stored, or one whole deflate stream,
        its size and its CRC-32. Anything else (damage, a stream that does not end, a
        flag this shortcut does not know) is None: the entry is then read as every
        other is, and what is wrong with it is told the same way.

        Why: a landing reads the five or six small entries of a bag (its tag files, the
        pack object, small luggage), and `zipfile`'s streaming reader (a local header
        read and parsed again, a reader object, a Python CRC loop) cost ~15 us an entry
        (a 14 KB bag: 92 us against 17 us, its directory aside)."""
        if info.flag_bits & ~_WHOLE_FLAGS or info.compress_type not in _WHOLE_METHODS:
            return None
        at = self._data_at.get(id(info))
        if at is None:
            return None
        try:
            if fd is not None:
                raw = positional.pread(fd, info.compress_size, at)
            else:  # under zipfile's own lock: its readers of this stream seek as they read
                with getattr(self.zf, "_lock", None) or contextlib.nullcontext():
                    self._fp.seek(at)
                    raw = self._fp.read(info.compress_size)
        except (OSError, ValueError):
            return None  # the streaming reader meets it again, and says so
        if len(raw) != info.compress_size:
            return None
        data = raw
        if info.compress_type == zipfile.ZIP_DEFLATED:
            inflate = zlib.decompressobj(-zlib.MAX_WBITS)
            try:
                data = inflate.decompress(raw, info.file_size + 1)
            except zlib.error:
                return None
            if not inflate.eof:
                return None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            return None
        return data

    def close(self) -> None:
        self.zf.close()


def decode_name(info: zipfile.ZipInfo) -> str:
    """Entry name as text: UTF-8 (flagged or not — tools that omit the flag still use it)."""
    if info.flag_bits & FLAG_UTF8:
        return info.filename
    raw = info.orig_filename.encode("cp437")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return info.filename
