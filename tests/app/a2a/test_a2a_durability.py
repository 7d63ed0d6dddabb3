"""Durable state survives a restart: tasks, their principals and contexts, the dedupe
record, the tokens and the published receipt are all on disk."""

from __future__ import annotations

import asyncio

import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import TaskNotFoundError
from a2a_testkit import ext, flat_pack, issue, make_desk, pack_message, run, sdk_client, send
from taskpack.app.a2a.errors import DuplicateMessageIdError


def test_a_restart_keeps_tasks_dedupe_tokens_and_receipts(tmp_path, serve):
    desk = make_desk(tmp_path, "desk-b")
    server = serve(desk)
    alice, bob = issue(desk, "alice"), issue(desk, "bob")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="Survives")
    other = flat_pack(tmp_path / "o.taskpack.json", title="Other", sender="TP-OOOO-OOOO")

    async def before():
        async with sdk_client(server.url, alice) as client:
            task = await send(client, pack_message(pack, message_id="m-keep"))
            desk.answer(task.id, "a1", "kept")
            for _ in range(300):  # the receipt is published in the background
                got = await client.get_task(pb.GetTaskRequest(id=task.id))
                if any(a.artifact_id == "receipt" for a in got.artifacts):
                    return got
                await asyncio.sleep(0.05)
            raise AssertionError("no receipt before the restart")

    first = run(before())
    server.stop()
    desk.close()

    desk = make_desk(tmp_path, "desk-b")  # a new process, as far as the desk can tell
    try:
        server = serve(desk)

        async def after():
            async with sdk_client(server.url, alice) as client:
                got = await client.get_task(pb.GetTaskRequest(id=first.id))
                again = await send(client, pack_message(pack, message_id="m-keep"))
                with pytest.raises(DuplicateMessageIdError):
                    await send(client, pack_message(other, message_id="m-keep"))
                listed = await client.list_tasks(pb.ListTasksRequest(context_id=first.context_id))
            async with sdk_client(server.url, bob) as client:
                with pytest.raises(TaskNotFoundError):
                    await client.get_task(pb.GetTaskRequest(id=first.id))
            return got, again, listed

        got, again, listed = run(after())
    finally:
        desk.close()
    assert got.id == again.id == first.id and got.context_id == first.context_id
    assert [a.artifact_id for a in got.artifacts if a.artifact_id == "receipt"] == ["receipt"]
    assert ext(got)["receipt"]["content_digest"] == ext(first)["receipt"]["content_digest"]
    assert [t.id for t in listed.tasks] == [first.id]
