"""Small luggage kept in the embedded desk's database, beside the rows that point at it.

A luggage file of at most :data:`ROW_MAX` bytes is not a file of the blob folder: it is a
row of ``blob_bytes`` (sha256 → bytes), written in the same transaction as the luggage
row that names it. So landing a small pack makes no file, no folder and no sync of its
own: its luggage is as durable as its passport, by the one commit both share. (A blob
file costs a small landing more than anything else: creating the inode, two fsyncs, the
rename; `benchmarks/bench_a2a.py` shows it.)

The order of a blob before what points at it holds as it does for a file: a staged small
blob is *pending* once committed (:meth:`BlobRows.commit`), and every write transaction
first writes the pending rows (:meth:`BlobRows.flush`), before any row of its own can
name them; they stop being pending only once that transaction has committed. Pending
bytes belong to this process; another process sees a row only once it is committed.

Reading is as for a file: the bytes come back checked against their digest. A blob that
is wanted as a file (`blob_path`) is copied out, checked, into the blob folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from .. import files
from ..errors import IntegrityError
from .blob_folder import BlobFolder, StoredBlob, check_claim, copy_hashed
from .store import Readable, StagedBlob

#: the largest luggage file kept as a row (a SQLite page is 4 KiB; a row this size is a
#: few overflow pages, read in one go)
ROW_MAX = 32 << 10
#: the most bytes of small blobs a process holds in memory at once, staged (a pack being
#: landed, a review held for a person) or committed and not yet written; past it a small
#: blob is staged as a file, as a large one is: a pack of 100,000 small files, or many
#: reviews held at once, cannot make memory grow without bound
MEMORY_MAX = 16 << 20


class _SpillingBuffer:
    """Bytes kept in memory up to `limit`; past it, everything so far and the rest go to a
    temp file of the blob folder (the file blob's own staging)."""

    def __init__(self, folder: BlobFolder, limit: int) -> None:
        self._folder, self._limit = folder, limit
        self.buf = bytearray()
        self.out: BinaryIO | None = None
        self.path: Path | None = None

    def write(self, chunk: bytes) -> None:
        if self.out is None and len(self.buf) + len(chunk) <= self._limit:
            self.buf += chunk
            return
        if self.out is None:
            self.path, self.out = self._folder.open_temp()
            self.out.write(self.buf)
            self.buf = bytearray()
        self.out.write(chunk)


class BlobRows:
    """The embedded desk's blob store (a :class:`~.store.BlobStore`): small landed luggage
    as rows of ``blob_bytes`` in the store's database, the rest in the blob `folder`."""

    def __init__(
        self,
        folder: BlobFolder,
        reading: Callable[[], contextlib.AbstractContextManager[sqlite3.Connection]],
    ) -> None:
        self.folder = folder
        self.root = folder.root
        #: a context manager giving the connection a read uses (the store's `_reading`)
        self._reading = reading
        self._pending: dict[str, bytes] = {}
        self._lock = threading.Lock()
        #: bytes held in memory: staged blobs still alive (given back when each is
        #: collected, however its landing ended) and pending rows
        self._held = 0

    # -- writing --

    def put_blob(
        self, stream: Readable, *, expected_sha256: str | None = None, size_hint: int | None = None
    ) -> tuple[str, int]:
        """A blob stored outside a landing (an attachment made here): a file of the folder."""
        return self.folder.put_blob(stream, expected_sha256=expected_sha256, size_hint=size_hint)

    def put_blob_bytes(self, data: bytes) -> tuple[str, int]:
        return self.folder.put_blob_bytes(data)

    def stage_blob(
        self,
        stream: Readable,
        *,
        expected_sha256: str | None = None,
        size_hint: int | None = None,
        on_chunk: Callable[[bytes], None] | None = None,
    ) -> StagedBlob:
        """Hash and copy `stream` (one pass): kept in memory when it is small (a row once
        committed), else staged as a file blob is (a temp file, fsynced)."""
        if (size_hint is not None and size_hint > ROW_MAX) or not self._may_hold():
            return self.folder.stage_blob(
                stream, expected_sha256=expected_sha256, size_hint=size_hint, on_chunk=on_chunk
            )
        sink = _SpillingBuffer(self.folder, ROW_MAX)
        try:
            with files.space_for(self.folder.root, needed=size_hint):
                sha, size = copy_hashed(stream, sink.write, on_chunk=on_chunk)
                if sink.out is not None:
                    self.folder.finish_temp(sink.out)
            check_claim(sha, expected_sha256)
        except BaseException:
            if sink.out is not None:
                self.folder.drop_temp(sink.out, sink.path)
            raise
        if sink.path is not None:
            return StagedBlob(sha, size, sink.path)
        staged = StagedBlob(sha, size, None, bytes(sink.buf))
        self._hold(size)
        weakref.finalize(staged, self._hold, -size)
        return staged

    def _may_hold(self) -> bool:
        with self._lock:
            return self._held + ROW_MAX <= MEMORY_MAX

    def _hold(self, size: int) -> None:
        with self._lock:
            self._held += size

    def commit_blob(self, staged: StagedBlob) -> None:
        """A small staged blob becomes pending (the next write transaction writes it); a
        file blob moves to its place in the folder."""
        if staged.data is None:
            self.folder.commit_blob(staged)
            return
        with self._lock:
            if staged.sha256 not in self._pending:
                self._held += len(staged.data)
            self._pending[staged.sha256] = staged.data

    def discard_blob(self, staged: StagedBlob) -> None:
        self.folder.discard_blob(staged)  # (a small one holds no file: nothing to remove)

    def flush(self, db: sqlite3.Connection) -> Callable[[], None]:
        """Write every pending row inside the transaction open on `db`; returns what to call
        once it has committed (they are stored then, no longer pending)."""
        with self._lock:
            if not self._pending:
                return _nothing
            rows = list(self._pending.items())
        db.executemany("INSERT OR IGNORE INTO blob_bytes (sha256, data) VALUES (?, ?)", rows)

        def committed() -> None:
            with self._lock:
                for sha, data in rows:
                    if self._pending.get(sha) is data:
                        del self._pending[sha]
                        self._held -= len(data)

        return committed

    def sweep_temp(self) -> int:
        return self.folder.sweep_temp()

    # -- reading --

    def _data(self, sha256: str) -> bytes | None:
        with self._reading() as db:
            row = db.execute("SELECT data FROM blob_bytes WHERE sha256 = ?", (sha256,)).fetchone()
        return None if row is None else bytes(row[0])

    def has_blob(self, sha256: str) -> bool:
        with self._lock:
            if sha256 in self._pending:
                return True
        with self._reading() as db:
            row = db.execute("SELECT 1 FROM blob_bytes WHERE sha256 = ?", (sha256,)).fetchone()
        return row is not None or self.folder.has_blob(sha256)

    def open_blob(
        self, sha256: str, *, name: str | None = None, size: int | None = None
    ) -> BinaryIO:
        """The stored bytes (its row's, else its file's), checked as they are read."""
        data = self._data(sha256)
        if data is None:
            return self.folder.open_blob(sha256, name=name, size=size)
        return _read_back(data, sha256, name=name, size=size)

    def blob_path(self, sha256: str) -> Path:
        """A file holding the blob's bytes: its own, or its row's copied out into the
        folder (checked: the copy is filed under the digest of what was copied)."""
        data = self._data(sha256)
        final = self.folder.blob_path(sha256)
        if data is not None and not (final.is_file() and final.stat().st_size == len(data)):
            got, _ = self.folder.put_blob(io.BytesIO(data))
            if got != sha256:
                raise IntegrityError(
                    f"the stored luggage blob {sha256[:12]}… is damaged: its bytes no longer "
                    "match their sha256, so it was not used",
                    hint="Run `taskpack doctor` to check the whole store.",
                )
        return final

    def problems(
        self, db: sqlite3.Connection, rows: Iterable[tuple[str, str, str, int]], *, hash_blobs: bool
    ) -> list[str]:
        """For (passport id, luggage name, sha256, size) rows: each blob missing, of the
        wrong size or (with `hash_blobs`) no longer matching its digest, as a sentence."""
        out: list[str] = []
        elsewhere = []
        for pid, name, sha, size in rows:
            problem = row_problem(db, sha, size, hash_blobs=hash_blobs)
            if problem is _NOT_HERE:
                elsewhere.append((pid, name, sha, size))
            elif problem is not None:
                out.append(f"luggage {name!r} of {pid} {problem}")
        return out + self.folder.problems(elsewhere, hash_blobs=hash_blobs)


_NOT_HERE = "not kept as a row"


def open_stored(
    db: sqlite3.Connection, folder: BlobFolder, sha256: str, *, name: str, size: int
) -> BinaryIO:
    """A blob of the embedded desk whose database `db` is (open read-only by a reader that
    does not open the store, e.g. the copy to a team desk): its row, else its file;
    checked as it is read either way."""
    try:
        row = db.execute("SELECT data FROM blob_bytes WHERE sha256 = ?", (sha256,)).fetchone()
    except sqlite3.OperationalError:  # a database from before small blobs were rows
        row = None
    if row is None:
        return folder.open_blob(sha256, name=name, size=size)
    return _read_back(bytes(row[0]), sha256, name=name, size=size)


def _read_back(data: bytes, sha256: str, *, name: str | None, size: int | None) -> BinaryIO:
    """A row's bytes as a stream checked against `sha256` (and `size`) at its end, named
    as the folder names a file's (`blob_folder.StoredBlob`)."""
    what = repr(name) if name else f"blob {sha256[:12]}…"
    return StoredBlob(io.BytesIO(data), name=what, size=size, sha256=sha256)  # type: ignore[return-value]


def row_problem(db: sqlite3.Connection, sha: str, size: int, *, hash_blobs: bool) -> str | None:
    """What is wrong with the row holding blob `sha` (None: nothing), or :data:`_NOT_HERE`
    when no row holds it (an older database has no such table: nothing is)."""
    try:
        row = db.execute(
            "SELECT length(data), CASE WHEN ? THEN data END FROM blob_bytes WHERE sha256 = ?",
            (hash_blobs, sha),
        ).fetchone()
    except sqlite3.OperationalError:
        return _NOT_HERE
    if row is None:
        return _NOT_HERE
    if int(row[0]) != size:
        return f"has {row[0]} stored bytes instead of {size}"
    if hash_blobs and hashlib.sha256(row[1]).hexdigest() != sha:
        return "is damaged: its stored bytes no longer match their sha256"
    return None


def is_kept_as_row(problem: str | None) -> bool:
    return problem is not _NOT_HERE


def _nothing() -> None:
    pass


__all__ = ["MEMORY_MAX", "ROW_MAX", "BlobRows", "is_kept_as_row", "open_stored", "row_problem"]
