"""The endpoint's HTTP/1.1 over real sockets, with the C parser and loop (httptools,
uvloop) and without them (h11, asyncio's loop): the same head deadline, the same bound
on a head's size, keep-alive and pipelining either way."""

from __future__ import annotations

import socket
import sys

import httpx
import pytest
from a2a_testkit import flat_pack, issue, raw_connection, send_body, until_closed

CARD = b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: desk\r\n\r\n"


@pytest.fixture(params=["c-parser", "pure-python"])
def serving(request, monkeypatch, serve):
    """`serve`, with httptools and uvloop as installed, or as if they were not."""
    if request.param == "pure-python":
        monkeypatch.setitem(sys.modules, "httptools", None)  # import fails: the fallback
        monkeypatch.setitem(sys.modules, "uvloop", None)
    return serve


def _responses(sock: socket.socket, count: int) -> list[bytes]:
    """The heads of the next `count` responses (each read whole, by its Content-Length)."""
    buffer, heads = b"", []
    while len(heads) < count:
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            assert chunk, f"closed after {len(heads)} responses"
            buffer += chunk
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(buffer) < length:
            buffer += sock.recv(65536)
        buffer = buffer[length:]
        heads.append(head)
    return heads


def test_a_trickled_head_is_closed_on_a_fresh_and_on_a_kept_alive_connection(desk_b, serving):
    server = serving(desk_b, header_timeout=1.0, keep_alive_timeout=1.0)
    with raw_connection(server.url, 30) as fresh:
        fresh.sendall(b"GET /tasks HTTP/1.1\r\nHost: desk\r\n")  # never ends
        assert until_closed(fresh) == b""
    with raw_connection(server.url, 30) as kept:
        kept.sendall(CARD)
        assert _responses(kept, 1)[0].startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /tasks HTTP/1.1\r\nHost: desk\r\n")  # the second never ends
        assert until_closed(kept) == b""


def test_a_head_over_16_kib_is_refused_with_400(desk_b, serving):
    server = serving(desk_b)
    head = b"GET /tasks HTTP/1.1\r\nHost: desk\r\n"
    head += b"X-Filler: " + b"a" * (16 * 1024 + 100 - len(head)) + b"\r\n"  # no end
    with raw_connection(server.url, 30) as sock:
        sock.sendall(head)  # (all of it at once: nothing is left unread when it is refused)
        reply = until_closed(sock)
    assert reply.startswith(b"HTTP/1.1 400")
    assert reply.endswith(b"Invalid HTTP request received.")
    # a head just under the bound is served
    r = httpx.get(f"{server.url}/.well-known/agent-card.json", headers={"X-Filler": "a" * 12_000})
    assert r.status_code == 200


def test_pipelined_requests_are_answered_in_order_and_the_connection_kept(
    desk_b, serving, tmp_path
):
    server = serving(desk_b, header_timeout=1.0, keep_alive_timeout=1.0)
    token = issue(desk_b, "alice")
    body = httpx.Request(
        "POST",
        "http://x",
        json=send_body(flat_pack(tmp_path / "p.taskpack.json", title="Pipelined"), "m-1"),
    ).read()
    send = (
        b"POST /message:send HTTP/1.1\r\nHost: desk\r\nA2A-Version: 1.0\r\n"
        + f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n".encode()
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    with raw_connection(server.url, 30) as sock:
        sock.sendall(send + CARD + CARD)  # three requests in one write
        heads = _responses(sock, 3)
        assert [h.split(b"\r\n")[0] for h in heads] == [b"HTTP/1.1 200 OK"] * 3
        assert b"application/a2a+json" in heads[0].lower()
        sock.sendall(CARD)  # still open, still served
        assert _responses(sock, 1)[0].startswith(b"HTTP/1.1 200")
    assert desk_b.store.count() == 1


def test_a_response_arrives_whole_in_one_piece(desk_b, serving):
    """Head and body are one write (`CorkedTransport`): the client wakes once per response,
    not once for the head and again for the body."""
    server = serving(desk_b)
    with raw_connection(server.url, 30) as sock:
        for _ in range(20):
            sock.sendall(CARD)
            piece = sock.recv(65536)  # the first bytes to arrive: the whole response
            head, _, body = piece.partition(b"\r\n\r\n")
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            assert head.startswith(b"HTTP/1.1 200") and len(body) == length > 0


class _Wire:
    """A transport that records what is written to it (and a loop that runs soon-calls
    when told): the corked transport's own behaviour, without a socket."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.closed = self.aborted = False
        self.soon: list = []

    def write(self, data: bytes) -> None:
        assert not self.closed
        self.sent.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str, default=None):
        return ("127.0.0.1", 1) if name == "peername" else default

    def call_soon(self, fn, *args) -> None:
        self.soon.append((fn, args))

    def turn(self) -> None:
        soon, self.soon = self.soon, []
        for fn, args in soon:
            fn(*args)


def test_writes_in_one_turn_go_out_as_one_and_close_sends_what_is_held():
    from taskpack.app.a2a.http_protocol import CorkedTransport

    wire = _Wire()
    corked = CorkedTransport(wire, wire)  # type: ignore[arg-type]
    corked.write(b"HTTP/1.1 200 OK\r\n\r\n")
    corked.write(bytearray(b"{}"))
    assert wire.sent == []  # held until the loop turns
    wire.turn()
    assert wire.sent == [b"HTTP/1.1 200 OK\r\n\r\n{}"]
    corked.write(b"event 1")
    wire.turn()
    corked.write(b"event 2")
    wire.turn()
    assert wire.sent[1:] == [b"event 1", b"event 2"]  # a stream: each turn's writes
    big = b"x" * (64 * 1024)
    corked.write(b"head")
    corked.write(big)  # a large write: what is held first, then it, in order, at once
    assert wire.sent[3:] == [b"head", big]
    corked.write(b"last words")
    corked.close()
    assert wire.sent[-1] == b"last words" and wire.closed
    wire.turn()  # the soon-call finds nothing more to send
    assert wire.sent[-1] == b"last words"
    assert corked.get_extra_info("peername") == ("127.0.0.1", 1) and corked.is_closing()


def test_an_aborted_connection_sends_nothing_more():
    from taskpack.app.a2a.http_protocol import CorkedTransport

    wire = _Wire()
    corked = CorkedTransport(wire, wire)  # type: ignore[arg-type]
    corked.write(b"never sent")
    corked.abort()
    wire.turn()
    assert wire.sent == [] and wire.aborted
