"""Writing a pack file atomically in either encoding — the low level under `pack_writer`.

Nothing outside `pack_writer.make_pack` calls this: packing must seal and refuse first.
The file appears under its final name only when every byte is written and flushed; a
failure or cancellation leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from .. import files
from ..errors import Cancelled
from ..portable import replacing
from ..portable.long_paths import extended
from ..progress import CancelCheck, Progress
from . import bag, canonical, flat
from .luggage import (
    LuggageSource,
    check_luggage_name,
    check_unique,
    interop_warnings,
)
from .reading import content_digest
from .streams import AppendDigest

#: a flat attachment above this size may not survive a chat app (A2A descriptor value)
MAX_INLINE_ATTACHMENT_BYTES = 1 << 20

ChunkTap = Callable[[str, bytes], None]


@dataclass
class WriteResult:
    """What writing a pack made: the file, its form and size, its digests, and what was said on the way."""

    path: Path
    encoding: str
    size: int
    content_digest: str
    luggage_digests: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    sealed: list[str] = field(default_factory=list)
    #: `convert --repair` only: each repair made, in words
    repairs: list[str] = field(default_factory=list)
    #: the written file's sha256, when it was asked for (`file_digest`) and could be taken
    #: as the file was written; None otherwise
    file_sha256: str | None = None


def write_pack(
    data: dict[str, Any],
    luggage: Sequence[LuggageSource],
    out: Path,
    *,
    encoding: str,
    tap: ChunkTap | None = None,
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
    before_commit: Callable[[], None] | None = None,
    durable: bool = False,
    file_digest: bool = False,
) -> WriteResult:
    """Write `data` (the pack object, as JSON values) and `luggage` to `out`.

    `before_commit()` runs when every byte is written but before the file takes its
    final name; if it raises, nothing is left behind (the refusal scanner uses this).
    `durable=True` also fsyncs the file before it takes its name (the store asks for
    this); an exported pack is not fsynced, like `cp` or `zip` would not.

    `file_digest=True` asks for the written file's sha256 in `WriteResult.file_sha256`,
    hashed as the bytes are written, so nothing is read twice. That is only possible
    when the file is written front to back: the flat form with every attachment's
    digest known ahead (luggage from the store, or verified as it is read). A bag never
    is (its manifests, and each streamed entry's CRC in its local header, are filled in
    after the luggage has passed), nor is a flat file with luggage nobody has hashed
    yet; then it stays None.
    """
    for src in luggage:
        check_luggage_name(src.name)
    check_unique(s.name for s in luggage)
    warnings = interop_warnings((s.name for s in luggage), encoding=encoding)
    if encoding == "flat":
        big = [s.name for s in luggage if s.size > MAX_INLINE_ATTACHMENT_BYTES]
        if big:
            warnings.append(
                f"{len(big)} attachment(s) are over 1 MiB inline ({', '.join(big[:3])}): chat apps may "
                "not carry this file; send the .taskpack form if it does not arrive whole"
            )
    total = sum(s.size for s in luggage)
    done = 0

    def on_chunk(name: str, chunk: bytes) -> None:
        if cancel and cancel():
            raise Cancelled()
        if tap:
            tap(name, chunk)

    def on_progress(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # about what the file will take: base64 is 4/3 of the bytes; the rest is small
    needed = (total * 4 // 3 if encoding == "flat" else total) + 64 * 1024
    with files.space_for(out.parent, needed=needed):
        hash_it = (
            file_digest
            and encoding == "flat"
            and all(s.verified_stream and s.sha256 for s in luggage)
        )
        return _write(
            data,
            luggage,
            out,
            encoding,
            on_chunk,
            on_progress,
            before_commit,
            durable,
            warnings,
            hash_it,
        )


def _write(
    data: dict[str, Any],
    luggage: Sequence[LuggageSource],
    out: Path,
    encoding: str,
    on_chunk: ChunkTap,
    on_progress: Callable[[int], None],
    before_commit: Callable[[], None] | None,
    durable: bool,
    warnings: list[str],
    hash_it: bool = False,
) -> WriteResult:
    # in a folder a person chose, whose path may be past Windows' MAX_PATH
    where = extended(out.parent)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=where)
    tmp = Path(tmp_name)
    try:
        file_sha: str | None = None
        passport_json: bytes | None = None  # (the bag's: the content digest is over it too)
        with os.fdopen(fd, "w+b") as raw:
            tap = AppendDigest(raw) if hash_it else None
            fp = cast(BinaryIO, tap) if tap else raw
            if encoding == "bag":
                passport_json = canonical.json_bytes(data)
                digests = bag.write_bag(
                    fp, data, passport_json, luggage, tap=on_chunk, progress=on_progress
                ).digests
            elif encoding == "flat":
                digests = flat.write_flat(fp, data, luggage, tap=on_chunk, progress=on_progress)
            else:
                raise ValueError(f"unknown encoding {encoding!r}")
            fp.flush()
            if durable:
                os.fsync(fp.fileno())
            size = fp.tell()
            if tap:
                file_sha = tap.hexdigest()
        if before_commit:
            before_commit()
        replacing.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return WriteResult(
        path=out,
        encoding=encoding,
        size=size,
        content_digest=content_digest(
            data, [(s.name, digests[s.name]) for s in luggage], canonical_text=passport_json
        ),
        luggage_digests=digests,
        warnings=warnings,
        file_sha256=file_sha,
    )
