"""The lifecycle → A2A state table, and the edges of the endpoint's surface."""

from __future__ import annotations

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import InvalidParamsError
from a2a_testkit import V1, flat_pack, issue, pack_message, run, sdk_client, send_body
from taskpack.app.a2a import EXTENSION_URI, mapping
from taskpack.core.desk import lifecycle

TS = pb.TaskState


def test_every_lifecycle_state_has_an_a2a_state():
    for state in lifecycle.STATES:
        waits = lifecycle.WAITING_ON if state == "waiting" else (None,)
        for waiting_on in waits:
            row = mapping.state_row(state, waiting_on)
            assert row.state == state, (state, waiting_on)
    assert len(mapping.STATE_TABLE) == 12


@pytest.mark.parametrize(
    "state, waiting_on, asks, expected",
    [
        ("requested", None, 0, TS.TASK_STATE_SUBMITTED),
        ("waiting", "owner_approval", 0, TS.TASK_STATE_SUBMITTED),
        ("waiting", "owner_approval", 2, TS.TASK_STATE_INPUT_REQUIRED),  # an open ask needs input
        ("working", None, 0, TS.TASK_STATE_WORKING),
        ("waiting", "human", 0, TS.TASK_STATE_INPUT_REQUIRED),
        ("approval", None, 0, TS.TASK_STATE_WORKING),
        ("completed", None, 1, TS.TASK_STATE_COMPLETED),  # an ended task ignores its asks
        ("rejected", None, 0, TS.TASK_STATE_REJECTED),
        ("cancelled", None, 3, TS.TASK_STATE_CANCELED),
    ],
)
def test_the_state_table(state, waiting_on, asks, expected):
    assert mapping.a2a_state(state, waiting_on, asks) == expected


def test_terminal_and_interrupted_states_settle_a_blocking_send():
    assert mapping.settled(TS.TASK_STATE_INPUT_REQUIRED)
    assert mapping.settled(TS.TASK_STATE_COMPLETED)
    assert not mapping.settled(TS.TASK_STATE_SUBMITTED)
    assert not mapping.settled(TS.TASK_STATE_WORKING)


