"""Opening a pack of either encoding (or a retired `.tpx`) for reading.

`open_pack` checks everything that can be checked without reading the luggage: the
container, names, manifests, the pack object and its version. Luggage is read through
`OpenedPack.open_luggage`, which streams and verifies the digest at the end, or all at
once with `OpenedPack.verify`.

What the reader is lenient about (landing) is listed in `OpenedPack.notes`; the judge
(`conformance`) reads the same notes as failures of C0.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, cast

from ..errors import (
    Cancelled,
    FormatError,
    IntegrityError,
    PackError,
    UnsupportedVersion,
)
from ..progress import CancelCheck, Progress
from . import bag, canonical
from .luggage import (
    LuggageItem,
    LuggageSource,
)
from .streams import CHUNK, BufferRing, Chunk, VerifyingReader
from .vocabulary import KNOWN_SPECS
from .zip_archive import SafeZip, ZipLimits

if TYPE_CHECKING:  # built on first use: the judge reads `data` and never needs the models
    from . import flat
    from .model import PackObject

Encoding = Literal["bag", "flat", "tpx"]


#: what `open_pack` and the judge read: a file's path, or a binary stream of its bytes
PackSource = str | os.PathLike[str] | BinaryIO
#: a stream that cannot seek is copied aside first: in memory up to this, then on disk
SPOOL_IN_MEMORY = 8 << 20


def sniff(path: Path) -> Literal["bag", "json"]:
    with open(path, "rb") as f:
        head = f.read(64)
    return _sniff(head, path.name)


def _sniff(head: bytes, name: str) -> Literal["bag", "json"]:
    path = Path(name)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "bag"
    stripped = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    if stripped.startswith(b"{") or head.startswith(b"\xef\xbb\xbf"):
        return "json"
    if not head:
        raise FormatError(f"{path.name} is empty", code="empty_file", params={"name": path.name})
    raise FormatError(
        f"{path.name} is neither a .taskpack (zip) nor a .taskpack.json file",
        code="not_a_pack",
        params={"name": path.name},
    )


def encoding_for(path: Path | str) -> Literal["bag", "flat"]:
    """The encoding a file name asks for: `*.taskpack.json` / `*.json` → flat, else bag."""
    name = str(path).lower()
    return "flat" if name.endswith(".json") else "bag"


@dataclass
class OpenedPack:
    """A pack file opened for reading: its pack object, its luggage (streamed on demand), and what the reader noticed."""

    path: Path
    encoding: Encoding
    data: dict[str, Any]
    luggage: list[LuggageItem]
    notes: list[str] = field(default_factory=list)
    #: bag: data/passport.json exactly as in the file; flat: the canonical text of `data`
    passport_json: bytes = b""
    #: bag only: tag files as in the file
    tags: dict[str, bytes] = field(default_factory=dict)
    #: integrity problems recorded instead of raised (only when opened with strict=False)
    problems: list[str] = field(default_factory=list)
    #: (field path, message) for fields of the wrong type (only with strict=False; `pack`
    #: is then empty and the judge works on `data`)
    schema_errors: list[tuple[str, str]] = field(default_factory=list)
    #: flat only: each attachment's keys as written, by name (its `data` left out), so a
    #: repair can say what the file left out rather than what the reader assumed
    declared: dict[str, dict[str, Any]] = field(default_factory=dict)
    _pack: PackObject | None = None
    #: opened with defer_model=True: `pack` is validated (strictly) on first use
    _deferred: bool = False
    #: the canonical text of `data` (what the content digest is over), made once at open
    _canonical: bytes = b""
    _zip: SafeZip | None = None
    _zip_fp: BinaryIO | None = None
    #: opened from a stream: the stream (the flat form reads attachments from it)
    _stream: BinaryIO | None = None
    #: close `_zip_fp` / `_stream` with the pack (False: the caller's stream, left open)
    _owns_stream: bool = True
    _infos: dict[str, Any] = field(default_factory=dict)
    _spans: dict[str, tuple[flat.Span | None, str]] = field(default_factory=dict)
    _computed: dict[str, str] = field(default_factory=dict)
    #: flat, opened with speculate=True: attachments whose span was taken from their
    #: declared size and not yet proven by reading them whole (see `flat.read_flat`)
    unproven: set[str] = field(default_factory=set)

    @property
    def pack(self) -> PackObject:
        """The pack object as a model (validated at open, unless opened with strict=False:
        then it is built here, on first use, and is empty when `schema_errors` is not).
        Opened with defer_model=True, it is validated here, on first use, as strictly as at
        open (a wrong type is a FormatError)."""
        if self._pack is None:
            from pydantic import ValidationError

            from .model import PackObject

            if self._deferred:
                self._pack = PackObject.from_data(self.data, where="")
                return self._pack
            try:
                self._pack = PackObject.model_validate(self.data)
            except ValidationError:
                self._pack = PackObject.model_construct()
        return self._pack

    # -- luggage --------------------------------------------------------------------

    def item(self, name: str) -> LuggageItem:
        for it in self.luggage:
            if it.name == name:
                return it
        raise KeyError(name)

    def open_luggage(self, item: LuggageItem | str) -> VerifyingReader:
        """Stream one luggage file; a digest or size mismatch raises IntegrityError at EOF."""
        it = self.item(item) if isinstance(item, str) else item
        raw: BinaryIO
        if self.encoding == "bag":
            assert self._zip is not None
            raw = self._zip.open(self._infos[it.name])
        else:
            span, enc = self._spans[it.name]
            if span is None:
                import io

                raw = io.BytesIO(b"")
            else:
                source = self.path if self._stream is None else _Window(self._stream)

                def proven(name: str = it.name) -> None:
                    self.unproven.discard(name)

                from .flat import SpanReader  # here: a bag's reading never loads the flat form

                raw = SpanReader(source, span, enc, it.name, on_proven=proven)  # type: ignore[arg-type, assignment]
        expected = it.sha256 or self._computed.get(it.name)

        def remember(digest: str, name: str = it.name) -> None:
            self._computed[name] = digest

        return VerifyingReader(
            raw,
            name=it.name,
            size=it.size if it.size >= 0 else None,
            sha256=expected,
            on_digest=remember,
        )

    def written_encoding(self, name: str) -> str:
        """Flat form only: how the attachment's data is written (`utf8` or `base64`)."""
        return self._spans.get(name, (None, "utf8"))[1]

    def digest_of(self, item: LuggageItem) -> str:
        """The luggage file's sha256: as declared, else computed by reading it."""
        if item.sha256:
            return item.sha256
        if item.name not in self._computed:
            with self.open_luggage(item) as f:
                while f.read(CHUNK):
                    pass
        return self._computed[item.name]

    def verify(self, progress: Progress | None = None, cancel: CancelCheck | None = None) -> None:
        """Read every luggage byte once and check every digest and size."""
        self.stream_luggage(progress=progress, cancel=cancel)

    def stream_luggage(
        self,
        on_chunk: Callable[[LuggageItem, Chunk], None] | None = None,
        *,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        on_error: Callable[[LuggageItem, PackError], None] | None = None,
    ) -> None:
        """Read all luggage once, verifying it, handing each chunk to `on_chunk`.

        A chunk is valid only during its call (it may be a view of a buffer the next
        read reuses): `on_chunk` copies what it keeps.

        A broken file raises, unless `on_error` is given: then it is told and reading
        goes on with the next file (the judge reports every problem, not the first).
        """
        total = sum(max(i.size, 0) for i in self.luggage)
        done = 0
        ring = BufferRing()
        for it in self.luggage:
            try:
                with self.open_luggage(it) as f:
                    while True:
                        if cancel and cancel():
                            raise Cancelled()
                        chunk = f.next_chunk(ring)
                        if not chunk:
                            break
                        if on_chunk:
                            on_chunk(it, chunk)
                        done += len(chunk)
                        if progress:
                            progress(done, total)
            except (IntegrityError, FormatError) as exc:
                if on_error is None:
                    raise
                on_error(it, exc)

    def content_digest(self) -> str:
        """sha256 identity of what the pack carries, the same for both encodings.

        Over the canonical text of the pack object and each luggage (name, sha256).
        Used for landing idempotence and to recognise packs this desk wrote.
        """
        return content_digest(
            self.data,
            [(i.name, self.digest_of(i)) for i in self.luggage],
            canonical_text=self._canonical or None,
        )

    def close(self) -> None:
        if self._zip:
            self._zip.close()
        if self._owns_stream:
            for fp in (self._zip_fp, self._stream):
                if fp is not None:
                    fp.close()
        self._zip = None
        self._zip_fp = None
        self._stream = None

    def __enter__(self) -> OpenedPack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def luggage_of(opened: OpenedPack) -> list[LuggageSource]:
    """An opened pack's luggage as sources for a new pack; each verifies as it is read."""
    return [
        LuggageSource(
            name=item.name,
            size=item.size,
            sha256=item.sha256,
            verified_stream=item.sha256 is not None,
            opener=_opener(opened, item),
        )
        for item in opened.luggage
    ]


