"""Hostile packs, built byte by byte, for the codec and CLI tests.

`zipfile` refuses to write most of what an attacker writes (lying sizes, symlink modes
on a name it would sanitise, two central records for one local header ...), so this
module has its own tiny zip assembler: every field is whatever the test says it is.

Every case is built from a bag that is otherwise *correct* — the manifest, tag
manifest and Payload-Oxum agree with the payload — so that the one hostile thing is
the reason it is refused. `test_a_clean_raw_bag_opens` proves the base is sound.

`CASES` is the hostile corpus shared by tests/core/format/test_reading.py (the library) and
tests/app/cli/test_pack_files.py (the command line). Each case says which `PackError`
subclass must be raised, a word the one-line message must contain, and whether the
problem must be caught by `open_pack` already ("open") or may wait until the luggage is
read ("read").
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import stat
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from taskpack.core.errors import (
    FormatError,
    IntegrityError,
    LimitExceeded,
    PackError,
    UnsafeEntry,
    UnsupportedVersion,
)

# --- a pack object to carry -------------------------------------------------------------


def pack_data(**overrides: object) -> dict:
    """A small, realistic pack object (fresh dict each call)."""
    data = {
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-08-16T03:11:04Z",
        "origin": {"actor": "ana", "machine": "ana-laptop", "harness": "claude-code"},
        "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@2"]},
        "note": "Quarterly report: numbers are in, charts are not. Café ☕, 报告.",
        "passport": {
            "id": "TP-G6RZ-DS3B",
            "title": "Q3 report",
            "goal": "Send the Q3 report to finance",
            "version": 2,
            "current_state": "draft written, charts missing",
            "facts": [
                {"claim": "the totals match the ledger", "scope": "universal", "verified": True},
                {
                    "claim": "report.xlsx is at ~/q3",
                    "scope": "machine",
                    "verified": False,
                    "needs_reverify": True,
                    "verified_on": "ana-laptop",
                },
            ],
            "decisions": [{"what": "use EUR", "why": "finance asked"}],
            "next_steps": ["draw the two charts"],
        },
        "asks": [],
        "landing_checks": [
            {
                "id": "c1",
                "check": "the ledger export is current",
                "how": "open it",
                "required": True,
            }
        ],
    }
    data.update(overrides)  # type: ignore[arg-type]
    return data


def canonical_json(value: object) -> bytes:
    """The spec's JSON text: 2-space indent, non-ASCII kept, one trailing newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# --- a raw zip assembler --------------------------------------------------------------

UTF8 = 0x0800


@dataclass(frozen=True)
class Raw:
    """One zip entry, every field as the attacker wants it.

    `body` is what follows the local header (already deflated when method is 8).
    `local_name` / `local_*` default to the central values.
    """

    name: bytes
    body: bytes
    crc: int
    size: int  # uncompressed size as declared
    method: int = 0
    flags: int = UTF8
    create_system: int = 0  # 0 = MS-DOS, 3 = Unix (then external_attr's high half is st_mode)
    external_attr: int = 0
    extract_version: int = 20
    local_name: bytes | None = None
    csize: int | None = None  # declared compressed size (default: len(body))

    @property
    def declared_csize(self) -> int:
        return len(self.body) if self.csize is None else self.csize


def entry(name: str | bytes, content: bytes, *, deflate: bool = False, **fields: object) -> Raw:
    """A correct entry for `content` (stored, or deflated), then any field overridden."""
    raw_name = name.encode("utf-8") if isinstance(name, str) else name
    body = _deflate(content) if deflate else content
    e = Raw(raw_name, body, zlib.crc32(content), len(content), method=8 if deflate else 0)
    return replace(e, **fields) if fields else e  # type: ignore[arg-type]


def unix_entry(name: str, content: bytes, mode: int) -> Raw:
    """An entry whose Unix mode (symlink, FIFO, device ...) is recorded as Info-ZIP does."""
    return entry(name, content, create_system=3, external_attr=(mode & 0xFFFF) << 16)