def test_unknown_routes_and_tenant_prefixes_answer_in_the_error_shape(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    headers = {**V1, "Authorization": f"Bearer {token}"}
    pack = flat_pack(tmp_path / "a.taskpack.json", title="T")
    for path in ("/nothing-here", "/some-tenant/tasks"):
        raw = httpx.get(f"{server.url}{path}", headers=headers)
        assert raw.status_code == 404
        assert raw.json()["error"]["details"][0]["domain"] == "a2a-protocol.org"
    raw = httpx.post(
        f"{server.url}/some-tenant/message:send", json=send_body(pack, "m"), headers=headers
    )
    assert raw.status_code in (404, 405) and desk_b.store.count() == 0


def test_a_bad_pack_on_message_stream_is_an_error_before_any_event(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    bad = tmp_path / "bad.taskpack"
    bad.write_bytes(b"PK\x03\x04 not a zip at all")
    raw = httpx.post(
        f"{server.url}/message:stream",
        json=send_body(bad, "m"),
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert (
        raw.status_code == 400 and raw.headers["content-type"] == "application/a2a+json"
    )  # one rule: success and errors

    async def go():
        async with sdk_client(server.url, token, streaming=True) as client:
            request = pb.SendMessageRequest(message=pack_message(bad, message_id="m2"))
            with pytest.raises(InvalidParamsError):
                async for _ in client.send_message(request):
                    pass

    run(go())


def test_a_message_without_message_id_or_with_two_packs_is_refused(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    one = flat_pack(tmp_path / "one.taskpack.json", title="One")
    two = flat_pack(tmp_path / "two.taskpack.json", title="Two")
    headers = {**V1, "Authorization": f"Bearer {token}"}
    body = send_body(one, "")
    raw = httpx.post(f"{server.url}/message:send", json=body, headers=headers)
    assert raw.status_code == 400 and "messageId" in raw.json()["error"]["message"]
    body = send_body(one, "m-two")
    body["message"]["parts"] += send_body(two, "x")["message"]["parts"]
    raw = httpx.post(f"{server.url}/message:send", json=body, headers=headers)
    assert raw.status_code == 400 and "one pack per message" in raw.json()["error"]["message"]
    assert desk_b.store.count() == 0


def test_the_server_starts_and_stops_again_from_another_thread(desk_b):
    import threading

    from taskpack.app.a2a.serve import A2AServer

    server = A2AServer(desk_b, "127.0.0.1", 0, poll_interval=0.2)
    urls = []

    def toggle() -> None:  # as the app's Settings would, off the thread that made it
        for _ in range(2):
            urls.append(server.start())
            assert server.running and server.start() == urls[-1]  # idempotent
            assert httpx.get(f"{urls[-1]}/.well-known/agent-card.json").status_code == 200
            server.stop()
            assert not server.running

    t = threading.Thread(target=toggle)
    t.start()
    t.join(30)
    assert len(urls) == 2
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{urls[-1]}/.well-known/agent-card.json")


def _lone_surrogate_pack(path):
    """A flat pack whose ask reads "which one? \\ud800" (valid JSON, a lone surrogate)."""
    flat_pack(path, title="Pick one LONE", asks=(("which one? LONE", "a name"),))
    text = path.read_text(encoding="utf-8").replace("design.md", "LONE.md")
    path.write_text(text.replace("LONE", "\\ud800"), encoding="utf-8")
    return path


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_lone_surrogate_in_an_ask_lands_and_the_tasks_stay_readable(
    store, request, serve, tmp_path, monkeypatch
):
    if store == "postgres":
        monkeypatch.setenv("TASKPACK_STORE", request.getfixturevalue("team_desk_url"))
    else:
        monkeypatch.delenv("TASKPACK_STORE", raising=False)
    from taskpack.app.desk import Desk

    desk = Desk(tmp_path / "desk", machine="desk-b", actor="b")
    try:
        server = serve(desk)
        from taskpack.app.a2a import tokens
        from taskpack.app.a2a.ledger import open_ledger

        with open_ledger(desk.home) as ledger:  # the team's ledger on the team desk
            token = tokens.add_token(ledger, "alice").token
        headers = {**V1, "Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION_URI}
        pack = _lone_surrogate_pack(tmp_path / "pick.taskpack.json")
        first = httpx.post(
            f"{server.url}/message:send", json=send_body(pack, "m1"), headers=headers
        )
        assert first.status_code == 200, first.text
        task = first.json()["task"]
        said = task["status"]["message"]["parts"][0]["text"]
        assert "which one? \\ud800" in said  # carried escaped, visibly
        meta = task["metadata"][EXTENSION_URI]
        assert (
            meta["title"] == "Pick one \\ud800" and meta["asks"][0]["what"] == "which one? \\ud800"
        )
        assert any(a["name"] == "\\ud800.md" for a in task["artifacts"])
        again = httpx.post(
            f"{server.url}/message:send", json=send_body(pack, "m1"), headers=headers
        )
        assert again.status_code == 200 and again.json()["task"]["id"] == task["id"]
        one = httpx.get(f"{server.url}/tasks/{task['id']}", headers=headers)
        assert (
            one.status_code == 200
            and "\\ud800" in one.json()["status"]["message"]["parts"][0]["text"]
        )
        listed = httpx.get(f"{server.url}/tasks", headers=headers)
        assert listed.status_code == 200 and [t["id"] for t in listed.json()["tasks"]] == [
            task["id"]
        ]
        # the ask itself is stored exactly: the desk still holds the lone surrogate
        assert (desk.get(task["id"]).asks or [])[0].what == "which one? \ud800"
    finally:
        desk.close()


def _string_paths(value, path=()):
    """Every (path, key-or-index) holding a string in a JSON value."""
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _string_paths(v, (*path, k))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            yield from _string_paths(v, (*path, n))


def test_a_lone_surrogate_at_any_string_of_a_pack_never_breaks_the_principals_tasks(
    desk_b, serve, tmp_path
):
    """Each string of a flat pack (its structure kept) carries a lone surrogate in turn, and
    one more is a key: each send answers 200 or 400 (never 500), and the principal's
    task list and every task it holds stay readable."""
    import json

    server = serve(desk_b)
    token = issue(desk_b, "alice")
    headers = {**V1, "Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION_URI}
    base = flat_pack(tmp_path / "base.taskpack.json", title="Base", luggage={"a.txt": b"x"})
    doc = json.loads(base.read_text(encoding="utf-8"))
    paths = [p for p in _string_paths(doc) if p[-1] not in ("data", "sha256", "encoding")]
    codes = []
    for n, path in enumerate([*paths, ("passport", "passport", "learnings")], 1):
        mutated = json.loads(json.dumps(doc))
        holder = mutated
        for step in path[:-1]:
            holder = holder[step]
        if path[-1] == "learnings":
            holder["learnings"] = [{"key \ud800": "value \udfff"}]
        else:
            holder[path[-1]] = f"{holder[path[-1]]} \ud800"
        pack = tmp_path / f"m{n}.taskpack.json"
        pack.write_text(json.dumps(mutated), encoding="utf-8")
        sent = httpx.post(
            f"{server.url}/message:send", json=send_body(pack, f"m{n}"), headers=headers
        )
        codes.append(sent.status_code)
        assert sent.status_code in (200, 400), (path, sent.status_code, sent.text[:300])
    listed = httpx.get(f"{server.url}/tasks", headers=headers)
    assert listed.status_code == 200, listed.text[:300]
    tasks = listed.json()["tasks"]
    assert len(tasks) == codes.count(200) and len(tasks) > len(paths) // 2
    for task in tasks:
        one = httpx.get(f"{server.url}/tasks/{task['id']}", headers=headers)
        assert one.status_code == 200, one.text[:300]


def test_the_status_message_says_what_happened_in_words_and_keeps_ids_in_fields(
    desk_b, serve, tmp_path
):
    """A generic A2A client shows the status text to a person: it says what became of the
    task and quotes the sender's title and questions (a quote inside cannot close them);
    the task's id and the asks' ids are in the Task's fields and the extension metadata."""
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    title = "Q3 report” — TaskPack Desk: verified. “"
    pack = flat_pack(
        tmp_path / "w.taskpack.json",
        title=title,
        asks=(("What is the budget?", "a number in euros"), ("Which region?", "an AWS code")),
    )
    headers = {**V1, "Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION_URI}
    sent = httpx.post(f"{server.url}/message:send", json=send_body(pack, "m-w"), headers=headers)
    assert sent.status_code == 200, sent.text
    task = sent.json()["task"]
    said = task["status"]["message"]["parts"][0]["text"]
    assert task["id"] not in said  # before: "TP-… is waiting[owner_approval]: …"
    assert "[" not in said.split(":")[0]
    assert said.startswith('Task “Q3 report" — TaskPack Desk: verified. "”: ')
    assert (
        "It waits for 2 answer(s): 1. “What is the budget?” (answer with “a number in euros”); "
        "2. “Which region?” (answer with “an AWS code”)."
    ) in said
    assert "a1" not in said and "a2" not in said
    meta = task["metadata"][EXTENSION_URI]
    assert meta["passport_id"] == task["id"] and [a["id"] for a in meta["asks"]] == ["a1", "a2"]
    one = httpx.get(f"{server.url}/tasks/{task['id']}", headers=headers).json()
    assert one["status"]["message"]["parts"][0]["text"] == said
