"""Knowing when the store is damaged, keeping backups of it, and bringing one back.

Three things a desk must not do with a damaged database: carry on as if nothing were
wrong, silently start an empty desk over it, or write into it. So:

* **At every open** (:func:`check_at_open`) the database file is checked before
  anything touches it: a zero-length file or one that is not SQLite is damage, not a new
  desk; and SQLite's ``quick_check`` runs whenever the file has changed since the last
  good check (a stamp beside it remembers the size and time of the file and its WAL), so
  a desk that was only read costs one ``stat``, and one written to costs a few ms.
* **Backups** (:func:`backup`) are made with SQLite's online backup API into
  ``backups/`` — once a day by the desk's housekeeping and before every schema
  migration — and rotated (the newest :data:`KEEP` are kept). A backup is written under a
  temporary name, fsynced and renamed, so a half-made one is never mistaken for one.
* **The doctor** (:func:`diagnose`) runs SQLite's full ``integrity_check``, the foreign
  key check and every luggage blob's digest, reading the database read-only; and
  :func:`restore` puts the newest sound backup back, keeping the damaged file beside it.

Nothing here needs a running store: the doctor works on a database too damaged to open.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import TaskPackError
from ..files import write_bytes_atomically
from ..format.streams import hash_file
from ..portable import locking, replacing
from ..trust.visible_text import visible
from .blob_rows import is_kept_as_row, row_problem
from .store_audit import Unused, row_problems, unused

SQLITE_MAGIC = b"SQLite format 3\x00"
BACKUP_DIR = "backups"
STAMP = ".store-checked"
KEEP = 7
#: a daily backup is due when the newest one is older than this
BACKUP_EVERY = 24 * 3600.0
#: a half-written blob untouched this long belongs to no running landing
STALE_PART = 15 * 60.0


def _stamp_of(db_path: Path) -> str | None:
    parts = []
    for p in (db_path, db_path.with_name(db_path.name + "-wal")):
        try:
            st = p.stat()
        except FileNotFoundError:
            parts.append("-")
            continue
        parts.append(f"{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts)


def damage_hint(home: Path) -> str:
    newest = newest_backup(home)
    if newest is None:
        return (
            "Nothing was changed. Run `taskpack doctor` for details; no backup exists yet, "
            "so keep a copy of the file and move it aside to start an empty desk."
        )
    return (
        "Nothing was changed. Run `taskpack doctor` for details, then "
        f"`taskpack doctor --restore` to bring back the backup of {_when(newest)}."
    )


def check_at_open(
    db_path: Path,
    *,
    error: type[TaskPackError],
    what: str,
) -> None:
    """Refuse a damaged database before it is opened for use; see the module docstring.

    Raises `error` (one sentence and what to do). A file that does not exist yet is a new
    desk and passes.
    """
    try:
        st = db_path.stat()
    except FileNotFoundError:
        return
    home = db_path.parent
    if st.st_size == 0:
        if _still_empty(db_path):
            raise error(f"{what} is damaged: the file is empty", hint=damage_hint(home))
        return  # a store being made: SQLite sees its pages (and waits for its creator)
    try:
        with open(db_path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise error(f"{what} cannot be read ({exc.strerror or exc})") from None
    if head != SQLITE_MAGIC:
        raise error(f"{what} is damaged: the file is not a SQLite database", hint=damage_hint(home))
    stamp_file = home / STAMP
    now = _stamp_of(db_path)
    with contextlib.suppress(OSError):
        if stamp_file.read_text(encoding="ascii") == now:
            return
    problems = quick_check(db_path)
    if problems:
        raise error(f"{what} is damaged ({problems[0]})", hint=damage_hint(home))
    with contextlib.suppress(OSError):
        write_bytes_atomically(stamp_file, str(now).encode("ascii"), fsync=False)


def _wal(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-wal")


def _still_empty(db_path: Path) -> bool:
    """A zero-length database file that is damage, not a store being made right now.

    A new store is briefly empty while its creator writes the first pages (into the WAL,
    until a checkpoint moves them), and other openers may look in that moment. So it is
    damage only when the store shows it was used, its WAL holds nothing, and the file is
    *still* empty when looked at again after that evidence was read.
    """
    if not _was_used(db_path.parent):
        return False
    with contextlib.suppress(OSError):
        if _wal(db_path).stat().st_size > 0:
            return False
    try:
        return db_path.stat().st_size == 0
    except FileNotFoundError:
        return False


def _was_used(home: Path) -> bool:
    """Evidence that the store at `home` once held data: a good check, a backup, a blob.
    (A store being created is briefly a zero-length file; a used one never is.)"""
    if (home / STAMP).exists() or backups(home):
        return True
    with contextlib.suppress(OSError):
        return any(True for _ in (home / "blobs" / "sha256").iterdir())
    return False


def _ro(db_path: Path) -> sqlite3.Connection:
    """A read-only connection that leaves no trace when it can.

    With no WAL file beside the database no connection has it open (the last one to
    close removes the WAL), so it is read as an immutable file: SQLite then creates no
    ``-wal``/``-shm`` companions, and a check of a damaged store writes nothing at all.
    Otherwise an ordinary read-only connection shares the live WAL.
    """
    mode = "ro" if _wal(db_path).exists() else "ro&immutable=1"
    return sqlite3.connect(f"file:{db_path}?mode={mode}", uri=True, timeout=30.0)


def quick_check(db_path: Path) -> list[str]:
    """SQLite's quick_check as sentences; empty when sound."""
    return _pragma_check(db_path, "quick_check")


