"""The A2A binding's ledger on a team desk: the same tables as ``a2a.sqlite3``
(:mod:`taskpack.app.a2a.ledger`), in the team desk's database, so several `taskpack
serve` processes share one memory — a token added in one is accepted by another, and
idempotency on (principal, messageId) holds across all of them.

Its queries and rules are :class:`~taskpack.app.ledger_rules.LedgerRules`, as the
embedded ledger's are: here a race the SQLite ledger settles with its single writer is
settled by the same unique keys, the second writer's INSERT waiting for the first."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from taskpack.app.ledger_rules import DIR_NAME, Ledger, LedgerRules
from taskpack.core.desk.sql_dialect import POSTGRES

from .connect import Pool, spool_dir
from .schema import require_current


class _Duplicate(Exception):
    """A unique key was taken (seen inside the transaction, before the pool words it)."""


class PgLedger(LedgerRules):
    """The binding's ledger in the team desk at `url`. Receipts it publishes are kept in
    the store (:mod:`taskpack.app.a2a.receipts`); `home` lends only its spool, for files
    on their way (a receipt being packed, a download being read)."""

    sql = POSTGRES
    duplicate = (_Duplicate,)
    next_receipt_seq = "SELECT nextval('taskpack.a2a_receipts_seq')"

    def __init__(self, url: str, home: Path) -> None:
        self.home = Path(home)
        self.dir = spool_dir(self.home) / DIR_NAME
        self.dir.mkdir(parents=True, exist_ok=True)
        self.pool = Pool(url, max_size=2)
        try:
            with self.pool.connection() as conn:
                require_current(conn, url)
        except BaseException:
            self.pool.close()
            raise

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> PgLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        with self.pool.connection() as conn:
            try:
                with conn.transaction():
                    yield conn
            except pg_errors.UniqueViolation:
                raise _Duplicate() from None

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self.pool.connection() as conn:
            return conn.execute(sql, tuple(args)).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self.pool.connection() as conn:
            return conn.execute(sql, tuple(args)).fetchall()


def _is_a_ledger(ledger: PgLedger) -> Ledger:
    """Never called: mypy checks here that the team desk's ledger keeps the protocol."""
    return ledger
