"""`taskpack doctor` on a team desk: the schema version and its tables, the references
between the tables, each passport's versions (none missing, none beyond the current one,
none of a passport that is gone) and whether its record still reads, and every blob's
chunks (numbered 0…n-1) and sha256, read a chunk at a time — all in one READ ONLY
transaction, so it never writes. Blobs nothing points at (the luggage of a landing that
failed, receipts replaced by newer ones) are listed; :func:`sweep` removes them. Backups
are PostgreSQL's own (``pg_dump``)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Protocol

from taskpack.core.desk.store_rules import passport_of
from taskpack.core.errors import StoreError

from .connect import Pool
from .schema import LATEST, MIGRATIONS, version_of


class Team(Protocol):
    """What the doctor reads through: the store's pool, and its URL for what it says."""

    @property
    def pool(self) -> Pool: ...
    @property
    def url(self) -> str: ...


#: an unused blob stored more recently than this may belong to a landing in progress
SWEEP_AFTER = "15 minutes"
#: what a published receipt's ledger row says of the blob it is kept in
RECEIPT_FILE = "'sha256:' || b.sha256"
_UNUSED = (
    "SELECT b.sha256, b.size, b.stored_at < now() - %s::interval FROM taskpack.blobs b "
    "WHERE NOT EXISTS (SELECT 1 FROM taskpack.luggage l WHERE l.sha256 = b.sha256) "
    f"AND NOT EXISTS (SELECT 1 FROM taskpack.a2a_receipts r WHERE r.file = {RECEIPT_FILE}) "
    "ORDER BY b.sha256"
)


def expected_tables() -> list[str]:
    """Every table the migrations make, by name."""
    made = (
        re.findall(r"CREATE TABLE taskpack\.(\w+)", sql)
        for _, _, stmts in MIGRATIONS
        for sql in stmts
    )
    return sorted({name for names in made for name in names})


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
        "blob {} has its chunks numbered out of order",
        "SELECT b.sha256 FROM taskpack.blobs b JOIN taskpack.blob_chunks c "
        "ON c.sha256 = b.sha256 GROUP BY b.sha256, b.chunks "
        "HAVING min(c.n) <> 0 OR max(c.n) <> b.chunks - 1",
    ),
    (
        "passport {} has a version stored beyond its current one",
        "SELECT DISTINCT v.passport_id FROM taskpack.versions v JOIN taskpack.passports p "
        "ON p.id = v.passport_id WHERE v.version > p.version",
    ),
    (
        "version row {} belongs to no passport",
        "SELECT v.passport_id || '@' || v.version FROM taskpack.versions v "
        "LEFT JOIN taskpack.passports p ON p.id = v.passport_id WHERE p.id IS NULL",
    ),
    (
        "history row {} names a version beyond its passport's current one",
        "SELECT h.seq FROM taskpack.history h JOIN taskpack.passports p "
        "ON p.id = h.passport_id WHERE h.version > p.version",
    ),
    (
        "outbox entry {} points at no passport",
        "SELECT w.seq FROM taskpack.packs_written w LEFT JOIN taskpack.passports p "
        "ON p.id = w.passport_id WHERE p.id IS NULL",
    ),
    (
        "the A2A task {} names no passport",
        "SELECT DISTINCT t.task_id FROM taskpack.a2a_tasks t LEFT JOIN taskpack.passports p "
        "ON p.id = t.task_id WHERE p.id IS NULL",
    ),
    (
        "foreign key {} is not enforced",
        "SELECT c.conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
        "WHERE n.nspname = 'taskpack' AND c.contype = 'f' AND NOT c.convalidated",
    ),
)


def problems(store: Team, *, hash_blobs: bool = True) -> list[str]:
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
        missing = _missing_tables(conn)
        out += [f"the table taskpack.{t} is missing" for t in missing]
        for sentence, sql in _CHECKS:
            if not any(f"taskpack.{t} " in sql + " " for t in missing):
                out += [sentence.format(row[0]) for row in conn.execute(sql).fetchall()]
        if "passports" not in missing:
            out += _unreadable_records(conn)
        if hash_blobs and not {"blobs", "blob_chunks"} & set(missing):
            out += _digests(conn)
    return out


