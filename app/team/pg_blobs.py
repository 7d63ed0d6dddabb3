"""Luggage on a team desk: content-addressed blobs in the database, in chunks of
:data:`ROW_BYTES` (``bytea``, ``STORAGE EXTERNAL``: stored out of line, not compressed
again), sent and read as binary. Bytes are staged in this machine's spool first and
hashed on the way (never filed under a claimed digest); committing inserts the chunks
in one transaction, once per digest however many processes store it. Reading checks
the digest at the end, as the embedded desk's blob folder does."""

from __future__ import annotations

import contextlib
import io
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from taskpack.core import files
from taskpack.core.desk import health
from taskpack.core.desk.blob_folder import StoredBlob, blob_path, check_claim, copy_hashed
from taskpack.core.desk.store import Readable, StagedBlob
from taskpack.core.errors import IntegrityError
from taskpack.core.format.streams import CHUNK
from taskpack.core.portable import replacing

from .connect import Pool

#: bytes per chunk row (PostgreSQL takes up to 1 GB; 1-8 MiB keeps memory and WAL even)
ROW_BYTES = 4 << 20
#: a blob this small (by its size hint) is staged in memory, not in a spool file ...
SMALL = 32 << 10
#: ... while the staged ones held in memory stay under this many bytes in all
MEMORY_MAX = 16 << 20


#: copies handed out by :meth:`PgBlobs.blob_path` wait in ``team-spool/out-*/`` (one
#: folder per open store, removed when it closes; a crash's are swept after a day)
COPIES = "out-"
STALE_COPIES = 24 * 3600.0


