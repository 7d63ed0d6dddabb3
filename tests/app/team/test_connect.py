"""A restart of PostgreSQL is routine: every desk process rides it out. `taskpack serve`
answers the next requests (never a 500 from a connection the restart killed), the MCP
server's next tool call works, and a store's reads after the restart see the database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import keyring
import pytest
from taskpack.app.a2a import tokens
from taskpack.app.a2a.ledger import open_ledger
from taskpack.app.team import schema
from taskpack.app.team.pg_store import PgStore

A2A = {"A2A-Version": "1.0"}


@pytest.fixture
def restartable(own_postgres: Any) -> Iterator[tuple[Any, str]]:
    url = own_postgres.new_database()
    schema.init(url)
    yield own_postgres, url


def restart(cluster: Any) -> None:
    cluster.stop("fast")  # every session ends, as in `systemctl restart postgresql`
    cluster.start()


def _get(url: str, token: str) -> tuple[int, str]:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}", **A2A})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_a_store_reads_again_after_a_restart(restartable: tuple[Any, str], tmp_path: Path) -> None:
    cluster, url = restartable
    with PgStore(url, home=tmp_path / "h", who="ana@alpha", listen=False) as store:
        assert store.count() == 0
        restart(cluster)
        assert [store.count() for _ in range(5)] == [0] * 5


def test_a_connection_the_server_ended_while_pooled_is_replaced(
    team_desk_url: str, postgres: Any
) -> None:
    """An admin's pg_terminate_backend (as a restart does to every session): the next use
    gets a fresh connection, not an error."""
    from taskpack.app.team.connect import Pool

    pool = Pool(team_desk_url, max_size=1)
    try:
        with pool.connection() as conn:
            first = conn.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        _end_session(postgres.admin_url, first)  # its last words are sent by then
        answers = []
        for _ in range(3):
            with pool.connection() as conn:
                answers.append(conn.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        assert first not in answers and len(set(answers)) == 1
    finally:
        pool.close()


def _end_session(admin_url: str, pid: int) -> None:
    """pg_terminate_backend, then until the session has gone."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        for _ in range(1200):
            row = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,))
            if row.fetchone() == (0,):
                return
            time.sleep(0.05)


