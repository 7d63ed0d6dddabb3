"""The endpoint over real HTTP on loopback, checked with the a2a-sdk client (and raw
HTTP where a status code or header is the point)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import httpx
import pytest
from a2a.client import A2ACardResolver
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import (
    ContentTypeNotSupportedError,
    InvalidParamsError,
    PushNotificationNotSupportedError,
    TaskNotFoundError,
)
from a2a_testkit import (
    V1,
    ext,
    flat_pack,
    handoff,
    issue,
    pack_message,
    run,
    sdk_client,
    send,
    send_body,
)
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG, MEDIA_FLAT
from taskpack.app.a2a.errors import DuplicateMessageIdError
from taskpack.core.desk.history_words import english_detail
from taskpack.core.format.reading import open_pack

TS = pb.TaskState


def test_agent_card_declares_the_extension_streaming_and_no_push(desk_b, serve):
    server = serve(desk_b)

    async def go():
        async with httpx.AsyncClient() as http:
            card = await A2ACardResolver(http, server.url).get_agent_card()
            raw = await http.get(
                f"{server.url}/.well-known/agent-card.json",
                headers={"A2A-Extensions": f"{EXTENSION_URI}, urn:other"},
            )
            return card, raw

    card, raw = run(go())
    assert card.capabilities.streaming is True
    assert card.capabilities.push_notifications is False
    [extension] = [e for e in card.capabilities.extensions if e.uri == EXTENSION_URI]
    params = dict(extension.params)
    assert list(params["encodings"]) == ["bagit-zip", "flat"]
    assert list(params["media_types"]) == [MEDIA_BAG, MEDIA_FLAT]
    assert params["max_inline_attachment_bytes"] == 1048576
    [iface] = card.supported_interfaces
    assert (iface.url, iface.protocol_binding, iface.protocol_version) == (
        server.url,
        "HTTP+JSON",
        "1.0",
    )
    assert card.security_schemes["bearer"].http_auth_security_scheme.scheme == "bearer"
    assert raw.status_code == 200
    assert raw.headers["a2a-extensions"] == EXTENSION_URI  # only what is supported is echoed


def test_send_a_handoff_lands_it_in_the_inbox_and_returns_a_task(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(
        tmp_path / "h.taskpack.json",
        title="Report",
        sender="TP-AAAA-AAAA",
        luggage={"brief.txt": b"the brief\n"},
        facts=[{"claim": "the build passes", "scope": "machine", "verified": True}],
    )

    async def go():
        async with sdk_client(server.url, token) as client:
            return await send(client, pack_message(pack, message_id="m-1"))

    task = run(go())
    # the receiver mints the id: a new local passport, not the sender's
    assert task.id != "TP-AAAA-AAAA"
    lp = desk_b.get(task.id)
    assert (lp.state, lp.waiting_on) == ("waiting", "owner_approval")  # landed in the inbox
    assert lp.received is not None and lp.received.kind == "handoff"
    [fact] = lp.passport.facts  # sealed on landing: a ✓ does not cross a machine
    assert (fact.verified, fact.needs_reverify, fact.verified_on) == (False, True, "elsewhere")
    assert task.status.state == TS.TASK_STATE_INPUT_REQUIRED  # an open ask
    assert task.context_id.startswith("ctx-")
    meta = ext(task)
    assert meta["lineage"]["root_id"] == "TP-AAAA-AAAA"
    assert meta["lineage"]["chain"] == ["TP-AAAA-AAAA@1", f"{task.id}@{lp.version}"]
    assert [a["accept"] for a in meta["asks"]] == ["a number in euros"]
    assert meta["landing_checks"][0]["how"] == "python3 --version"  # data, never run
    arts = {a.artifact_id: a for a in task.artifacts}
    assert arts["luggage-1"].parts[0].raw == b"the brief\n"
    assert arts["luggage-1"].parts[0].filename == "brief.txt"
    assert arts["passport-artifact-1"].name == "design.md"
    assert len(task.history) == 0  # transcripts do not travel


def test_without_the_extension_activated_the_task_carries_no_extension_metadata(
    desk_b, serve, tmp_path
):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="Plain")

    async def go():
        async with sdk_client(server.url, token, extensions=False) as client:
            return await send(client, pack_message(pack, message_id="m-plain"))

    task = run(go())
    assert ext(task) == {} and not task.status.message.extensions
    said = task.status.message.parts[0].text
    assert "It waits for 1 answer(s): 1. “What is the budget?”" in said


def test_a_duplicate_send_returns_the_prior_task_and_lands_once(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "h.taskpack.json", title="Once")

    async def go():
        async with sdk_client(server.url, token) as client:
            first = await send(client, pack_message(pack, message_id="m-dup"))
            again = await send(client, pack_message(pack, message_id="m-dup"))
            return first, again

    first, again = run(go())
    assert again.id == first.id and again.context_id == first.context_id
    assert desk_b.store.count() == 1


def test_the_same_message_id_with_another_payload_is_409(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    one = flat_pack(tmp_path / "one.taskpack.json", title="One")
    two = flat_pack(tmp_path / "two.taskpack.json", title="Two")

    async def go():
        async with sdk_client(server.url, token) as client:
            await send(client, pack_message(one, message_id="m-x"))
            with pytest.raises(DuplicateMessageIdError):
                await send(client, pack_message(two, message_id="m-x"))

    run(go())
    raw = httpx.post(
        f"{server.url}/message:send",
        json=send_body(two, "m-x"),
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert raw.status_code == 409
    error = raw.json()["error"]
    assert error["status"] == "ALREADY_EXISTS"
    assert error["details"][0]["reason"] == "DUPLICATE_MESSAGE_ID"
    assert error["details"][0]["domain"] == "a2a-protocol.org"
    assert desk_b.store.count() == 1


def test_another_principals_task_is_not_found_and_contexts_never_cross(desk_b, serve, tmp_path):
    server = serve(desk_b)
    alice, bob = issue(desk_b, "alice"), issue(desk_b, "bob")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="Alice's")
    other = flat_pack(tmp_path / "b.taskpack.json", title="Bob's", sender="TP-BBBB-BBBB")

    async def go():
        async with sdk_client(server.url, alice) as a:
            task = await send(a, pack_message(pack, message_id="m-1"))
        async with sdk_client(server.url, bob) as b:
            with pytest.raises(TaskNotFoundError):
                await b.get_task(pb.GetTaskRequest(id=task.id))
            with pytest.raises(TaskNotFoundError):
                await b.cancel_task(pb.CancelTaskRequest(id=task.id))
            listed = await b.list_tasks(pb.ListTasksRequest())
            # bob names alice's context: he gets a fresh one, never hers
            mine = await send(b, pack_message(other, message_id="m-1", context_id=task.context_id))
            made_up = await send(
                b,
                pack_message(
                    flat_pack(tmp_path / "c.taskpack.json", title="C", sender="TP-CCCC-CCCC"),
                    message_id="m-2",
                    context_id="ctx-made-up",
                ),
            )
            # bob continuing alice's task is refused as not found
            with pytest.raises(TaskNotFoundError):
                await send(b, pack_message(other, message_id="m-3", task_id=task.id))
        return task, listed, mine, made_up

    task, listed, mine, made_up = run(go())
    assert list(listed.tasks) == []
    assert mine.context_id not in (task.context_id, "")
    assert made_up.context_id not in ("ctx-made-up", task.context_id, mine.context_id)


@pytest.mark.parametrize("version", ["0.3", "2.0", "1.1", None])
def test_a2a_version_other_than_1_0_fails(desk_b, serve, version):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    headers = {"Authorization": f"Bearer {token}"}
    if version:
        headers["A2A-Version"] = version
    raw = httpx.get(f"{server.url}/tasks", headers=headers)
    assert raw.status_code == 400
    error = raw.json()["error"]
    assert error["details"][0]["reason"] == "VERSION_NOT_SUPPORTED"
    assert error["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
    ok = httpx.get(f"{server.url}/tasks", headers={**headers, "A2A-Version": "1.0.1"})
    assert ok.status_code == 200


def test_without_a_valid_token_nothing_is_served(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="X")
    for headers in (
        {},
        {"Authorization": "Bearer tpk_not-a-token"},
        {"Authorization": f"Basic {token}"},
    ):
        raw = httpx.post(
            f"{server.url}/message:send", json=send_body(pack, "m"), headers={**V1, **headers}
        )
        assert raw.status_code == 401
        assert raw.headers["www-authenticate"].startswith("Bearer")
        assert raw.json()["error"]["details"][0]["reason"] == "UNAUTHENTICATED"
    assert desk_b.store.count() == 0


def test_a_message_without_a_pack_gets_a_clear_error(desk_b, serve):
    server = serve(desk_b)
    token = issue(desk_b, "alice")

    async def go():
        async with sdk_client(server.url, token) as client:
            msg = pb.Message(message_id="m-text", role=pb.Role.ROLE_USER)
            msg.parts.add(text="please do the report")
            with pytest.raises(ContentTypeNotSupportedError) as info:
                await send(client, msg)
            return info.value

    error = run(go())
    assert "TaskPack" in error.message and ".taskpack" in error.message
    assert desk_b.store.count() == 0


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize(
    "name, data",
    [
        ("junk.taskpack", b"PK\x03\x04 this is not really a zip"),
        (
            "slip.taskpack",
            _zip({"bagit.txt": b"BagIt-Version: 1.0\n", "data/files/../../evil": b"x"}),
        ),
        ("empty.taskpack.json", b"{}"),
        (
            "bad-sha.taskpack.json",
            b'{"taskpack": "0.1", "encoding": "flat", "passport": {"kind": "handoff"},'
            b' "attachments": [{"name": "a.txt", "encoding": "utf8", "sha256": "'
            + b"0" * 64
            + b'", "data": "hi"}]}',
        ),
        ("future.taskpack.json", b'{"taskpack": "9.9", "encoding": "flat", "passport": {}}'),
    ],
)
def test_a_hostile_or_broken_pack_is_a_400_with_a_reason_never_a_500(
    desk_b, serve, tmp_path, name, data
):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    path = tmp_path / name
    path.write_bytes(data)

    async def go():
        async with sdk_client(server.url, token) as client:
            with pytest.raises(InvalidParamsError) as info:
                await send(client, pack_message(path, message_id=f"m-{name}"))
            return info.value

    error = run(go())
    assert error.message.startswith("The pack was refused") or "could not" in error.message
    raw = httpx.post(
        f"{server.url}/message:send",
        json=send_body(path, f"raw-{name}"),
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert raw.status_code == 400
    assert raw.json()["error"]["details"][0]["metadata"]["taskpack_error"]
    assert desk_b.store.count() == 0


def test_a_receipt_for_a_passport_not_here_is_task_not_found(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    receipt = flat_pack(
        tmp_path / "r.taskpack.json",
        title="R",
        kind="receipt",
        chain=["TP-9999-9999@2", "TP-8888-8888@3"],
    )

    async def go():
        async with sdk_client(server.url, token) as client:
            with pytest.raises(TaskNotFoundError) as info:
                await send(client, pack_message(receipt, message_id="m-r"))
            return info.value

    # the same answer as for another principal's task (tests/app/a2a/test_a2a_isolation.py)
    assert run(go()).message == "Task TP-9999-9999 not found"


def test_push_notifications_answer_not_supported(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="X")

    async def go():
        async with sdk_client(server.url, token) as client:
            task = await send(client, pack_message(pack, message_id="m"))
            config = pb.TaskPushNotificationConfig(task_id=task.id, url="https://example.org/hook")
            with pytest.raises(PushNotificationNotSupportedError):
                await client.create_task_push_notification_config(config)
            with pytest.raises(PushNotificationNotSupportedError):
                await client.list_task_push_notification_configs(
                    pb.ListTaskPushNotificationConfigsRequest(task_id=task.id)
                )

    run(go())
    body = send_body(pack, "m-push")
    body["configuration"] = {"taskPushNotificationConfig": {"url": "https://example.org/hook"}}
    raw = httpx.post(
        f"{server.url}/message:send",
        json=body,
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert raw.json()["error"]["details"][0]["reason"] == "PUSH_NOTIFICATION_NOT_SUPPORTED"
    raw = httpx.get(
        f"{server.url}/tasks/x/pushNotificationConfigs/y",
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert raw.json()["error"]["details"][0]["reason"] == "PUSH_NOTIFICATION_NOT_SUPPORTED"


def test_a_real_bag_pack_with_big_luggage_offers_it_by_url_to_its_principal_only(
    desk_b, desks, serve, tmp_path
):
    desk_a = desks("desk-a")
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * 1024)  # 256 KiB: more than is carried inline
    sender, pack = handoff(desk_a, tmp_path / "h.taskpack", files=[big])
    server = serve(desk_b)
    alice, bob = issue(desk_b, "alice"), issue(desk_b, "bob")

    async def go():
        async with sdk_client(server.url, alice) as client:
            return await send(client, pack_message(pack, message_id="m-big"))

    task = run(go())
    [art] = [a for a in task.artifacts if a.name == "big.bin"]
    url = art.parts[0].url
    assert url.startswith(server.url) and not art.parts[0].raw
    got = httpx.get(url, headers={**V1, "Authorization": f"Bearer {alice}"})
    assert got.status_code == 200 and got.content == big.read_bytes()
    assert httpx.get(url, headers={**V1, "Authorization": f"Bearer {bob}"}).status_code == 404
    assert ext(task)["lineage"]["root_id"] == sender


def test_list_filters_by_status_and_context_and_pages(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")

    async def go():
        async with sdk_client(server.url, token) as client:
            made = []
            for n in range(5):
                pack = flat_pack(
                    tmp_path / f"p{n}.taskpack.json",
                    title=f"P{n}",
                    sender=f"TP-{n}{n}{n}{n}-2222",
                    asks=() if n == 4 else (("Q?", "A"),),
                )
                made.append(
                    await send(client, pack_message(pack, message_id=f"m{n}"), immediately=True)
                )
            page1 = await client.list_tasks(pb.ListTasksRequest(page_size=2))
            page2 = await client.list_tasks(
                pb.ListTasksRequest(page_size=2, page_token=page1.next_page_token)
            )
            page3 = await client.list_tasks(
                pb.ListTasksRequest(page_size=2, page_token=page2.next_page_token)
            )
            asking = await client.list_tasks(
                pb.ListTasksRequest(status=TS.TASK_STATE_INPUT_REQUIRED)
            )
            one_ctx = await client.list_tasks(pb.ListTasksRequest(context_id=made[0].context_id))
            return made, page1, page2, page3, asking, one_ctx

    made, page1, page2, page3, asking, one_ctx = run(go())
    seen = [t.id for p in (page1, page2, page3) for t in p.tasks]
    assert sorted(seen) == sorted(t.id for t in made) and len(set(seen)) == 5
    assert page1.total_size == 5 and page3.next_page_token == ""
    assert len(asking.tasks) == 4
    assert [t.id for t in one_ctx.tasks] == [made[0].id]


def test_cancel_withdraws_a_handoff(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="X")

    async def go():
        async with sdk_client(server.url, token) as client:
            task = await send(client, pack_message(pack, message_id="m"))
            return await client.cancel_task(pb.CancelTaskRequest(id=task.id))

    cancelled = run(go())
    assert cancelled.status.state == TS.TASK_STATE_CANCELED
    assert desk_b.get(cancelled.id).state == "cancelled"
    # the history keeps who cancelled it as data, said in words when shown
    [moved] = [e.detail for e in desk_b.history(cancelled.id) if e.detail.get("to") == "cancelled"]
    assert (moved["reason"], moved["by"]) == ("cancelled_over_a2a", "alice")
    assert english_detail(moved)["why"] == "cancelled over A2A by alice"


def test_a_body_over_the_limit_is_refused_before_it_is_read(desk_b, serve, tmp_path):
    server = serve(desk_b, max_body_bytes=4096)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="X", luggage={"big": b"x" * 8192})
    raw = httpx.post(
        f"{server.url}/message:send",
        json=send_body(pack, "m"),
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert raw.status_code == 413
    assert desk_b.store.count() == 0


def test_sent_bytes_land_through_the_desk_and_are_not_kept_in_a_temp_file(desk_b, serve, tmp_path):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "a.taskpack.json", title="X")

    async def go():
        async with sdk_client(server.url, token) as client:
            return await send(client, pack_message(pack, message_id="m"))

    task = run(go())
    with open_pack(pack) as opened:
        assert desk_b.store.landing(opened.content_digest()).passport_id == task.id
    assert list(Path(desk_b.home, "a2a", "incoming").iterdir()) == []


def test_the_task_a_send_returns_is_the_task_a_read_of_it_returns(desks, serve, tmp_path):
    """The Task built with the landing (held at the gate, let through it, a receipt that
    moves the passport it answers) is the Task a GET of it finds afterwards."""
    from taskpack.app.a2a.client import send_file
    from taskpack.app.a2a.ledger import A2AStore
    from taskpack.app.desk import Desk
    from taskpack.app.settings import Settings

    desk_a, desk_b = desks("desk-a"), desks("desk-b")
    open_desk = Desk(tmp_path / "open", machine="open", settings=Settings(gate_allow=["*"]))
    try:
        pairs = []
        for desk in (desk_b, open_desk):
            token, server = issue(desk, "alice"), serve(desk)
            pack = flat_pack(tmp_path / f"{desk.machine}.taskpack.json", title="Same Task")
            pairs.append((server.url, token, pack))
        # a receipt over A2A that answers the asker's only ask: the asker moves to working
        server_a = serve(desk_a)
        for_b_at_a = issue(desk_a, "desk-b")
        asker, sent = handoff(desk_a, tmp_path / "h.taskpack", asks=1)
        with A2AStore(desk_a.home) as store:
            landed = send_file(
                desk_a, store, sent, serve(desk_b).url, token=issue(desk_b, "desk-a"), peer="desk-b"
            ).task_id
        desk_b.answer(landed, "a1", "done")
        receipt = tmp_path / "r.taskpack"
        desk_b.pack(landed, receipt, kind="receipt")
        pairs.append((server_a.url, for_b_at_a, receipt))

        ids = []
        for url, token, pack in pairs:
            headers = {**V1, "Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION_URI}
            body = send_body(pack, f"same-{pack.name}")
            body["configuration"] = {"returnImmediately": True}
            r = httpx.post(f"{url}/message:send", json=body, headers=headers, timeout=30)
            assert r.status_code == 200, r.text
            task = r.json()["task"]
            read = httpx.get(f"{url}/tasks/{task['id']}", headers=headers, timeout=30)
            assert read.json() == task
            ids.append(task["id"])
        held, through, answered = desk_b.get(ids[0]), open_desk.get(ids[1]), desk_a.get(ids[2])
        assert (held.state, held.waiting_on) == ("waiting", "owner_approval")
        assert through.state == "routed"
        assert ids[2] == asker and answered.state == "working"
    finally:
        open_desk.close()
