"""More than one server process on one desk (`taskpack serve --processes N`): what one
process does, every process shows; one packs the receipts.

A process that serves beside the first is an `A2AServer(..., receipts=False)`; two
endpoints on two ports of one desk stand for two such processes here, so each test
knows which process it talks to (the kernel picks one for a real shared socket). The
800 concurrent sends of test_a2a_concurrency also run against `taskpack serve
--processes 2`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a_testkit import (
    answered_handoff,
    ext,
    flat_pack,
    issue,
    make_desk,
    pack_message,
    run,
    sdk_client,
    send,
    task_with_receipt,
)
from taskpack.app.a2a.serve import A2AServer
from taskpack.core.errors import TaskPackError, UsageError

pytestmark = pytest.mark.skipif(os.name != "posix", reason="several processes need POSIX")


@pytest.fixture
def pair(desk_b, serve, tmp_path):
    """(the endpoint that packs receipts, one that does not), on one desk."""
    first = serve(desk_b, shared=True)
    other_desk = make_desk(tmp_path, "desk-b")  # same home, its own connections
    try:
        yield first, serve(other_desk, receipts=False, poll_interval=0.02)
    finally:
        other_desk.close()


def _receipt_files(desk) -> list[str]:
    return sorted(p.name for p in (desk.home / "a2a" / "receipts").rglob("*") if p.is_file())


def test_a_receipt_packed_by_the_first_process_reaches_a_stream_in_another(desk_b, pair, tmp_path):
    first, other = pair
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="Report")

    async def go():
        async with sdk_client(other.url, token, streaming=True) as client:
            task = await send(client, pack_message(pack, message_id="m-1"), immediately=True)
            events = []

            async def follow():
                async for event in client.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
                    events.append(event)
                    if len(events) == 1:
                        threading.Thread(target=desk_b.answer, args=(task.id, "a1", "42")).start()
                    if (
                        event.HasField("artifact_update")
                        and event.artifact_update.artifact.artifact_id == "receipt"
                    ):
                        return

            await asyncio.wait_for(follow(), 20)
        async with sdk_client(first.url, token) as client:
            return task, events, await client.get_task(pb.GetTaskRequest(id=task.id))

    task, events, seen_by_first = run(go())
    receipt = events[-1].artifact_update.artifact
    assert receipt.parts[0].filename == f"{task.id}-receipt-v3.taskpack"
    assert ext(seen_by_first)["receipt"]["content_digest"]
    assert [a.artifact_id for a in seen_by_first.artifacts][-1] == "receipt"
    assert _receipt_files(desk_b) == [receipt.parts[0].filename]
    assert len(desk_b.outbox(passport_id=task.id)) == 1  # packed once, by one process


def test_a_handoff_landed_by_another_process_gets_its_receipt_from_the_first(
    desk_b, pair, tmp_path
):
    _first, other = pair
    token = issue(desk_b, "alice")
    got = task_with_receipt(other.url, token, answered_handoff(tmp_path / "h.taskpack.json"))
    assert "A receipt (version" in got.status.message.parts[0].text
    assert len(desk_b.outbox(passport_id=got.id)) == 1


def test_processes_serve_one_address_and_stop_together(desk_b, serve, tmp_path):
    server = serve(desk_b, processes=2)
    [pid] = server.worker_pids
    os.kill(pid, 0)  # alive: serving beside this one
    token = issue(desk_b, "alice")
    packs = [flat_pack(tmp_path / f"p{n}.taskpack.json", title=f"job {n}") for n in range(8)]

    async def one(n: int) -> pb.Task:
        async with sdk_client(server.url, token) as client:  # a connection of its own
            return await send(client, pack_message(packs[n], message_id=f"m-{n}"))

    async def go():
        return await asyncio.gather(*(one(n) for n in range(8)))

    tasks = run(go())
    assert len({t.id for t in tasks}) == 8 and desk_b.store.count() == 8
    server.stop()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def _served_by(pid: int, port: int) -> int:
    """How many open connections to `port` process `pid` serves (Linux: /proc)."""
    ours = set()
    with open("/proc/net/tcp") as f:
        for line in f.read().splitlines()[1:]:
            fields = line.split()
            local_port, state, inode = int(fields[1].split(":")[1], 16), fields[3], fields[9]
            if local_port == port and state == "01":  # an established connection's server end
                ours.add(f"socket:[{inode}]")
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            held += os.readlink(f"/proc/{pid}/fd/{fd}") in ours
    return held


@pytest.mark.skipif(not os.path.isfile("/proc/net/tcp"), reason="reads /proc")
def test_kept_alive_senders_are_dealt_out_evenly_over_the_processes(desk_b, serve):
    """Eight senders that keep their connections: four to each of two processes (the
    kernel's SO_REUSEPORT hashing gave seven to one now and then)."""
    server = serve(desk_b, processes=2)
    [pid] = server.worker_pids
    token = issue(desk_b, "alice")
    clients = [
        httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"})
        for _ in range(8)
    ]
    try:
        for client in clients:  # each connection opened and served once, then kept
            assert client.get("/.well-known/agent-card.json").status_code == 200
        counts = sorted((_served_by(os.getpid(), server.port), _served_by(pid, server.port)))
    finally:
        for client in clients:
            client.close()
    assert counts == [4, 4]


def _gone(pid: int) -> bool:
    """Ended (a zombie nobody reaped counts: it serves nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads /proc")
def test_a_process_whose_first_process_is_killed_stops_by_itself(desk_b):
    env = dict(os.environ, TASKPACK_HOME=str(desk_b.home), TASKPACK_MACHINE=desk_b.machine)
    argv = [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0"]
    proc = subprocess.Popen([*argv, "--processes", "2"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert "Serving A2A" in proc.stdout.readline()
        with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
            [child] = [int(pid) for pid in f.read().split()]
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    for _ in range(200):
        if _gone(child):
            break
        time.sleep(0.05)
    assert _gone(child)


def test_several_processes_are_refused_where_they_cannot_share_the_socket(
    desk_b, serve, monkeypatch
):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(UsageError, match="more than one server process needs"):
        serve(desk_b, processes=2)


def test_a_process_that_does_not_start_is_one_sentence_and_nothing_keeps_serving(
    desk_b, monkeypatch
):
    server = A2AServer(desk_b, "127.0.0.1", 0, processes=2)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # the next process dies at once
    with pytest.raises(TaskPackError, match=r"another server process did not start \(exit"):
        server.start()
    assert not server.running and server.worker_pids == []


def test_a_port_another_server_holds_is_refused_with_processes_or_without(desk_b, serve):
    single = serve(desk_b)
    with pytest.raises(OSError):
        A2AServer(desk_b, "127.0.0.1", single.port, processes=2).start()
    single.stop()
    group = serve(desk_b, processes=2)
    with pytest.raises(OSError):
        A2AServer(desk_b, "127.0.0.1", group.port).start()
    with pytest.raises(OSError):
        A2AServer(desk_b, "127.0.0.1", group.port, processes=2).start()