class PgBlobs:
    def __init__(self, pool: Pool, spool: Path, *, url: str) -> None:
        self.pool, self.spool, self.url = pool, Path(spool), url
        (self.spool / "tmp").mkdir(parents=True, exist_ok=True)
        self._copies: Path | None = None
        self._copies_lock = threading.Lock()
        self._held = 0  # bytes of small staged blobs held in memory now

    def has_blob(self, sha256: str) -> bool:
        with self.pool.connection() as conn:
            row = conn.execute("SELECT 1 FROM taskpack.blobs WHERE sha256 = %s", (sha256,))
            return row.fetchone() is not None

    def put_blob(
        self, stream: Readable, *, expected_sha256: str | None = None, size_hint: int | None = None
    ) -> tuple[str, int]:
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
        if size_hint is not None and size_hint <= SMALL and self._may_hold(size_hint):
            buf = io.BytesIO()
            sha, size = copy_hashed(stream, buf.write, on_chunk=on_chunk)
            check_claim(sha, expected_sha256)
            with self._copies_lock:
                self._held += size
            return StagedBlob(sha, size, None, buf.getvalue())
        tmp = self.spool / "tmp" / f"{secrets.token_hex(12)}.part"
        try:
            with files.space_for(self.spool, needed=size_hint), open(tmp, "xb") as out:
                sha, size = copy_hashed(stream, out.write, on_chunk=on_chunk)
            check_claim(sha, expected_sha256)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        return StagedBlob(sha, size, tmp)

    def _may_hold(self, size: int) -> bool:
        with self._copies_lock:
            return self._held + size <= MEMORY_MAX

    def commit_blob(self, staged: StagedBlob) -> None:
        """Store the staged bytes under their digest (nothing to do if they are there)."""
        self.commit_blobs([staged])

    def commit_blobs(self, staged: Sequence[StagedBlob]) -> None:
        """Store every staged blob in one transaction: the digests in one statement, the
        new ones' chunks in one binary COPY (a pack of 10,000 small files is a few round
        trips, not 10,000 transactions). Those stored already are left as they are."""
        try:
            todo = {s.sha256: s for s in staged}
            with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                new: set[str] = set()
                shas = list(todo)
                for at in range(0, len(shas), 5000):
                    part = [todo[sha] for sha in shas[at : at + 5000]]
                    rows = cur.execute(
                        "INSERT INTO taskpack.blobs (sha256, size, chunks) "
                        "SELECT * FROM unnest(%s::text[], %s::bigint[], %s::integer[]) "
                        "ON CONFLICT (sha256) DO NOTHING RETURNING sha256",
                        (
                            [s.sha256 for s in part],
                            [s.size for s in part],
                            [max(0, -(-s.size // ROW_BYTES)) for s in part],
                        ),
                    ).fetchall()
                    new.update(str(r[0]) for r in rows)
                if new:
                    with cur.copy(
                        "COPY taskpack.blob_chunks (sha256, n, data) FROM STDIN (FORMAT BINARY)"
                    ) as copy:
                        copy.set_types(["text", "int4", "bytea"])
                        for sha in shas:
                            if sha in new:
                                for n, chunk in enumerate(_chunks_of(todo[sha])):
                                    copy.write_row((sha, n, chunk))
        finally:
            for one in staged:
                self.discard_blob(one)

    def discard_blob(self, staged: StagedBlob) -> None:
        if staged.path is not None:
            with contextlib.suppress(OSError):
                staged.path.unlink(missing_ok=True)
        elif staged.data is not None:
            with self._copies_lock:
                self._held = max(0, self._held - len(staged.data))

    def open_blob(
        self, sha256: str, *, name: str | None = None, size: int | None = None
    ) -> BinaryIO:
        what = repr(name) if name else f"blob {sha256[:12]}…"
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT size, chunks FROM taskpack.blobs WHERE sha256 = %s", (sha256,)
            ).fetchone()
        if row is None:
            raise IntegrityError(
                f"the stored luggage {what} is missing",
                hint="Run `taskpack doctor`; land the pack again to restore its luggage.",
            )
        raw = _Chunks(self.pool, sha256, int(row[1]))
        return StoredBlob(raw, name=what, size=size, sha256=sha256)  # type: ignore[arg-type, return-value]

    def blob_path(self, sha256: str) -> Path:
        """A local copy of the blob (checked on the way out), for what needs a file (a
        download being served): it lasts until this store closes."""
        with self._copies_lock:
            if self._copies is None:
                self._copies = Path(tempfile.mkdtemp(prefix=COPIES, dir=self.spool))
            copies = self._copies
        final = blob_path(copies, sha256)
        if not final.is_file():
            final.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.spool / "tmp" / f"{secrets.token_hex(12)}.part"
            try:
                with self.open_blob(sha256) as src, open(tmp, "xb") as out:
                    while chunk := src.read(CHUNK):
                        out.write(chunk)
                replacing.replace(tmp, final)
            finally:
                tmp.unlink(missing_ok=True)
        return final

    def sweep_spool(self) -> int:
        count, _size = health.sweep_parts(self.spool / "tmp")
        old = time.time() - STALE_COPIES
        for folder in self.spool.glob(COPIES + "*"):
            with contextlib.suppress(OSError):
                if folder != self._copies and folder.stat().st_mtime < old:
                    shutil.rmtree(folder)
        return count

    def drop_copies(self) -> None:
        """Remove the copies handed out (the store is closing)."""
        with self._copies_lock:
            copies, self._copies = self._copies, None
        if copies is not None:
            shutil.rmtree(copies, ignore_errors=True)


def _chunks_of(staged: StagedBlob) -> Iterator[bytes]:
    if staged.data is not None:
        if staged.data:
            yield staged.data
        return
    assert staged.path is not None
    with open(staged.path, "rb") as f:
        while chunk := f.read(ROW_BYTES):
            yield chunk


class _Chunks(io.RawIOBase):
    """A blob's chunk rows, fetched one at a time as they are read (binary results)."""

    def __init__(self, pool: Pool, sha256: str, chunks: int) -> None:
        self.pool, self.sha256, self.chunks = pool, sha256, chunks
        self._n = 0
        self._buf = b""

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1, /) -> bytes:
        while not self._buf and self._n < self.chunks:
            with self.pool.connection() as conn, conn.cursor(binary=True) as cur:
                row: Any = cur.execute(
                    "SELECT data FROM taskpack.blob_chunks WHERE sha256 = %s AND n = %s",
                    (self.sha256, self._n),
                ).fetchone()
            if row is None:
                raise IntegrityError(
                    f"the stored luggage blob {self.sha256[:12]}… is missing a part"
                )
            self._buf = bytes(row[0])
            self._n += 1
        if n is None or n < 0:
            n = len(self._buf)
        out, self._buf = self._buf[:n], self._buf[n:]
        return out
