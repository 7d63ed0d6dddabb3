"""The passport store as an interface: what landing, review and every front end may ask of
a desk's storage, and the records it answers with.

Two implementations stand behind it:

* the embedded desk (the default): one SQLite database and a content-addressed blob
  folder under the desk's home (:mod:`.sqlite_store`, :mod:`.sqlite_schema`,
  :mod:`.blob_folder`);
* the team desk: one PostgreSQL database shared by several people, machines and agents
  (``taskpack.app.team``; core never opens a network connection).

Rules every implementation keeps (where a rule is code — the version check, what a
missing passport is called, a stored passport's JSON read back — it is written once,
in :mod:`.store_rules`, and both use it):

* A luggage blob is filed under the sha256 computed from its bytes while they are
  written, never under a digest a caller claims; a claim that differs is an
  IntegrityError and nothing is kept. Reading a blob back checks its digest again.
* Every change is ONE transaction (:meth:`Store.write`): the passport row, its new
  version, its history entry and any landing record commit together or not at all.
* Every change to a passport writes a new version; old versions are kept. A writer that
  read version N and passes ``expected_version=N`` fails with VersionConflict if someone
  else wrote first.
* Landing is idempotent on the pack's content digest: two processes landing the same
  pack at once produce one passport (the second gets AlreadyLanded).
* :meth:`Store.data_version` and :meth:`Store.changed_since` never wait for a write
  lock: a window's poll must not stall behind a worker's transaction.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from ..format.model import JSON, LocalPassport


class Readable(Protocol):
    """Anything with ``read(n) -> bytes``: a file, a pack's verifying luggage reader."""

    def read(self, n: int = -1, /) -> bytes: ...