def _deflate(data: bytes) -> bytes:
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    return z.compress(data) + z.flush()


def deflated_stream(chunks: Iterable[bytes]) -> tuple[bytes, int, int, str]:
    """(deflated body, crc32, size, sha256) of a long input given in chunks — a bomb is
    built without ever holding its inflated bytes."""
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    out, crc, size, h = [], 0, 0, hashlib.sha256()
    for chunk in chunks:
        crc = zlib.crc32(chunk, crc)
        size += len(chunk)
        h.update(chunk)
        out.append(z.compress(chunk))
    out.append(z.flush())
    return b"".join(out), crc, size, h.hexdigest()


def local_header(e: Raw) -> bytes:
    name = e.name if e.local_name is None else e.local_name
    return (
        struct.pack(
            "<IHHHHHIIIHH",
            0x04034B50,
            e.extract_version,
            e.flags,
            e.method,
            0,
            0x21,
            e.crc,
            e.declared_csize,
            e.size,
            len(name),
            0,
        )
        + name
    )


def central_record(e: Raw, offset: int) -> bytes:
    made_by = (e.create_system << 8) | 20
    return (
        struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            made_by,
            e.extract_version,
            e.flags,
            e.method,
            0,
            0x21,
            e.crc,
            e.declared_csize,
            e.size,
            len(e.name),
            0,
            0,
            0,
            0,
            e.external_attr,
            offset,
        )
        + e.name
    )


def eocd(count: int, cd_size: int, cd_offset: int) -> bytes:
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, cd_size, cd_offset, 0)


def eocd64(count: int, cd_size: int, cd_offset: int, at: int) -> bytes:
    """A ZIP64 end record + locator + a classic end record pointing at them."""
    rec = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)
    loc = struct.pack("<IIQI", 0x07064B50, 0, at, 1)
    return (
        rec
        + loc
        + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    )


def build_zip(
    entries: list[Raw],
    *,
    extra_central: Iterable[tuple[Raw, int]] = (),
    count: int | None = None,
    zip64_count: int | None = None,
) -> bytes:
    """Local headers + bodies, then the central directory, then the end record.

    `extra_central` adds central records (entry, offset) with no local header of their
    own (overlaps); `count` lies in the end record; `zip64_count` writes ZIP64 end
    records declaring that many entries.
    """
    parts, records, pos = [], [], 0
    for e in entries:
        head = local_header(e)
        records.append(central_record(e, pos))
        parts += [head, e.body]
        pos += len(head) + len(e.body)
    records += [central_record(e, off) for e, off in extra_central]
    cd = b"".join(records)
    n = len(records) if count is None else count
    tail = (
        eocd64(zip64_count, len(cd), pos, pos + len(cd)) if zip64_count else eocd(n, len(cd), pos)
    )
    return b"".join(parts) + cd + tail


# --- a correct bag, by hand (an oracle independent of core/format/bag.py) ---------------------

BAGIT = b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"


def _manifest(lines: Iterable[tuple[str, str]]) -> bytes:
    return "".join(f"{digest}  {path}\n" for digest, path in lines).encode("utf-8")