def _opener(opened: OpenedPack, item: LuggageItem) -> Callable[[], BinaryIO]:
    return lambda: cast(BinaryIO, opened.open_luggage(item))


def content_digest(
    data: dict[str, Any], luggage: list[tuple[str, str]], *, canonical_text: bytes | None = None
) -> str:
    """`canonical_text`: ``canonical.json_bytes(data)``, when the caller has it already."""
    h = hashlib.sha256(b"taskpack-content/1\n")
    h.update(canonical_text if canonical_text is not None else canonical.json_bytes(data))
    for name, digest in luggage:
        h.update(name.encode("utf-8") + b"\0" + digest.encode("ascii") + b"\n")
    return h.hexdigest()


def check_pack_object(
    data: Any, where: str, strict: bool = True, defer: bool = False
) -> tuple[PackObject | None, list[tuple[str, str]]]:
    """strict: the validated model (a wrong type is a FormatError), or with `defer` none yet
    (`OpenedPack.pack` validates it on first use). Not strict (the judge): no model yet,
    and every field of the wrong type, found on the raw JSON (`shape`)."""
    if not isinstance(data, dict):
        raise FormatError(
            f"{where} is not a JSON object", code="not_json_object", params={"where": where}
        )
    spec = data.get("spec")
    if spec is not None and not isinstance(spec, str):
        raise FormatError(
            f"{where} has a spec that is not a string",
            place="spec",
            code="bad_field",
            params={"field": "spec"},
        )
    if spec is not None and spec not in KNOWN_SPECS:
        raise UnsupportedVersion(
            f"{where} declares spec {spec!r}, which this reader does not know",
            code="unsupported_spec",
            params={"where": where, "spec": spec},
        )
    if strict and defer:
        return None, []
    if strict:
        from .model import PackObject

        return PackObject.from_data(data, where=""), []
    from . import raw_types

    return None, raw_types.errors(data)


