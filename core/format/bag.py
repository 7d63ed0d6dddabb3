"""The ``.taskpack`` encoding: a ZIP holding a BagIt 1.0 bag (spec §2.1).

Writing streams every luggage file exactly once (hash, CRC and maybe deflate in one
pass); reading checks the whole structure before any payload byte is trusted, and
verifies each payload file's digest as it is streamed.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..errors import (
    FormatError,
    IntegrityError,
    LimitExceeded,
    UnsafeEntry,
    UnsupportedVersion,
)
from . import canonical
from .luggage import (
    LuggageItem,
    LuggageSource,
    check_luggage_name,
    check_unique,
)
from .streams import CHUNK, Hasher, read_exactly_chunks, read_full
from .vocabulary import KNOWN_SPECS
from .zip_archive import SafeZip, ZipWriter, decode_name, deflate_pays

BAGIT_TXT = b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"
PASSPORT = "data/passport.json"
FILES = "data/files/"
MAX_PASSPORT_BYTES = 32 << 20
MAX_TAG_BYTES = 1 << 20
SOFTWARE_AGENT = "task-passport"  # see docs/format.md: the reference judge regenerates bag-info


def _unquote(path: str) -> str:
    """Undo `manifest_path` (only %0D, %0A and %25 are special, RFC 8493 §2.1.3)."""
    return re.sub(r"%(0[dDaA]|25)", lambda m: chr(int(m.group(1), 16)), path)


def manifest_path(path: str) -> str:
    """RFC 8493 §2.1.3: only CR, LF and % are percent-encoded in manifest paths."""
    return path.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def bag_info(data: dict[str, Any], octets: int, count: int) -> bytes:
    """bag-info.txt exactly as the reference writes it, derived from the pack object."""
    state: dict[str, Any] = data["passport"] if isinstance(data.get("passport"), dict) else {}
    origin: dict[str, Any] = data["origin"] if isinstance(data.get("origin"), dict) else {}

    def text(value: Any, default: str) -> str:
        if value is None or value == "" or value is False or value == 0:
            return default
        return value if isinstance(value, str) else canonical.json_text(value)

    packed_at = str(data.get("packed_at") or "")
    sid = str(state.get("id", ""))
    lines = [
        f"Bag-Software-Agent: {SOFTWARE_AGENT}",
        f"Bagging-Date: {packed_at[:10]}",
        f"External-Identifier: {sid}",
        f"External-Description: {canonical.js_slice(canonical.one_line(text(state.get('title'), sid)), 200)}",
        f"Source-Organization: {canonical.js_slice(canonical.one_line(text(origin.get('actor'), 'unknown')), 120)}",
        f"Internal-Sender-Identifier: {canonical.js_slice(canonical.one_line(text(origin.get('machine'), 'unknown')), 120)}",
        f"Payload-Oxum: {octets}.{count}",
        f"Bag-Spec: {data.get('spec') or 'task-passport-bag/0.1'}",
    ]
    body = "\n".join(lines) + "\n"
    return canonical._LONE_SURROGATE.sub("\ufffd", body).encode("utf-8")


def _manifest_line_len(path: str) -> int:
    return 64 + 2 + len(manifest_path(path).encode("utf-8")) + 1


ChunkTap = Callable[[str, bytes], None]


@dataclass
class BagWriteStats:
    """What writing a bag learnt on the way: each luggage file's sha256."""

    digests: dict[str, str] = field(default_factory=dict)  # luggage name → sha256