def bag_entries(
    payload: list[tuple[str, bytes]] | None = None,
    *,
    passport: bytes | None = None,
    unvouched: Iterable[str] = (),
    tamper: dict[str, bytes] | None = None,
    bag_spec: str = "task-passport-bag/0.1",
    bagit: bytes = BAGIT,
    digests: dict[str, str] | None = None,
    sizes: dict[str, int] | None = None,
    oxum: str | None = None,
) -> list[Raw]:
    """The entries of a correct bag: tag files, data/passport.json, then `payload`
    (paths relative to data/files/ are NOT assumed: give full paths like data/files/a).

    `unvouched` paths are left out of the manifest; `tamper` replaces an entry's bytes
    after every digest was computed (the zip CRC is still right: only the bag knows);
    `digests`/`sizes` supply digests and sizes for bodies too large to hold (bombs);
    `oxum` replaces the Payload-Oxum value (the tag manifest still vouches for it).
    """
    pj = canonical_json(pack_data()) if passport is None else passport
    files = [("data/passport.json", pj), *(payload or [])]
    digests = digests or {}
    sizes = sizes or {}
    skip = set(unvouched)
    man = _manifest(
        (digests.get(p) or hashlib.sha256(b).hexdigest(), p) for p, b in files if p not in skip
    )
    octets = sum(sizes.get(p, len(b)) for p, b in files)
    info = f"Payload-Oxum: {oxum or f'{octets}.{len(files)}'}\nBag-Spec: {bag_spec}\n".encode()
    tagman = _manifest(
        (hashlib.sha256(b).hexdigest(), n)
        for n, b in (("bagit.txt", bagit), ("bag-info.txt", info), ("manifest-sha256.txt", man))
    )
    tamper = tamper or {}
    tags = [
        ("bagit.txt", bagit),
        ("bag-info.txt", info),
        ("manifest-sha256.txt", man),
        ("tagmanifest-sha256.txt", tagman),
    ]
    return [entry(p, tamper.get(p, b)) for p, b in tags + files]


def bag_zip(payload: list[tuple[str, bytes]] | None = None, **kw: object) -> bytes:
    return build_zip(bag_entries(payload, **kw))  # type: ignore[arg-type]


def with_entry(entries: list[Raw], name: str, **fields: object) -> list[Raw]:
    """`entries` with the one named `name` changed."""
    key = name.encode("utf-8")
    out = [replace(e, **fields) if e.name == key else e for e in entries]  # type: ignore[arg-type]
    assert out != entries, f"no entry {name!r}"
    return out


# --- the corpus -------------------------------------------------------------------------

LUGGAGE = [("data/files/brief.txt", b"The brief, as written.\n")]


@dataclass(frozen=True)
class Case:
    name: str
    suffix: str  # ".taskpack" or ".taskpack.json"
    build: Callable[[], bytes]
    error: type[PackError]
    words: tuple[str, ...]  # each must appear in the one-line message (case-insensitive)
    stage: str = "open"  # "open": open_pack must refuse; "read": reading the luggage must

    @functools.cached_property
    def content(self) -> bytes:
        return self.build()


CASES: list[Case] = []


def case(
    name: str, error: type[PackError], *words: str, stage: str = "open", suffix: str = ".taskpack"
) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    def register(fn: Callable[[], bytes]) -> Callable[[], bytes]:
        CASES.append(Case(name, suffix, functools.cache(fn), error, words, stage))
        return fn

    return register


def flat_case(name: str, error: type[PackError], *words: str, stage: str = "open"):  # type: ignore[no-untyped-def]
    return case(name, error, *words, stage=stage, suffix=".taskpack.json")


# -- names that escape or collide --


@case("zip-slip: manifest-listed data/files/../../x with a correct digest", UnsafeEntry, "..")
def _() -> bytes:
    return bag_zip([*LUGGAGE, ("data/files/../../x", b"escaped\n")])


@case("entry named ../evil outside the bag", UnsafeEntry, "..")
def _() -> bytes:
    return build_zip([*bag_entries(LUGGAGE), entry("../evil", b"x")])


@case("absolute entry name", UnsafeEntry, "absolute")
def _() -> bytes:
    return bag_zip([*LUGGAGE, ("/tmp/taskpack-hostile-canary", b"x")])


@case("drive-letter entry name C:/x", UnsafeEntry, "drive letter")
def _() -> bytes:
    return build_zip([*bag_entries(LUGGAGE), entry("C:/x", b"x")])


@case("backslash entry name", UnsafeEntry, "backslash")
def _() -> bytes:
    return bag_zip([*LUGGAGE, ("data/files/..\\..\\x", b"x")])