def utc_now() -> str:
    """Now in UTC, second precision, ``Z`` suffix — the spec's `packed_at` form.

    From `time.gmtime`, without a `datetime` (a fraction of its cost), since a landing
    asks for the time several times."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# --- what a store hands out -----------------------------------------------------------


@dataclass(frozen=True)
class PassportSummary:
    """One line of `taskpack list`: enough to show, nothing that needs parsing."""

    id: str
    title: str | None
    state: str
    waiting_on: str | None
    version: int
    root_id: str | None
    came_from: str
    open_asks: int
    created_at: str
    updated_at: str

    def to_data(self) -> dict[str, JSON]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class HistoryEntry:
    """One thing that happened to a passport; `version` is the version it left behind.
    `who` names the person and machine that did it, where the store records that (a
    team desk does; the embedded desk is one person's and leaves it empty)."""

    seq: int
    version: int
    event: str
    at: str
    detail: dict[str, JSON]
    who: str | None = None

    def to_data(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "seq": self.seq,
            "version": self.version,
            "event": self.event,
            "at": self.at,
            "detail": self.detail,
        }
        if self.who is not None:
            out["who"] = self.who
        return out


@dataclass(frozen=True)
class StoredLuggage:
    """A luggage file kept for a passport: its name (data only) and the blob it points at."""

    name: str
    sha256: str
    size: int
    added_at: str

    def to_data(self) -> dict[str, JSON]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class StagedBlob:
    """Bytes copied into a blob store's temp area, hashed from the bytes themselves, not
    yet stored. `path` is the local temp file holding them; a small blob the embedded
    desk keeps as a database row has none, and its bytes in `data` instead."""

    sha256: str
    size: int
    path: Path | None
    data: bytes | None = None


@dataclass(frozen=True)
class PackWritten:
    """One entry of the outbox ledger: a pack this desk wrote.

    `sha256` is the pack's content digest (the same for both encodings; the restore rule
    looks it up); `file_sha256` is the digest of the file's bytes at `path`. Packs written
    before the ledger existed have only the first six fields."""

    sha256: str
    passport_id: str
    version: int
    kind: str
    written_at: str
    asks: list[str]
    seq: int = 0
    encoding: str | None = None
    path: str | None = None
    file_sha256: str | None = None
    size: int | None = None
    to: str | None = None
    via: str | None = None
    stub: dict[str, JSON] = field(default_factory=dict)

    def to_data(self) -> dict[str, JSON]:
        return {
            "seq": self.seq,
            "written_at": self.written_at,
            "passport_id": self.passport_id,
            "version": self.version,
            "kind": self.kind,
            "encoding": self.encoding,
            "path": self.path,
            "content_digest": self.sha256,
            "file_sha256": self.file_sha256,
            "size": self.size,
            "to": self.to,
            "via": self.via,
            "asks": list(self.asks),
            "stub": self.stub,
        }


@dataclass(frozen=True)
class Landing:
    """A pack landed on this desk: its digest, the passport it became or went into, its kind, and when."""

    pack_sha256: str
    passport_id: str
    kind: str
    landed_at: str


@dataclass(frozen=True)
class Claim:
    """A caller's idempotency key for one landing (A2A: the principal and the messageId,
    with the digest of what was sent). The landing claims it in its own transaction, before
    it writes anything: one key lands one content, ever; a key claimed with another digest
    refuses the landing whole (:class:`~taskpack.core.errors.ClaimTaken`)."""

    scope: str
    key: str
    digest: str


# --- the protocols --------------------------------------------------------------------


class BlobStore(Protocol):
    """Content-addressed luggage bytes: put, stage → commit | discard, open (checked)."""

    def has_blob(self, sha256: str) -> bool: ...

    def put_blob(
        self, stream: Readable, *, expected_sha256: str | None = None, size_hint: int | None = None
    ) -> tuple[str, int]:
        """Store a stream's bytes; returns (sha256, size). Idempotent; nothing kept when the
        stream raises or its bytes do not have `expected_sha256`."""
        ...

    def put_blob_bytes(self, data: bytes) -> tuple[str, int]: ...

    def stage_blob(
        self,
        stream: Readable,
        *,
        expected_sha256: str | None = None,
        size_hint: int | None = None,
        on_chunk: Callable[[bytes], None] | None = None,
    ) -> StagedBlob:
        """Copy a stream aside, hashing it on the way: filed under the digest of its bytes
        when committed. `on_chunk` sees every chunk as it is read (a scanner, progress;
        it may raise to stop). A `VerifyingReader` read to its end is not hashed twice:
        its digest is the one it computed over exactly the bytes handed over."""
        ...

    def commit_blob(self, staged: StagedBlob) -> None: ...

    def discard_blob(self, staged: StagedBlob) -> None: ...

    def open_blob(
        self, sha256: str, *, name: str | None = None, size: int | None = None
    ) -> BinaryIO:
        """The stored bytes, checked as they are read (IntegrityError at the end when they
        no longer match)."""
        ...

    def blob_path(self, sha256: str) -> Path:
        """A local file holding the blob's bytes (the embedded desk's own file; a team desk
        copies it out, checked, into a cache)."""
        ...


class Tx(Protocol):
    """The inside of one write transaction. Get it from :meth:`Store.write`."""

    #: (passport_id, event) for every change made, in order — for change notifications
    events: list[tuple[str, str]]
    #: the transaction's clock reading; every row it writes carries it
    now: str

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport: ...

    def state_of(self, passport_id: str) -> tuple[str, str | None]: ...

    def exists(self, passport_id: str) -> bool: ...

    def landing(self, pack_sha256: str) -> Landing | None: ...

    def insert(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        came_from: str = "here",
    ) -> LocalPassport: ...

    def save(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport: ...

    def log(self, passport_id: str, event: str, detail: dict[str, JSON] | None = None) -> None: ...

    def add_luggage(self, passport_id: str, name: str, sha256: str, size: int) -> None: ...

    def remove_luggage(self, passport_id: str, name: str) -> bool:
        """Take one file off the passport's luggage (its bytes stay until housekeeping);
        False when it has none by that name."""
        ...

    def record_pack_written(
        self,
        sha256: str,
        passport_id: str,
        version: int,
        kind: str,
        asks: Sequence[str],
        *,
        encoding: str | None = None,
        path: str | None = None,
        file_sha256: str | None = None,
        size: int | None = None,
        to: str | None = None,
        via: str | None = None,
        stub: dict[str, JSON] | None = None,
    ) -> int: ...

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None: ...

    def claim(self, claim: Claim, passport_id: str) -> None:
        """Take `claim` for a landing into `passport_id`: waits for whoever holds the key in
        a transaction now; the same digest again is no change; another digest raises
        ClaimTaken (the caller's transaction then rolls back)."""
        ...


class Store(BlobStore, Protocol):
    """A desk's passports, their versions, history, luggage, outbox ledger and landings."""

    clock: Callable[[], str]

    def commit_blobs(self, staged: Sequence[StagedBlob]) -> None:
        """Every one of `staged`, at once where the store can (one transaction)."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc: object) -> None: ...

    @property
    def schema_version(self) -> int: ...

    def describe(self) -> str:
        """The store in a few words for messages ("the passport store at …"); never a
        password."""
        ...

    def write(self) -> contextlib.AbstractContextManager[Tx]: ...

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport: ...

    def exists(self, passport_id: str) -> bool: ...

    def require(self, passport_id: str) -> None: ...

    def state_of(self, passport_id: str) -> tuple[str, str | None]: ...

    def size_of(self, passport_id: str) -> int: ...

    def received_origin(self, passport_id: str) -> dict[str, JSON]: ...

    def get_version(self, passport_id: str, version: int) -> LocalPassport: ...

    def summaries(
        self,
        *,
        state: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        taken_by: str | None = None,
    ) -> list[PassportSummary]:
        """Passports, most recently changed first; `taken_by` keeps those that person
        (a name or name@machine) took on, where the store records who."""
        ...

    def count(self) -> int: ...

    def data_version(self) -> int:
        """A number that changes when someone else (another process, another Store)
        committed; never for this store's own writes. Never waits for a write lock."""
        ...

    def changed_since(self, seq: int) -> tuple[int, list[str]]:
        """(newest history seq, ids of passports with history after `seq`), oldest first."""
        ...

    def history(self, passport_id: str) -> list[HistoryEntry]: ...

    def luggage(self, passport_id: str) -> list[StoredLuggage]: ...

    def pack_written(self, sha256: str) -> PackWritten | None: ...

    def packs_written(self, passport_id: str) -> list[PackWritten]: ...

    def outbox(
        self, *, passport_id: str | None = None, limit: int | None = None
    ) -> list[PackWritten]: ...

    def sent(self, seq: int) -> PackWritten: ...

    def landing(self, pack_sha256: str) -> Landing | None: ...

    def landings_for(self, passport_id: str) -> list[tuple[str, JSON]]: ...

    def landed_data(self, pack_sha256: str) -> JSON: ...

    def housekeep(self) -> list[str]: ...

    def check(self, *, hash_blobs: bool = False) -> list[str]: ...
