"""The passport store: one SQLite database and a content-addressed blob folder.

Layout under the desk's home folder::

    store.sqlite3        passports, every version of each, history, luggage, the outbox
                         ledger (every pack written here), landings
    blobs/sha256/ab/…    luggage bytes, named by their sha256 (never by a luggage name)
    blobs/tmp/           half-written blobs; harmless, swept by `housekeep`
    backups/             rolling backups of store.sqlite3 (see :mod:`.health`)

A damaged database is refused at open, before anything is written (:mod:`.health`);
every luggage blob is checked against its digest whenever it is read.

Rules that keep it whole after a crash (kill -9 at any instant):

* Blobs are written first — temp file, fsync, rename, fsync the folder — so a blob either
  exists whole under its digest or not at all. An orphaned blob (the process died before
  the row that points at it) is harmless and is found by :meth:`Store.check`.
* Every change to the database is ONE transaction (``BEGIN IMMEDIATE``; WAL;
  ``synchronous=FULL``): the passport row, its new version, its history entry and any
  landing record commit together or not at all.
* Every change to a passport writes a new version; old versions are kept. A writer that
  read version N and passes ``expected_version=N`` fails with VersionConflict if someone
  else wrote first.
* Landing is idempotent on the pack's content digest (``landings.pack_sha256`` is UNIQUE):
  two processes landing the same pack at once produce one passport.

Schema changes are migrations: :data:`MIGRATIONS` is an ordered list and
``PRAGMA user_version`` says how many have been applied. To add tables, APPEND a
:class:`Migration` with the next number; never edit one that has shipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from .. import files
from ..errors import (
    AlreadyLanded,
    IntegrityError,
    NotFound,
    StoreError,
    UsageError,
    VersionConflict,
)
from ..files import fsync_dir
from ..format.model import JSON, LocalPassport
from ..format.record_pages import PAGED_OVER, AskPages, open_count
from ..format.streams import Background, Hasher, VerifyingReader
from . import health
from .sqlite_db import (
    Migration as Migration,  # public here: stores append their own
)
from .sqlite_db import open_database, transaction

DB_NAME = "store.sqlite3"
BLOB_DIR = "blobs"
CHUNK = 1 << 20
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Readable(Protocol):
    """Anything with ``read(n) -> bytes``: a file, a pack's verifying luggage reader."""

    def read(self, n: int = -1, /) -> bytes: ...


