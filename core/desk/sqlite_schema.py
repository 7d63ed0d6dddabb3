"""The embedded desk's SQLite schema, as migrations.

:data:`MIGRATIONS` is an ordered list and ``PRAGMA user_version`` says how many have been
applied (:mod:`.sqlite_db` applies them). To add tables, APPEND a :class:`Migration` with
the next number; never edit one that has shipped. Below them: how values go into
those columns and come back out.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from typing import Any

from ..format.model import JSON, LocalPassport
from ..format.record_pages import AskPages, open_count
from .sqlite_db import Migration
from .store import PackWritten

DB_NAME = "store.sqlite3"

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
    Migration(
        3,
        "small luggage kept as rows, written with the rows that name it (blob_rows.py)",
        (
            """CREATE TABLE blob_bytes (
                sha256      TEXT PRIMARY KEY,         -- the sha256 of `data`, as computed
                data        BLOB NOT NULL             -- at most blob_rows.ROW_MAX bytes
            )""",
        ),
    ),
    Migration(
        4,
        "claims: a caller's key for a landing (A2A: principal, messageId), taken in its transaction",
        (
            """CREATE TABLE claims (
                scope       TEXT NOT NULL,
                key         TEXT NOT NULL,
                digest      TEXT NOT NULL,            -- what was sent under the key
                passport_id TEXT NOT NULL,            -- the passport it landed as or into
                claimed_at  TEXT NOT NULL,
                PRIMARY KEY (scope, key)
            ) WITHOUT ROWID""",
        ),
    ),
)


# --- values in and out of the rows ---------------------------------------------------


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def sql_text(value: str | None) -> str | None:
    """A string SQLite can store: a lone surrogate (valid JSON, ``"\\udbff"``, but not
    encodable as UTF-8) is kept as its escape, the way `dumps` writes it."""
    if value is None or not _LONE_SURROGATE.search(value):
        return value
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)


def sql_args(args: Sequence[Any]) -> Sequence[Any]:
    """Query arguments SQLite can bind (an id read from a pack may hold a lone surrogate)."""
    return [sql_text(a) if isinstance(a, str) else a for a in args]


def dumps(value: JSON) -> str:
    # json.loads reads the escape back as the same lone surrogate
    return sql_text(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) or ""


SENT_COLUMNS = (
    "sha256, passport_id, version, kind, written_at, asks, seq, encoding, path, file_sha256, "
    "size, to_whom, via, stub"
)


def pack_written_of(row: Sequence[Any]) -> PackWritten:
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


def root_of(lp: LocalPassport) -> str | None:
    return sql_text((lp.lineage.root_id if lp.lineage else None) or lp.passport.id)


def open_asks_of(lp: LocalPassport) -> int:
    return open_count(lp.asks)


def passport_text(lp: LocalPassport) -> str:
    """`lp` as the JSON text a row holds. Asks kept as pages (`pages.AskPages`, e.g. the
    100,000 of a large landing) are written as the JSON text they already are: spliced in
    at a marker no pack can forge, without a dict or a model per ask."""
    if not isinstance(lp.asks, AskPages):
        return dumps(lp.to_data())
    marker = f"taskpack-asks-{secrets.token_hex(16)}"
    data = lp.to_data_with({"asks": marker})
    text = dumps(data)
    at = text.index(json.dumps(marker))
    return text[:at] + (sql_text(lp.asks.json_array()) or "[]") + text[at + len(marker) + 2 :]
