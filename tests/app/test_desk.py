"""The Desk service as the window and the endpoint use it."""

from __future__ import annotations

from pathlib import Path

from taskpack.app.desk import Desk
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.pack_writer import convert


def test_landed_as_answers_whether_a_pack_is_already_here(tmp_path: Path) -> None:
    sender = Desk(tmp_path / "a", "machine-a")
    receiver = Desk(tmp_path / "b", "machine-b")
    lp = sender.new("Invoice export", "CSV for finance")
    out = sender.pack(lp.id, tmp_path / "h.taskpack").path
    with open_pack(out) as opened:
        digest = opened.content_digest()
    assert receiver.landed_as(digest) is None  # not news yet: the watcher shows it
    landed = receiver.land(out)
    assert receiver.landed_as(digest) == landed.passport.id
    # the flat form of the same pack carries the same content: it is already here too
    flat = convert(out, tmp_path / "h.taskpack.json", machine="machine-c").path
    with open_pack(flat) as opened:
        assert receiver.landed_as(opened.content_digest()) == landed.passport.id


def test_checked_here_records_new_evidence_on_this_machine(tmp_path: Path) -> None:
    from taskpack.app.desk import is_checked_here
    from taskpack.core.trust.sealing import standing

    sender = Desk(tmp_path / "a", "machine-a", actor="ana")
    receiver = Desk(tmp_path / "b", "machine-b", actor="wei")
    lp = sender.new("Invoice export", "CSV for finance")
    sender.add_fact(lp.id, "port 5432 answers", scope="machine", verified=True)
    sender.add_check(lp.id, "the billing database is reachable", how="psql -c 'select 1'")
    out = sender.pack(lp.id, tmp_path / "h.taskpack").path
    pid = receiver.land(out).passport.id
    assert (
        standing(receiver.get(pid).passport.facts[0], machine="machine-b").kind == "unproven_here"
    )

    fact = receiver.check_fact_here(pid, 1).passport.facts[0]
    assert (fact.verified, fact.needs_reverify, fact.scope) == (True, False, "machine")
    assert (fact.verified_on, fact.verified_by) == ("machine-b", "wei")
    assert standing(fact, machine="machine-b").text == "✓ proven here (machine-b)"

    [check] = receiver.get(pid).landing_checks
    assert not is_checked_here(check, "machine-b")
    after = receiver.check_landing_here(pid, check.id or "")
    assert is_checked_here(after.landing_checks[0], "machine-b")
    assert not is_checked_here(after.landing_checks[0], "machine-a")  # a team desk's other machine
    added = after.passport.facts[-1]
    assert added.claim == "the billing database is reachable"  # where: verified_on
    assert (added.verified, added.verified_on, added.verified_by) == (True, "machine-b", "wei")
    events = [(h.event, h.detail.get("by")) for h in receiver.history(pid)]
    assert events[-2:] == [("checked", "wei"), ("checked", "wei")]


def test_the_poll_for_changes_elsewhere_never_waits_for_a_write_in_progress(
    tmp_path: Path,
) -> None:
    """The window's poll runs on the GUI thread: a worker thread holding a write
    transaction open must not hold it up."""
    import threading

    desk = Desk(tmp_path / "d", "machine-a")
    other = Desk(tmp_path / "d", "machine-a")
    lp = desk.new("Invoice export", "CSV for finance")
    theirs = other.new("Their task", "made by another process")
    holding, release = threading.Event(), threading.Event()

    def worker() -> None:
        with desk.store.write() as tx:
            mine = tx.get(lp.id)
            mine.passport.title = "Invoice export, renamed"
            tx.save(mine, event="checkpoint")
            holding.set()
            release.wait(timeout=20)

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert holding.wait(timeout=20)
        seen = desk.changes_elsewhere()
        answered_while_held = not release.is_set()
    finally:
        release.set()
        thread.join()
    assert answered_while_held
    assert seen[-1] == theirs.id  # what the other desk made is news
    assert desk.changes_elsewhere() == []  # the worker's own commit is not news
    desk.close()
    other.close()