def utc_now() -> str:
    """Now in UTC, second precision, ``Z`` suffix — the spec's `packed_at` form."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- schema ---------------------------------------------------------------------------


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "passports, versions, history, luggage, packs written, landings",
        (
            """CREATE TABLE passports (
                id          TEXT PRIMARY KEY,
                version     INTEGER NOT NULL,
                title       TEXT,
                state       TEXT NOT NULL,
                waiting_on  TEXT,
                root_id     TEXT,
                came_from   TEXT,            -- 'here' | 'handoff'
                open_asks   INTEGER NOT NULL DEFAULT 0,
                created_at  TEXT NOT NULL,
                updated_at  TEXT NOT NULL,
                data        TEXT NOT NULL    -- the LocalPassport at `version`, as JSON
            )""",
            "CREATE INDEX passports_updated ON passports(updated_at DESC, id)",
            "CREATE INDEX passports_root ON passports(root_id)",
            """CREATE TABLE versions (
                passport_id TEXT NOT NULL REFERENCES passports(id),
                version     INTEGER NOT NULL,
                data        TEXT NOT NULL,
                PRIMARY KEY (passport_id, version)
            ) WITHOUT ROWID""",
            """CREATE TABLE history (
                seq         INTEGER PRIMARY KEY AUTOINCREMENT,
                passport_id TEXT NOT NULL REFERENCES passports(id),
                version     INTEGER NOT NULL,
                event       TEXT NOT NULL,
                at          TEXT NOT NULL,
                detail      TEXT NOT NULL DEFAULT '{}'
            )""",
            "CREATE INDEX history_passport ON history(passport_id, seq)",
            """CREATE TABLE luggage (
                seq         INTEGER PRIMARY KEY AUTOINCREMENT,   -- keeps the order given
                passport_id TEXT NOT NULL REFERENCES passports(id),
                name        TEXT NOT NULL,                       -- data; never a path here
                sha256      TEXT NOT NULL,
                size        INTEGER NOT NULL,
                added_at    TEXT NOT NULL,
                UNIQUE (passport_id, name)
            )""",
            """CREATE TABLE packs_written (
                sha256      TEXT PRIMARY KEY,
                passport_id TEXT NOT NULL REFERENCES passports(id),
                version     INTEGER NOT NULL,
                kind        TEXT NOT NULL,
                written_at  TEXT NOT NULL,
                asks        TEXT NOT NULL DEFAULT '[]'   -- ids of the open asks it carried
            ) WITHOUT ROWID""",
            "CREATE INDEX packs_written_passport ON packs_written(passport_id)",
            """CREATE TABLE landings (
                pack_sha256 TEXT PRIMARY KEY,            -- one passport per pack, ever
                passport_id TEXT NOT NULL REFERENCES passports(id),
                kind        TEXT NOT NULL,               -- 'handoff' landed | 'receipt' merged
                landed_at   TEXT NOT NULL,
                data        TEXT NOT NULL                -- the pack object as read
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        2,
        "the outbox ledger: every pack written, one row each, with where it went and a stub",
        (
            # one row per pack written (the same bytes written twice are two sends); the
            # content digest stays the key the restore rule looks up, now indexed, not unique
            """CREATE TABLE packs_sent (
                seq         INTEGER PRIMARY KEY AUTOINCREMENT,
                sha256      TEXT NOT NULL,            -- content digest (same for both encodings)
                passport_id TEXT NOT NULL REFERENCES passports(id),
                version     INTEGER NOT NULL,         -- the passport's version as packed
                kind        TEXT NOT NULL,
                written_at  TEXT NOT NULL,
                asks        TEXT NOT NULL DEFAULT '[]',  -- ids of the open asks it carried
                encoding    TEXT,                     -- bagit-zip | flat (NULL: before the ledger)
                path        TEXT,                     -- where the file was written
                file_sha256 TEXT,                     -- sha256 of the file's bytes
                size        INTEGER,
                to_whom     TEXT,                     -- who it was for, as the packer said
                via         TEXT,                     -- cli | window | a2a | mcp | …
                stub        TEXT NOT NULL DEFAULT '{}'   -- the passport as packed, in brief
            )""",
            "INSERT INTO packs_sent (sha256, passport_id, version, kind, written_at, asks) "
            "SELECT sha256, passport_id, version, kind, written_at, asks FROM packs_written "
            "ORDER BY written_at, version",
            "DROP TABLE packs_written",
            "ALTER TABLE packs_sent RENAME TO packs_written",
            "CREATE INDEX packs_written_sha ON packs_written(sha256)",
            "CREATE INDEX packs_written_passport ON packs_written(passport_id, seq)",
        ),
    ),
)


# --- what the store hands out ---------------------------------------------------------


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
    """One thing that happened to a passport; `version` is the version it left behind."""

    seq: int
    version: int
    event: str
    at: str
    detail: dict[str, JSON]

    def to_data(self) -> dict[str, JSON]:
        return {
            "seq": self.seq,
            "version": self.version,
            "event": self.event,
            "at": self.at,
            "detail": self.detail,
        }


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
    """Bytes copied into the blob folder's temp area, hashed, not yet stored."""

    sha256: str
    size: int
    path: Path


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
    pack_sha256: str
    passport_id: str
    kind: str
    landed_at: str


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(value: str | None) -> str | None:
    """A string SQLite can store: a lone surrogate (valid JSON, ``"\\udbff"``, but not
    encodable as UTF-8) is kept as its escape, the way `_dumps` writes it."""
    if value is None or not _LONE_SURROGATE.search(value):
        return value
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)


def _args(args: Sequence[Any]) -> Sequence[Any]:
    """Query arguments SQLite can bind (an id read from a pack may hold a lone surrogate)."""
    return [_text(a) if isinstance(a, str) else a for a in args]


def _dumps(value: JSON) -> str:
    # json.loads reads the escape back as the same lone surrogate
    return _text(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) or ""


# --- the store ------------------------------------------------------------------------