def write_bag(
    fp: BinaryIO,
    data: dict[str, Any],
    passport_json: bytes,
    luggage: Sequence[LuggageSource],
    *,
    tap: ChunkTap | None = None,
    progress: Callable[[int], None] | None = None,
) -> BagWriteStats:
    """Write the whole bag to the seekable `fp`; returns the luggage digests it wrote.

    `tap(name, chunk)` sees every luggage byte as it passes (the refusal scanner);
    `progress(n)` is called with the number of luggage bytes just written.
    """
    stats = BagWriteStats()
    paths = [PASSPORT] + [FILES + s.name for s in luggage]
    octets = len(passport_json) + sum(s.size for s in luggage)
    info = bag_info(data, octets, len(paths))
    zw = ZipWriter(
        fp,
        canonical.zip_timestamp(
            data.get("packed_at") if isinstance(data.get("packed_at"), str) else None
        ),
    )
    zw.add_bytes("bagit.txt", BAGIT_TXT, deflate=deflate_pays(BAGIT_TXT))
    zw.add_bytes("bag-info.txt", info, deflate=deflate_pays(info))
    manifest_len = sum(_manifest_line_len(p) for p in paths)
    m_index = zw.reserve("manifest-sha256.txt", manifest_len)
    tag_len = sum(
        _manifest_line_len(p) for p in ("bagit.txt", "bag-info.txt", "manifest-sha256.txt")
    )
    t_index = zw.reserve("tagmanifest-sha256.txt", tag_len)
    zw.add_bytes(PASSPORT, passport_json, deflate=_small_deflate(passport_json))
    digests = [hashlib.sha256(passport_json).hexdigest()]
    for src in luggage:
        digest = _write_luggage(zw, src, tap, progress)
        digests.append(digest)
        stats.digests[src.name] = digest
    manifest = "".join(
        f"{d}  {manifest_path(p)}\n" for d, p in zip(digests, paths, strict=True)
    ).encode("utf-8")
    zw.fill(m_index, manifest)
    tagm = "".join(
        f"{hashlib.sha256(b).hexdigest()}  {n}\n"
        for n, b in (
            ("bagit.txt", BAGIT_TXT),
            ("bag-info.txt", info),
            ("manifest-sha256.txt", manifest),
        )
    ).encode("utf-8")
    zw.fill(t_index, tagm)
    zw.close()
    return stats


def _small_deflate(data: bytes) -> bool:
    return (
        deflate_pays(data)
        if len(data) <= canonical.SMALL_ENTRY
        else deflate_pays(data[: canonical.PROBE], gain=canonical.PROBE_GAIN)
    )


def _write_luggage(
    zw: ZipWriter, src: LuggageSource, tap: ChunkTap | None, progress: Callable[[int], None] | None
) -> str:
    name = FILES + src.name
    with src.open() as f:
        first = read_full(
            f,
            min(
                src.size,
                canonical.SMALL_ENTRY if src.size <= canonical.SMALL_ENTRY else canonical.PROBE,
            ),
        )
        if src.size <= canonical.SMALL_ENTRY:
            rest = read_full(f, 1)
            if len(first) != src.size or rest:
                raise IntegrityError(
                    f"luggage {src.name!r} changed size while it was being packed",
                    code="changed_while_packing",
                    params={"name": src.name},
                )
            if tap:
                tap(src.name, first)
            zw.add_bytes(name, first, deflate=deflate_pays(first))
            if progress:
                progress(len(first))
            return hashlib.sha256(first).hexdigest()
        deflate = deflate_pays(first, gain=canonical.PROBE_GAIN)
        trusted = src.sha256 if src.verified_stream else None
        hasher = None if trusted else Hasher()
        entry = zw.begin_stream(name, src.size, deflate=deflate)
        for chunk in _chain(first, read_exactly_chunks(f, src.size - len(first), src.name)):
            if hasher:
                hasher.update(chunk)
            if tap:
                tap(src.name, chunk)
            entry.write(chunk)
            if progress:
                progress(len(chunk))
        written = entry.finish()
        digest = hasher.hexdigest() if hasher else str(trusted)
    if deflate and written >= src.size:
        # the probe was wrong about the rest: store it after all (rule in docs/format.md)
        entry.discard()
        with src.open() as f:
            stored = zw.begin_stream(name, src.size, deflate=False)
            for chunk in read_exactly_chunks(f, src.size, src.name):
                stored.write(chunk)
            stored.finish()
    return digest


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


# --- reading ----------------------------------------------------------------------------


@dataclass
class BagContents:
    """What `read_bag` found: the pack object bytes and the luggage, all names checked."""

    passport_json: bytes
    luggage: list[LuggageItem]
    infos: dict[str, zipfile.ZipInfo]  # luggage name → its zip entry
    tags: dict[str, bytes]  # tag file name → bytes (bagit.txt, bag-info.txt, manifests)
    notes: list[str]
    prefix: str  # "" or "<folder>/" when the bag was zipped inside one top-level folder
    #: integrity problems found when reading with strict=False (the judge keeps going)
    problems: list[str] = field(default_factory=list)


def tag_lines(raw: bytes) -> list[bytes]:
    """A tag file's lines: ended by LF, CR or CRLF (RFC 8493 §2) and by nothing else.

    `str.splitlines` would also break at U+2028, U+2029, U+0085, \x0b, \x0c and \x1c–\x1e,
    which are legal inside a luggage name (and in bag-info values), so a name holding one
    would be cut in two and the pack would not verify.
    """
    return raw.splitlines()  # bytes.splitlines splits on \n, \r and \r\n only


