"""`taskpack doctor` on a team desk: the schema version, the references between the
tables, each passport's newest version, and every blob's chunks and sha256 — all in one
READ ONLY transaction, so it never writes. Backups are PostgreSQL's own (``pg_dump``)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from taskpack.core.errors import StoreError

from .schema import LATEST, version_of

if TYPE_CHECKING:
    from .pg_store import PgStore

#: (what it finds, the query: one row per problem, its first column naming it)
_CHECKS: tuple[tuple[str, str], ...] = (
    (
        "passport {} has no matching version",
        "SELECT p.id FROM taskpack.passports p LEFT JOIN taskpack.versions v "
        "ON v.passport_id = p.id AND v.version = p.version "
        "WHERE v.data IS NULL OR v.data <> p.data",
    ),
    (
        "history row {} points at no passport",
        "SELECT h.seq FROM taskpack.history h LEFT JOIN taskpack.passports p "
        "ON p.id = h.passport_id WHERE p.id IS NULL",
    ),
    (
        "luggage row {} points at no blob",
        "SELECT l.seq FROM taskpack.luggage l LEFT JOIN taskpack.blobs b "
        "ON b.sha256 = l.sha256 WHERE b.sha256 IS NULL OR b.size <> l.size",
    ),
    (
        "landing {} points at no passport",
        "SELECT l.pack_sha256 FROM taskpack.landings l LEFT JOIN taskpack.passports p "
        "ON p.id = l.passport_id WHERE p.id IS NULL",
    ),
    (
        "blob {} is missing chunks",
        "SELECT b.sha256 FROM taskpack.blobs b LEFT JOIN taskpack.blob_chunks c "
        "ON c.sha256 = b.sha256 GROUP BY b.sha256, b.size, b.chunks "
        "HAVING count(c.n) <> b.chunks OR coalesce(sum(octet_length(c.data)), 0) <> b.size",
    ),
    (
        "foreign key {} is not enforced",
        "SELECT c.conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
        "WHERE n.nspname = 'taskpack' AND c.contype = 'f' AND NOT c.convalidated",
    ),
)


def problems(store: PgStore, *, hash_blobs: bool = True) -> list[str]:
    """Every problem found, as sentences; empty when the team desk is whole."""
    out: list[str] = []
    with store.pool.connection() as conn, conn.transaction():
        conn.execute("SET TRANSACTION READ ONLY")
        try:
            version = version_of(conn, store.url)
        except StoreError as exc:
            return [str(exc)]
        if version != LATEST:
            out.append(f"the schema is version {version}; this desk needs {LATEST}")
        for sentence, sql in _CHECKS:
            out += [sentence.format(row[0]) for row in conn.execute(sql).fetchall()]
        if hash_blobs:
            out += _digests(conn)
    return out


def _digests(conn: Any) -> list[str]:
    bad = []
    shas = [r[0] for r in conn.execute("SELECT sha256 FROM taskpack.blobs ORDER BY sha256")]
    with conn.cursor(binary=True) as cur:
        for sha in shas:
            h = hashlib.sha256()
            cur.execute(
                "SELECT data FROM taskpack.blob_chunks WHERE sha256 = %s ORDER BY n", (sha,)
            )
            for (data,) in cur:
                h.update(data)
            if h.hexdigest() != sha:
                bad.append(f"blob {sha[:12]}… no longer matches its sha256")
    return bad


def blob_count(store: PgStore) -> tuple[int, int]:
    """(passports, blobs) on the team desk."""
    with store.pool.connection() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM taskpack.passports), (SELECT count(*) FROM taskpack.blobs)"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])
