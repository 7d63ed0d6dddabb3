"""The endpoint's edges over real HTTP: bodies that are not UTF-8,
connections that never finish their request, filters the SDK would ignore, the Agent
Card's caching headers, and one content-type rule for every JSON body."""

from __future__ import annotations

import httpx
from a2a_testkit import V1, flat_pack, issue, raw_connection, send_body, until_closed

A2A_JSON = "application/a2a+json"


def _headers(token: str) -> dict[str, str]:
    return {**V1, "Authorization": f"Bearer {token}"}


def _error(response: httpx.Response, code: int, reason: str) -> str:
    assert response.status_code == code, response.text
    assert response.headers["content-type"] == A2A_JSON
    body = response.json()["error"]
    assert body["code"] == code and body["details"][0]["reason"] == reason
    return str(body["message"])


def test_a_body_that_is_not_utf8_is_400_not_500(desk_b, serve):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    for body in (b'{"message": {"messageId": "\xff\xfe"}}', b"\xff\xff\xff"):
        r = httpx.post(
            f"{server.url}/message:send",
            content=body,
            headers={**_headers(token), "Content-Type": "application/json"},
        )
        assert "not UTF-8" in _error(r, 400, "INVALID_REQUEST")
    r = httpx.post(f"{server.url}/message:send", content=b"{bad json", headers=_headers(token))
    _error(r, 400, "INVALID_REQUEST")
    assert desk_b.store.count() == 0


def test_an_idle_connection_and_a_trickled_head_are_closed(desk_b, serve):
    server = serve(desk_b, header_timeout=1.0)
    with raw_connection(server.url) as idle:
        assert until_closed(idle) == b""  # connected, never said a word
    with raw_connection(server.url) as slow:
        slow.sendall(b"GET /tasks HTTP/1.1\r\nHost: desk\r\nA2A-Version: 1.0\r\n")  # never ends
        assert until_closed(slow) == b""
    # a connection that finishes its request in time is served as usual
    assert httpx.get(f"{server.url}/.well-known/agent-card.json").status_code == 200


def test_a_body_that_never_arrives_is_408(desk_b, serve, tmp_path):
    server = serve(desk_b, body_timeout=1.0)
    token = issue(desk_b, "alice")
    with raw_connection(server.url) as sock:
        sock.sendall(
            b"POST /message:send HTTP/1.1\r\nHost: desk\r\nA2A-Version: 1.0\r\n"
            + f"Authorization: Bearer {token}\r\n".encode()
            + b'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"message":'
        )
        reply = until_closed(sock)
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert f"content-type: {A2A_JSON}".encode() in head.lower()
    assert b"did not arrive within 1 seconds" in body
    # and a whole body still lands
    pack = flat_pack(tmp_path / "ok.taskpack.json", title="In time")
    ok = httpx.post(
        f"{server.url}/message:send", json=send_body(pack, "m-ok"), headers=_headers(token)
    )
    assert ok.status_code == 200 and ok.headers["content-type"] == A2A_JSON


def test_list_filters_the_sdk_would_ignore_are_refused(desk_b, serve):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    r = httpx.get(f"{server.url}/tasks?status=NOPE", headers=_headers(token))
    assert "not a task state" in _error(r, 400, "INVALID_PARAMS")
    r = httpx.get(f"{server.url}/tasks?includeArtifacts=maybe", headers=_headers(token))
    _error(r, 400, "INVALID_PARAMS")
    for good in (
        "status=TASK_STATE_WORKING",
        "status=TASK_STATE_INPUT_REQUIRED",
        "includeArtifacts=true",
    ):
        r = httpx.get(f"{server.url}/tasks?{good}", headers=_headers(token))
        assert r.status_code == 200 and r.headers["content-type"] == A2A_JSON, good


def test_the_agent_card_can_be_cached_and_revalidated(desk_b, serve):
    server = serve(desk_b)
    card = f"{server.url}/.well-known/agent-card.json"
    first = httpx.get(card)
    assert first.status_code == 200
    assert first.headers["content-type"] == "application/json"  # a discovery document
    assert "max-age=" in first.headers["cache-control"]
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    again = httpx.get(card, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    since = httpx.get(card, headers={"If-Modified-Since": modified})
    assert since.status_code == 304 and since.content == b""
    stale = httpx.get(card, headers={"If-None-Match": '"something-else"'})
    assert stale.status_code == 200 and stale.json()["name"]


def test_every_json_body_of_a_method_has_the_a2a_media_type(desk_b, serve):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    assert (
        httpx.get(f"{server.url}/tasks", headers=_headers(token)).headers["content-type"]
        == A2A_JSON
    )
    _error(
        httpx.get(f"{server.url}/tasks/TP-0000-0000", headers=_headers(token)),
        404,
        "TASK_NOT_FOUND",
    )
    _error(httpx.get(f"{server.url}/tasks", headers=V1), 401, "UNAUTHENTICATED")
    _error(
        httpx.get(f"{server.url}/tasks", headers={"Authorization": f"Bearer {token}"}),
        400,
        "VERSION_NOT_SUPPORTED",
    )
    _error(httpx.get(f"{server.url}/nowhere", headers=_headers(token)), 404, "METHOD_NOT_FOUND")