class Store:
    """A passport store rooted at `home`. Safe to share between threads of one process,
    and between processes (SQLite locking; writers wait up to `timeout` seconds)."""

    def __init__(
        self,
        home: Path,
        *,
        clock: Callable[[], str] = utc_now,
        timeout: float = 30.0,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        self.home = Path(home)
        self.clock = clock
        self.db_path = self.home / DB_NAME
        self.blob_root = self.home / BLOB_DIR
        self.home.mkdir(parents=True, exist_ok=True)
        (self.blob_root / "sha256").mkdir(parents=True, exist_ok=True)
        (self.blob_root / "tmp").mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        what = f"the passport store at {self.db_path}"
        health.check_at_open(self.db_path, error=StoreError, what=what)
        self._db = open_database(
            self.db_path,
            timeout=timeout,
            migrations=migrations,
            foreign_keys=True,
            error=StoreError,
            what=what,
            before_migrate=self._backup_before_migration,
        )

    def _backup_before_migration(self, db: sqlite3.Connection, schema: int) -> None:
        health.backup(db, self.home, reason=f"schema{schema}")

    # -- lifecycle of the connection --

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- writing --

    @contextlib.contextmanager
    def write(self) -> Iterator[Tx]:
        """One write transaction (``BEGIN IMMEDIATE``): everything in it commits or nothing."""
        with files.space_for(self.db_path), transaction(self._db, self._lock):
            yield Tx(self)

    # -- reading --

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self._lock:
            return self._db.execute(sql, _args(args)).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, _args(args)).fetchall()

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        """The passport as stored. `pages=True` (to show it, not to change it): more than a
        few hundred asks come back as read-only pages (`pages.AskPages`), never a model each."""
        row = self._one("SELECT data FROM passports WHERE id = ?", (passport_id,))
        if row is None:
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        data = json.loads(row[0])
        asks = data.get("asks") if pages and isinstance(data, dict) else None
        if not isinstance(asks, list) or len(asks) <= PAGED_OVER:
            return LocalPassport.from_data(data)
        data["asks"] = []
        lp = LocalPassport.from_data(data)
        lp.asks = AskPages.of_data(asks)  # type: ignore[assignment]
        return lp

    def exists(self, passport_id: str) -> bool:
        return self._one("SELECT 1 FROM passports WHERE id = ?", (passport_id,)) is not None

    def require(self, passport_id: str) -> None:
        """NotFound (as :meth:`get` raises it) unless the passport is here; reads nothing else."""
        if not self.exists(passport_id):
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )

    def state_of(self, passport_id: str) -> tuple[str, str | None]:
        """The passport's lifecycle state and what it waits on (its columns; no JSON read)."""
        row = self._one("SELECT state, waiting_on FROM passports WHERE id = ?", (passport_id,))
        if row is None:
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        return str(row[0]), row[1]

    def size_of(self, passport_id: str) -> int:
        """Bytes of JSON the passport is stored as (SQLite counts them; nothing is parsed)."""
        row = self._one(
            "SELECT length(CAST(data AS BLOB)) FROM passports WHERE id = ?", (passport_id,)
        )
        if row is None:
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        return int(row[0] or 0)

    def received_origin(self, passport_id: str) -> dict[str, JSON]:
        """The `origin` of the pack the passport was landed from ({} when made here or it
        names none), read by SQLite out of the stored JSON: the passport's asks, however
        many, are not parsed in this process."""
        try:
            row = self._one(
                "SELECT json_extract(data, '$.received.origin') FROM passports WHERE id = ?",
                (passport_id,),
            )
        except sqlite3.OperationalError:  # no JSON functions in this SQLite: read it whole
            lp = self.get(passport_id)
            origin = lp.received.origin if lp.received else None
            return origin.to_data() if origin else {}
        if row is None:
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        value = json.loads(row[0]) if isinstance(row[0], str) else None
        return value if isinstance(value, dict) else {}

    def get_version(self, passport_id: str, version: int) -> LocalPassport:
        row = self._one(
            "SELECT data FROM versions WHERE passport_id = ? AND version = ?",
            (passport_id, version),
        )
        if row is None:
            raise NotFound(
                f"no version {version} of passport {passport_id} in this desk",
                code="no_version",
                params={"id": passport_id, "version": version},
            )
        return LocalPassport.from_data(json.loads(row[0]))

    def summaries(
        self, *, state: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[PassportSummary]:
        """Passports, most recently changed first."""
        sql = (
            "SELECT id, title, state, waiting_on, version, root_id, came_from, open_asks, "
            "created_at, updated_at FROM passports"
        )
        args: list[Any] = []
        if state is not None:
            sql += " WHERE state = ?"
            args.append(state)
        sql += " ORDER BY updated_at DESC, id LIMIT ? OFFSET ?"
        args += [-1 if limit is None else limit, offset]
        return [PassportSummary(*row) for row in self._all(sql, args)]

    def count(self) -> int:
        return int(self._one("SELECT count(*) FROM passports")[0])

    def data_version(self) -> int:
        """SQLite's counter of commits made by OTHER connections (another process, another
        Store): it changes when someone else wrote, never for this store's own writes."""
        return int(self._one("PRAGMA data_version")[0])

    def changed_since(self, seq: int) -> tuple[int, list[str]]:
        """(newest history seq, ids of passports with history after `seq`), oldest first."""
        rows = self._all(
            "SELECT passport_id, max(seq) AS s FROM history WHERE seq > ? GROUP BY passport_id "
            "ORDER BY s",
            (seq,),
        )
        newest = max((int(s) for _, s in rows), default=seq)
        return newest, [pid for pid, _ in rows]

    def history(self, passport_id: str) -> list[HistoryEntry]:
        if not self.exists(passport_id):
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        rows = self._all(
            "SELECT seq, version, event, at, detail FROM history WHERE passport_id = ? ORDER BY seq",
            (passport_id,),
        )
        return [HistoryEntry(s, v, e, a, json.loads(d)) for s, v, e, a, d in rows]

    def luggage(self, passport_id: str) -> list[StoredLuggage]:
        rows = self._all(
            "SELECT name, sha256, size, added_at FROM luggage WHERE passport_id = ? ORDER BY seq",
            (passport_id,),
        )
        return [StoredLuggage(*row) for row in rows]

    def pack_written(self, sha256: str) -> PackWritten | None:
        """The first pack this store wrote with that content digest, if it wrote one."""
        row = self._one(
            f"SELECT {_SENT_COLUMNS} FROM packs_written WHERE sha256 = ? ORDER BY seq LIMIT 1",
            (sha256,),
        )
        return None if row is None else _pack_written(row)

    def packs_written(self, passport_id: str) -> list[PackWritten]:
        """Every pack written of one passport, oldest first."""
        rows = self._all(
            f"SELECT {_SENT_COLUMNS} FROM packs_written WHERE passport_id = ? ORDER BY seq",
            (passport_id,),
        )
        return [_pack_written(r) for r in rows]

    def outbox(
        self, *, passport_id: str | None = None, limit: int | None = None
    ) -> list[PackWritten]:
        """The outbox ledger, newest first (optionally one passport's packs only)."""
        sql = f"SELECT {_SENT_COLUMNS} FROM packs_written"
        args: list[Any] = []
        if passport_id is not None:
            sql += " WHERE passport_id = ?"
            args.append(passport_id)
        sql += " ORDER BY seq DESC LIMIT ?"
        args.append(-1 if limit is None else limit)
        return [_pack_written(r) for r in self._all(sql, args)]

    def sent(self, seq: int) -> PackWritten:
        """One ledger entry by its number (``taskpack outbox --show N``)."""
        row = self._one(f"SELECT {_SENT_COLUMNS} FROM packs_written WHERE seq = ?", (seq,))
        if row is None:
            raise NotFound(
                f"the outbox has no entry {seq}", hint="See the numbers with `taskpack outbox`."
            )
        return _pack_written(row)

    def landing(self, pack_sha256: str) -> Landing | None:
        """Where a pack with that content digest already landed (or was merged), if it did."""
        row = self._one(
            "SELECT pack_sha256, passport_id, kind, landed_at FROM landings WHERE pack_sha256 = ?",
            (pack_sha256,),
        )
        return None if row is None else Landing(*row)

    def landings_for(self, passport_id: str) -> list[tuple[str, JSON]]:
        """(pack digest, pack object as read) for every pack landed or merged into a passport."""
        rows = self._all(
            "SELECT pack_sha256, data FROM landings WHERE passport_id = ? ORDER BY landed_at",
            (passport_id,),
        )
        return [(sha, json.loads(data)) for sha, data in rows]

    def landed_data(self, pack_sha256: str) -> JSON:
        row = self._one("SELECT data FROM landings WHERE pack_sha256 = ?", (pack_sha256,))
        return None if row is None else json.loads(row[0])

    # -- blobs --

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

    def stage_blob(
        self,
        stream: Readable,
        *,
        expected_sha256: str | None = None,
        size_hint: int | None = None,
        hashed: Callable[[], str | None] | None = None,
    ) -> StagedBlob:
        """Copy a stream into a temp file of the blob folder, hashing as it goes (one pass).

        Nothing is stored until :meth:`commit_blob`; :meth:`discard_blob` (or a crash,
        swept by :meth:`housekeep`) leaves no trace. Landing stages a pack's luggage
        while scanning it, and commits only when the scan found nothing to refuse.
        `hashed()`, when given, is the digest a stream that hashes itself (a
        `VerifyingReader`) computed once it reached its end: the bytes are not hashed
        twice. The writes run on their own thread, overlapping the next read.
        """
        tmp = self.blob_root / "tmp" / f"{secrets.token_hex(12)}.part"
        digest = None if hashed else Hasher()
        size = 0
        try:
            with files.space_for(self.blob_root, needed=size_hint), open(tmp, "xb") as out:
                sink = Background(out.write, name="blob-write")
                try:
                    while chunk := stream.read(CHUNK):
                        if digest is not None:
                            digest.update(chunk)
                        sink.put(chunk)
                        size += len(chunk)
                finally:
                    sink.drain()
                out.flush()
                os.fsync(out.fileno())
            sha = digest.hexdigest() if digest is not None else (hashed() if hashed else None)
            if sha is None:
                raise IntegrityError("a luggage file was staged before it was read to its end")
            if expected_sha256 is not None and sha != expected_sha256.lower():
                raise IntegrityError(
                    f"a luggage file's bytes do not match its declared sha256 ({expected_sha256[:12]}…)"
                )
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        return StagedBlob(sha, size, tmp)

    def commit_blob(self, staged: StagedBlob) -> None:
        """Move a staged blob to its place under its digest (a no-op if it is there)."""
        final = self.blob_path(staged.sha256)
        try:
            if final.is_file() and final.stat().st_size == staged.size:
                staged.path.unlink(missing_ok=True)
                return
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged.path, final)
            fsync_dir(final.parent)
        except BaseException:
            self.discard_blob(staged)
            raise

    def discard_blob(self, staged: StagedBlob) -> None:
        with contextlib.suppress(OSError):
            staged.path.unlink(missing_ok=True)

    def put_blob_bytes(self, data: bytes) -> tuple[str, int]:
        return self.put_blob(io.BytesIO(data))

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
        return _StoredBlob(raw, name=what, size=size, sha256=sha256)  # type: ignore[return-value]

    def housekeep(self, *, backup_every: float = health.BACKUP_EVERY) -> list[str]:
        """Sweep stale half-written blobs and take the daily backup when it is due.

        Cheap when there is nothing to do (a folder listing and a stat). Returns what was
        done, as sentences. Run it off the GUI thread.
        """
        done: list[str] = []
        files, size = health.sweep_parts(self.blob_root / "tmp")
        if files:
            done.append(
                f"removed {files} half-written luggage file(s) ({size:,} bytes) left by a crash"
            )
        if health.backup_due(self.home, every=backup_every):
            # its own connection: WAL lets it read while this store's threads go on
            source = sqlite3.connect(self.db_path, timeout=30.0)
            try:
                made = health.backup(source, self.home, reason="daily")
            finally:
                source.close()
            done.append(f"backed up the store to {made.name}")
        return done

    def sweep_temp(self) -> int:
        """Delete half-written blobs left by a crash; returns how many."""
        n = 0
        for p in (self.blob_root / "tmp").glob("*.part"):
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
        return n

    # -- health --

    def integrity_check(self) -> list[str]:
        """SQLite's own verdict: ``["ok"]`` when the database is sound."""
        with self._lock:
            return [r[0] for r in self._db.execute("PRAGMA integrity_check").fetchall()]

    def check(self, *, hash_blobs: bool = False) -> list[str]:
        """Every problem found, as sentences; empty when the store is whole.

        Checks SQLite's integrity and foreign keys, that each passport's current row
        matches its newest version, and that every luggage row's blob exists (and, with
        `hash_blobs`, still has its digest).
        """
        problems = [r for r in self.integrity_check() if r != "ok"]
        with self._lock:
            fk = self._db.execute("PRAGMA foreign_key_check").fetchall()
            problems += [f"dangling reference in {r[0]} row {r[1]}" for r in fk]
            rows = self._db.execute(
                "SELECT p.id, p.version, p.data, v.data FROM passports p LEFT JOIN versions v "
                "ON v.passport_id = p.id AND v.version = p.version"
            ).fetchall()
            lug = self._db.execute("SELECT passport_id, name, sha256, size FROM luggage").fetchall()
        for pid, version, data, vdata in rows:
            if vdata is None or vdata != data:
                problems.append(f"passport {pid} has no matching version {version}")
        for pid, name, sha, size in lug:
            path = self.blob_path(sha)
            if not path.is_file() or path.stat().st_size != size:
                problems.append(f"luggage {name!r} of {pid} is missing its blob")
            elif hash_blobs and _hash_file(path) != sha:
                problems.append(f"luggage {name!r} of {pid} no longer matches its sha256")
        return problems


