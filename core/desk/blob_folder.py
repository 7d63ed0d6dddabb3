"""The embedded desk's luggage bytes: a content-addressed folder under the desk's home.

    blobs/sha256/ab/…    luggage bytes, named by the sha256 of their bytes (never by a
                         luggage name, never by a digest someone claims)
    blobs/tmp/           half-written blobs; harmless, swept by `housekeep`

A blob is written temp file → fsync → rename → fsync the folder, so it either exists
whole under its digest or not at all. Reading one back checks its digest again.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from .. import files
from ..errors import IntegrityError, UsageError
from ..files import fsync_dir
from ..format.streams import CHUNK, Background, Hasher, VerifyingReader, hash_file
from ..portable import replacing
from .store import Readable, StagedBlob

BLOB_DIR = "blobs"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def blob_path(home: Path, sha256: str) -> Path:
    """Where the blob with that digest lives under `home`. Only a 64-hex digest makes a path."""
    if not _HEX64.match(sha256):
        raise UsageError(f"{sha256!r} is not a sha256 digest")
    return home / BLOB_DIR / "sha256" / sha256[:2] / sha256[2:]


def copy_hashed(
    stream: Readable,
    write: Callable[[bytes], object],
    *,
    on_chunk: Callable[[bytes], None] | None = None,
) -> tuple[str, int]:
    """Copy `stream` to `write` (on a background thread) and return (sha256, size) of the
    bytes copied. A `VerifyingReader` (it hashes every byte it hands out) read through to
    its end lends its digest, so those bytes are hashed once; any other stream is hashed
    here. Never a digest the caller merely states."""
    fresh = isinstance(stream, VerifyingReader) and stream.bytes_read == 0
    own = None if fresh else Hasher()
    size = 0
    sink = Background(write, name="blob-write")
    try:
        while chunk := stream.read(CHUNK):
            if on_chunk is not None:
                on_chunk(chunk)
            if own is not None:
                own.update(chunk)
            sink.put(chunk)
            size += len(chunk)
    finally:
        sink.drain()
    if own is not None:
        sha: str | None = own.hexdigest()
    else:
        assert isinstance(stream, VerifyingReader)
        sha = stream.digest
    if sha is None:  # pragma: no cover - a VerifyingReader sets it at its end
        raise IntegrityError("a luggage file was staged before it was read to its end")
    return sha, size


def check_claim(sha: str, expected_sha256: str | None) -> None:
    """IntegrityError when the bytes' digest is not the one the caller said they have."""
    if expected_sha256 is not None and sha != expected_sha256.lower():
        raise IntegrityError(
            f"a luggage file's bytes do not match its declared sha256 ({expected_sha256[:12]}…)"
        )


