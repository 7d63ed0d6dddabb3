"""Returning: SSE streams show what the person does at the desk, and the receipt
appears as an artifact carrying the .taskpack file part."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import UnsupportedOperationError
from a2a_testkit import (
    V1,
    answered_handoff,
    ext,
    flat_pack,
    issue,
    pack_message,
    run,
    sdk_client,
    send,
    task_with_receipt,
    with_receipt,
)
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG
from taskpack.core.format.reading import open_pack

TS = pb.TaskState


def _answer_soon(
    desk, task_id: str, answers: dict[str, str], delay: float = 0.3
) -> threading.Thread:
    """The person at the desk answers the asks (in another thread, like the app would)."""

    def work() -> None:
        import time

        time.sleep(delay)
        for ask, text in answers.items():
            desk.answer(task_id, ask, text)

    t = threading.Thread(target=work)
    t.start()
    return t


def test_subscribe_sees_answers_then_the_receipt_artifact(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(
        tmp_path / "h.taskpack.json",
        title="Report",
        sender="TP-AAAA-AAAA",
        asks=(("Budget?", "a number"), ("Deadline?", "a date")),
    )

    async def go():
        async with sdk_client(server.url, token, streaming=True) as client:
            task = await send(client, pack_message(pack, message_id="m-1"), immediately=True)
            events = []
            answering = None
            stream = client.subscribe(pb.SubscribeToTaskRequest(id=task.id))

            async def follow():
                nonlocal answering
                async for event in stream:
                    events.append(event)
                    if event.HasField("task") and answering is None:
                        answering = _answer_soon(
                            desk_b, task.id, {"a1": "12000 EUR", "a2": "2026-09-01"}
                        )
                    if (
                        event.HasField("artifact_update")
                        and event.artifact_update.artifact.artifact_id == "receipt"
                    ):
                        return

            await asyncio.wait_for(follow(), 20)
            answering.join()
            return task, events

    task, events = run(go())
    assert (
        events[0].HasField("task") and events[0].task.status.state == TS.TASK_STATE_INPUT_REQUIRED
    )
    updates = [e.status_update for e in events if e.HasField("status_update")]
    assert updates, "an answer at the desk must reach the subscriber"
    statuses = [ext(u)["asks"] for u in updates]
    assert any(a[0]["status"] == "answered" for a in statuses)
    assert updates[-1].status.state == TS.TASK_STATE_SUBMITTED  # no open ask; held for the owner
    [receipt] = [
        e.artifact_update.artifact
        for e in events
        if e.HasField("artifact_update") and e.artifact_update.artifact.artifact_id == "receipt"
    ]
    part = receipt.parts[0]
    assert part.filename.endswith(".taskpack") and part.media_type == MEDIA_BAG
    out = tmp_path / part.filename
    out.write_bytes(part.raw)
    with open_pack(out) as opened:
        assert opened.pack.kind == "receipt"
        chain = opened.pack.lineage.chain
        assert chain[-2] == "TP-AAAA-AAAA@1" and chain[-1].startswith(task.id + "@")
        assert [(a.id, a.answer) for a in opened.pack.asks] == [
            ("a1", "12000 EUR"),
            ("a2", "2026-09-01"),
        ]


def test_get_task_carries_the_receipt_and_the_subscribe_route_answers_get_and_post(
    desk_b, serve, tmp_path
):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="R")

    async def go():
        async with sdk_client(server.url, token) as client:
            task = await send(client, pack_message(pack, message_id="m"))
            desk_b.answer(task.id, "a1", "42 EUR")
            return await with_receipt(client, task.id)

    got = run(go())
    meta = ext(got)
    assert meta["receipt"]["content_digest"] and meta["asks"][0]["answer"] == "42 EUR"
    headers = {**V1, "Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION_URI}
    for method in ("GET", "POST"):
        with httpx.stream(
            method, f"{server.url}/tasks/{got.id}:subscribe", headers=headers, timeout=10
        ) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            assert r.headers["a2a-extensions"] == EXTENSION_URI
            for line in r.iter_lines():
                if line.startswith("data:"):
                    assert '"task"' in line and got.id in line
                    break


def test_a_handoff_whose_asks_came_answered_has_its_receipt_without_a_change(
    desk_b, serve, tmp_path
):
    """The receipt falls due at the landing itself: nobody at the desk touches the task."""
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    got = task_with_receipt(server.url, token, answered_handoff(tmp_path / "h.taskpack.json"))
    assert ext(got)["receipt"]["content_digest"]
    assert "A receipt (version" in got.status.message.parts[0].text


def test_message_stream_gives_the_task_and_ends_when_it_needs_input(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="S")

    async def go():
        async with sdk_client(server.url, token, streaming=True) as client:
            request = pb.SendMessageRequest(message=pack_message(pack, message_id="m-s"))
            return [e async for e in client.send_message(request)]

    events = run(go())
    assert len(events) == 1 and events[0].task.status.state == TS.TASK_STATE_INPUT_REQUIRED
    assert desk_b.store.count() == 1


def test_a_move_at_the_desk_streams_and_the_end_closes_the_stream(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="M", asks=())

    async def go():
        async with sdk_client(server.url, token, streaming=True) as client:
            task = await send(client, pack_message(pack, message_id="m"), immediately=True)
            assert task.status.state == TS.TASK_STATE_SUBMITTED

            def owner() -> None:
                import time

                time.sleep(0.2)
                desk_b.move(task.id, "routed")
                desk_b.move(task.id, "rejected")

            t = threading.Thread(target=owner)
            events = []

            async def follow():
                async for event in client.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
                    events.append(event)
                    if len(events) == 1:
                        t.start()

            await asyncio.wait_for(follow(), 20)  # the stream ends by itself when the task ends
            t.join()
            with pytest.raises(UnsupportedOperationError):
                async for _ in client.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
                    pass
            return events

    events = run(go())
    states = [e.status_update.status.state for e in events if e.HasField("status_update")]
    assert states[-1] == TS.TASK_STATE_REJECTED


def test_a_change_made_by_another_process_reaches_the_stream(desk_b, desks, serve, tmp_path):
    """The CLI (or the app) may change the store while `taskpack serve` runs elsewhere:
    a second Desk on the same home stands for that other process here."""
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="P")
    from a2a_testkit import make_desk

    other = make_desk(tmp_path, "desk-b")  # same home, its own connection and subscribers

    async def go():
        async with sdk_client(server.url, token, streaming=True) as client:
            task = await send(client, pack_message(pack, message_id="m"), immediately=True)
            events = []

            async def follow():
                async for event in client.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
                    events.append(event)
                    if len(events) == 1:
                        await asyncio.to_thread(other.answer, task.id, "a1", "from the CLI")
                    if event.HasField("status_update"):
                        return

            await asyncio.wait_for(follow(), 20)
            return events

    try:
        events = run(go())
    finally:
        other.close()
    assert ext(events[-1].status_update)["asks"][0]["answer"] == "from the CLI"