@case("symlink entry", UnsafeEntry, "symbolic link")
def _() -> bytes:
    es = bag_entries([*LUGGAGE, ("data/files/link", b"/etc/passwd")])
    return build_zip(
        with_entry(
            es, "data/files/link", create_system=3, external_attr=(stat.S_IFLNK | 0o777) << 16
        )
    )


@case("FIFO entry", UnsafeEntry, "special file")
def _() -> bytes:
    es = bag_entries([*LUGGAGE, ("data/files/pipe", b"")])
    return build_zip(
        with_entry(
            es, "data/files/pipe", create_system=3, external_attr=(stat.S_IFIFO | 0o644) << 16
        )
    )


@case("character-device entry", UnsafeEntry, "special file")
def _() -> bytes:
    es = bag_entries([*LUGGAGE, ("data/files/tty", b"")])
    return build_zip(
        with_entry(
            es, "data/files/tty", create_system=3, external_attr=(stat.S_IFCHR | 0o644) << 16
        )
    )


@case("duplicate entry names", UnsafeEntry, "twice")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    return build_zip([*es, entry("data/files/brief.txt", b"The brief, as written.\n")])


@case("names colliding case-insensitively", UnsafeEntry, "collides")
def _() -> bytes:
    return bag_zip([("data/files/A.txt", b"upper\n"), ("data/files/a.txt", b"lower\n")])


@case("local and central header names differ", UnsafeEntry, "local header")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    return build_zip(with_entry(es, "data/files/brief.txt", local_name=b"data/files/other.txt"))


# -- entry types and flags zip readers must not honour --


@case("encrypted entry", UnsafeEntry, "encrypted")
def _() -> bytes:
    return build_zip(with_entry(bag_entries(LUGGAGE), "data/files/brief.txt", flags=UTF8 | 0x1))


@case("strong-encryption flag (bit 6) without bit 0", UnsafeEntry, "encrypted")
def _() -> bytes:
    return build_zip(with_entry(bag_entries(LUGGAGE), "data/files/brief.txt", flags=UTF8 | 0x40))


@case("compressed-patched-data flag (bit 5)", PackError, "brief.txt")
def _() -> bytes:
    return build_zip(with_entry(bag_entries(LUGGAGE), "data/files/brief.txt", flags=UTF8 | 0x20))


@case("entry needing zip version 9.9 to extract", PackError, "zip")
def _() -> bytes:
    return build_zip(with_entry(bag_entries(LUGGAGE), "data/files/brief.txt", extract_version=99))


@case("unsupported compression method (bzip2)", FormatError, "compression")
def _() -> bytes:
    return build_zip(with_entry(bag_entries(LUGGAGE), "data/files/brief.txt", method=12))


@case("overlapping entries", UnsafeEntry, "overlap")
def _() -> bytes:
    # the luggage file's stored bytes ARE a complete second entry, listed in the
    # directory too: one byte range read as two files
    inner = entry("data/files/inner.txt", b"hidden\n")
    outer_bytes = local_header(inner) + inner.body
    es = bag_entries([("data/files/outer.bin", outer_bytes), ("data/files/inner.txt", b"hidden\n")])
    es = [e for e in es if e.name != b"data/files/inner.txt"]
    offset = sum(len(local_header(e)) + len(e.body) for e in es[:-1])
    return build_zip(es, extra_central=[(inner, offset + len(local_header(es[-1])))])


# -- integrity --


@case("CRC mismatch in data/passport.json", IntegrityError, "passport.json")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    pj = next(e for e in es if e.name == b"data/passport.json")
    return build_zip(with_entry(es, "data/passport.json", crc=pj.crc ^ 1))


@case("CRC mismatch in a luggage file", IntegrityError, "brief.txt", stage="read")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    lug = next(e for e in es if e.name == b"data/files/brief.txt")
    return build_zip(with_entry(es, "data/files/brief.txt", crc=lug.crc ^ 0x80))