class BlobFolder:
    """The blob folder under `home` (a :class:`~.store.BlobStore`)."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.root = self.home / BLOB_DIR
        (self.root / "sha256").mkdir(parents=True, exist_ok=True)
        (self.root / "tmp").mkdir(parents=True, exist_ok=True)

    def blob_path(self, sha256: str) -> Path:
        """Where the blob with that digest lives. Only a 64-hex digest makes a path."""
        return blob_path(self.home, sha256)

    def has_blob(self, sha256: str) -> bool:
        return self.blob_path(sha256).is_file()

    def put_blob(
        self, stream: Readable, *, expected_sha256: str | None = None, size_hint: int | None = None
    ) -> tuple[str, int]:
        """Copy a stream into the blob folder; returns (sha256, size). Crash-safe, idempotent.

        If the stream raises (e.g. an IntegrityError at EOF) or its digest differs from
        `expected_sha256`, nothing is kept.
        """
        staged = self.stage_blob(stream, expected_sha256=expected_sha256, size_hint=size_hint)
        self.commit_blob(staged)
        return staged.sha256, staged.size

    def put_blob_bytes(self, data: bytes) -> tuple[str, int]:
        return self.put_blob(io.BytesIO(data))

    def stage_blob(
        self,
        stream: Readable,
        *,
        expected_sha256: str | None = None,
        size_hint: int | None = None,
        on_chunk: Callable[[bytes], None] | None = None,
    ) -> StagedBlob:
        """Copy a stream into a temp file of the blob folder, hashing as it goes (one pass).

        Nothing is stored until :meth:`commit_blob`; :meth:`discard_blob` (or a crash,
        swept by `housekeep`) leaves no trace. Landing stages a pack's luggage while
        scanning it (`on_chunk`), and commits only when the scan found nothing to refuse.
        The writes run on their own thread, overlapping the next read.
        """
        with files.space_for(self.root, needed=size_hint):
            tmp, out = self.open_temp()
            try:
                sha, size = copy_hashed(stream, out.write, on_chunk=on_chunk)
                self.finish_temp(out)
                check_claim(sha, expected_sha256)
            except BaseException:
                self.drop_temp(out, tmp)
                raise
        return StagedBlob(sha, size, tmp)

    def open_temp(self) -> tuple[Path, BinaryIO]:
        """A new temp file of the folder, to stage a blob in (under `files.space_for`)."""
        tmp = self.root / "tmp" / f"{secrets.token_hex(12)}.part"
        return tmp, open(tmp, "xb")  # closed by finish_temp / drop_temp

    def finish_temp(self, out: BinaryIO) -> None:
        """The staged bytes on disk (flushed, fsynced), the file closed."""
        with out:
            out.flush()
            os.fsync(out.fileno())

    def drop_temp(self, out: BinaryIO, tmp: Path | None) -> None:
        with contextlib.suppress(OSError):
            out.close()
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def commit_blob(self, staged: StagedBlob) -> None:
        """Move a staged blob to its place under its digest (a no-op if it is there)."""
        final = self.blob_path(staged.sha256)
        assert staged.path is not None, "a blob kept as a row is committed by its store"
        try:
            try:
                there = os.stat(final)
            except FileNotFoundError:
                there = None
            if there is not None and stat.S_ISREG(there.st_mode) and there.st_size == staged.size:
                staged.path.unlink(missing_ok=True)
                return
            try:
                replacing.replace(staged.path, final)
            except FileNotFoundError:  # the digest's folder is new (or the staged part is gone)
                final.parent.mkdir(parents=True, exist_ok=True)
                replacing.replace(staged.path, final)
            fsync_dir(final.parent)
        except BaseException:
            self.discard_blob(staged)
            raise

    def discard_blob(self, staged: StagedBlob) -> None:
        if staged.path is not None:
            with contextlib.suppress(OSError):
                staged.path.unlink(missing_ok=True)

    def open_blob(
        self, sha256: str, *, name: str | None = None, size: int | None = None
    ) -> BinaryIO:
        """The stored bytes, checked as they are read: reading to the end of a blob whose
        bytes no longer match `sha256` (or `size`) raises IntegrityError naming `name`."""
        path = self.blob_path(sha256)
        what = repr(name) if name else f"blob {sha256[:12]}…"
        try:
            raw = open(path, "rb")  # noqa: SIM115 - handed to the caller, who closes it
        except FileNotFoundError:
            raise IntegrityError(
                f"the stored luggage {what} is missing",
                hint="Run `taskpack doctor`; land the pack again to restore its luggage.",
            ) from None
        return StoredBlob(raw, name=what, size=size, sha256=sha256)  # type: ignore[return-value]

    def sweep_temp(self) -> int:
        """Delete half-written blobs left by a crash; returns how many."""
        n = 0
        for p in (self.root / "tmp").glob("*.part"):
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
        return n

    def problems(self, rows: list[tuple[str, str, str, int]], *, hash_blobs: bool) -> list[str]:
        """For (passport id, luggage name, sha256, size) rows: each blob missing, of the
        wrong size or (with `hash_blobs`) no longer matching its digest, as a sentence."""
        out: list[str] = []
        for pid, name, sha, size in rows:
            path = self.blob_path(sha)
            if not path.is_file() or path.stat().st_size != size:
                out.append(f"luggage {name!r} of {pid} is missing its blob")
            elif hash_blobs and hash_file(path) != sha:
                out.append(f"luggage {name!r} of {pid} no longer matches its sha256")
        return out


class StoredBlob(VerifyingReader):
    """A blob read back: damage found at the end is named as the store's, with what to do."""

    def _finish(self) -> None:
        try:
            super()._finish()
        except IntegrityError:
            raise IntegrityError(
                f"the stored luggage {self._name} is damaged: its bytes no longer match their "
                "sha256, so it was not used and nothing was written",
                hint="Run `taskpack doctor` to check the whole store.",
            ) from None