def test_a_change_cut_at_its_commit_says_it_may_or_may_not_be_kept(
    team_desk_url: str, postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the server knows whether a COMMIT it was sent took effect when the connection
    drops under it (a failover, a restart): the desk must not say "nothing was kept"."""
    from taskpack.app.desk import Desk
    from taskpack.app.team.pg_tx import PgTx
    from taskpack.core.errors import StoreError

    announce = PgTx.announce

    def then_cut(tx: PgTx) -> None:
        announce(tx)
        pid = tx._conn.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        _end_session(postgres.admin_url, pid)

    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    desk = Desk(tmp_path / "home", "alpha", actor="ana")
    try:
        monkeypatch.setattr(PgTx, "announce", then_cut)
        with pytest.raises(StoreError) as cut:
            desk.new("Invoice export", "CSV for finance")
        monkeypatch.setattr(PgTx, "announce", announce)
        said = f"{cut.value.message} {cut.value.hint}"
        assert "lost the connection while it committed" in said, said
        assert "may or may not have been kept" in said and "Nothing" not in said, said
        assert desk.new("Again", "the desk goes on").passport.title == "Again"  # fresh connection
    finally:
        desk.close()


def test_serve_answers_after_a_restart(
    restartable: tuple[Any, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cluster, url = restartable
    ring = tokens.MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(ring)
    monkeypatch.setenv("TASKPACK_STORE", url)
    try:
        with open_ledger(tmp_path / "admin") as ledger:
            token = tokens.add_token(ledger, "agent-1").token
    finally:
        keyring.set_keyring(previous)
    env = dict(
        os.environ, TASKPACK_HOME=str(tmp_path / "srv"), TASKPACK_MACHINE="srv", TASKPACK_STORE=url
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        assert "Serving A2A" in line, line + proc.stderr.read()
        base = line.rsplit(" ", 1)[-1].strip().rstrip("/")
        for _ in range(3):  # the pools hold connections (the desk's and the ledger's)
            assert _get(f"{base}/tasks", token)[0] == 200
        cluster.stop("fast")
        down = None
        for _ in range(600):  # while it is down: 503 and the sentence, soon and at once
            down = _get(f"{base}/tasks", token)
            if down[0] == 503:
                break
            time.sleep(0.1)
        assert down is not None and down[0] == 503 and "cannot be reached" in down[1], down
        cluster.start()
        waiting = []
        for _ in range(600):  # until its change feed is back (within a second or so)
            waiting.append(_get(f"{base}/tasks", token)[0])
            if waiting[-1] == 200:
                break
            time.sleep(0.1)
        assert set(waiting) <= {503, 200}, waiting  # "cannot be reached, retry", never a 500
        answers = [_get(f"{base}/tasks", token) for _ in range(12)]
        assert [code for code, _ in answers] == [200] * 12, answers
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def test_the_mcp_server_answers_after_a_restart(
    restartable: tuple[Any, str], tmp_path: Path
) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    cluster, url = restartable
    env = {
        "TASKPACK_HOME": str(tmp_path / "agent-home"),
        "TASKPACK_MACHINE": "alpha",
        "TASKPACK_ACTOR": "ana",
        "TASKPACK_STORE": url,
        "TASKPACK_NO_PROGRESS": "1",
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}),
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "taskpack.app.cli.main", "mcp"], env=env
    )

    async def go() -> list[Any]:
        outcomes: list[Any] = []
        with open(tmp_path / "mcp.stderr", "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as s,
            ):
                await s.initialize()
                made = await s.call_tool(
                    "taskpack_new", {"title": "Before the restart", "goal": "survive it"}
                )
                assert not made.is_error, made.content
                await anyio.to_thread.run_sync(restart, cluster)
                for n in range(3):
                    res = await s.call_tool(
                        "taskpack_new", {"title": f"After the restart {n}", "goal": "kept"}
                    )
                    outcomes.append(res.is_error)
                listed = await s.call_tool("taskpack_list", {})
                outcomes.append(listed.structured_content)
        return outcomes

    *errors, listed = anyio.run(go)
    assert errors == [False, False, False]
    assert listed["total"] == 4  # one made before the restart, three after


def _cli(tmp_path: Path, url: str, *args: str, **env_more: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TASKPACK_HOME=str(tmp_path / "cli-home"),
        TASKPACK_MACHINE="cli-box",
        TASKPACK_ACTOR="cli",
        TASKPACK_NO_PROGRESS="1",
        TASKPACK_STORE=url,
        **env_more,
    )
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _role_url(url: str, role: str) -> str:
    return url.replace("postgresql://postgres@", f"postgresql://{role}@")


def test_a_role_that_needs_a_password_is_told_so_when_none_was_given(
    postgres: Any, tmp_path: Path
) -> None:
    import psycopg

    with psycopg.connect(postgres.admin_url, autocommit=True) as conn:
        conn.execute(
            "DO $$ BEGIN CREATE ROLE locked LOGIN PASSWORD 'right-one'; "
            "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
    env = {"PGPASSFILE": str(tmp_path / "no-such-pgpass")}
    done = _cli(tmp_path, _role_url(postgres.url("postgres"), "locked"), "list", **env)
    assert done.returncode != 0
    assert "asks for a password and none was given" in done.stderr
    assert "refused" not in done.stderr


def test_a_landing_waiting_on_a_lock_held_elsewhere_ends_in_a_sentence(
    team_desk_url: str, tmp_path: Path
) -> None:
    import psycopg
    from taskpack.app.desk import Desk

    os.environ.pop("TASKPACK_STORE", None)
    with Desk(tmp_path / "sender", "wei-box", actor="wei") as sender:
        lp = sender.new("Invoice export", "CSV for finance")
        packed = sender.pack(lp.id, tmp_path / "job.taskpack")
    with psycopg.connect(team_desk_url, autocommit=True) as holder:  # any role can take one
        holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (packed.content_digest,))
        done = _cli(
            tmp_path,
            team_desk_url,
            "land",
            str(packed.path),
            TASKPACK_STORE_LOCK_TIMEOUT="2",
        )
    assert done.returncode != 0
    assert "waited 2 s for a lock another session holds" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    again = _cli(tmp_path, team_desk_url, "land", str(packed.path))
    assert again.returncode == 0, again.stderr


def test_a_read_only_roles_pack_leaves_no_file_when_nothing_was_kept(
    team_desk_url: str, tmp_path: Path
) -> None:
    import psycopg

    made = _cli(tmp_path, team_desk_url, "new", "--title", "Invoice export", "--goal", "CSV")
    assert made.returncode == 0, made.stderr
    with psycopg.connect(team_desk_url, autocommit=True) as conn:
        pid = conn.execute("SELECT id FROM taskpack.passports").fetchone()[0]  # type: ignore[index]
        conn.execute(
            "DO $$ BEGIN CREATE ROLE reader LOGIN; "
            "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
        conn.execute("GRANT USAGE ON SCHEMA taskpack TO reader")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA taskpack TO reader")
    out = tmp_path / "out"
    out.mkdir()
    done = _cli(
        tmp_path,
        _role_url(team_desk_url, "reader"),
        "pack",
        pid,
        "--out",
        str(out / "job.taskpack"),
    )
    assert done.returncode != 0
    assert "Nothing of that change was kept" in done.stderr
    assert list(out.iterdir()) == []
