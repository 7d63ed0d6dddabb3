"""Opening the flat form (`.taskpack.json`, spec §2.2) or a retired `.tpx` (§8) for
:func:`~.reading.open_pack`: the one JSON object read by `flat.read_flat`, its version
checked, each attachment's declared name, encoding, size and digest checked before any
of its bytes are trusted. A bag is opened in :mod:`.reading` itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from ..errors import FormatError, IntegrityError, UnsupportedVersion
from . import canonical, flat, legacy_tpx
from .luggage import LuggageItem, check_luggage_name, check_unique
from .reading import Encoding, OpenedPack, check_pack_object
from .streams import CHUNK
from .vocabulary import FLAT_VERSION


def open_json(
    p: Path,
    strict: bool = True,
    *,
    stream: BinaryIO | None = None,
    speculate: bool = False,
    defer: bool = False,
) -> OpenedPack:
    if stream is not None:
        contents = flat.read_flat(stream, speculate=speculate)
    else:
        with open(p, "rb") as fp:
            contents = flat.read_flat(fp, speculate=speculate)
    top = contents.top
    notes: list[str] = []
    if legacy_tpx.is_tpx(top):
        data = legacy_tpx.tpx_to_pack(top)
        encoding: Encoding = "tpx"
        notes.append("this is a retired .tpx/0.1 file; it was read and mapped onto TaskPack 0.1")
    else:
        if "taskpack" not in top:
            raise FormatError(
                f'{p.name} is JSON but not a TaskPack (it has no "taskpack" field)',
                code="not_a_pack",
                params={"name": p.name},
            )
        if top["taskpack"] != FLAT_VERSION:
            raise UnsupportedVersion(
                f"{p.name} declares taskpack {top['taskpack']!r}; this reader knows {FLAT_VERSION!r}",
                code="unsupported_spec",
                params={"where": p.name, "spec": str(top["taskpack"])},
            )
        if top.get("encoding", "flat") != "flat":
            raise FormatError(
                f"{p.name} declares encoding {top.get('encoding')!r}; a .taskpack.json must be 'flat'",
                code="bad_field",
                params={"field": "encoding"},
            )
        passport = top.get("passport")
        if not isinstance(passport, dict):
            raise FormatError(
                f"{p.name} has no passport object", code="bad_field", params={"field": "passport"}
            )
        data = passport
        encoding = "flat"
    pack, schema_errors = check_pack_object(data, "the passport object", strict, defer)
    luggage: list[LuggageItem] = []
    problems: list[str] = []
    spans: dict[str, tuple[flat.Span | None, str]] = {}
    declared: dict[str, dict[str, Any]] = {}
    for n, att in enumerate(contents.attachments, 1):
        meta = att.meta
        name = meta.get("name")
        if not isinstance(name, str):
            raise FormatError(
                f"attachment {n} has no name",
                code="bad_field",
                params={"field": f"attachments[{n}].name"},
            )
        check_luggage_name(name, where="attachment")
        enc = meta.get("encoding", "utf8")
        if "encoding" not in meta:
            notes.append(f"attachment {name!r} declares no encoding; it was read as utf8")
        if enc not in ("utf8", "base64"):
            raise FormatError(
                f"attachment {name!r} declares encoding {enc!r}; expected utf8 or base64",
                code="bad_attachment",
                params={"name": name, "field": "encoding"},
            )
        sha = meta.get("sha256")
        if sha is not None and (not isinstance(sha, str) or len(sha) != 64 or not _is_hex(sha)):
            raise FormatError(
                f"attachment {name!r} has a sha256 that is not 64 hex digits",
                code="bad_attachment",
                params={"name": name, "field": "sha256"},
            )
        if sha is None:
            notes.append(f"attachment {name!r} declares no sha256, so nobody vouched for its bytes")
        size = meta.get("bytes")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 0):
            raise FormatError(
                f"attachment {name!r} declares a size that is not a whole number",
                code="bad_attachment",
                params={"name": name, "field": "bytes"},
            )
        if size is None:
            notes.append(f"attachment {name!r} declares no size")
            size = flat.span_size(att.span, enc) if att.span else 0
            if size is None:
                size = -1
        most = flat.most_bytes(att.span, enc)
        if size > most:  # a lie the writer would carry into a zip header (2**70 bytes)
            lie = IntegrityError(
                f"attachment {name!r} declares {size} bytes, but its data can hold at most {most}",
                place=name,
                code="luggage_size",
                params={"name": name},
            )
            if strict:
                raise lie
            problems.append(lie.message)
        if att.span is None:
            notes.append(f"attachment {name!r} has no data")
        luggage.append(LuggageItem(name=name, size=size, sha256=sha.lower() if sha else None))
        spans[name] = (att.span, enc)
        declared[name] = dict(meta)
    check_unique((i.name for i in luggage), where="attachment")
    canon = canonical.json_bytes(data)
    opened = OpenedPack(
        path=p,
        encoding=encoding,
        data=data,
        _pack=pack,
        luggage=luggage,
        notes=notes,
        passport_json=canon,
        _canonical=canon,
        _deferred=pack is None and strict,
        _spans=spans,
        schema_errors=schema_errors,
        problems=problems,
        declared=declared,
        _stream=stream,
        unproven={
            a.meta["name"] for a in contents.attachments if a.span is not None and a.span.guessed
        },
    )
    for it in luggage:
        if it.size < 0:  # size unknown until decoded: decode once, verifying as we go
            size = 0
            with opened.open_luggage(it) as f:
                while chunk := f.read(CHUNK):
                    size += len(chunk)
            idx = opened.luggage.index(it)
            opened.luggage[idx] = LuggageItem(it.name, size, it.sha256)
    return opened


def _is_hex(s: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in s)
