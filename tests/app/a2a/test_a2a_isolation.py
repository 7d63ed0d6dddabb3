"""Principal isolation under receipts, over real HTTP.

A receipt sent to this endpoint merges only into a passport that is a task of the
sending principal, or that this desk sent to that principal over A2A. Anything else —
another principal's task, a passport made at this desk, an id that does not exist — is
the same ``404 TASK_NOT_FOUND``, so a principal cannot learn which ids exist.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from a2a_testkit import V1, flat_pack, handoff, issue, send_body
from taskpack.app.a2a.ledger import A2AStore


def _post(url: str, token: str, path: Path, message_id: str) -> httpx.Response:
    return httpx.post(
        f"{url}/message:send",
        json=send_body(path, message_id),
        headers={**V1, "Authorization": f"Bearer {token}"},
        timeout=30,
    )


def _get(url: str, token: str, route: str) -> httpx.Response:
    return httpx.get(
        f"{url}{route}", headers={**V1, "Authorization": f"Bearer {token}"}, timeout=30
    )


def _answering_receipt(
    path: Path, target: str, *, answers: dict[str, str], what: str = "What is the budget?"
) -> Path:
    """A flat receipt whose chain ends [target@1, X@1], answering `answers`, with luggage."""
    flat_pack(
        path,
        title="Planted",
        kind="receipt",
        sender="TP-MMMM-MMMM",
        chain=[f"{target}@1", "TP-MMMM-MMMM@1"],
        luggage={"planted.txt": b"mallory was here\n"},
    )
    top = json.loads(path.read_text(encoding="utf-8"))
    top["passport"]["asks"] = [
        {
            "id": aid,
            "to": "peer",
            "what": what,
            "why": "",
            "accept": "",
            "status": "answered",
            "answer": text,
        }
        for aid, text in answers.items()
    ]
    path.write_text(json.dumps(top), encoding="utf-8")
    return path


def _not_found(response: httpx.Response, task_id: str) -> dict:
    assert response.status_code == 404, response.text
    body = response.json()["error"]
    assert body["details"][0]["reason"] == "TASK_NOT_FOUND"
    assert body["message"] == f"Task {task_id} not found"
    return body


def test_mallory_cannot_answer_alices_task_see_it_or_plant_luggage(desk_b, serve, tmp_path):
    server = serve(desk_b)
    alice, mallory = issue(desk_b, "alice"), issue(desk_b, "mallory")
    handoff_file = flat_pack(
        tmp_path / "h.taskpack.json", title="Alice's work", luggage={"brief.txt": b"secret\n"}
    )
    sent = _post(server.url, alice, handoff_file, "alice-1")
    assert sent.status_code == 200, sent.text
    task_id = sent.json()["task"]["id"] if "task" in sent.json() else sent.json()["id"]
    before = desk_b.get(task_id)
    luggage_before = [i.name for i in desk_b.luggage(task_id)]

    receipt = _answering_receipt(tmp_path / "r.taskpack.json", task_id, answers={"a1": "0 €"})
    refused = _post(server.url, mallory, receipt, "mallory-1")
    foreign = _not_found(refused, task_id)

    # the same answer as for an id that does not exist: nothing to probe
    unknown = _answering_receipt(tmp_path / "u.taskpack.json", "TP-9999-9999", answers={})
    missing = _not_found(_post(server.url, mallory, unknown, "mallory-2"), "TP-9999-9999")
    assert {k: v for k, v in foreign.items() if k != "message"} == {
        k: v for k, v in missing.items() if k != "message"
    }

    # mallory still cannot read alice's task or download her luggage
    _not_found(_get(server.url, mallory, f"/tasks/{task_id}"), task_id)
    assert _get(server.url, mallory, f"/tasks/{task_id}/artifacts/luggage-1").status_code == 404
    listed = _get(server.url, mallory, "/tasks")
    assert listed.status_code == 200 and listed.json().get("tasks", []) == []

    # nothing was planted or answered
    after = desk_b.get(task_id)
    assert [i.name for i in desk_b.luggage(task_id)] == luggage_before
    assert after.version == before.version
    assert [(a.status, a.answer) for a in after.asks] == [("open", None)]
    assert "merged" not in [e.event for e in desk_b.history(task_id)]
    # alice still sees her own task
    assert _get(server.url, alice, f"/tasks/{task_id}").status_code == 200


def test_a_receipt_cannot_move_a_passport_made_at_this_desk(desk_b, serve, tmp_path):
    server = serve(desk_b)
    mallory = issue(desk_b, "mallory")
    local, _ = handoff(desk_b, tmp_path / "out.taskpack", asks=1)  # handed out by file
    assert desk_b.get(local).state == "waiting"

    receipt = _answering_receipt(
        tmp_path / "r.taskpack.json", local, answers={"a1": "go ahead"}, what="Question 1?"
    )
    _not_found(_post(server.url, mallory, receipt, "m-local"), local)
    lp = desk_b.get(local)
    assert lp.state == "waiting"
    assert [(a.status, a.answer) for a in lp.asks] == [("open", None)]
    assert [i.name for i in desk_b.luggage(local)] == []


def test_a_receipt_merges_from_the_principal_the_handoff_was_sent_to_only(desks, serve, tmp_path):
    """The legitimate push: A sent its handoff to B over A2A naming B's principal at A;
    B pushes the receipt back. The same receipt from anyone else is not found."""
    from taskpack.app.a2a.client import send_file

    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    server_a, server_b = serve(desk_a), serve(desk_b)
    for_a_at_b = issue(desk_b, "desk-a")
    for_b_at_a, stranger = issue(desk_a, "desk-b"), issue(desk_a, "stranger")

    asker, pack = handoff(desk_a, tmp_path / "h.taskpack", asks=1)
    with A2AStore(desk_a.home) as store:
        result = send_file(desk_a, store, pack, server_b.url, token=for_a_at_b, peer="desk-b")
        assert store.sent_to("desk-b", asker) and not store.sent_to("stranger", asker)
    landed = result.task_id
    desk_b.answer(landed, "a1", "done")
    receipt = tmp_path / "r.taskpack"
    desk_b.pack(landed, receipt, kind="receipt")

    _not_found(_post(server_a.url, stranger, receipt, "r-1"), asker)
    assert desk_a.get(asker).asks[0].status == "open"

    merged = _post(server_a.url, for_b_at_a, receipt, "r-1")
    assert merged.status_code == 200, merged.text
    assert desk_a.get(asker).asks[0].answer == "done"
    # having merged once, the task is B's at A: B reads it, the stranger still cannot
    assert _get(server_a.url, for_b_at_a, f"/tasks/{asker}").status_code == 200
    _not_found(_get(server_a.url, stranger, f"/tasks/{asker}"), asker)


def test_a_received_pack_is_read_from_memory_never_written_to_disk_first(desk_b, serve, tmp_path):
    """the handler hands the desk a stream of the received bytes. With the
    old spool folder made impossible to write into, a send still lands."""
    server = serve(desk_b)
    alice = issue(desk_b, "alice")
    incoming = desk_b.home / "a2a" / "incoming"
    incoming.rmdir()
    incoming.write_bytes(b"")  # nothing can be written under it now (not even by root)
    pack = flat_pack(tmp_path / "h.taskpack.json", title="Streamed", luggage={"a.txt": b"a\n"})
    sent = _post(server.url, alice, pack, "stream-1")
    assert sent.status_code == 200, sent.text
    task_id = sent.json()["task"]["id"] if "task" in sent.json() else sent.json()["id"]
    assert [i.name for i in desk_b.luggage(task_id)] == ["a.txt"]
