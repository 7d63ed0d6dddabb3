"""`taskpack store migrate --to URL`: copy this machine's embedded desk into a team desk.

Every passport with all its versions, its history (in order), its luggage (each blob
read back from its row or the folder with its digest checked, then stored in the database), its
outbox entries and its landing records — one transaction per passport, after its
blobs. A passport already on the team desk is left as it is, so running it twice
changes nothing, and other people may go on working on the team desk meanwhile."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from taskpack.core.desk.blob_folder import BlobFolder
from taskpack.core.desk.blob_rows import open_stored
from taskpack.core.desk.sqlite_schema import DB_NAME
from taskpack.core.errors import StoreError

from .pg_store import PgStore
from .rows import pg_args


@dataclass
class Migrated:
    copied: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    blobs: int = 0


def migrate(home: Path, team: PgStore) -> Migrated:
    db_path = Path(home) / DB_NAME
    if not db_path.is_file():
        raise StoreError(f"there is no desk to copy at {home} (no {DB_NAME})")
    src = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True)
    folder = BlobFolder(home)
    out = Migrated()
    try:
        ids = [r[0] for r in src.execute("SELECT id FROM passports ORDER BY created_at, id")]
        for pid in ids:
            if team.exists(pid):
                out.already.append(pid)
                continue
            for sha, size, name in src.execute(
                "SELECT sha256, size, name FROM luggage WHERE passport_id = ?", (pid,)
            ).fetchall():
                if not team.has_blob(sha):
                    with open_stored(src, folder, sha, name=name, size=size) as f:
                        team.put_blob(f, expected_sha256=sha)  # checked on the way, twice
                    out.blobs += 1
            _copy_rows(src, team, pid)
            out.copied.append(pid)
    finally:
        src.close()
    return out


def _copy_rows(src: sqlite3.Connection, team: PgStore, pid: str) -> None:
    def rows(sql: str) -> list[tuple[object, ...]]:
        return src.execute(sql, (pid,)).fetchall()

    with team.pool.connection() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", (pid,))
        if conn.execute("SELECT 1 FROM taskpack.passports WHERE id = %s", (pid,)).fetchone():
            return  # someone copied it meanwhile
        for row in rows(
            "SELECT id, version, title, state, waiting_on, root_id, came_from, open_asks, "
            "created_at, updated_at, data FROM passports WHERE id = ?"
        ):
            conn.execute(
                "INSERT INTO taskpack.passports (id, version, title, state, waiting_on, root_id, "
                "came_from, open_asks, created_at, updated_at, data) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                pg_args(row),
            )
        for row in rows("SELECT passport_id, version, data FROM versions WHERE passport_id = ?"):
            conn.execute(
                "INSERT INTO taskpack.versions (passport_id, version, data) VALUES (%s,%s,%s)",
                pg_args(row),
            )
        for row in rows(
            "SELECT passport_id, version, event, at, detail FROM history WHERE passport_id = ? "
            "ORDER BY seq"
        ):
            conn.execute(
                "INSERT INTO taskpack.history (passport_id, version, event, at, detail) "
                "VALUES (%s,%s,%s,%s,%s)",
                pg_args(row),
            )
        for row in rows(
            "SELECT passport_id, name, sha256, size, added_at FROM luggage WHERE passport_id = ? "
            "ORDER BY seq"
        ):
            conn.execute(
                "INSERT INTO taskpack.luggage (passport_id, name, sha256, size, added_at) "
                "VALUES (%s,%s,%s,%s,%s)",
                pg_args(row),
            )
        for row in rows(
            "SELECT sha256, passport_id, version, kind, written_at, asks, encoding, path, "
            "file_sha256, size, to_whom, via, stub FROM packs_written WHERE passport_id = ? "
            "ORDER BY seq"
        ):
            conn.execute(
                "INSERT INTO taskpack.packs_written (sha256, passport_id, version, kind, "
                "written_at, asks, encoding, path, file_sha256, size, to_whom, via, stub) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                pg_args(row),
            )
        for row in rows(
            "SELECT pack_sha256, passport_id, kind, landed_at, data FROM landings "
            "WHERE passport_id = ?"
        ):
            conn.execute(
                "INSERT INTO taskpack.landings (pack_sha256, passport_id, kind, landed_at, data) "
                "VALUES (%s,%s,%s,%s,%s) ON CONFLICT (pack_sha256) DO NOTHING",
                pg_args(row),
            )
        conn.execute("SELECT pg_notify('taskpack_changes', %s)", ('{"by": "migrate", "ids": []}',))
