"""4 principals each send 50 distinct messages, each message 4 times, all 800 requests
at once: exactly 200 passports, every duplicate answered with the prior Task, no 5xx,
nothing lost or doubled.

The endpoint runs as a real `taskpack serve` process (the clients here and the server
there then use both cores), and again as `taskpack serve --processes 2` (two processes
on one address and one desk: the copies of one message race each other across them); it
needs no keyring — only the token index in its home.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a_testkit import flat_pack, issue, pack_message, run, sdk_client, send

PRINCIPALS = 4
MESSAGES = 50
COPIES = 4


@pytest.fixture(params=[1, 2], ids=["1 process", "2 processes"])
def serve_process(desk_b, request) -> Iterator[str]:
    env = dict(os.environ, TASKPACK_HOME=str(desk_b.home), TASKPACK_MACHINE=desk_b.machine)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "taskpack.app.cli.main",
            "serve",
            "--port",
            "0",
            "--blocking-timeout",
            "0.5",
            "--processes",
            str(request.param),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()  # "Serving A2A 1.0 (HTTP+JSON) for this desk at URL"
        assert "Serving A2A" in line, line + proc.stderr.read()
        yield line.rsplit(" ", 1)[-1].strip()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover - a hung server fails the test
            proc.kill()
            raise
        assert proc.returncode == 0, err
        assert "Stopped." in out


def test_800_concurrent_sends_make_exactly_200_passports(desk_b, serve_process, tmp_path):
    url = serve_process
    tokens = {f"agent-{p}": issue(desk_b, f"agent-{p}") for p in range(PRINCIPALS)}
    packs = {
        (who, n): flat_pack(
            tmp_path / f"{who}-{n}.taskpack.json",
            title=f"{who} job {n}",
            sender="TP-2222-2222",
            asks=((f"{who} question {n}?", "yes or no"),),
        )
        for who in tokens
        for n in range(MESSAGES)
    }
    jobs = [(who, n) for who in tokens for n in range(MESSAGES) for _ in range(COPIES)]
    random.Random(7).shuffle(jobs)
    answers: dict[tuple[str, int], list[str]] = defaultdict(list)
    failures: list[str] = []

    async def go():
        async with contextlib.AsyncExitStack() as stack:
            clients = {
                who: await stack.enter_async_context(sdk_client(url, token, timeout=120))
                for who, token in tokens.items()
            }

            async def one(who: str, n: int) -> None:
                msg = pack_message(packs[(who, n)], message_id=f"{who}-msg-{n}")
                try:
                    task = await send(clients[who], msg)
                except Exception as exc:  # collected: the assertion below says which
                    failures.append(f"{who}/{n}: {type(exc).__name__}: {exc}")
                    return
                answers[(who, n)].append(task.id)

            await asyncio.gather(*(one(who, n) for who, n in jobs))
            listed = {}
            for who, client in clients.items():
                page = await client.list_tasks(pb.ListTasksRequest(page_size=100))
                listed[who] = {t.id for t in page.tasks}
            return listed

    listed = run(go())
    assert failures == []
    assert len(answers) == PRINCIPALS * MESSAGES
    for key, ids in answers.items():
        assert len(ids) == COPIES and len(set(ids)) == 1, f"{key} was answered with {ids}"
    task_ids = {ids[0] for ids in answers.values()}
    assert len(task_ids) == PRINCIPALS * MESSAGES  # nothing doubled, nothing merged
    assert desk_b.store.count() == PRINCIPALS * MESSAGES  # nothing lost
    for who in tokens:
        mine = {answers[(who, n)][0] for n in range(MESSAGES)}
        assert listed[who] == mine  # each principal sees its 50, and only those


def test_no_5xx_under_concurrency_when_checked_raw(desk_b, serve, tmp_path):
    """The same storm over raw HTTP, to see status codes the SDK client would hide."""
    server = serve(desk_b)
    token = issue(desk_b, "raw")
    from a2a_testkit import send_body

    bodies = [
        send_body(flat_pack(tmp_path / f"r{n}.taskpack.json", title=f"raw {n}"), f"raw-{n}")
        for n in range(20)
    ]

    async def go():
        limits = httpx.Limits(max_connections=64)
        headers = {"Authorization": f"Bearer {token}", "A2A-Version": "1.0"}
        async with httpx.AsyncClient(headers=headers, limits=limits, timeout=60) as http:
            calls = [
                http.post(f"{server.url}/message:send", json=b) for b in bodies for _ in range(4)
            ]
            return await asyncio.gather(*calls)

    responses = run(go())
    assert sorted({r.status_code for r in responses}) == [200]
    ids = defaultdict(set)
    for n, r in enumerate(responses):
        ids[n // 4].add(r.json()["task"]["id"])
    assert all(len(v) == 1 for v in ids.values()) and desk_b.store.count() == 20