def _missing_tables(conn: Any) -> list[str]:
    rows = conn.execute("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = 'taskpack'")
    present = {r[0] for r in rows.fetchall()}
    return [t for t in expected_tables() if t not in present]


def _unreadable_records(conn: Any) -> list[str]:
    """Each passport's record read as the desk reads it, a few hundred rows at a time."""
    bad = []
    with conn.cursor(name="doctor_records") as cur:
        cur.itersize = 200
        cur.execute("SELECT id, data FROM taskpack.passports ORDER BY id")
        for pid, data in cur:
            try:
                passport_of(data, pages=True, passport_id=pid)
            except StoreError as exc:
                bad.append(exc.message)
    return bad


def _digests(conn: Any) -> list[str]:
    """Every blob hashed a chunk at a time (memory: one chunk, whatever the blob's size)."""
    bad = []
    blobs = conn.execute("SELECT sha256, chunks FROM taskpack.blobs ORDER BY sha256").fetchall()
    with conn.cursor(binary=True) as cur:
        for sha, chunks in blobs:
            h = hashlib.sha256()
            for n in range(int(chunks)):
                row = cur.execute(
                    "SELECT data FROM taskpack.blob_chunks WHERE sha256 = %s AND n = %s", (sha, n)
                ).fetchone()
                if row is None:
                    bad.append(f"blob {sha[:12]}… is missing its part {n}")
                    break
                h.update(row[0])
            else:
                if h.hexdigest() != sha:
                    bad.append(f"blob {sha[:12]}… no longer matches its sha256")
    return bad


@dataclass(frozen=True)
class UnusedBlob:
    sha256: str
    size: int
    #: stored long enough ago that no landing in progress can be about to name it
    old: bool


def unused(store: Team) -> list[UnusedBlob]:
    """Blobs no luggage row and no published receipt names."""
    with store.pool.connection() as conn:
        rows = conn.execute(_UNUSED, (SWEEP_AFTER,)).fetchall()
    return [UnusedBlob(str(sha), int(size), bool(old)) for sha, size, old in rows]


def sweep(store: Team) -> list[UnusedBlob]:
    """Remove the unused blobs stored over :data:`SWEEP_AFTER` ago, in one transaction."""
    with store.pool.connection() as conn, conn.transaction():
        rows = conn.execute(_UNUSED, (SWEEP_AFTER,)).fetchall()
        old = {str(sha): int(size) for sha, size, is_old in rows if is_old}
        if not old:
            return []
        # the rows locked first: a landing naming one of them now waits for this sweep
        # (and then finds it gone); one that named it meanwhile is seen by the look after
        conn.execute("SELECT 1 FROM taskpack.blobs WHERE sha256 = ANY(%s) FOR UPDATE", (list(old),))
        still = conn.execute(
            "SELECT b.sha256 FROM taskpack.blobs b WHERE b.sha256 = ANY(%s) "
            "AND NOT EXISTS (SELECT 1 FROM taskpack.luggage l WHERE l.sha256 = b.sha256) "
            "AND NOT EXISTS (SELECT 1 FROM taskpack.a2a_receipts r "
            f"WHERE r.file = {RECEIPT_FILE})",
            (list(old),),
        ).fetchall()
        shas = [str(r[0]) for r in still]
        conn.execute("DELETE FROM taskpack.blob_chunks WHERE sha256 = ANY(%s)", (shas,))
        conn.execute("DELETE FROM taskpack.blobs WHERE sha256 = ANY(%s)", (shas,))
    return [UnusedBlob(sha, old[sha], True) for sha in shas]


def blob_count(store: Team) -> tuple[int, int]:
    """(passports, blobs) on the team desk."""
    with store.pool.connection() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM taskpack.passports), (SELECT count(*) FROM taskpack.blobs)"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])
