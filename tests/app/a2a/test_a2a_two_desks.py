"""Two desks on one machine (two homes, two ports): desk A sends a handoff to desk B
over A2A, B answers the asks, A receives the receipt over A2A and the answers merge.

Desk A is driven through the `taskpack` command (send, fetch-receipt, tokens); desk B
is the app's side: its endpoint runs in-process and its person answers in the desk.
"""

from __future__ import annotations

import io
import json
import sys

import pytest
from a2a_testkit import handoff, issue
from taskpack.app.cli import main as cli


@pytest.fixture
def as_desk(monkeypatch, capsys):
    """Run `taskpack ARGS` in-process as the desk whose home is given; returns stdout."""

    def run(desk, *args: str, stdin: str | None = None) -> str:
        monkeypatch.setenv("TASKPACK_HOME", str(desk.home))
        monkeypatch.setenv("TASKPACK_MACHINE", desk.machine)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    return run


def test_a_handoff_goes_to_b_over_a2a_and_its_receipt_comes_home_to_a(
    desks, serve, as_desk, tmp_path
):
    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_a, server_b = serve(desk_a), serve(desk_b)
    assert server_a.port != server_b.port

    # B's owner makes a token for A; A keeps it for B's address (read from stdin)
    token = as_desk(desk_b, "token", "add", "desk-a").strip()
    as_desk(desk_a, "token", "add", "desk-b", "--remote", "--url", server_b.url, stdin=token + "\n")
    listed = json.loads(as_desk(desk_a, "token", "list", "--json"))
    assert [(t["name"], t["kind"]) for t in listed] == [("desk-b", "remote")]
    assert token not in json.dumps(listed)  # the index never holds the secret

    # A packs a handoff with two asks and sends it to B
    asker, pack = handoff(desk_a, tmp_path / "report.taskpack", asks=2)
    assert desk_a.get(asker).state == "waiting"  # it sent open asks: it waits for answers
    sent = json.loads(as_desk(desk_a, "send", str(pack), "--to", server_b.url, "--json"))
    assert sent["state"] == "TASK_STATE_INPUT_REQUIRED" and sent["local_passport"] == asker
    landed = desk_b.get(sent["task_id"])
    assert landed.lineage.chain[-1].startswith(asker + "@")  # B minted its own id, kept A's

    # nothing to fetch yet
    early = json.loads(as_desk(desk_a, "fetch-receipt", asker, "--json"))
    assert early[0]["merged"] is False and "no receipt yet" in early[0]["note"]

    # B's person answers both asks at B's desk
    desk_b.answer(landed.id, "a1", "yes, Friday")
    desk_b.answer(landed.id, "a2", "use the 2025 template")

    # A brings the receipt home over A2A (waiting on the stream until it appears)
    fetched = json.loads(as_desk(desk_a, "fetch-receipt", asker, "--wait", "20", "--json"))
    assert fetched[0]["merged"] is True and fetched[0]["answered"] == ["a1", "a2"]
    home = desk_a.get(asker)
    assert [(a.status, a.answer) for a in home.asks] == [
        ("answered", "yes, Friday"),
        ("answered", "use the 2025 template"),
    ]
    assert home.state == "working"  # every ask it waited on is answered
    assert [e.event for e in desk_a.history(asker)].count("merged") == 1

    # fetching again is harmless: the same receipt is already merged
    again = json.loads(as_desk(desk_a, "fetch-receipt", asker, "--json"))
    assert again[0]["merged"] is True and again[0]["already"] is True


def test_a_receipt_can_also_be_sent_to_the_desk_that_asked(desks, serve, as_desk, tmp_path):
    """The other direction: A sends its handoff to B over A2A; B *sends* the receipt back
    to A's endpoint with the token A gave it; it merges into the asker."""
    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_a, server_b = serve(desk_a), serve(desk_b)
    for_a = as_desk(desk_b, "token", "add", "desk-a").strip()
    as_desk(desk_a, "token", "add", "desk-b", "--remote", "--url", server_b.url, stdin=for_a)
    for_b = as_desk(desk_a, "token", "add", "desk-b").strip()  # the same name: the peer
    as_desk(desk_b, "token", "add", "desk-a", "--remote", "--url", server_a.url, stdin=for_b)

    asker, pack = handoff(desk_a, tmp_path / "h.taskpack", asks=1)
    sent = json.loads(as_desk(desk_a, "send", str(pack), "--to", server_b.url, "--json"))
    desk_b.answer(sent["task_id"], "a1", "done")
    receipt = tmp_path / "r.taskpack"
    desk_b.pack(sent["task_id"], receipt, kind="receipt")

    back = json.loads(as_desk(desk_b, "send", str(receipt), "--to", server_a.url, "--json"))
    assert back["task_id"] == asker  # the Task is the passport the receipt answered
    assert desk_a.get(asker).asks[0].answer == "done"


def test_a_receipt_pushed_for_a_passport_handed_over_by_file_is_not_found(
    desks, serve, as_desk, monkeypatch, capsys, tmp_path
):
    """A handed its pack to B by file, not over A2A: a receipt B pushes has no record
    to merge against here, and is refused as an unknown task (land it by file instead)."""
    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_a = serve(desk_a)
    asker, pack = handoff(desk_a, tmp_path / "h.taskpack", asks=1)
    landed = desk_b.land(pack).passport
    desk_b.answer(landed.id, "a1", "done")
    receipt = tmp_path / "r.taskpack"
    desk_b.pack(landed.id, receipt, kind="receipt")
    token = as_desk(desk_a, "token", "add", "desk-b").strip()
    as_desk(desk_b, "token", "add", "desk-a", "--remote", "--url", server_a.url, stdin=token)

    monkeypatch.setenv("TASKPACK_HOME", str(desk_b.home))
    monkeypatch.setenv("TASKPACK_MACHINE", desk_b.machine)
    capsys.readouterr()
    assert cli.main(["send", str(receipt), "--to", server_a.url]) != 0
    assert f"Task {asker} not found" in capsys.readouterr().err
    assert desk_a.get(asker).asks[0].status == "open"


def test_a_receipt_offered_by_url_is_downloaded_as_a_stream_and_merged(desks, serve, tmp_path):
    """A receipt too big to inline comes as a URL part: it is downloaded into a stream
    (memory, spilling to a temporary file only past 8 MiB) and merged from it."""
    from taskpack.app.a2a.client import fetch_receipts, send_file
    from taskpack.app.a2a.handler import Limits
    from taskpack.app.a2a.ledger import A2AStore

    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_b = serve(desk_b, limits=Limits(blocking_timeout=0.5, inline_receipt=0))
    token = issue(desk_b, "desk-a")
    asker, pack = handoff(desk_a, tmp_path / "h.taskpack", asks=1)
    with A2AStore(desk_a.home) as store:
        sent = send_file(desk_a, store, pack, server_b.url, token=token)
        desk_b.answer(sent.task_id, "a1", "by url")
        [row] = store.sent(local_passport=asker)
        [result] = fetch_receipts(desk_a, store, [row], token_for=lambda _r: token, wait=20)
    assert result.error is None and result.merged, result
    assert desk_a.get(asker).asks[0].answer == "by url"
    assert [p.name for p in (desk_a.home / "a2a").iterdir() if p.name.startswith("receipt")] == []