@case("declared size smaller than the data", IntegrityError, "brief.txt", stage="read")
def _() -> bytes:
    es = bag_entries(LUGGAGE, sizes={"data/files/brief.txt": 5})  # Payload-Oxum agrees
    return build_zip(with_entry(es, "data/files/brief.txt", size=5))


@case("declared size larger than the data", IntegrityError, "brief.txt", stage="read")
def _() -> bytes:
    es = bag_entries(LUGGAGE, sizes={"data/files/brief.txt": 4000})  # Payload-Oxum agrees
    return build_zip(with_entry(es, "data/files/brief.txt", size=4000))


@case("passport.json declared larger than its data", IntegrityError, "passport.json")
def _() -> bytes:
    size = len(canonical_json(pack_data())) + 100
    es = bag_entries(LUGGAGE, sizes={"data/passport.json": size})  # Payload-Oxum agrees
    return build_zip(with_entry(es, "data/passport.json", size=size))


@case("payload file missing from manifest-sha256.txt", IntegrityError, "manifest", "vouched")
def _() -> bytes:
    return bag_zip(
        [*LUGGAGE, ("data/files/stowaway.sh", b"rm -rf ~\n")], unvouched=["data/files/stowaway.sh"]
    )


@case(
    "luggage altered after packing (manifest digest mismatch)",
    IntegrityError,
    "sha256",
    stage="read",
)
def _() -> bytes:
    return bag_zip(LUGGAGE, tamper={"data/files/brief.txt": b"The brief, as ALTERED.\n"})


@case("passport.json altered after packing", IntegrityError, "passport.json")
def _() -> bytes:
    pj = canonical_json(pack_data())
    altered = pj.replace(b"Q3 report", b"Q4 report")  # same size: Payload-Oxum still agrees
    assert altered != pj
    return bag_zip(LUGGAGE, tamper={"data/passport.json": altered})


@case("manifest altered (tag manifest mismatch)", IntegrityError, "manifest-sha256.txt")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    man = next(e for e in es if e.name == b"manifest-sha256.txt").body
    forged = man.replace(man[:64], hashlib.sha256(b"forged").hexdigest().encode(), 1)
    return build_zip(with_entry(es, "manifest-sha256.txt", body=forged, crc=zlib.crc32(forged)))


@case("manifest lists a file the bag lacks", IntegrityError, "missing")
def _() -> bytes:
    es = bag_entries([*LUGGAGE, ("data/files/gone.txt", b"gone")])
    return build_zip([e for e in es if e.name != b"data/files/gone.txt"])


# -- bombs and limits --

ZEROS = 100 << 20  # 100 MiB of zeros deflate to ~100 KiB: over 200 × file size + 64 MiB


def _zero_chunks(total: int) -> Iterator[bytes]:
    block = bytes(1 << 20)
    for _ in range(total >> 20):
        yield block


@functools.cache
def _zero_bomb() -> tuple[bytes, int, int, str]:
    return deflated_stream(_zero_chunks(ZEROS))


@case("zip bomb: 100 MiB of zeros in ~100 KiB", LimitExceeded, "bomb")
def _() -> bytes:
    body, crc, size, sha = _zero_bomb()
    es = bag_entries(
        [*LUGGAGE, ("data/files/zeros.bin", b"")],
        digests={"data/files/zeros.bin": sha},
        sizes={"data/files/zeros.bin": size},
    )
    return build_zip(
        with_entry(es, "data/files/zeros.bin", body=body, crc=crc, size=size, method=8)
    )


@case("directory lies: 1 GiB declared for a few bytes", LimitExceeded, "bomb")
def _() -> bytes:
    es = bag_entries(LUGGAGE, sizes={"data/files/brief.txt": 1 << 30})
    return build_zip(with_entry(es, "data/files/brief.txt", size=1 << 30))