def _pragma_check(db_path: Path, pragma: str) -> list[str]:
    had_wal = _wal(db_path).exists()
    problems = _pragma_once(db_path, pragma)
    if problems and not had_wal and _wal(db_path).exists():
        # another process opened the store while we read it as immutable: read it again,
        # through the live WAL, before calling it damaged
        problems = _pragma_once(db_path, pragma)
    return problems


def _pragma_once(db_path: Path, pragma: str) -> list[str]:
    try:
        db = _ro(db_path)
        # a damaged file's report may quote bytes that are not UTF-8: shown, never raised
        db.text_factory = lambda raw: raw.decode("utf-8", "replace")
        try:
            rows = [str(r[0]) for r in db.execute(f"PRAGMA {pragma}").fetchall()]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return [f"SQLite: {visible(str(exc))}"]
    return [f"SQLite: {visible(r)}" for r in rows if r != "ok"]


def _is_store(path: Path) -> bool:
    """Is the SQLite file at `path` a TaskPack store (its passports table readable)?"""
    try:
        head = path.read_bytes()[: len(SQLITE_MAGIC)] if path.stat().st_size else b""
        if head != SQLITE_MAGIC:
            return False
        db = _ro(path)
        try:
            db.execute("SELECT count(*) FROM passports").fetchone()
        finally:
            db.close()
    except (OSError, sqlite3.DatabaseError):
        return False
    return True


#: where SQLite keeps the "a connection is open" lock in a WAL store's -shm file (its
#: unix and its Windows VFS alike): every open connection holds a shared lock on this
#: byte while it is open
_SHM_DMS_BYTE = 128


