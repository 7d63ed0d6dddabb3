"""A2A streams on a team desk follow what another process does, as it commits: the
hub listens to the desk's change feed, so a subscriber on one server sees an answer
given on another machine without waiting for a poll (here the poll never comes)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from a2a.types import a2a_pb2 as pb
from a2a_testkit import ext, flat_pack, pack_message, run, sdk_client, send
from taskpack.app.a2a import tokens
from taskpack.app.a2a.ledger import open_ledger
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings

TS = pb.TaskState


def test_a_stream_hears_an_answer_given_in_another_process(
    team_desk_url: str, serve: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    served = Desk(tmp_path / "srv", "srv", actor="srv", settings=Settings(gate_allow=["*"]))
    elsewhere = Desk(tmp_path / "bea", "beta", actor="bea", settings=Settings(gate_allow=["*"]))
    try:
        server = serve(served, poll_interval=3600.0)  # no poll: only the feed can tell it
        with open_ledger(served.home) as ledger:  # the team desk's tables
            token = tokens.add_token(ledger, "alice").token
        pack = flat_pack(
            tmp_path / "h.taskpack.json",
            title="Report",
            sender="TP-AAAA-AAAA",
            asks=(("Budget?", "a number"),),
        )

        async def go() -> list[Any]:
            async with sdk_client(server.url, token, streaming=True) as client:
                task = await send(client, pack_message(pack, message_id="m-1"), immediately=True)
                stream = client.subscribe(pb.SubscribeToTaskRequest(id=task.id))
                events: list[Any] = []
                answering: threading.Thread | None = None

                async def follow() -> None:
                    nonlocal answering
                    async for event in stream:
                        events.append(event)
                        if event.HasField("task") and answering is None:
                            answering = threading.Thread(
                                target=elsewhere.answer, args=(task.id, "a1", "12000 EUR")
                            )
                            answering.start()
                        if event.HasField("status_update") and any(
                            a["status"] == "answered" for a in ext(event.status_update)["asks"]
                        ):
                            return

                await asyncio.wait_for(follow(), 60)
                assert answering is not None
                answering.join()
                return events

        events = run(go())
        assert events[-1].HasField("status_update")
    finally:
        served.close()
        elsewhere.close()