class Tx:
    """The inside of one write transaction. Get it from :meth:`Store.write`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._db = store._db
        #: (passport_id, event) for every change made, in order — for change notifications
        self.events: list[tuple[str, str]] = []
        self.now = store.clock()

    def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport:
        return self.store.get(passport_id, pages=pages)

    def state_of(self, passport_id: str) -> tuple[str, str | None]:
        return self.store.state_of(passport_id)

    def exists(self, passport_id: str) -> bool:
        return self.store.exists(passport_id)

    def landing(self, pack_sha256: str) -> Landing | None:
        return self.store.landing(pack_sha256)

    def insert(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        came_from: str = "here",
    ) -> LocalPassport:
        """Store a new passport as version 1."""
        pid = lp.passport.id
        if not pid:
            raise UsageError("a passport needs an id before it is stored")
        if self.exists(pid):
            raise UsageError(f"passport {pid} already exists in this desk")
        lp.passport.version = 1
        if not lp.passport.created_at:
            lp.passport.created_at = self.now
        lp.passport.updated_at = self.now
        data = _passport_text(lp)
        self._db.execute(
            "INSERT INTO passports (id, version, title, state, waiting_on, root_id, came_from, "
            "open_asks, created_at, updated_at, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                pid,
                1,
                _text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                _root(lp),
                came_from,
                _open_asks(lp),
                lp.passport.created_at,
                self.now,
                data,
            ),
        )
        self._version_row(pid, 1, data, event, detail)
        return lp

    def save(
        self,
        lp: LocalPassport,
        *,
        event: str,
        detail: dict[str, JSON] | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Store `lp` as the next version of itself. `lp.version` must still be current."""
        pid = lp.id
        row = self._db.execute("SELECT version FROM passports WHERE id = ?", (pid,)).fetchone()
        if row is None:
            raise NotFound(
                f"no passport {pid} in this desk", code="no_passport", params={"id": pid}
            )
        current = int(row[0])
        if expected_version is not None and expected_version != current:
            raise VersionConflict(
                f"passport {pid} is at version {current}, not {expected_version}",
                params={"id": pid, "current": current},
            )
        if lp.version != current:
            raise VersionConflict(
                f"passport {pid} changed to version {current} while version {lp.version} was being edited",
                params={"id": pid, "current": current},
            )
        new = current + 1
        lp.passport.version = new
        lp.passport.updated_at = self.now
        data = _passport_text(lp)
        self._db.execute(
            "UPDATE passports SET version=?, title=?, state=?, waiting_on=?, root_id=?, "
            "open_asks=?, updated_at=?, data=? WHERE id=?",
            (
                new,
                _text(lp.passport.title),
                lp.state,
                lp.waiting_on,
                _root(lp),
                _open_asks(lp),
                self.now,
                data,
                pid,
            ),
        )
        self._version_row(pid, new, data, event, detail)
        return lp

    def log(self, passport_id: str, event: str, detail: dict[str, JSON] | None = None) -> None:
        """A history entry that changes no field of the passport (e.g. a pack was written)."""
        row = self._db.execute(
            "SELECT version FROM passports WHERE id = ?", (passport_id,)
        ).fetchone()
        if row is None:
            raise NotFound(
                f"no passport {passport_id} in this desk",
                code="no_passport",
                params={"id": passport_id},
            )
        self._history(passport_id, int(row[0]), event, detail)

    def add_luggage(self, passport_id: str, name: str, sha256: str, size: int) -> None:
        if not self.store.has_blob(sha256):
            raise IntegrityError(f"luggage {name!r} has no stored blob; store the bytes first")
        self._db.execute(
            "INSERT OR REPLACE INTO luggage (passport_id, name, sha256, size, added_at) "
            "VALUES (?,?,?,?,?)",
            (passport_id, name, sha256, size, self.now),
        )

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
    ) -> int:
        """One outbox ledger entry for a pack just written; returns its number."""
        cur = self._db.execute(
            "INSERT INTO packs_written (sha256, passport_id, version, kind, written_at, asks, "
            "encoding, path, file_sha256, size, to_whom, via, stub) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                sha256,
                passport_id,
                version,
                kind,
                self.now,
                _dumps(list(asks)),
                encoding,
                path,
                file_sha256,
                size,
                to,
                via,
                _dumps(stub or {}),
            ),
        )
        return int(cur.lastrowid or 0)

    def record_landing(self, pack_sha256: str, passport_id: str, kind: str, data: JSON) -> None:
        """Raises AlreadyLanded (naming the passport) if that pack already landed."""
        winner = self.landing(pack_sha256)
        if winner is not None:
            raise AlreadyLanded(winner.passport_id)
        try:
            self._db.execute(
                "INSERT INTO landings (pack_sha256, passport_id, kind, landed_at, data) "
                "VALUES (?,?,?,?,?)",
                (pack_sha256, passport_id, kind, self.now, _dumps(data)),
            )
        except sqlite3.IntegrityError:  # the UNIQUE guard, should another writer have won
            found = self.landing(pack_sha256)
            if found is None:
                raise
            raise AlreadyLanded(found.passport_id) from None

    def _version_row(
        self, pid: str, version: int, data: str, event: str, detail: dict[str, JSON] | None
    ) -> None:
        self._db.execute(
            "INSERT INTO versions (passport_id, version, data) VALUES (?,?,?)", (pid, version, data)
        )
        self._history(pid, version, event, detail)

    def _history(self, pid: str, version: int, event: str, detail: dict[str, JSON] | None) -> None:
        self._db.execute(
            "INSERT INTO history (passport_id, version, event, at, detail) VALUES (?,?,?,?,?)",
            (pid, version, event, self.now, _dumps(detail or {})),
        )
        self.events.append((pid, event))