def in_use(db_path: Path) -> bool:
    """Has another process this store open (a window, `taskpack mcp`, a watcher)? Asked
    of the lock every SQLite connection holds on the WAL index while it is open; the
    caller must have no connection to it itself."""
    shm = db_path.with_name(db_path.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return False  # no WAL index: no connection has the store open
    try:
        if not locking.try_lock_byte(fd, _SHM_DMS_BYTE):
            return True
        locking.unlock_byte(fd, _SHM_DMS_BYTE)
        return False
    except OSError:  # a file system without locks: as before, say it is in use
        return True
    finally:
        os.close(fd)


# --- backups ---------------------------------------------------------------------------


def backups(home: Path) -> list[Path]:
    """The backups of the store at `home`, newest first."""
    folder = home / BACKUP_DIR
    try:
        found = [
            p for p in folder.iterdir() if p.name.startswith("store-") and p.suffix == ".sqlite3"
        ]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def newest_backup(home: Path) -> Path | None:
    found = backups(home)
    return found[0] if found else None


def _when(path: Path) -> str:
    stamp = path.name.removeprefix("store-").split("-")[:2]
    try:
        at = datetime.strptime("-".join(stamp), "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return path.name
    return at.astimezone().strftime("%Y-%m-%d %H:%M")


def backup(db: sqlite3.Connection, home: Path, *, reason: str, keep: int = KEEP) -> Path:
    """Copy the open database `db` into ``home/backups`` (online backup API); rotate."""
    folder = home / BACKUP_DIR
    folder.mkdir(parents=True, exist_ok=True)
    at = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    final = folder / f"store-{at}-{reason}.sqlite3"
    n = 1
    while final.exists():
        n += 1
        final = folder / f"store-{at}-{reason}-{n}.sqlite3"
    tmp = folder / f".{final.name}.{os.getpid()}.partial"
    try:
        target = sqlite3.connect(tmp)
        try:
            db.backup(target)
        finally:
            target.close()
        os.chmod(tmp, 0o600)  # the desk's whole history: for its owner only
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        replacing.replace(tmp, final)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    for old in backups(home)[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return final


def backup_due(home: Path, *, every: float = BACKUP_EVERY) -> bool:
    newest = newest_backup(home)
    if newest is None:
        return True
    with contextlib.suppress(OSError):
        return time.time() - newest.stat().st_mtime >= every
    return True


def sweep_parts(blob_tmp: Path, *, older_than: float = STALE_PART) -> tuple[int, int]:
    """Delete half-written blobs nobody has touched for `older_than` seconds (a running
    landing keeps writing its own); returns (files, bytes) removed."""
    files = size = 0
    now = time.time()
    with contextlib.suppress(OSError):
        for p in blob_tmp.glob("*.part"):
            with contextlib.suppress(OSError):
                st = p.stat()
                if now - st.st_mtime < older_than:
                    continue
                p.unlink()
                files += 1
                size += st.st_size
    for p in blob_tmp.parent.parent.glob(f"{BACKUP_DIR}/.*.partial"):
        with contextlib.suppress(OSError):
            if now - p.stat().st_mtime >= older_than:
                p.unlink()
    return files, size


# --- the doctor ---------------------------------------------------------------------------


@dataclass
class Diagnosis:
    """What `taskpack doctor` found. `problems` empty = the store is whole."""

    db_path: Path
    problems: list[str] = field(default_factory=list)
    passports: int | None = None
    blobs_checked: int = 0
    leftovers: int = 0
    leftover_bytes: int = 0
    backups: list[Path] = field(default_factory=list)
    #: stored bytes nothing points at (not damage: `doctor --sweep` removes them)
    unused: list[Unused] = field(default_factory=list)

    @property
    def damaged(self) -> bool:
        return bool(self.problems)


def diagnose(home: Path, *, blob_path: Callable[[str], Path]) -> Diagnosis:
    """Check everything without writing: SQLite's integrity, references, every blob."""
    db_path = home / "store.sqlite3"
    out = Diagnosis(db_path, backups=backups(home))
    tmp = home / "blobs" / "tmp"
    with contextlib.suppress(OSError):
        parts = list(tmp.glob("*.part"))
        out.leftovers = len(parts)
        out.leftover_bytes = sum(p.stat().st_size for p in parts)
    if not db_path.exists():
        return out
    if db_path.stat().st_size == 0:
        out.problems.append("the database file is empty")
        return out
    with open(db_path, "rb") as f:
        if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            out.problems.append("the database file is not a SQLite database")
            return out
    out.problems += _pragma_check(db_path, "integrity_check")
    if out.problems:
        return out
    try:
        db = _ro(db_path)
        try:
            out.problems += [
                f"a dangling reference in {r[0]} row {r[1]}"
                for r in db.execute("PRAGMA foreign_key_check").fetchall()
            ]
            out.problems += row_problems(db, home)
            if any(p.startswith("the table") for p in out.problems):
                return out
            out.unused = unused(db, home)
            out.passports = int(db.execute("SELECT count(*) FROM passports").fetchone()[0])
            lug = db.execute("SELECT passport_id, name, sha256, size FROM luggage").fetchall()
            seen: dict[str, str | None] = {}
            for pid, name, sha, size in lug:
                if sha not in seen:  # a small blob is a row (`blob_rows`), the rest files
                    problem = row_problem(db, sha, size, hash_blobs=True)
                    if not is_kept_as_row(problem):
                        problem = _blob_problem(blob_path(sha), sha, size)
                    seen[sha] = problem
                    out.blobs_checked += 1
                if seen[sha] is not None:
                    out.problems.append(f"luggage {name!r} of {pid} {seen[sha]}")
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        out.problems.append(f"SQLite: {exc}")
        return out
    return out


def _blob_problem(path: Path, sha: str, size: int) -> str | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return "is missing its stored bytes"
    if st.st_size != size:
        return f"has {st.st_size} stored bytes instead of {size}"
    if hash_file(path) != sha:
        return "is damaged: its stored bytes no longer match their sha256"
    return None


@dataclass(frozen=True)
class Restored:
    """A desk put back from its last backup: the backup used, where the damaged database was kept, and how many passports came back."""

    backup: Path
    damaged_kept_as: Path | None
    passports: int


def restore(home: Path, *, error: type[TaskPackError]) -> Restored:
    """Put the newest sound backup in place of the database; the old file is kept aside.

    Call it only while no process has the store open.
    """
    db_path = home / "store.sqlite3"
    candidates = backups(home)
    if not candidates:
        raise error(
            "there is no backup of this desk to restore",
            hint="Keep a copy of store.sqlite3 and move it aside to start an empty desk.",
        )
    if in_use(db_path):
        raise error(
            "another TaskPack process has this store open (a window, taskpack mcp or "
            "taskpack watch); nothing was restored",
            hint="Close it, then run taskpack doctor --restore again.",
        )
    chosen = next(
        (b for b in candidates if _is_store(b) and not _pragma_check(b, "integrity_check")),
        None,
    )
    if chosen is None:
        raise error(
            f"none of the {len(candidates)} backups of this desk is a sound TaskPack store",
            hint="Keep a copy of store.sqlite3 and move it aside to start an empty desk.",
        )
    tmp = db_path.with_name(f".{db_path.name}.restoring")
    try:  # the copy is made first: a backup that fails to copy leaves the store as it was
        src = _ro(chosen)
        try:
            target = sqlite3.connect(tmp)
            try:
                src.backup(target)
                passports = int(target.execute("SELECT count(*) FROM passports").fetchone()[0])
            finally:
                target.close()
        finally:
            src.close()
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
    except (OSError, sqlite3.DatabaseError) as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise error(
            f"the backup {chosen.name} could not be restored ({visible(str(exc))}); "
            "nothing was changed"
        ) from None
    os.chmod(tmp, 0o600)
    at = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    kept: Path | None = None
    moved: list[tuple[Path, Path]] = []  # undone, last first, should a later move fail
    try:
        if db_path.exists():
            kept = db_path.with_name(f"store-damaged-{at}.sqlite3")
            replacing.replace(db_path, kept)
            moved.append((kept, db_path))
        for side in ("-wal", "-shm"):
            p = db_path.with_name(db_path.name + side)
            if p.exists():
                if kept is not None:
                    replacing.replace(p, kept.with_name(kept.name + side))
                    moved.append((kept.with_name(kept.name + side), p))
                else:
                    replacing.unlink(p, missing_ok=True)
        replacing.replace(tmp, db_path)
    except OSError as exc:  # Windows: another program holds the store (nothing moves then)
        for aside, place in reversed(moved):
            with contextlib.suppress(OSError):
                replacing.replace(aside, place)
        with contextlib.suppress(OSError):
            replacing.unlink(tmp, missing_ok=True)
        raise error(
            f"the store could not be replaced ({visible(str(exc))}); nothing was restored",
            hint="Close every TaskPack window and command, then run taskpack doctor "
            "--restore again.",
        ) from None
    with contextlib.suppress(OSError):
        (home / STAMP).unlink()
    return Restored(chosen, kept, passports)


def describe_backup(path: Path) -> str:
    return f"{_when(path)} ({path.name})"
