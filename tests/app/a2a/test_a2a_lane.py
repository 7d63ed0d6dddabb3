"""The landing lane: a process's small packs land one after another on one thread, each
commit's sync done by another thread while the lane goes on (`deferred_syncs`). What a
sender must still see: no answer before its landing is on disk, an error (never a Task)
when the disk fails, and a small send never held up by a big pack landing."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from a2a_testkit import V1, flat_pack, issue, send_body
from taskpack.app.a2a import handler as a2a_handler
from taskpack.core.desk import sqlite_db

pytestmark = pytest.mark.skipif(not sqlite_db.LATE_SYNC, reason="POSIX: the WAL synced late")


def _post(url: str, token: str, body: dict[str, Any], timeout: float = 30) -> httpx.Response:
    return httpx.post(
        f"{url}/message:send",
        json=body,
        headers={**V1, "Authorization": f"Bearer {token}"},
        timeout=timeout,
    )


def _wal_names(home: os.PathLike[str]) -> Callable[[int], str]:
    """Which of the desk's two WALs a descriptor is (by inode), else "other"."""

    def name(fd: int) -> str:
        ino = os.fstat(fd).st_ino
        for db in ("store", "a2a"):
            wal = os.path.join(home, f"{db}.sqlite3-wal")
            if os.path.exists(wal) and os.stat(wal).st_ino == ino:
                return db
        return "other"

    return name


def test_a_send_is_answered_only_once_its_landing_and_its_record_are_on_disk(
    desk_b, serve, tmp_path, monkeypatch
):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "one.taskpack.json", title="Durable first")
    name = _wal_names(desk_b.home)
    seen: list[str] = []
    monkeypatch.setattr(sqlite_db, "_datasync", lambda fd: (seen.append(name(fd)), os.fsync(fd)))
    r = _post(server.url, token, send_body(pack, "m-1"))
    seen.append("answer")
    assert r.status_code == 200, r.text
    assert r.json()["task"]["id"] in {s.id for s in desk_b.passports()}
    before = seen[: seen.index("answer")]
    assert "store" in before and "a2a" in before, seen


def test_a_send_whose_landing_could_not_be_synced_gets_an_error_not_a_task(
    desk_b, serve, tmp_path, monkeypatch
):
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    pack = flat_pack(tmp_path / "one.taskpack.json", title="The disk fails")
    name = _wal_names(desk_b.home)

    def failing(fd: int) -> None:
        if name(fd) == "store":
            raise OSError(5, "Input/output error")
        os.fsync(fd)

    monkeypatch.setattr(sqlite_db, "_datasync", failing)
    r = _post(server.url, token, send_body(pack, "m-1"))
    assert r.status_code >= 500 and "task" not in r.json(), r.text
    # the disk is well again: the same message, sent again, gets its one Task
    monkeypatch.setattr(sqlite_db, "_datasync", os.fsync)
    again = _post(server.url, token, send_body(pack, "m-1"))
    assert again.status_code == 200, again.text
    assert desk_b.store.count() == 1


def test_a_small_send_does_not_wait_behind_a_big_pack_landing(desk_b, serve, tmp_path, monkeypatch):
    """A pack over LANE_BYTES lands on a worker of its own: while it is held mid-landing,
    a small send is answered."""
    monkeypatch.setattr(a2a_handler, "LANE_BYTES", 4096)
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    big = flat_pack(
        tmp_path / "big.taskpack.json", title="Big", luggage={"b.bin": os.urandom(8000)}
    )
    small = flat_pack(tmp_path / "small.taskpack.json", title="Small")
    assert small.stat().st_size < 4096 < big.stat().st_size
    accept = desk_b.accept
    entered, release = threading.Event(), threading.Event()

    def held_accept(stream, **kw):
        if len(stream.getbuffer()) > 4096:
            entered.set()
            assert release.wait(60)
        return accept(stream, **kw)

    monkeypatch.setattr(desk_b, "accept", held_accept)
    answers: dict[str, httpx.Response] = {}
    sender = threading.Thread(
        target=lambda: answers.setdefault("big", _post(server.url, token, send_body(big, "m-big")))
    )
    sender.start()
    try:
        assert entered.wait(30)  # the big one is being landed, and stays so
        r = _post(server.url, token, send_body(small, "m-small"), timeout=20)
        assert r.status_code == 200, r.text
        assert not release.is_set() and "big" not in answers
    finally:
        release.set()
        sender.join(60)
    assert answers["big"].status_code == 200, answers["big"].text
    assert desk_b.store.count() == 2
