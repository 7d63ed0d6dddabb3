"""Huge numbers and lone surrogates at every JSON path of a flat pack, sent over real
HTTP (`POST /message:send`): each answer is the endpoint's own (a 2xx or a 4xx with a
plain message), never a 500, and the principal's tasks stay readable afterwards.

Deterministic: every node of one hand-made pack, a value of each kind in turn."""

from __future__ import annotations

import copy
import json
import logging

import httpx
from a2a_testkit import V1, flat_pack, issue, send_body

HUGE = [2**63, 2**64, 10**30, 2**62, -(2**63)]
SURROGATES = ["which one? \ud800", "\udfff", "\udbff\udbffx"]


def _nodes(value, path=()):
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def _planted(doc, path, value):
    doc = copy.deepcopy(doc)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


def test_no_planted_value_is_a_500(desk_b, serve, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    server = serve(desk_b)
    token = issue(desk_b, "alice")
    seed = flat_pack(tmp_path / "seed.taskpack.json", title="seed", luggage={"a.bin": b"\xff\x00"})
    doc = json.loads(seed.read_text(encoding="utf-8"))
    headers = {**V1, "Authorization": f"Bearer {token}"}
    answers: dict[int, int] = {}
    failures: list[str] = []
    path = tmp_path / "planted.taskpack.json"
    with httpx.Client(timeout=60) as http:
        for i, where in enumerate(p for p in _nodes(doc) if p):
            for value in (HUGE[i % len(HUGE)], SURROGATES[i % len(SURROGATES)]):
                path.write_text(json.dumps(_planted(doc, where, value)), encoding="ascii")
                r = http.post(
                    f"{server.url}/message:send",
                    json=send_body(path, f"m-{i}-{type(value).__name__}"),
                    headers=headers,
                )
                answers[r.status_code] = answers.get(r.status_code, 0) + 1
                try:
                    body = r.json()
                except ValueError:
                    body = {"error": {"message": f"(not JSON) {r.text[:200]}"}}
                message = body.get("error", {}).get("message", "") if r.status_code >= 400 else ""
                if r.status_code >= 500 or "Error)" in message or "Traceback" in message:
                    failures.append(
                        f"{value!r} at {'/'.join(map(str, where))}: {r.status_code} {message[:200]}"
                    )
        listed = http.get(f"{server.url}/tasks", headers=headers)
    assert not failures, f"{len(failures)} of {sum(answers.values())}:\n" + "\n".join(failures[:20])
    assert listed.status_code == 200, listed.text[:500]
    assert answers.get(200, 0) > 0 and sum(answers.values()) > 60, answers
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records][
        :5
    ]
