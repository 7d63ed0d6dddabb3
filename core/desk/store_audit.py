"""What the doctor checks on the embedded desk beyond SQLite's own verdict, and what it
sweeps.

SQLite's ``integrity_check`` and ``foreign_key_check`` say the file is sound; they do not
say the rows agree with one another. A passport whose current row has no matching
version, a version stored beyond the current one, a record whose JSON no longer reads, a
table that is gone — each leaves a database SQLite calls whole and a desk that fails
later, mid-command. :func:`row_problems` finds them, reading only.

Bytes nothing points at any more are not damage, only waste: the blob of a landing that
failed after its luggage was stored, luggage replaced by a newer file of the same name, a
receipt replaced by a newer one. :func:`unused` lists them; :func:`sweep` removes those
untouched for a while (a landing in progress stores its blobs before the rows that name
them, so a fresh one may be about to be named).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import StoreError
from .blob_folder import BLOB_DIR
from .sqlite_schema import MIGRATIONS
from .store_rules import passport_of

#: an unused blob younger than this may belong to a landing in progress: left alone
SWEEP_AFTER = 15 * 60.0
#: the A2A binding's database and folder in a desk's home (app/a2a/ledger.py)
A2A_DB, A2A_DIR, RECEIPTS = "a2a.sqlite3", "a2a", "receipts"
A2A_TABLES = ("meta", "tokens", "contexts", "tasks", "messages", "receipts", "sent")


def expected_tables() -> set[str]:
    """The tables the store's migrations make (replayed on an empty database in memory)."""
    db = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS:
            for statement in migration.statements:
                db.execute(statement)
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def row_problems(db: sqlite3.Connection, home: Path) -> list[str]:
    """Rows that disagree, records that no longer read, tables that are gone."""
    present = _tables(db)
    out = [f"the table {t} is missing" for t in sorted(expected_tables() - present)]
    out += _a2a_tables(home)
    if {"passports", "versions"} - present:
        return out
    for pid, version in db.execute(
        "SELECT p.id, p.version FROM passports p LEFT JOIN versions v "
        "ON v.passport_id = p.id AND v.version = p.version WHERE v.data IS NULL OR v.data <> p.data"
    ):
        out.append(f"passport {pid} has no matching version {version}")
    for pid, version, current in db.execute(
        "SELECT v.passport_id, v.version, p.version FROM versions v JOIN passports p "
        "ON p.id = v.passport_id WHERE v.version > p.version ORDER BY 1, 2"
    ):
        out.append(f"passport {pid} has a version {version} beyond its current version {current}")
    for pid, version in db.execute(
        "SELECT v.passport_id, v.version FROM versions v LEFT JOIN passports p "
        "ON p.id = v.passport_id WHERE p.id IS NULL ORDER BY 1, 2"
    ):
        out.append(f"version {version} of {pid} belongs to no passport")
    if "history" in present:
        for seq, pid, version in db.execute(
            "SELECT h.seq, h.passport_id, h.version FROM history h JOIN passports p "
            "ON p.id = h.passport_id WHERE h.version > p.version ORDER BY 1"
        ):
            out.append(f"history row {seq} names version {version} of {pid}, beyond its current")
    for pid, data in db.execute("SELECT id, data FROM passports ORDER BY id"):
        try:
            passport_of(data, pages=True, passport_id=pid)
        except StoreError as exc:
            out.append(exc.message)
    return out


def _a2a_tables(home: Path) -> list[str]:
    path = home / A2A_DB
    if not path.exists():
        return []
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            present = _tables(db)
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return [f"the A2A database {A2A_DB} cannot be read ({exc})"]
    return [f"the A2A table {t} is missing" for t in A2A_TABLES if t not in present]


@dataclass(frozen=True)
class Unused:
    """Stored bytes nothing points at: a blob file, a blob row, or a published receipt."""

    kind: str  # "blob" | "blob row" | "receipt"
    name: str  # the sha256, or the receipt's path under the home
    size: int
    #: seconds since it was last written (0 for a row: rows are swept in one transaction)
    age: float


def unused(db: sqlite3.Connection, home: Path) -> list[Unused]:
    """Every blob (file or row) no luggage row names, and every receipt file the A2A
    ledger no longer names."""
    if not {"luggage", "blob_bytes"} <= _tables(db):
        return []
    named = {r[0] for r in db.execute("SELECT DISTINCT sha256 FROM luggage")}
    now = time.time()
    out = []
    for path in _files(home / BLOB_DIR / "sha256", depth=1):
        sha = path.parent.name + path.name
        if sha not in named:
            st = path.stat()
            out.append(Unused("blob", sha, st.st_size, now - st.st_mtime))
    for sha, size in db.execute(
        "SELECT sha256, length(data) FROM blob_bytes WHERE sha256 NOT IN "
        "(SELECT sha256 FROM luggage) ORDER BY 1"
    ):
        out.append(Unused("blob row", sha, int(size or 0), 0.0))
    kept = _receipts_named(home)
    if kept is not None:
        root = home / A2A_DIR
        for path in _files(root / RECEIPTS, depth=1):
            rel = str(path.relative_to(root))
            if rel not in kept:
                st = path.stat()
                out.append(Unused("receipt", f"{A2A_DIR}/{rel}", st.st_size, now - st.st_mtime))
    return out


def _files(root: Path, *, depth: int) -> Iterator[Path]:
    """Regular files exactly `depth` folders below `root` (no symlinks followed)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(root):
            if not entry.is_dir(follow_symlinks=False):
                continue
            if depth > 1:
                yield from _files(Path(entry.path), depth=depth - 1)
                continue
            with contextlib.suppress(OSError):
                for leaf in os.scandir(entry.path):
                    if leaf.is_file(follow_symlinks=False):
                        yield Path(leaf.path)


def _receipts_named(home: Path) -> set[str] | None:
    """The receipt files the A2A ledger names (None: no ledger, nothing to judge by)."""
    path = home / A2A_DB
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            return {r[0] for r in db.execute("SELECT file FROM receipts WHERE file IS NOT NULL")}
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return None


def sweep(db: sqlite3.Connection, home: Path, *, older_than: float = SWEEP_AFTER) -> list[Unused]:
    """Remove what :func:`unused` finds, but files touched within `older_than` seconds.
    `db` is a writable connection; the rows go in one transaction that checks again that
    no luggage names them. Returns what was removed."""
    removed = []
    for item in unused(db, home):
        if item.kind == "blob row" or item.age < older_than:
            continue
        path = (
            home / BLOB_DIR / "sha256" / item.name[:2] / item.name[2:]
            if item.kind == "blob"
            else home / item.name
        )
        if (
            item.kind == "blob"
            and db.execute(
                "SELECT 1 FROM luggage WHERE sha256 = ? LIMIT 1", (item.name,)
            ).fetchone()
        ):
            continue  # named since it was listed
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(item)
    rows = [u for u in unused(db, home) if u.kind == "blob row"]
    if rows:
        with db:
            db.execute("DELETE FROM blob_bytes WHERE sha256 NOT IN (SELECT sha256 FROM luggage)")
        removed += rows
    return removed
