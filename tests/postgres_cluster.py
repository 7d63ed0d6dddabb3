"""A throwaway PostgreSQL 15 cluster for the team-desk tests: Debian's initdb and pg_ctl,
run as the unprivileged `postgres` system user when the tests run as root (CI does),
trust authentication on 127.0.0.1 and a free port, fsync off, removed afterwards."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

BIN = Path(os.environ.get("TASKPACK_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Cluster:
    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.data = root / "data"
        self.socket = root / "socket"

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, db: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        """Start (again) on the same port: a restart a desk must ride out."""
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.socket} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            _as_owner(
                [
                    str(BIN / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-o",
                    opts,
                    "-w",
                    "-s",
                    "-l",
                    str(self.root / "log"),
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast`` ends every session; ``immediate`` is a crash)."""
        subprocess.run(
            _as_owner([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-s", "stop"]),
            capture_output=True,
        )

    def promote(self) -> None:
        """Make this standby the primary."""
        subprocess.run(
            _as_owner([str(BIN / "pg_ctl"), "-D", str(self.data), "-w", "-s", "promote"]),
            check=True,
            capture_output=True,
        )

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"desk_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def running_cluster() -> Iterator[Cluster]:
    if not (BIN / "initdb").exists():
        raise RuntimeError(
            f"PostgreSQL 15 is not installed ({BIN}/initdb is missing): `make test` installs "
            "it (apt-get install postgresql)"
        )
    root = Path(tempfile.mkdtemp(prefix="taskpack-pg-"))
    cluster = Cluster(root, _free_port())
    cluster.data.mkdir()
    cluster.socket.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        os.chmod(root, 0o700)
        for d in (cluster.data, cluster.socket):
            shutil.chown(d, "postgres", "postgres")
    try:
        subprocess.run(
            _as_owner(
                [
                    str(BIN / "initdb"),
                    "-D",
                    str(cluster.data),
                    "--auth=trust",
                    "-U",
                    "postgres",
                    "--no-sync",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ]
            ),
            check=True,
            capture_output=True,
        )
        hba = cluster.data / "pg_hba.conf"  # one role must give a password: the refusal test
        refusing = "host all locked 127.0.0.1/32 scram-sha-256\n"
        hba.write_text(refusing + hba.read_text())
        cluster.start()
        yield cluster
    finally:
        cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def standby_of(primary: Cluster) -> Iterator[Cluster]:
    """A streaming standby of `primary` (pg_basebackup -R), on a port of its own."""
    root = Path(tempfile.mkdtemp(prefix="taskpack-pg-standby-"))
    standby = Cluster(root, _free_port())
    standby.socket.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        os.chmod(root, 0o700)
        shutil.chown(standby.socket, "postgres", "postgres")
    try:
        subprocess.run(
            _as_owner(
                [
                    str(BIN / "pg_basebackup"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(primary.port),
                    "-U",
                    "postgres",
                    "-D",
                    str(standby.data),
                    "-R",
                    "-X",
                    "stream",
                    "--checkpoint=fast",  # a spread checkpoint holds the copy up for ~90 s
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
        )
        standby.start()
        yield standby
    finally:
        standby.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


def wait_replicated(primary: Cluster, timeout: float = 120) -> None:
    """Until the standby has replayed everything the primary wrote so far."""
    import time

    import psycopg

    with psycopg.connect(primary.admin_url, autocommit=True) as conn:
        target = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]  # type: ignore[index]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT bool_and(replay_lsn >= %s::pg_lsn) FROM pg_stat_replication", (target,)
            ).fetchone()
            if row is not None and row[0]:
                return
            time.sleep(0.1)
    raise TimeoutError("the standby did not catch up")
