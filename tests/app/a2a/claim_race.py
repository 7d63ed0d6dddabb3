"""Two different payloads under one messageId, sent at the same moment to two real
`taskpack serve` processes on one desk (SQLite home or team database): the race of a
(principal, messageId) claim, over real HTTP."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
from a2a_testkit import V1, send_body


@contextmanager
def serve_processes(home: Path, *, n: int = 2, store: str | None = None) -> Iterator[list[str]]:
    """`n` `taskpack serve` processes on the desk at `home` (or the team desk `store`,
    each then with a home of its own); yields their URLs."""
    procs = []
    for k in range(n):
        env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE=f"server-{k}")
        env.pop("TASKPACK_STORE", None)
        if store is not None:
            env.update(TASKPACK_HOME=str(home / f"srv{k}"), TASKPACK_STORE=store)
        argv = [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0"]
        procs.append(
            subprocess.Popen(
                [*argv, "--blocking-timeout", "0.2"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
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
            p.communicate(timeout=60)


def race(
    urls: Sequence[str], token: str, rounds: Sequence[tuple[str, Path, Path]]
) -> list[list[httpx.Response]]:
    """For each (messageId, pack one, pack two): pack one to the first server and pack two
    to the second at the same moment; the two responses of each round, in that order."""

    async def go() -> list[list[httpx.Response]]:
        headers = {**V1, "Authorization": f"Bearer {token}"}
        async with (
            httpx.AsyncClient(base_url=urls[0], headers=headers, timeout=120) as a,
            httpx.AsyncClient(base_url=urls[1], headers=headers, timeout=120) as b,
        ):
            for client in (a, b):  # connections open before the race starts
                assert (await client.get("/.well-known/agent-card.json")).status_code == 200
            out = []
            for message_id, one, two in rounds:
                bodies = send_body(one, message_id), send_body(two, message_id)
                out.append(
                    list(
                        await asyncio.gather(
                            a.post("/message:send", json=bodies[0]),
                            b.post("/message:send", json=bodies[1]),
                        )
                    )
                )
            return out

    return asyncio.run(go())


def task_id(response: httpx.Response) -> str:
    body = response.json()
    return str((body.get("task") or body)["id"])


def one_won(responses: Sequence[httpx.Response]) -> tuple[int, httpx.Response]:
    """(index of the payload that landed, its response): the other was refused with 409
    DUPLICATE_MESSAGE_ID — never 200 twice, never a 400 or 500."""
    codes = [r.status_code for r in responses]
    assert sorted(codes) == [200, 409], [r.text[:300] for r in responses]
    loser = responses[codes.index(409)]
    assert loser.json()["error"]["details"][0]["reason"] == "DUPLICATE_MESSAGE_ID", loser.text
    winner = codes.index(200)
    return winner, responses[winner]