def blob_path(home: Path, sha256: str) -> Path:
    """Where the blob with that digest lives under `home`. Only a 64-hex digest makes a path."""
    if not _HEX64.match(sha256):
        raise UsageError(f"{sha256!r} is not a sha256 digest")
    return home / BLOB_DIR / "sha256" / sha256[:2] / sha256[2:]


class _StoredBlob(VerifyingReader):
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


_SENT_COLUMNS = (
    "sha256, passport_id, version, kind, written_at, asks, seq, encoding, path, file_sha256, "
    "size, to_whom, via, stub"
)


def _pack_written(row: Sequence[Any]) -> PackWritten:
    sha, pid, version, kind, at, asks, seq, encoding, path, file_sha, size, to, via, stub = row
    return PackWritten(
        sha,
        pid,
        int(version),
        kind,
        at,
        json.loads(asks),
        seq=int(seq),
        encoding=encoding,
        path=path,
        file_sha256=file_sha,
        size=size,
        to=to,
        via=via,
        stub=json.loads(stub or "{}"),
    )


def _root(lp: LocalPassport) -> str | None:
    return _text((lp.lineage.root_id if lp.lineage else None) or lp.passport.id)


def _open_asks(lp: LocalPassport) -> int:
    return open_count(lp.asks)


def _passport_text(lp: LocalPassport) -> str:
    """`lp` as the JSON text a row holds. Asks kept as pages (`pages.AskPages`, e.g. the
    100,000 of a large landing) are written as the JSON text they already are: spliced in
    at a marker no pack can forge, without a dict or a model per ask."""
    if not isinstance(lp.asks, AskPages):
        return _dumps(lp.to_data())
    marker = f"taskpack-asks-{secrets.token_hex(16)}"
    data = lp.to_data_with({"asks": marker})
    text = _dumps(data)
    at = text.index(json.dumps(marker))
    return text[:at] + (_text(lp.asks.json_array()) or "[]") + text[at + len(marker) + 2 :]


def _hash_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()
