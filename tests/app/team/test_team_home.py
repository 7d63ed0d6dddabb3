"""On a team desk TASKPACK_HOME holds only what belongs to one machine: after
a session that lands a pack, answers its ask and serves it over A2A (a handoff sent in,
its luggage and its receipt downloaded, the receipt again from a second server process),
the homes have their machine's settings and drafts, and nothing of the desk's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import keyring
import pytest
from a2a_testkit import V1, send_body
from taskpack.app.a2a import tokens
from taskpack.app.a2a.handler import Limits
from taskpack.app.a2a.ledger import open_ledger
from taskpack.app.a2a.serve import A2AServer
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from team_helpers import sender_pack

#: what a team desk's home may hold: this machine's own files
MACHINE_FILES = {"settings.json", "drafts.json"}


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(tokens.MemoryKeyring())
    try:
        yield
    finally:
        keyring.set_keyring(previous)


def files_in(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if not p.is_dir())


def test_a_team_desk_session_leaves_only_this_machines_files_in_its_home(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from a2a_testkit import flat_pack

    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    home = tmp_path / "home"
    desk = Desk(home, "alpha", actor="ana", settings=Settings(gate_allow=["*"]))
    landed = desk.land(sender_pack(tmp_path, luggage=b"bytes" * 100)).passport
    [item] = desk.luggage(landed.id)
    with desk.open_luggage(landed.id, item.name) as f:
        assert f.read() == b"bytes" * 100

    server = A2AServer(desk, "127.0.0.1", 0, poll_interval=0.2, limits=Limits(blocking_timeout=0.5))
    server.start()
    try:
        with open_ledger(home, desk.settings.store) as ledger:
            token = tokens.add_token(ledger, "agent-1").token
        auth = {**V1, "Authorization": f"Bearer {token}"}
        handoff = flat_pack(
            tmp_path / "job.taskpack.json", title="Budget", luggage={"brief.txt": b"the brief\n"}
        )
        sent = httpx.post(
            f"{server.url}/message:send", json=send_body(handoff, "m-1"), headers=auth, timeout=60
        )
        assert sent.status_code == 200, sent.text
        task_id = sent.json()["task"]["id"]
        brief = httpx.get(f"{server.url}/tasks/{task_id}/artifacts/luggage-1", headers=auth)
        assert brief.content == b"the brief\n"
        desk.answer(task_id, "a1", "40 000 €")
        receipt = None
        for _ in range(300):  # the endpoint packs the receipt soon after the answer
            receipt = httpx.get(f"{server.url}/tasks/{task_id}/artifacts/receipt", headers=auth)
            if receipt.status_code == 200:
                break
            time.sleep(0.1)
        assert receipt is not None and receipt.status_code == 200, receipt
        assert receipt.content.startswith(b"PK")
        # the receipt is the desk's: another server process of it serves the same bytes
        other = Desk(tmp_path / "home-2", "beta", actor="wei", settings=Settings())
        second = A2AServer(other, "127.0.0.1", 0, poll_interval=0.2, limits=Limits())
        second.start()
        try:
            again = httpx.get(f"{second.url}/tasks/{task_id}/artifacts/receipt", headers=auth)
        finally:
            second.stop()
            other.close()
        assert again.status_code == 200 and again.content == receipt.content
    finally:
        server.stop()
        desk.close()

    assert set(files_in(home)) <= MACHINE_FILES, files_in(home)
    assert set(files_in(tmp_path / "home-2")) <= MACHINE_FILES, files_in(tmp_path / "home-2")
