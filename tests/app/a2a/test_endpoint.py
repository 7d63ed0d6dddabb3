"""`app.a2a.endpoint`: the endpoint as the desktop app holds it (no Qt), and why a start
failed, decided from the errno (or Windows' WSA code) — the window only words it."""

from __future__ import annotations

import dataclasses
import errno
import socket

import httpx
import pytest
from taskpack.app.a2a.endpoint import A2AEndpoint, EndpointState, start_failure


def test_apply_serves_restarts_on_a_new_port_and_stops(desk_b):
    endpoint = A2AEndpoint(desk_b)
    try:
        url = endpoint.apply(("127.0.0.1", 0))
        assert url and httpx.get(f"{url}/.well-known/agent-card.json").status_code == 200
        assert endpoint.apply(("127.0.0.1", 0)) == url  # the same settings: the same server
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            port = taken.getsockname()[1]
            with pytest.raises(OSError) as caught:
                endpoint.apply(("127.0.0.1", port))
            assert start_failure(caught.value) == "in-use"
        assert endpoint.server is None  # the old one was stopped for the new settings
    finally:
        assert endpoint.apply(None) is None
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/.well-known/agent-card.json", timeout=5)


def test_start_failures_by_code():
    assert start_failure(OSError(errno.EADDRINUSE, "in use")) == "in-use"
    wsa = OSError("in use")
    wsa.winerror = 10048  # type: ignore[attr-defined]
    assert start_failure(wsa) == "in-use"
    assert start_failure(socket.gaierror(-2, "Name or service not known")) == "no-such-address"
    assert start_failure(OSError(errno.EADDRNOTAVAIL, "not here")) == "no-such-address"
    assert start_failure(PermissionError(errno.EACCES, "no")) == "not-permitted"
    assert start_failure(RuntimeError("boom")) == "other"


def test_the_state_is_a_small_frozen_record():
    state = EndpointState("serving", url="http://127.0.0.1:1", want=("127.0.0.1", 1))
    assert (state.kind, state.url, state.error) == ("serving", "http://127.0.0.1:1", None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.kind = "off"  # type: ignore[misc]
    assert EndpointState() == EndpointState("off")
