"""A flat pack whose attachment declares a size no file can hold, sent over real HTTP:
a 400 that says what is wrong in our words, nothing landed, and no traceback in the
endpoint's log."""

from __future__ import annotations

import logging

import httpx
import pytest
from a2a_testkit import V1, issue, send_body
from hostile_sizes import huge_flat


@pytest.mark.parametrize("size", [2**63, 2**64, 10**30, 2**62])
def test_a_huge_declared_size_is_a_plain_400(desk_b, serve, tmp_path, caplog, capfd, size):
    caplog.set_level(logging.DEBUG)
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    path = tmp_path / "huge.taskpack.json"
    path.write_bytes(huge_flat(size))
    r = httpx.post(
        f"{server.url}/message:send",
        json=send_body(path, f"m-{size}"),
        headers={**V1, "Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 400, r.text
    message = r.json()["error"]["message"]
    assert f"declares {size} bytes, but its data can hold at most" in message, message
    assert "Error)" not in message and "Traceback" not in message, message
    assert desk_b.store.count() == 0
    logged = caplog.text + "".join(capfd.readouterr())
    assert "Traceback" not in logged and not any(rec.exc_info for rec in caplog.records)
