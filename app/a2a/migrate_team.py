"""`taskpack store migrate` for the A2A binding: the token index (hashes; each remote
token's secret re-filed in the keyring under the team desk's id), contexts, tasks, the
idempotency records, published receipts and sent packs, copied from ``a2a.sqlite3`` in
one transaction. Rows already on the team desk are left as they are (twice changes
nothing). A published receipt's file goes into the store with it (by digest, as a team
desk keeps its receipts); the copy in this machine's ``a2a/`` folder is left as it is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from taskpack.app.a2a import tokens
from taskpack.app.a2a.ledger import DB_NAME, DIR_NAME
from taskpack.app.a2a.receipts import IN_STORE
from taskpack.app.team.a2a_ledger import PgLedger
from taskpack.app.team.connect import spool_dir
from taskpack.app.team.pg_blobs import PgBlobs

_TABLES = (
    ("tokens", "kind, name, sha256, url, created_at", "a2a_tokens"),
    ("contexts", "principal, context_id, root_id, created_at", "a2a_contexts"),
    ("tasks", "principal, task_id, context_id, kind, created_at", "a2a_tasks"),
    ("messages", "principal, message_id, digest, task_id, created_at", "a2a_messages"),
    (
        "sent",
        "url, remote_task_id, context_id, message_id, pack_sha256, local_passport, kind, "
        "token_name, sent_at, receipt_digest, merged_at, peer",
        "a2a_sent",
    ),
)


def migrate_a2a(home: Path, url: str) -> int:
    """Copy the binding's rows; returns how many were new on the team desk."""
    path = Path(home) / DB_NAME
    if not path.is_file():
        return 0
    src = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    added = 0
    try:
        old_id = src.execute("SELECT value FROM meta WHERE key = 'desk_id'").fetchone()
        with PgLedger(url, home) as team:
            new_id = team.desk_id
            with team.pool.connection() as conn, conn.transaction():
                for table, columns, target in _TABLES:
                    marks = ",".join(["%s"] * len(columns.split(",")))
                    for row in src.execute(f"SELECT {columns} FROM {table}").fetchall():
                        cur = conn.execute(
                            f"INSERT INTO taskpack.{target} ({columns}) VALUES ({marks}) "
                            "ON CONFLICT DO NOTHING",
                            row,
                        )
                        added += cur.rowcount
                for row in src.execute(
                    "SELECT task_id, key, version, content_digest, file, size, error, "
                    "published_at FROM receipts"
                ).fetchall():
                    row = (*row[:4], _receipt_in_store(team, home, row[4]), *row[5:])
                    cur = conn.execute(
                        "INSERT INTO taskpack.a2a_receipts (task_id, key, version, "
                        "content_digest, file, size, error, published_at, seq) VALUES "
                        "(%s,%s,%s,%s,%s,%s,%s,%s, nextval('taskpack.a2a_receipts_seq')) "
                        "ON CONFLICT DO NOTHING",
                        row,
                    )
                    added += cur.rowcount
            if old_id is not None and old_id[0] != new_id:
                for (name,) in src.execute("SELECT name FROM tokens WHERE kind = 'remote'"):
                    secret = tokens._keyring_get(f"{old_id[0]}/remote/{name}")
                    if secret is not None:
                        tokens._keyring_set(f"{new_id}/remote/{name}", secret)
    finally:
        src.close()
    return added


def _receipt_in_store(team: PgLedger, home: Path, file: str | None) -> str | None:
    """The receipt file's bytes put into the team desk; what its `file` column says then
    (as it was when the file is gone: the embedded desk could not serve it either)."""
    path = Path(home) / DIR_NAME / file if file else None
    if path is None or not path.is_file():
        return file
    blobs = PgBlobs(team.pool, spool_dir(home), url=team.pool.url)
    with open(path, "rb") as f:
        sha256, _size = blobs.put_blob(f)
    return IN_STORE + sha256
