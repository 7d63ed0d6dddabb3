"""Two `taskpack serve` processes on one team desk: idempotency on
(principal, messageId) holds across them, and a token added in a third process is
accepted by both at once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from a2a_testkit import flat_pack, pack_message, run, sdk_client, send
from taskpack.app.a2a import tokens
from taskpack.app.a2a.ledger import open_ledger
from taskpack.app.team.pg_store import PgStore

SERVE = ("serve", "--port", "0", "--blocking-timeout", "0.5")


def _serve(url: str, home: Path, machine: str) -> subprocess.Popen[str]:
    env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE=machine, TASKPACK_STORE=url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskpack.app.cli.main", *SERVE],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc


@pytest.fixture
def two_servers(team_desk_url: str, tmp_path: Path) -> Iterator[list[str]]:
    procs = [_serve(team_desk_url, tmp_path / f"srv{n}", f"server-{n}") for n in range(2)]
    try:
        urls = []
        for p in procs:
            assert p.stdout is not None and p.stderr is not None
            line = p.stdout.readline()
            assert "Serving A2A" in line, line + p.stderr.read()
            urls.append(line.rsplit(" ", 1)[-1].strip())
        yield urls
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
            p.communicate(timeout=30)


def test_two_servers_share_idempotency_and_a_token_added_elsewhere(
    team_desk_url: str, two_servers: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ring = tokens.MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(ring)
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    try:
        with open_ledger(tmp_path / "admin") as ledger:  # a third process's ledger: the team's
            token = tokens.add_token(ledger, "agent-1").token  # after both servers started
    finally:
        keyring.set_keyring(previous)
    packs = [
        flat_pack(
            tmp_path / f"job-{n}.taskpack.json", title=f"job {n}", sender=f"TP-2222-22{n:02d}"
        )
        for n in range(8)
    ]

    async def go() -> list[list[str]]:
        async with (
            sdk_client(two_servers[0], token, timeout=120) as a,
            sdk_client(two_servers[1], token, timeout=120) as b,
        ):

            async def both(n: int) -> list[str]:
                msg = pack_message(packs[n], message_id=f"msg-{n}")
                tasks = await asyncio.gather(send(a, msg), send(b, msg), send(a, msg), send(b, msg))
                return [t.id for t in tasks]

            return list(await asyncio.gather(*(both(n) for n in range(8))))

    answered = run(go())
    for ids in answered:
        assert len(set(ids)) == 1, ids  # one task for one message, whichever server answered
    assert len({ids[0] for ids in answered}) == 8
    with PgStore(team_desk_url, home=tmp_path / "t", who="t@t", listen=False) as team:
        assert team.count() == 8


def test_two_team_servers_land_one_payload_per_message_id(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two payloads under one messageId at once, one to each server: one lands whole, the
    other gets 409 with nothing landed (no orphan passport, no refused receipt's answer)."""
    from claim_race import serve_processes
    from taskpack.app.desk import Desk
    from test_a2a_message_claims import check_handoffs, check_receipts

    ring = tokens.MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(ring)
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    desk = Desk(tmp_path / "here", "here", actor="ana")
    try:
        with open_ledger(tmp_path / "here") as ledger:
            token = tokens.add_token(ledger, "alice").token
            with serve_processes(tmp_path, store=team_desk_url) as urls:
                check_handoffs(urls, token, tmp_path, desk)
                monkeypatch.delenv("TASKPACK_STORE")  # the peers answering are desks of their own
                check_receipts(urls, token, tmp_path, desk, ledger, rounds=3)  # type: ignore[arg-type]
    finally:
        desk.close()
        keyring.set_keyring(previous)
