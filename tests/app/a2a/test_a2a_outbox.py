"""The A2A endpoint's part of the outbox ledger: the receipt it packs for a task that came
in over HTTP is recorded on B's desk as sent via a2a, to the handoff's sender."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from a2a_testkit import handoff
from taskpack.app.cli import main as cli


def test_the_receipt_the_endpoint_packs_is_in_its_desks_outbox(
    desks, serve, monkeypatch, capsys, tmp_path: Path
) -> None:
    def taskpack(desk, *args: str, stdin: str | None = None) -> str:
        monkeypatch.setenv("TASKPACK_HOME", str(desk.home))
        monkeypatch.setenv("TASKPACK_MACHINE", desk.machine)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        assert cli.main(list(args)) == 0
        return capsys.readouterr().out

    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_b = serve(desk_b)
    token = taskpack(desk_b, "token", "add", "desk-a").strip()
    taskpack(
        desk_a, "token", "add", "desk-b", "--remote", "--url", server_b.url, stdin=token + "\n"
    )
    asker, pack = handoff(desk_a, tmp_path / "report.taskpack", asks=1)
    sent = json.loads(taskpack(desk_a, "send", str(pack), "--to", server_b.url, "--json"))
    landed = sent["task_id"]
    assert desk_b.outbox() == []  # landing writes nothing out
    desk_b.answer(landed, "a1", "yes, Friday")
    fetched = json.loads(taskpack(desk_a, "fetch-receipt", asker, "--wait", "20", "--json"))
    assert fetched[0]["merged"] is True
    [entry] = desk_b.outbox(passport_id=landed)
    assert (entry.kind, entry.via, entry.encoding) == ("receipt", "a2a", "bag")
    assert entry.to is not None and entry.to.endswith("(over A2A)")
    assert desk_a.machine in entry.to
    assert (
        entry.path and Path(entry.path).is_file() and entry.stub["asks"][0]["status"] == "answered"
    )