def open_pack(
    source: PackSource,
    *,
    name: str | None = None,
    limits: ZipLimits | None = None,
    strict: bool = True,
    speculate: bool = False,
    defer_model: bool = False,
) -> OpenedPack:
    """Open a `.taskpack`, `.taskpack.json` or `.tpx` file for reading (see module doc).

    `source` is a path, or a binary stream of the file's bytes (what an A2A request or
    a download hands over: nothing needs writing to disk first). A stream is read from
    its start; keep it open while the pack is used (closing the pack leaves it open).
    One that cannot seek is copied aside first (memory, then a temp file). `name` is how
    a stream is called in messages and in the desk's history.

    `strict=False` is for the judge only: digest disagreements in a bag's tag files and
    manifests are collected in `OpenedPack.problems` rather than raised.

    `speculate=True` (the judge, flat form): a base64 attachment's span is taken from its
    declared size instead of a pass over the file (`flat.read_flat`). What was opened is
    then only right if reading every attachment to its end leaves `OpenedPack.unproven`
    empty; otherwise the caller must open the file again without speculating.

    `defer_model=True`: the pack object is checked as strictly, but validated into a model
    only when `OpenedPack.pack` is first read (a landing that holds its review never reads
    it: for 100,000 asks that is ~140 MB and a second not spent).
    """
    if not isinstance(source, (str, os.PathLike)):
        return _open_stream(source, name or "the pack", limits, strict, speculate, defer_model)
    p = Path(source)
    if not p.is_file():
        if p.exists():
            raise FormatError(
                f"{p} is not a regular file", code="not_regular_file", params={"name": p.name}
            )
        raise FileNotFoundError(2, "No such file", str(p))
    # one open for the whole reading: the kind is sniffed from the same descriptor, and the
    # flat form's attachments are read through it too (none reopens the file)
    fp = open(p, "rb")  # noqa: SIM115 - owned by the OpenedPack, closed by its close()
    try:
        kind = _sniff(fp.read(64), p.name)
        fp.seek(0)
        if kind == "bag":
            size = os.fstat(fp.fileno()).st_size
            return _open_bag(p, limits, strict, fp=fp, size=size, defer=defer_model)
        from .opening_flat import open_json

        return open_json(p, strict, stream=fp, speculate=speculate, defer=defer_model)
    except BaseException:
        fp.close()
        raise