def _parse_manifest(raw: bytes, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        lines = [line.decode("utf-8") for line in tag_lines(raw)]
    except UnicodeDecodeError:
        raise FormatError(
            f"{what} is not valid UTF-8", code="bag_manifest_bad", params={"what": what}
        ) from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split(None, 1)
        if len(parts) != 2 or _SHA256_HEX.fullmatch(parts[0]) is None:
            raise FormatError(
                f"{what} line {n} is not '<sha256>  <path>'",
                place=what,
                code="bag_manifest_bad",
                params={"what": what, "line": n},
            )
        path = _unquote(parts[1].strip(" \t")) if "%" in parts[1] else parts[1].strip(" \t")
        if path in out:
            raise UnsafeEntry(
                f"{what} lists {path!r} twice",
                place=what,
                code="bag_listed_twice",
                params={"what": what, "path": path},
            )
        out[path] = parts[0].lower()
    return out


def _read_small(sz: SafeZip, info: zipfile.ZipInfo, limit: int, what: str) -> bytes:
    if info.file_size > limit:
        raise LimitExceeded(
            f"{what} is {info.file_size} bytes, more than the {limit} allowed",
            code="too_large",
            params={"what": what, "size": info.file_size, "limit": limit},
        )
    with sz.open(info) as f:
        data = f.read(limit + 1)
        while f.read(CHUNK):
            pass  # reach EOF so the CRC is checked
    return data


def read_bag(sz: SafeZip, *, strict: bool = True) -> BagContents:
    """Check a bag's structure, tag files, manifests and passport.json; no luggage is read.

    With `strict=False` (the judge), a digest, manifest or Payload-Oxum disagreement is
    recorded in `problems` instead of raised, so the other checks can still run.
    """
    notes: list[str] = []
    problems: list[str] = []

    def fail(exc: IntegrityError) -> None:
        if strict:
            raise exc
        problems.append(exc.message)

    entries: dict[str, zipfile.ZipInfo] = {}
    names = []
    for info in sz.infos:
        name = decode_name(info)
        if name.endswith("/"):
            check_luggage_name(name.rstrip("/"), where="zip entry") if name.rstrip("/") else None
            continue
        check_luggage_name(name, where="zip entry")
        names.append(name)
        entries[name] = info
    check_unique(names, where="zip entry")
    prefix = ""
    if "bagit.txt" not in entries:
        tops = {n.split("/", 1)[0] for n in names}
        if (
            len(tops) == 1
            and all("/" in n for n in names)
            and f"{next(iter(tops))}/bagit.txt" in entries
        ):
            prefix = next(iter(tops)) + "/"
            entries = {n[len(prefix) :]: i for n, i in entries.items()}
            notes.append(
                f"the bag was zipped inside a folder ({prefix.rstrip('/')!r}); read as if it were not"
            )
        else:
            raise FormatError(
                "not a TaskPack: the zip has no bagit.txt",
                hint="Is this really a .taskpack file?",
                code="not_a_bag",
                params={"missing": "bagit.txt"},
            )
    for required in ("manifest-sha256.txt", PASSPORT):
        if required not in entries:
            raise FormatError(
                f"not a TaskPack: the bag has no {required}",
                code="not_a_bag",
                params={"missing": required},
            )
    tags: dict[str, bytes] = {}
    for tag in ("bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"):
        if tag in entries:
            limit = MAX_TAG_BYTES if "manifest" not in tag else 64 << 20
            tags[tag] = _read_small(sz, entries[tag], limit, tag)
    if not tags["bagit.txt"].startswith(b"BagIt-Version: "):
        raise FormatError(
            "bagit.txt does not declare a BagIt version",
            code="unsupported_bagit",
            params={"version": ""},
        )
    version = tags["bagit.txt"].split(b"\n", 1)[0].split(b":", 1)[1].strip()
    if version not in (b"1.0", b"0.97"):
        raise UnsupportedVersion(
            f"bagit.txt declares BagIt version {version.decode('utf-8', 'replace')!r}; 1.0 is expected",
            code="unsupported_bagit",
            params={"version": version.decode("utf-8", "replace")},
        )
    if "tagmanifest-sha256.txt" in tags:
        for path, digest in _parse_manifest(
            tags["tagmanifest-sha256.txt"], "tagmanifest-sha256.txt"
        ).items():
            if path not in tags:
                if path in entries:
                    tags[path] = _read_small(sz, entries[path], MAX_TAG_BYTES, path)
                else:
                    fail(
                        IntegrityError(
                            f"tagmanifest-sha256.txt lists {path!r}, which is not in the bag",
                            place=path,
                            code="bag_file_missing",
                            params={"path": path, "what": "tagmanifest-sha256.txt"},
                        )
                    )
                    continue
            if hashlib.sha256(tags[path]).hexdigest() != digest:
                fail(
                    IntegrityError(
                        f"{path} does not match its digest in tagmanifest-sha256.txt",
                        place=path,
                        code="digest_mismatch",
                        params={"path": path, "what": "tagmanifest-sha256.txt"},
                    )
                )
    else:
        notes.append("the bag has no tagmanifest-sha256.txt, so its tag files are not vouched for")
    manifest = _parse_manifest(tags["manifest-sha256.txt"], "manifest-sha256.txt")
    payload = [n for n in entries if n.startswith("data/")]
    for path in payload:
        if path not in manifest:
            fail(
                IntegrityError(
                    f"{path} is in the bag but not in manifest-sha256.txt (a file nobody vouched for)",
                    place=path,
                    code="bag_file_unlisted",
                    params={"path": path},
                )
            )
    for path in manifest:
        if path not in entries:
            fail(
                IntegrityError(
                    f"manifest-sha256.txt lists {path!r}, which is missing from the bag",
                    place=path,
                    code="bag_file_missing",
                    params={"path": path, "what": "manifest-sha256.txt"},
                )
            )
            continue
        if not path.startswith("data/"):
            raise UnsafeEntry(
                f"manifest-sha256.txt lists {path!r}, which is outside data/",
                place=path,
                code="bag_outside_data",
                params={"path": path},
            )
    if "bag-info.txt" in tags:
        try:
            _check_oxum(tags["bag-info.txt"], [entries[p] for p in payload], notes)
        except IntegrityError as exc:
            fail(exc)
    passport_json = _read_small(sz, entries[PASSPORT], MAX_PASSPORT_BYTES, PASSPORT)
    if hashlib.sha256(passport_json).hexdigest() != manifest.get(PASSPORT):
        fail(
            IntegrityError(
                f"{PASSPORT} does not match its digest in manifest-sha256.txt",
                place=PASSPORT,
                code="digest_mismatch",
                params={"path": PASSPORT, "what": "manifest-sha256.txt"},
            )
        )
    luggage = []
    infos = {}
    for path in payload:
        if path == PASSPORT:
            continue
        if not path.startswith(FILES):
            notes.append(
                f"{path!r} is neither data/passport.json nor luggage under data/files/; it is ignored"
            )
            continue
        name = path[len(FILES) :]
        luggage.append(
            LuggageItem(name=name, size=entries[path].file_size, sha256=manifest.get(path))
        )
        infos[name] = entries[path]
    return BagContents(passport_json, luggage, infos, tags, notes, prefix, problems)


_OXUM_NUMBER = re.compile("[0-9]{1,20}")  # ASCII digits only ("²".isdigit() is true); < 2**64
_SHA256_HEX = re.compile("[0-9a-fA-F]{64}")  # a manifest line's digest


def _check_oxum(info_txt: bytes, payload: list[zipfile.ZipInfo], notes: list[str]) -> None:
    for line in (raw.decode("utf-8", "replace") for raw in tag_lines(info_txt)):
        key, _, value = line.partition(":")
        if key.strip() == "Payload-Oxum":
            octets, _, count = value.strip().partition(".")
            real = (sum(i.file_size for i in payload), len(payload))
            if (
                not (_OXUM_NUMBER.fullmatch(octets) and _OXUM_NUMBER.fullmatch(count))
                or (int(octets), int(count)) != real
            ):
                shown = value.strip() if len(value.strip()) <= 60 else value.strip()[:60] + "…"
                raise IntegrityError(
                    f"bag-info.txt says the payload is {shown!r} (bytes.files) but it is {real[0]}.{real[1]}",
                    place="bag-info.txt",
                    code="oxum_mismatch",
                    params={"declared": shown, "real": f"{real[0]}.{real[1]}"},
                )
        if key.strip() == "Bag-Spec" and value.strip() not in KNOWN_SPECS:
            raise UnsupportedVersion(
                f"bag-info.txt declares Bag-Spec {value.strip()!r}, which this reader does not know",
                code="unsupported_spec",
                params={"where": "bag-info.txt", "spec": value.strip()},
            )
