"""Changing one item of a passport, taking a file off its luggage, and the handoff preview
(the writer's own sealing and scanner, nothing written)."""

from __future__ import annotations

from pathlib import Path

import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import NotFound, UsageError, VersionConflict


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    d = Desk(tmp_path / "home", "alpha", actor="Wei")
    yield d
    d.close()


def test_revise_changes_and_removes_each_kind(desk: Desk) -> None:
    pid = desk.new("T", "G").id
    desk.add_fact(pid, "Old claim", scope="machine")
    desk.decide(pid, "Keep CSV", "Finance")
    desk.add_next(pid, "Step one")
    desk.add_ask(pid, "Who signs?", "A name and an email address")
    desk.add_check(pid, "DB reachable", how="psql", required=True)
    v = desk.get(pid).version
    lp = desk.revise(
        pid,
        "fact",
        1,
        {"claim": "New claim", "scope": "machine", "verified": True, "source": "ran it"},
        expected_version=v,
    )
    fact = lp.passport.facts[0]
    assert (fact.claim, fact.verified, fact.verified_on, fact.source) == (
        "New claim",
        True,
        "alpha",
        "ran it",
    )
    lp = desk.revise(
        pid,
        "ask",
        1,
        {"what": "Who signs off?", "why": "", "accept": "A name", "to": "finance"},
        expected_version=lp.version,
    )
    assert (lp.asks[0].id, lp.asks[0].what, lp.asks[0].to) == ("a1", "Who signs off?", "finance")
    lp = desk.revise(
        pid,
        "check",
        1,
        {"check": "DB up", "how": "", "required": False},
        expected_version=lp.version,
    )
    assert (lp.checks_to_send[0].check, lp.checks_to_send[0].required) == ("DB up", False)
    for kind in ("decision", "step", "fact", "ask", "check"):
        lp = desk.revise(pid, kind, 1, None, expected_version=lp.version)
    assert not lp.passport.facts and not lp.passport.decisions and not lp.passport.next_steps
    assert not lp.asks and not lp.checks_to_send


def test_a_stale_revision_is_refused_and_changes_nothing(desk: Desk) -> None:
    pid = desk.new("T", "G").id
    desk.add_next(pid, "Step one")
    read = desk.get(pid).version
    desk.add_next(pid, "Step two")  # someone else, meanwhile
    with pytest.raises(VersionConflict):
        desk.revise(pid, "step", 1, None, expected_version=read)
    assert desk.get(pid).passport.next_steps == ["Step one", "Step two"]


def test_revise_checks_what_adding_checks(desk: Desk) -> None:
    pid = desk.new("T", "G").id
    desk.add_ask(pid, "Who signs?", "A name and an email address")
    v = desk.get(pid).version
    with pytest.raises(UsageError, match="accept"):
        desk.revise(pid, "ask", 1, {"what": "Who signs?", "accept": " "}, expected_version=v)
    with pytest.raises(UsageError, match="no fact 1"):
        desk.revise(pid, "fact", 1, None, expected_version=v)


def test_remove_luggage(desk: Desk, tmp_path: Path) -> None:
    pid = desk.new("T", "G").id
    a, b = tmp_path / "a.csv", tmp_path / "b.txt"
    a.write_text("x,y\n")
    b.write_text("notes\n")
    desk.attach(pid, [a, b])
    assert [i.name for i in desk.remove_luggage(pid, "a.csv")] == ["b.txt"]
    with pytest.raises(NotFound):
        desk.remove_luggage(pid, "a.csv")


def test_the_preview_is_sealed_as_the_writer_seals_and_says_what_refuses(
    desk: Desk, tmp_path: Path
) -> None:
    pid = desk.new("T", "G").id
    desk.add_fact(pid, "Runs in 40 s here", scope="machine", verified=True)
    desk.add_fact(pid, "Stays CSV", scope="universal", verified=True)
    desk.add_ask(pid, "Who signs?", "A name and an email address")
    preview = desk.preview_handoff(
        pid, note="deploy key ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    )
    machine_fact, universal = preview.pack.facts
    assert (machine_fact.verified, machine_fact.needs_reverify, machine_fact.verified_on) == (
        False,
        True,
        "alpha",
    )
    assert universal.verified is True
    assert [f.place for f in preview.refusals] == ["note"]
    assert "GitHub" in preview.refusals[0].kind
    # the file written from the same passport carries the same sealing
    out = tmp_path / "h.taskpack.json"
    desk.pack(pid, out)
    assert "needs_reverify" in out.read_text()
    clean = desk.preview_handoff(pid, note="Checks first")
    assert clean.refusals == [] and [a.what for a in clean.pack.asks] == ["Who signs?"]


def test_scanning_the_luggage_reads_each_byte_once(desk: Desk, tmp_path: Path) -> None:
    pid = desk.new("T", "G").id
    f = tmp_path / "env.txt"
    f.write_text("x = 1\n" * 1000 + "deploy key ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n")
    desk.attach(pid, [f])
    seen: list[int] = []
    found = desk.scan_luggage(pid, progress=lambda done, total: seen.append(done))
    assert found and found[0].place.startswith("env.txt")
    assert seen[-1] == f.stat().st_size