def _open_stream(
    stream: BinaryIO,
    name: str,
    limits: ZipLimits | None,
    strict: bool,
    speculate: bool = False,
    defer: bool = False,
) -> OpenedPack:
    owned = False
    if not (hasattr(stream, "seekable") and stream.seekable()):
        import shutil  # here: a file's reader never needs them, and they cost start-up
        import tempfile

        spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - owned by the pack
        try:
            shutil.copyfileobj(stream, spool, CHUNK)
        except BaseException:
            spool.close()
            raise
        stream, owned = cast(BinaryIO, spool), True
    try:
        stream.seek(0)
        head = stream.read(64)
        p = Path(name)
        if _sniff(head, p.name) == "bag":
            size = stream.seek(0, os.SEEK_END)
            return _open_bag(p, limits, strict, fp=stream, size=size, owned=owned, defer=defer)
        stream.seek(0)
        from .opening_flat import open_json

        opened = open_json(p, strict, stream=stream, speculate=speculate, defer=defer)
        opened._owns_stream = owned
        return opened
    except BaseException:
        if owned:
            stream.close()
        raise


class _Window:
    """A reader over a shared seekable stream that keeps its own position (each flat
    attachment gets one, so two can be read in turn without disturbing each other)."""

    def __init__(self, fp: BinaryIO) -> None:
        self._fp, self._pos = fp, 0

    def seek(self, pos: int, whence: int = 0) -> int:
        self._pos = pos if whence == 0 else self._pos + pos
        return self._pos

    def read(self, n: int = -1, /) -> bytes:
        self._fp.seek(self._pos)
        data = self._fp.read(n)
        self._pos += len(data)
        return data

    def close(self) -> None:
        pass  # the stream belongs to the OpenedPack


def _open_bag(
    p: Path,
    limits: ZipLimits | None,
    strict: bool,
    *,
    fp: BinaryIO | None = None,
    size: int | None = None,
    owned: bool = True,
    defer: bool = False,
) -> OpenedPack:
    if fp is None:
        fp = open(p, "rb")  # noqa: SIM115 - owned by the OpenedPack, closed by its close()
        size = os.fstat(fp.fileno()).st_size
    try:
        sz = SafeZip(fp, size or 0, limits)
        contents = bag.read_bag(sz, strict=strict)
        data = canonical.parse_json(
            contents.passport_json, what="data/passport.json", budget=canonical.ObjectBudget()
        )
        pack, schema_errors = check_pack_object(data, "data/passport.json", strict, defer)
        notes = list(contents.notes)
        canon = canonical.json_bytes(data)
        if contents.passport_json != canon:
            notes.append("data/passport.json is not in the canonical JSON form")
        else:
            canon = contents.passport_json  # (one copy kept, not two)
        return OpenedPack(
            path=p,
            encoding="bag",
            data=data,
            _pack=pack,
            luggage=contents.luggage,
            notes=notes,
            passport_json=contents.passport_json,
            tags=contents.tags,
            _zip=sz,
            _zip_fp=fp,
            _deferred=pack is None and strict,
            _canonical=canon,
            _infos=contents.infos,
            problems=contents.problems,
            schema_errors=schema_errors,
            _owns_stream=owned,
        )
    except BaseException:
        if owned:
            fp.close()
        raise


__all__ = [
    "CancelCheck",
    "Encoding",
    "IntegrityError",
    "OpenedPack",
    "PackSource",
    "Progress",
    "content_digest",
    "encoding_for",
    "open_pack",
    "sniff",
]
