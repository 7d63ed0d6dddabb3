"""Fixtures for the A2A tests: an in-memory keyring (never the real one), desks in
temporary homes, and endpoints served by uvicorn on loopback, port 0."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import pytest
from a2a_testkit import make_desk
from taskpack.app.a2a.handler import Limits
from taskpack.app.a2a.serve import A2AServer
from taskpack.app.a2a.tokens import MemoryKeyring
from taskpack.app.desk import Desk


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def desks(tmp_path: Path) -> Iterator[Callable[[str], Desk]]:
    made: list[Desk] = []

    def make(name: str) -> Desk:
        desk = make_desk(tmp_path, name)
        made.append(desk)
        return desk

    yield make
    for desk in made:
        desk.close()


@pytest.fixture
def serve() -> Iterator[Callable[..., A2AServer]]:
    """Start an endpoint for a desk on a free loopback port; stopped after the test."""
    started: list[A2AServer] = []

    def start(desk: Desk, **kw: object) -> A2AServer:
        kw.setdefault("poll_interval", 0.2)
        kw.setdefault("limits", Limits(blocking_timeout=0.5, stream_seconds=30))
        server = A2AServer(desk, "127.0.0.1", 0, **kw)  # type: ignore[arg-type]
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def desk_b(desks: Callable[[str], Desk]) -> Desk:
    return desks("desk-b")
