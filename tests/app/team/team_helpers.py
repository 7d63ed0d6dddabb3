"""Helpers for tests that run against both stores: the embedded desk (SQLite in one
home, shared by every Desk of the test) and the team desk (PostgreSQL, each Desk with a
home of its own, as on separate machines)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from taskpack.app.desk import Desk

MakeDesk = Callable[..., Desk]


def wait_for(check: Callable[[], object], *, tries: int = 200, pause: float = 0.05) -> object:
    """Ask `check()` until it answers something truthy (a notification on its way)."""
    for _ in range(tries):
        got = check()
        if got:
            return got
        time.sleep(pause)
    return check()


def sender_pack(
    tmp_path: Path, *, luggage: bytes | None = None, title: str = "Invoice export"
) -> Path:
    """A handoff pack made on another machine's own embedded desk."""
    team = os.environ.pop("TASKPACK_STORE", None)
    try:
        sender = Desk(tmp_path / "sender-home", "sender-box", actor="sam")
    finally:
        if team is not None:
            os.environ["TASKPACK_STORE"] = team
    try:
        lp = sender.new(title, "CSV for finance")
        sender.add_fact(lp.id, "port 5432 answers", scope="machine", verified=True)
        if luggage is not None:
            f = tmp_path / "data.bin"
            f.write_bytes(luggage)
            sender.attach(lp.id, [f])
        return sender.pack(lp.id, tmp_path / f"{lp.id}.taskpack").path
    finally:
        sender.close()