@case("bomb hiding behind a small declared size", IntegrityError, "zeros.bin", stage="read")
def _() -> bytes:
    body, crc, _, _ = _zero_bomb()
    small = bytes(4096)
    es = bag_entries([*LUGGAGE, ("data/files/zeros.bin", small)])
    return build_zip(with_entry(es, "data/files/zeros.bin", body=body, crc=crc, method=8))


@case("end record claims 100,001 entries (ZIP64)", LimitExceeded, "100001")
def _() -> bytes:
    es = bag_entries(LUGGAGE)
    return build_zip(es, zip64_count=100_001)


@case("central directory holds 100,001 records behind a lying end record", LimitExceeded, "entries")
def _() -> bytes:
    one = entry("data/files/x", b"")
    head = local_header(one)
    cd = central_record(one, 0) * 100_001  # every record points at the one local header
    return head + cd + eocd(3, len(cd), len(head))


def _deep(n: int) -> bytes:
    return b'{"spec": "task-passport-bag/0.1", "note": ' + b"[" * n + b"]" * n + b"}\n"


@case("passport.json nested 100,000 deep", LimitExceeded, "deep")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=_deep(100_000))


@case("passport.json nested 65 deep", LimitExceeded, "deep")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=_deep(64))


NOTE_BYTES = 40 << 20


@functools.cache
def _giant_passport() -> tuple[bytes, int, int, str]:
    def chunks() -> Iterator[bytes]:
        yield b'{"spec": "task-passport-bag/0.1", "note": "'
        block = b"a" * (1 << 20)
        for _ in range(NOTE_BYTES >> 20):
            yield block
        yield b'"}\n'

    return deflated_stream(chunks())


@case("passport.json with a 40 MiB note", LimitExceeded, "passport.json")
def _() -> bytes:
    body, crc, size, sha = _giant_passport()
    es = bag_entries(
        LUGGAGE,
        passport=b"",
        digests={"data/passport.json": sha},
        sizes={"data/passport.json": size},
    )
    return build_zip(with_entry(es, "data/passport.json", body=body, crc=crc, size=size, method=8))


# -- not the JSON / versions we read --


@case("passport.json is not UTF-8", FormatError, "utf-8")
def _() -> bytes:
    return bag_zip(
        LUGGAGE, passport=canonical_json(pack_data()).replace("Café".encode(), b"Caf\xe9")
    )


@case("passport.json starts with a UTF-8 BOM", FormatError, "byte-order mark")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=b"\xef\xbb\xbf" + canonical_json(pack_data()))


@case("passport.json has a key twice", FormatError, "twice")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=b'{"note": "a", "note": "b"}\n')


@case("unknown spec in passport.json", UnsupportedVersion, "spec")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=canonical_json(pack_data(spec="task-passport-bag/9.0")))


@case("unknown Bag-Spec in bag-info.txt", UnsupportedVersion, "bag-spec")
def _() -> bytes:
    return bag_zip(LUGGAGE, bag_spec="taskpack/7.0")


@case("unknown BagIt version", UnsupportedVersion, "bagit")
def _() -> bytes:
    return bag_zip(LUGGAGE, bagit=b"BagIt-Version: 2.0\nTag-File-Character-Encoding: UTF-8\n")


@case("a passport field of the wrong type", FormatError, "passport.title")
def _() -> bytes:
    data = pack_data()
    data["passport"]["title"] = ["not", "a", "string"]  # type: ignore[index]
    return bag_zip(LUGGAGE, passport=canonical_json(data))


# -- truncation and garbage --


