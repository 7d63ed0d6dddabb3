"""One (principal, messageId), two payloads, two `taskpack serve` processes on one
embedded desk, at the same moment: one lands whole, the other gets 409
DUPLICATE_MESSAGE_ID and lands nothing — no orphan passport, no receipt's answer merged
by the refused one, no 400 "passport changed". The same payload again gets its result."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from a2a_testkit import V1, flat_pack, issue, make_desk, send_body
from claim_race import one_won, race, serve_processes, task_id
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.desk import Desk

pytestmark = pytest.mark.skipif(os.name != "posix", reason="several processes need POSIX")

ROUNDS = 10


def _post(url: str, token: str, pack: Path, message_id: str) -> httpx.Response:
    return httpx.post(
        f"{url}/message:send",
        json=send_body(pack, message_id),
        headers={**V1, "Authorization": f"Bearer {token}"},
        timeout=60,
    )


def handoff_rounds(tmp_path: Path, rounds: int) -> list[tuple[str, Path, Path]]:
    return [
        (
            f"m-{n}",
            flat_pack(tmp_path / f"one-{n}.taskpack.json", title=f"one {n}"),
            flat_pack(tmp_path / f"two-{n}.taskpack.json", title=f"two {n}"),
        )
        for n in range(rounds)
    ]


def check_handoffs(urls: list[str], token: str, tmp_path: Path, desk: Desk) -> None:
    rounds = handoff_rounds(tmp_path, ROUNDS)
    landed = {}
    for (message_id, one, two), responses in zip(rounds, race(urls, token, rounds), strict=True):
        winner, response = one_won(responses)
        landed[task_id(response)] = f"{('one', 'two')[winner]} {message_id[2:]}"
        # afterwards, each payload again at either server: its own result, or 409
        won, lost = (one, two) if winner == 0 else (two, one)
        again = _post(urls[1 - winner], token, won, message_id)
        assert again.status_code == 200 and task_id(again) == task_id(response), again.text
        assert _post(urls[winner], token, lost, message_id).status_code == 409
    titles = {s.id: s.title for s in desk.passports()}
    assert titles == landed  # one passport per messageId: the winner's, and no orphan


def _receipt(desk: Desk, handoff: Path, answer: str, out: Path) -> Path:
    landed = desk.land(handoff).passport
    desk.answer(landed.id, landed.asks[0].id, answer)
    desk.pack(landed.id, out, kind="receipt")
    return out


def check_receipts(
    urls: list[str], token: str, tmp_path: Path, desk: Desk, store: A2AStore, rounds: int
) -> None:
    """Two peers answer one ask differently; both receipts are pushed under one messageId."""
    peer_x, peer_y = make_desk(tmp_path, "peer-x"), make_desk(tmp_path, "peer-y")
    try:
        planned, asked = [], []
        for n in range(rounds):
            lp = desk.new(f"asked {n}", "get an answer")
            desk.add_ask(lp.id, "Which colour?", "one word")
            handoff = tmp_path / f"asked-{n}.taskpack"
            desk.pack(lp.id, handoff)
            store.record_sent(
                url="http://peer.invalid",
                remote_task_id=f"remote-{n}",
                context_id=None,
                message_id=f"sent-{n}",
                pack_sha256="0" * 64,
                local_passport=lp.id,
                kind="handoff",
                token_name=None,
                peer="alice",
            )
            x = _receipt(peer_x, handoff, f"red {n}", tmp_path / f"x-{n}.taskpack")
            y = _receipt(peer_y, handoff, f"blue {n}", tmp_path / f"y-{n}.taskpack")
            planned.append((f"r-{n}", x, y))
            asked.append(lp.id)
        for n, responses in enumerate(race(urls, token, planned)):
            winner, response = one_won(responses)
            assert task_id(response) == asked[n]
            lp = desk.get(asked[n])
            assert lp.asks[0].answer == f"{('red', 'blue')[winner]} {n}"
            merges = [h for h in desk.history(asked[n]) if h.event == "merged"]
            assert len(merges) == 1
    finally:
        peer_x.close()
        peer_y.close()


def test_one_message_id_two_payloads_two_processes_one_landing(tmp_path: Path) -> None:
    desk = make_desk(tmp_path, "desk")
    try:
        token = issue(desk, "alice")
        with serve_processes(desk.home) as urls:
            check_handoffs(urls, token, tmp_path, desk)
    finally:
        desk.close()


def test_one_message_id_two_receipts_two_processes_one_answer(tmp_path: Path) -> None:
    desk = make_desk(tmp_path, "desk")
    try:
        token = issue(desk, "alice")
        with A2AStore(desk.home) as store, serve_processes(desk.home) as urls:
            check_receipts(urls, token, tmp_path, desk, store, rounds=4)
    finally:
        desk.close()
