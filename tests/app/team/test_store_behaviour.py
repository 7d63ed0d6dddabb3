"""What every store does, run on both: the embedded SQLite desk and the PostgreSQL team
desk ("the same behaviour tests run against both stores")."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from taskpack.core.errors import IntegrityError, VersionConflict
from team_helpers import MakeDesk, sender_pack, wait_for


def test_every_change_is_a_new_version_with_its_history(make_desk: MakeDesk) -> None:
    desk = make_desk()
    lp = desk.new("Invoice export", "CSV for finance")
    desk.add_fact(lp.id, "the export runs nightly")
    desk.decide(lp.id, "CSV, not XLSX", "finance asked")
    back = desk.get(lp.id)
    assert back.version == 3
    assert [h.event for h in desk.history(lp.id)] == ["created", "fact", "decision"]
    assert desk.get_version(lp.id, 1).passport.facts == []
    assert [s.id for s in desk.passports()] == [lp.id]


def test_two_saves_over_one_version_one_wins_and_the_other_reads_again(
    make_desk: MakeDesk,
) -> None:
    ana, wei = make_desk("alpha", "ana"), make_desk("beta", "wei")
    lp = ana.new("Invoice export", "CSV for finance")
    state = {"current_state": "half done"}
    ana.checkpoint(lp.id, state, expected_version=lp.version)
    with pytest.raises(VersionConflict, match="is at version 2, not 1"):
        wei.checkpoint(lp.id, {"current_state": "mine"}, expected_version=lp.version)
    assert wei.get(lp.id).passport.current_state == "half done"
    wei.checkpoint(lp.id, {"current_state": "mine"}, expected_version=2)
    assert ana.get(lp.id).passport.current_state == "mine"


def test_the_same_pack_landed_on_two_desks_of_one_store_is_one_passport(
    make_desk: MakeDesk, tmp_path: Path
) -> None:
    data = bytes(range(256)) * 20_000  # 5 MB: more than one chunk row on a team desk
    pack = sender_pack(tmp_path, luggage=data)
    ana, wei = make_desk("alpha", "ana"), make_desk("beta", "wei")
    first = ana.land(pack)
    again = wei.land(pack)
    assert not first.already and again.already
    assert again.passport.id == first.passport.id
    assert len(wei.passports()) == 1
    [item] = wei.luggage(first.passport.id)
    assert item.sha256 == hashlib.sha256(data).hexdigest()
    with wei.open_luggage(first.passport.id, item.name) as f:
        assert f.read() == data


def test_another_desks_changes_are_seen_and_ones_own_are_not(make_desk: MakeDesk) -> None:
    ana, wei = make_desk("alpha", "ana"), make_desk("beta", "wei")
    mine = ana.new("Mine", "made here")
    assert ana.changes_elsewhere() == []
    theirs = wei.new("Theirs", "made over there")
    seen = wait_for(ana.changes_elsewhere)
    assert isinstance(seen, list) and seen[-1] == theirs.id
    assert mine.id not in seen or seen.index(mine.id) < seen.index(theirs.id)
    assert ana.changes_elsewhere() == []


def test_the_poll_never_waits_for_a_write_in_progress(make_desk: MakeDesk) -> None:
    ana, wei = make_desk("alpha", "ana"), make_desk("beta", "wei")
    lp = ana.new("Invoice export", "CSV for finance")
    wei.new("Theirs", "made over there")
    holding, release = threading.Event(), threading.Event()

    def worker() -> None:
        with ana.store.write() as tx:
            tx.log(lp.id, "note")
            holding.set()
            release.wait(timeout=20)

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert holding.wait(timeout=20)
        seen = wait_for(ana.changes_elsewhere)
        answered_while_held = not release.is_set()
    finally:
        release.set()
        thread.join()
    assert answered_while_held and seen


def test_packing_records_the_pack_in_the_outbox(make_desk: MakeDesk, tmp_path: Path) -> None:
    desk = make_desk()
    lp = desk.new("Invoice export", "CSV for finance")
    out = desk.pack(lp.id, tmp_path / "out.taskpack", to="finance")
    [entry] = desk.outbox()
    assert (entry.passport_id, entry.kind, entry.to) == (lp.id, "handoff", "finance")
    assert entry.path == str(out.path)
    assert desk.sent(entry.seq) == entry


def test_a_blob_is_filed_under_its_own_digest_and_a_wrong_claim_is_refused(
    make_desk: MakeDesk,
) -> None:
    store = make_desk().store
    data = b"luggage bytes" * 1000
    real = hashlib.sha256(data).hexdigest()
    with pytest.raises(IntegrityError, match="do not match its declared sha256"):
        store.put_blob(io.BytesIO(data), expected_sha256="ab" * 32)
    assert not store.has_blob("ab" * 32) and not store.has_blob(real)
    assert store.put_blob(io.BytesIO(data)) == (real, len(data))
    with store.open_blob(real) as f:
        assert f.read() == data


def test_the_store_checks_itself_whole(make_desk: MakeDesk, tmp_path: Path) -> None:
    desk = make_desk()
    desk.land(sender_pack(tmp_path, luggage=b"x" * 1000))
    assert desk.store.check(hash_blobs=True) == []


def test_reads_inside_a_write_see_it_and_many_writers_at_once_finish(make_desk: MakeDesk) -> None:
    from concurrent.futures import ThreadPoolExecutor

    desk = make_desk()
    ids = [desk.new(f"Task {n}", "parallel").id for n in range(12)]

    def note(pid: str) -> bool:
        with desk.store.write() as tx:
            tx.log(pid, "note")
            return desk.store.exists(pid) and len(desk.store.history(pid)) == 2

    with ThreadPoolExecutor(max_workers=12) as pool:  # more writers than connections
        assert all(pool.map(note, ids))


def test_a_fact_proven_by_another_machine_reads_the_same_on_both_stores(
    make_desk: MakeDesk, tmp_path: Path
) -> None:
    """Alpha verified it: alpha's `taskpack open` says "proven here", beta's says it is
    not proven there — in one sentence, whichever store it is (a team desk, or one home
    opened under another machine's name)."""
    ana = make_desk("alpha", "ana")
    lp = ana.new("Invoice export", "CSV for finance")
    ana.add_fact(lp.id, "port 5432 answers", scope="machine", verified=True)

    def fact_line(machine: str, home: Path) -> str:
        env = dict(os.environ, TASKPACK_HOME=str(home), TASKPACK_MACHINE=machine)
        env.update(TASKPACK_ACTOR=machine, TASKPACK_NO_PROGRESS="1", PYTHONIOENCODING="utf-8")
        shown = subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", "open", lp.id],
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert shown.returncode == 0, shown.stderr
        [line] = [x.strip() for x in shown.stdout.splitlines() if "port 5432 answers" in x]
        return line

    beta_home = ana.home if make_desk.kind == "sqlite" else tmp_path / "beta-home"
    assert "✓ proven here (alpha)" in fact_line("alpha", ana.home)
    assert fact_line("beta", beta_home).endswith(
        "⚠ marked verified on alpha, not sealed: not proven here"
    )