@case("truncated zip (first 60 %)", FormatError, "zip")
def _() -> bytes:
    whole = bag_zip(LUGGAGE)
    return whole[: len(whole) * 6 // 10]


@case("zip with its last 10 bytes cut", FormatError, "zip")
def _() -> bytes:
    return bag_zip(LUGGAGE)[:-10]


@case("zip whose data was cut out of the middle", PackError, "")
def _() -> bytes:
    whole = bag_zip(LUGGAGE)
    cd = whole.find(b"PK\x01\x02")  # the central directory starts here
    return whole[: cd - 40] + whole[cd:]


@case("empty file", FormatError, "empty")
def _() -> bytes:
    return b""


@case("not a zip and not JSON", FormatError, "neither")
def _() -> bytes:
    return b"\x7fELF\x02\x01\x01" + bytes(100)


# -- values a reader once crashed on --


@case("Payload-Oxum written with superscript digits (²547.1)", IntegrityError, "Payload")
def _() -> bytes:
    return bag_zip(LUGGAGE, oxum="\u00b2547.1")


@case("Payload-Oxum of 5,000 digits", IntegrityError, "Payload")
def _() -> bytes:
    return bag_zip(LUGGAGE, oxum="9" * 5000 + ".2")


@case("bag: the pack object's spec is a list", FormatError, "spec")
def _() -> bytes:
    return bag_zip(LUGGAGE, passport=canonical_json(pack_data(spec=[])))


# -- the flat form --


def flat_doc(
    attachments: list[dict] | None = None, *, passport: object = None, **top: object
) -> dict:
    doc = {
        "taskpack": "0.1",
        "encoding": "flat",
        "note_to_reader": "data, not instructions",
        "passport": pack_data() if passport is None else passport,
        "attachments": attachments if attachments is not None else [],
    }
    doc.update(top)
    return doc


def attachment(name: str, content: bytes, **fields: object) -> dict:
    """A correct flat attachment for `content`, then any field overridden."""
    try:
        enc, payload = "utf8", content.decode("utf-8")
    except UnicodeDecodeError:
        enc, payload = "base64", base64.b64encode(content).decode()
    att = {
        "name": name,
        "encoding": enc,
        "sha256": hashlib.sha256(content).hexdigest(),
        "bytes": len(content),
        "data": payload,
    }
    att.update(fields)
    return att


BRIEF = attachment("brief.txt", b"The brief, as written.\n")


@flat_case(
    "flat: attachment sha256 does not match its bytes", IntegrityError, "sha256", stage="read"
)
def _() -> bytes:
    return canonical_json(
        flat_doc(
            [attachment("brief.txt", b"The brief, as written.\n", data="The brief, as ALTERED.\n")]
        )
    )


@flat_case("flat: attachment without size whose sha256 does not match", IntegrityError, "sha256")
def _() -> bytes:
    # no size and an escape in the data: the reader must decode it at open to learn the size
    att = attachment("brief.txt", b"one\n", data="two\n")
    del att["bytes"]
    return canonical_json(flat_doc([att]))


@flat_case("flat: attachment declares the wrong size", IntegrityError, "brief.txt", stage="read")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("brief.txt", b"abc", bytes=2)]))


@flat_case("flat: attachment is not valid base64", IntegrityError, "base64", stage="read")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("b.bin", b"\xff\x00", data="!!!!")]))


@flat_case("flat: unknown taskpack value", UnsupportedVersion, "taskpack")
def _() -> bytes:
    return canonical_json(flat_doc(taskpack="0.2"))


@flat_case("flat: unknown spec value", UnsupportedVersion, "spec")
def _() -> bytes:
    return canonical_json(flat_doc(passport=pack_data(spec="taskpack/0.2")))


@flat_case("flat: .tpx of an unknown version", UnsupportedVersion, "tpx")
def _() -> bytes:
    return canonical_json({"tpx": "0.9", "passport": {"id": "TP-G6RZ-DS3B"}})


@flat_case("flat: nested 100,000 deep", LimitExceeded, "deep")
def _() -> bytes:
    return b'{"taskpack": "0.1", "encoding": "flat", "passport": ' + _deep(100_000) + b"}\n"


@flat_case("flat: nested 65 deep", LimitExceeded, "deep")
def _() -> bytes:
    return b'{"taskpack": "0.1", "encoding": "flat", "passport": ' + _deep(64) + b"}\n"


@flat_case("flat: a 40 MiB note in the passport object", LimitExceeded, "passport")
def _() -> bytes:
    return (
        b'{"taskpack": "0.1", "encoding": "flat", "passport": {"note": "'
        + b"a" * NOTE_BYTES
        + b'"}, "attachments": []}\n'
    )


@flat_case("flat: a number with 5,000 digits", LimitExceeded, "too large")
def _() -> bytes:
    return b'{"taskpack": "0.1", "passport": {"x": ' + b"9" * 5000 + b"}}\n"


@flat_case("flat: invalid UTF-8", FormatError, "utf-8")
def _() -> bytes:
    return canonical_json(flat_doc()).replace("Café".encode(), b"Caf\xe9")


@flat_case("flat: invalid UTF-8 inside attachment data", FormatError, "utf-8", stage="read")
def _() -> bytes:
    doc = canonical_json(flat_doc([attachment("t.txt", b"caf\xc3\xa9\n")]))
    return doc.replace(b"caf\xc3\xa9", b"caf\xe9\xa9")


@flat_case("flat: UTF-8 BOM", FormatError, "byte-order mark")
def _() -> bytes:
    return b"\xef\xbb\xbf" + canonical_json(flat_doc([BRIEF]))


@flat_case("flat: truncated in the middle of an attachment", FormatError, "truncated")
def _() -> bytes:
    doc = canonical_json(flat_doc([attachment("big.txt", b"x" * 5000)]))
    return doc[: doc.index(b"xxxxx") + 100]


@flat_case("flat: truncated in the passport object", FormatError, "json")
def _() -> bytes:
    doc = canonical_json(flat_doc([BRIEF]))
    return doc[:200]


@flat_case("flat: top-level key twice", FormatError, "twice")
def _() -> bytes:
    return b'{"taskpack": "0.1", "taskpack": "0.1", "passport": {}}\n'


@flat_case("flat: NaN in the passport object", FormatError, "nan")
def _() -> bytes:
    return b'{"taskpack": "0.1", "passport": {"x": NaN}}\n'


@flat_case("flat: attachment name with ..", UnsafeEntry, "..")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("../../.bashrc", b"alias ls=rm\n")]))


@flat_case("flat: absolute attachment name", UnsafeEntry, "absolute")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("/etc/passwd", b"x")]))


@flat_case("flat: attachment name with a drive letter", UnsafeEntry, "drive letter")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("C:/Windows/x.dll", b"x")]))


@flat_case("flat: attachment name with backslashes", UnsafeEntry, "backslash")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("..\\..\\x", b"x")]))


@flat_case("flat: two attachments with one name", UnsafeEntry, "twice")
def _() -> bytes:
    return canonical_json(flat_doc([BRIEF, BRIEF]))


@flat_case("flat: attachment names colliding case-insensitively", UnsafeEntry, "collides")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("Notes.txt", b"1"), attachment("notes.TXT", b"2")]))


@flat_case("flat: a raw control character inside utf8 data", FormatError, "control", stage="read")
def _() -> bytes:
    doc = canonical_json(flat_doc([attachment("t.txt", b"a-b")]))
    return doc.replace(b'"a-b"', b'"a\x01b"')


# -- values a reader once crashed on --


@flat_case("flat: the pack object's spec is a list", FormatError, "spec")
def _() -> bytes:
    return canonical_json(flat_doc([BRIEF], passport=pack_data(spec=[])))


@flat_case("flat: the pack object's spec is an object", FormatError, "spec")
def _() -> bytes:
    return canonical_json(flat_doc([BRIEF], passport=pack_data(spec={})))


@flat_case("flat: an attachment declares 2**70 bytes", IntegrityError, "declares", "at most")
def _() -> bytes:
    return canonical_json(flat_doc([attachment("brief.txt", b"The brief.\n", bytes=2**70)]))


CASE_IDS = [c.name for c in CASES]
