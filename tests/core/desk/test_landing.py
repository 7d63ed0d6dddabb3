"""Landing, receipts, restore and packing from the store (spec §3, §3.1, §4.2–§4.4.1)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import hostile_zips
import pytest
from taskpack.core.desk import accept, export, restore, review
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import (
    IntegrityError,
    LandingRefused,
    MergeRefused,
    NotFound,
    Refused,
    RestoreRefused,
)
from taskpack.core.format import ids
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import Ask, Fact, Lineage, LocalPassport, PassportState
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.pack_writer import convert
from test_refusals import make_secret  # tests/core/trust is on sys.path (pyproject pythonpath)


class Machine:
    """One desk's store and name, driven through core only."""

    def __init__(self, root: Path, name: str, allow: tuple[str, ...] = ()) -> None:
        self.name = name
        self.store = SqliteStore(root / name)
        self.allow = list(allow)
        self.actor = f"{name}-person"

    def new(self, **fields: Any) -> str:
        state = PassportState(
            id=ids.new_id(),
            title=fields.pop("title", "Quarterly report"),
            goal=fields.pop("goal", "Ship the Q3 report"),
            current_state=fields.pop("current_state", "half written"),
            facts=fields.pop("facts", []),
            next_steps=fields.pop("next_steps", ["write part 2"]),
        )
        lp = LocalPassport(passport=state, asks=fields.pop("asks", []), landing_checks=[])
        lp.state, lp.waiting_on = "working", None
        for key, value in fields.items():
            setattr(lp, key, value)
        with self.store.write() as tx:
            tx.insert(lp, event="created")
        return lp.id

    def pack(self, pid: str, out: Path, kind: str = "handoff", **kw: Any) -> export.PackOutcome:
        return export.export_passport(
            self.store, pid, out, kind=kind, machine=self.name, actor=self.actor, **kw
        )

    def land(self, path: Path) -> accept.LandingOutcome:
        with open_pack(path) as opened:
            return accept.land_handoff(self.store, opened, machine=self.name, allow=self.allow)

    def merge(self, path: Path, into: str) -> accept.MergeOutcome:
        with open_pack(path) as opened:
            return accept.merge_receipt(self.store, opened, into, machine=self.name)

    def review(self, path: Path) -> review.LandingReview:
        with open_pack(path) as opened:
            return review.review(self.store, opened, machine=self.name, allow=self.allow)

    def edit(self, pid: str, fn: Any) -> None:
        with self.store.write() as tx:
            lp = tx.get(pid)
            fn(lp)
            tx.save(lp, event="edit")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Machine]:
    return {n: Machine(tmp_path, n, allow=("*",) if n != "A" else ()) for n in ("A", "B", "C")}


def _facts() -> list[Fact]:
    return [
        Fact(claim="the build passes", scope="machine", verified=True),
        Fact(claim="the customer wants a PDF", scope="universal", verified=True),
        Fact(claim="the port 8080 is free", verified=True),  # no scope counts as machine
    ]


def _ask(id_: str, what: str) -> Ask:
    return Ask(
        id=id_, to="peer", what=what, why="", accept="a clear answer", status="open", answer=None
    )


# --- packing --------------------------------------------------------------------------


def test_a_fresh_passport_starts_its_own_chain(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(facts=_facts())
    out = a.pack(pid, tmp_path / "h.taskpack", note="over to you")
    assert out.lineage == {"root_id": pid, "from_version": 1, "chain": [f"{pid}@1"]}
    with open_pack(out.path) as opened:
        assert list(opened.data) == [
            "spec",
            "kind",
            "packed_at",
            "origin",
            "lineage",
            "note",
            "passport",
            "asks",
            "landing_checks",
        ]
        assert opened.data["passport"]["id"] == pid
        assert opened.data["origin"]["machine"] == "A"
        assert opened.data["packed_at"].endswith("Z") and len(opened.data["packed_at"]) == 20
        sealed = {f["claim"]: f for f in opened.data["passport"]["facts"]}
        assert sealed["the build passes"]["verified"] is False
        assert sealed["the build passes"]["verified_on"] == "A"
        assert sealed["the customer wants a PDF"]["verified"] is True
    assert a.store.pack_written(out.content_digest) is not None
    # the passport that stays home keeps its own ✓: sealing happens to the pack only
    assert a.store.get(pid).passport.facts[0].verified is True  # type: ignore[index]
    assert [h.event for h in a.store.history(pid)] == ["created", "packed"]


def test_a_refused_pack_records_nothing(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(asks=[Ask(id="a1", what="budget?", status="open")])  # no accept
    with pytest.raises(Refused):
        a.pack(pid, tmp_path / "h.taskpack")
    assert not (tmp_path / "h.taskpack").exists()
    assert [h.event for h in a.store.history(pid)] == ["created"]
    assert a.store.get(pid).state == "working"


def test_open_asks_sent_put_the_passport_in_waiting_human(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "What is the budget?")])
    out = a.pack(pid, tmp_path / "h.taskpack")
    assert out.asks_sent == ["a1"] and out.moved_to == "waiting[human]"
    lp = a.store.get(pid)
    assert (lp.state, lp.waiting_on) == ("waiting", "human")
    # the asks it sent are on the passport that stays home (§4.3)
    assert [x.id for x in lp.asks or []] == ["a1"]
    assert a.store.packs_written(pid)[0].asks == ["a1"]


# --- landing a handoff ----------------------------------------------------------------


def _handoff(
    world: dict[str, Machine], tmp_path: Path, name: str = "h.taskpack"
) -> tuple[str, Path]:
    a = world["A"]
    pid = a.new(facts=_facts(), asks=[_ask("a1", "What is the budget?")])
    a.edit(
        pid,
        lambda lp: setattr(
            lp,
            "checks_to_send",
            [
                {
                    "id": "c1",
                    "check": "this machine can render a PDF",
                    "how": "make pdf && rm -rf ~/tmp",
                    "required": True,
                },
                {"id": "c2", "check": "fonts are installed", "how": "fc-list", "required": False},
            ],
        ),
    )
    luggage = [
        LuggageSource.from_bytes("brief.txt", b"The brief.\n"),
        LuggageSource.from_bytes("../evil name.txt".replace("../", ""), b"\x00\x01binary"),
    ]
    out = a.pack(pid, tmp_path / name, files=luggage, note="Please run the export first.")
    return pid, out.path


def test_landing_a_handoff_mints_a_new_id_and_keeps_the_lineage(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    sender, path = _handoff(world, tmp_path)
    got = world["B"].land(path)
    lp = got.passport
    assert not got.already
    assert ids.is_passport_id(lp.id) and lp.id != sender
    assert lp.lineage is not None
    assert lp.lineage.root_id == sender and lp.lineage.chain == [f"{sender}@2"]
    assert lp.passport.machine_id == "B"
    assert lp.received is not None and lp.received.origin is not None
    assert lp.received.origin.machine == "A" and lp.received.sender_entry == f"{sender}@2"


def test_required_checks_go_first_and_how_is_only_quoted(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    _, path = _handoff(world, tmp_path)
    lp = world["B"].land(path).passport
    steps = lp.passport.next_steps or []
    assert steps[0].startswith("Landing check (required): this machine can render a PDF")
    assert "«make pdf && rm -rf ~/tmp»" in steps[0] and "not run" in steps[0]
    assert steps[1:] == ["write part 2"]  # the optional check is not a step; the sender's follow
    assert [c.id for c in lp.landing_checks or []] == ["c1", "c2"]
    assert lp.landing_checks[0].how == "make pdf && rm -rf ~/tmp"  # type: ignore[index]


def test_machine_facts_arrive_sealed(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    facts = {f.claim: f for f in world["B"].land(path).passport.passport.facts or []}
    for claim in ("the build passes", "the port 8080 is free"):
        assert facts[claim].verified is False and facts[claim].needs_reverify is True
        assert facts[claim].verified_on == "A"
    assert facts["the customer wants a PDF"].verified is True


def test_luggage_is_stored_by_content(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    b = world["B"]
    lp = b.land(path).passport
    stored = {x.name: x for x in b.store.luggage(lp.id)}
    assert set(stored) == {"brief.txt", "evil name.txt"}
    with b.store.open_blob(stored["brief.txt"].sha256) as f:
        assert f.read() == b"The brief.\n"
    assert b.store.blob_path(stored["brief.txt"].sha256).name == stored["brief.txt"].sha256[2:]
    assert b.store.check(hash_blobs=True) == []


def test_the_gate_holds_by_default_and_routes_allowed_senders(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    _, path = _handoff(world, tmp_path)
    held = world["A"].land(path).passport  # A's own gate allows nobody
    assert (held.state, held.waiting_on) == ("waiting", "owner_approval")
    routed = world["B"].land(path).passport
    assert routed.state == "routed"
    moves = [(h.version, h.event, h.detail.get("to")) for h in world["B"].store.history(routed.id)]
    assert moves == [(1, "landed", None), (2, "moved", "routed")]
    assert world["B"].store.get_version(routed.id, 1).state == "requested"


def test_the_same_pack_lands_once_whatever_its_encoding(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    _, path = _handoff(world, tmp_path)
    b = world["B"]
    first = b.land(path)
    again = b.land(path)
    assert again.already and again.id == first.id
    flat = tmp_path / "h.taskpack.json"
    convert(path, flat, machine="A")
    assert b.land(flat).id == first.id
    assert b.store.count() == 1


def test_review_lands_nothing(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    b = world["B"]
    rv = b.review(path)
    assert b.store.count() == 0
    assert rv.kind == "handoff" and rv.initial_state == "routed"
    assert rv.next_steps[0].startswith("Landing check (required)")
    facts = {f.claim: f for f in rv.facts}
    assert facts["the build passes"].verified is False
    assert rv.sealed == []  # our packs arrive already sealed; nothing to repair
    assert rv.to_data()["luggage"][0]["name"] == "brief.txt"
    json.dumps(rv.to_data())  # JSON-ready for --json and the GUI


def test_concurrent_landings_make_one_passport(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    home = tmp_path / "B"
    results: list[accept.LandingOutcome] = []
    barrier = threading.Barrier(4)

    def run() -> None:
        store = SqliteStore(home)  # one connection each, like separate processes
        barrier.wait()
        with open_pack(path) as opened:
            results.append(accept.land_handoff(store, opened, machine="B", allow=["*"]))
        store.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r.id for r in results}) == 1
    assert sorted(r.already for r in results) == [False, True, True, True]
    assert world["B"].store.count() == 1


def test_damaged_luggage_lands_nothing(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    flat = tmp_path / "h.taskpack.json"
    convert(path, flat, machine="A")
    text = flat.read_text(encoding="utf-8").replace("The brief.", "The BRIEF.")
    flat.write_text(text, encoding="utf-8")
    b = world["B"]
    with pytest.raises(IntegrityError):
        b.land(flat)
    assert b.store.count() == 0
    assert list((tmp_path / "B" / "blobs" / "tmp").iterdir()) == []


def test_a_receipt_is_not_landed_as_a_handoff(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new()
    out = a.pack(pid, tmp_path / "r.taskpack", kind="receipt")
    with pytest.raises(MergeRefused, match=f"--into {pid}"):
        world["B"].land(out.path)
    assert world["B"].store.count() == 0


# --- receipts (§4.4.1) ----------------------------------------------------------------


def _three_hops(world: dict[str, Machine], tmp_path: Path) -> dict[str, Any]:
    a, b, c = world["A"], world["B"], world["C"]
    a_id = a.new(asks=[_ask("a1", "What is the budget?")])
    h1 = a.pack(a_id, tmp_path / "h1.taskpack").path
    b_id = b.land(h1).id
    b.edit(b_id, lambda lp: setattr(lp, "asks", [*lp.asks, _ask("a2", "Which font?")]))
    b.edit(b_id, lambda lp: setattr(lp, "state", "working"))
    h2 = b.pack(b_id, tmp_path / "h2.taskpack").path
    c_id = c.land(h2).id
    return {"a": a_id, "b": b_id, "c": c_id, "h1": h1, "h2": h2}


def _answer(m: Machine, pid: str, ask_id: str, answer: str) -> None:
    def fn(lp: LocalPassport) -> None:
        for ask in lp.asks or []:
            if ask.id == ask_id:
                ask.answer, ask.status = answer, "answered"

    m.edit(pid, fn)


def test_receipt_rules_one_to_five(world: dict[str, Machine], tmp_path: Path) -> None:
    a, b, c = world["A"], world["B"], world["C"]
    t = _three_hops(world, tmp_path)
    assert [x.id for x in c.store.get(t["c"]).asks or []] == ["a1", "a2"]
    _answer(c, t["c"], "a1", "5000 EUR")
    _answer(c, t["c"], "a2", "Inter")
    c.edit(t["c"], lambda lp: setattr(lp, "asks", [*lp.asks, _ask("a3", "When is the deadline?")]))
    c.edit(
        t["c"],
        lambda lp: setattr(
            lp.passport, "facts", [Fact(claim="Inter is installed", scope="machine", verified=True)]
        ),
    )
    c.edit(
        t["c"],
        lambda lp: setattr(
            lp,
            "checks_to_send",
            [{"id": "c1", "check": "C has fonts", "how": "fc-list", "required": True}],
        ),
    )
    c.edit(t["c"], lambda lp: setattr(lp.passport, "goal", "C's rewritten goal"))
    r1 = c.pack(t["c"], tmp_path / "r1.taskpack", kind="receipt").path

    # rule 1: only into the entry before the last — B, not A (the root)
    with pytest.raises(MergeRefused, match=f"answers {t['b']}"):
        a.merge(r1, t["a"])
    with pytest.raises(MergeRefused, match="handoff is never merged"):
        b.merge(t["h2"], t["b"])
    before = b.store.get(t["b"])
    assert (before.state, before.waiting_on) == ("waiting", "human")

    merged = b.merge(r1, t["b"])
    after = merged.passport
    # rule 2: answers and statuses written; goal, current state, next steps untouched
    asks = {x.id: x for x in after.asks or []}
    assert (asks["a1"].status, asks["a1"].answer) == ("answered", "5000 EUR")
    assert (asks["a2"].status, asks["a2"].answer) == ("answered", "Inter")
    assert asks["a1"].answered_by == "C-person@C" and asks["a1"].answered_at
    assert after.passport.goal == before.passport.goal
    assert after.passport.current_state == before.passport.current_state
    assert after.passport.next_steps == before.passport.next_steps
    # rule 3: an ask with no counterpart is adopted, open
    assert (asks["a3"].status, asks["a3"].what) == ("open", "When is the deadline?")
    assert merged.adopted == [("a3", "a3")]
    # rule 4: facts arrive sealed
    fact = next(f for f in after.passport.facts or [] if f.claim == "Inter is installed")
    assert (fact.verified, fact.needs_reverify, fact.verified_on) == (False, True, "C")
    # rule 5: the sender's checks are reported, not adopted
    assert [x.check for x in merged.sender_checks] == ["C has fonts"]
    assert after.landing_checks == before.landing_checks
    # every ask B sent is answered: B works again
    assert (after.state, merged.moved_to) == ("working", "working")
    # merging twice changes nothing
    assert b.merge(r1, t["b"]).already
    assert b.store.get(t["b"]).version == after.version

    # B's receipt goes home to A: chain [A, B] → target A
    r2 = b.pack(t["b"], tmp_path / "r2.taskpack", kind="receipt")
    assert r2.lineage["chain"][-1].startswith(t["b"]) and r2.lineage["chain"][0].startswith(t["a"])
    home = a.merge(r2.path, t["a"]).passport
    a1 = next(x for x in home.asks or [] if x.id == "a1")
    assert (a1.status, a1.answer, a1.answered_by) == ("answered", "5000 EUR", "C-person@C")
    assert home.state == "working"  # it was waiting[human] on a1
    assert not any(x.what == "Which font?" for x in home.asks or [])  # B's own downstream ask


def test_a_one_entry_chain_names_its_root(world: dict[str, Machine], tmp_path: Path) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    _answer(a, pid, "a1", "9")
    r = a.pack(pid, tmp_path / "r.taskpack", kind="receipt")
    assert r.lineage["chain"] == [f"{pid}@{a.store.get(pid).version}"]
    with pytest.raises(MergeRefused, match=f"answers {pid}"):
        world["B"].merge(r.path, "TP-2222-2222")
    merged = a.merge(r.path, pid)
    assert not merged.already


def test_a_receipt_for_a_passport_not_here(world: dict[str, Machine], tmp_path: Path) -> None:
    t = _three_hops(world, tmp_path)
    r = world["C"].pack(t["c"], tmp_path / "r.taskpack", kind="receipt")
    with pytest.raises(NotFound, match="not in this desk"):
        world["A"].merge(r.path, t["b"])


def test_an_open_ask_in_a_receipt_never_erases_an_answer(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    _answer(a, pid, "a1", "9")
    other = a.new()
    # a receipt that still has a1 open, answering `pid` (one-entry chain from pid itself)
    a.edit(other, lambda lp: setattr(lp, "asks", [_ask("a1", "Budget?")]))
    a.edit(
        other,
        lambda lp: setattr(lp, "lineage", Lineage(root_id=pid, from_version=1, chain=[f"{pid}@1"])),
    )
    r = a.pack(other, tmp_path / "r.taskpack", kind="receipt")
    merged = a.merge(r.path, pid)
    assert merged.answered == []
    assert next(x for x in merged.passport.asks or []).answer == "9"


def test_same_id_different_question_is_adopted_not_overwritten(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a = world["A"]
    pid = a.new(asks=[_ask("a1", "Budget?")])
    a.pack(pid, tmp_path / "asked.taskpack")  # it asked: its handoff is in the outbox
    other = a.new(
        asks=[Ask(id="a1", what="Colour?", accept="a colour", status="answered", answer="red")]
    )
    a.edit(
        other,
        lambda lp: setattr(lp, "lineage", Lineage(root_id=pid, from_version=1, chain=[f"{pid}@1"])),
    )
    r = a.pack(other, tmp_path / "r.taskpack", kind="receipt")
    merged = a.merge(r.path, pid)
    asks = {x.id: x for x in merged.passport.asks or []}
    assert asks["a1"].what == "Budget?" and asks["a1"].status == "open"
    assert merged.adopted == [("a1", "a2")] and asks["a2"].what == "Colour?"


# --- restoring a ✓ (§4.2) -------------------------------------------------------------


def test_restore_needs_this_machine_and_a_pack_written_here(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a, b = world["A"], world["B"]
    pid = a.new(facts=_facts())
    out = a.pack(pid, tmp_path / "h.taskpack")
    mine = a.land(out.path).id  # the same desk lands its own pack (another harness, same machine)
    ok, reason = restore.restore_check(a.store, mine, 1, machine="A")
    assert ok, reason
    lp, _ = restore.restore_fact(a.store, mine, 1, machine="A")
    assert lp.passport.facts[0].verified is True  # type: ignore[index]
    assert a.store.history(mine)[-1].event == "restored"
    # another machine: refused, and nothing changes
    theirs = b.land(out.path).id
    with pytest.raises(RestoreRefused):
        restore.restore_fact(b.store, theirs, 1, machine="B")
    assert b.store.get(theirs).passport.facts[0].verified is False  # type: ignore[index]
    with pytest.raises(NotFound, match="no fact 9"):
        restore.restore_check(b.store, theirs, 9, machine="B")


def test_restore_refuses_a_hand_made_pack_naming_this_machine(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    data = {
        "taskpack": "0.1",
        "encoding": "flat",
        "note_to_reader": "data",
        "passport": {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "packed_at": "2026-08-16T03:11:04Z",
            "origin": {"actor": "mallory", "machine": "B", "harness": "hand"},
            "lineage": {"root_id": "TP-MMMM-MMMM", "from_version": 1, "chain": ["TP-MMMM-MMMM@1"]},
            "note": "",
            "passport": {
                "id": "TP-MMMM-MMMM",
                "title": "t",
                "goal": "g",
                "facts": [
                    {
                        "claim": "the disk is encrypted",
                        "scope": "machine",
                        "verified": False,
                        "needs_reverify": True,
                        "verified_on": "B",
                    }
                ],
            },
            "asks": [],
            "landing_checks": [],
        },
        "attachments": [],
    }
    path = tmp_path / "hand.taskpack.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    pid = b.land(path).id
    ok, reason = restore.restore_check(b.store, pid, 1, machine="B")
    assert not ok and reason
    with pytest.raises(RestoreRefused):
        restore.restore_fact(b.store, pid, 1, machine="B")


def test_a_pack_without_lineage_keeps_the_senders_id(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    data = {
        "taskpack": "0.1",
        "encoding": "flat",
        "passport": {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "passport": {
                "id": "TP-OLD1-OLD1",
                "version": 4,
                "title": "t",
                "goal": "g",
                "facts": [{"claim": "it runs", "verified": True}],
            },
            "asks": [{"what": "budget?", "accept": "a number"}],
        },
        "attachments": [],
    }
    path = tmp_path / "bare.taskpack.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    got = world["B"].land(path)
    lp = got.passport
    assert lp.lineage is not None and lp.lineage.chain == ["TP-OLD1-OLD1@4"]
    assert [x.id for x in lp.asks or []] == ["a1"]  # answerable
    assert lp.received is not None
    assert any("no lineage" in n for n in lp.received.notes or [])
    # a hand-made pack with a ✓ on an unscoped fact: landing seals it and says so
    assert got.review.sealed and lp.passport.facts[0].verified is False  # type: ignore[index]


def test_progress_follows_the_luggage_and_cancel_lands_nothing(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    from taskpack.core.errors import Cancelled

    _, path = _handoff(world, tmp_path)
    b = world["B"]
    with open_pack(path) as opened, pytest.raises(Cancelled):
        accept.land_handoff(b.store, opened, machine="B", cancel=lambda: True)
    assert b.store.count() == 0
    assert list((tmp_path / "B" / "blobs" / "tmp").iterdir()) == []
    ticks: list[tuple[int, int]] = []
    with open_pack(path) as opened:
        accept.land_handoff(
            b.store, opened, machine="B", progress=lambda d, t: ticks.append((d, t))
        )
    assert ticks and ticks[-1][0] == ticks[-1][1] == len(b"The brief.\n") + len(b"\x00\x01binary")


# --- secrets are not landed (issue 10.12) ---------------------------------------------


def _blobs(m: Machine) -> list[Path]:
    return [p for p in (m.store.blob_root / "sha256").rglob("*") if p.is_file()]


def _leftovers(m: Machine) -> list[Path]:
    return [p for p in (m.store.blob_root / "tmp").iterdir()]


def test_a_handoff_carrying_a_token_in_a_field_is_refused_and_nothing_is_stored(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    secret = make_secret("github-ghp")
    data = hostile_zips.pack_data()
    data["passport"]["current_state"] = f"deploy with {secret}"
    path = tmp_path / "leaky.taskpack.json"
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [hostile_zips.attachment("brief.txt", b"The brief.\n")], passport=data
            )
        )
    )
    rv = b.review(path)  # the review shows the same finding before Land
    assert [(f.kind, f.place) for f in rv.secrets] == [("GitHub token", "passport.current_state")]
    with pytest.raises(LandingRefused) as caught:
        b.land(path)
    message = str(caught.value)
    assert "GitHub token" in message and "passport.current_state" in message
    assert "rotate" in message and "clean pack" in message and "Nothing was stored" in message
    assert secret not in message and secret[-12:] not in message
    assert caught.value.exit_code == 2 and caught.value.code == "landing_refused"
    assert caught.value.params["findings"][0]["place"] == "passport.current_state"
    assert b.store.count() == 0 and _blobs(b) == [] and _leftovers(b) == []


def test_a_token_deep_in_luggage_is_refused_before_any_blob_is_stored(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    secret = make_secret("github-ghp")
    dump = b"\x00" * 300_000 + secret.encode() + b"\x00"  # past the small-text limit
    path = tmp_path / "leaky.taskpack.json"
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [
                    hostile_zips.attachment("brief.txt", b"The brief.\n"),
                    hostile_zips.attachment("dump.bin", dump),
                ]
            )
        )
    )
    assert [f.kind for f in b.review(path).secrets] == ["GitHub token"]
    with pytest.raises(LandingRefused, match=r"GitHub token at dump\.bin"):
        b.land(path)
    assert b.store.count() == 0 and _blobs(b) == [] and _leftovers(b) == []


def test_a_receipt_with_a_token_pasted_into_an_answer_is_not_merged(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    a, b = world["A"], world["B"]
    a_id = a.new(asks=[_ask("a1", "Which API key do we use?")])
    b_id = b.land(a.pack(a_id, tmp_path / "h.taskpack").path).id
    _answer(b, b_id, "a1", "the usual one")
    receipt = b.pack(b_id, tmp_path / "r.taskpack.json", kind="receipt").path
    doc = json.loads(receipt.read_text(encoding="utf-8"))
    secret = make_secret("github-ghp")
    doc["passport"]["asks"][0]["answer"] = f"use {secret}"
    receipt.write_text(json.dumps(doc), encoding="utf-8")
    before = a.store.get(a_id).version
    with pytest.raises(LandingRefused, match=r"GitHub token at asks\[0\]\.answer") as caught:
        a.merge(receipt, a_id)
    assert secret[-12:] not in str(caught.value)
    assert a.store.get(a_id).version == before  # nothing merged
    assert (a.store.get(a_id).asks or [])[0].status == "open"


def test_a_chat_transcript_in_a_handoff_is_refused(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    data = hostile_zips.pack_data(note="User: can you fix it?\nAssistant: Sure, here is the fix.\n")
    path = tmp_path / "chat.taskpack"
    path.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    with pytest.raises(LandingRefused, match=r"chat transcript at note"):
        b.land(path)
    assert b.store.count() == 0


# --- landing from a held review -------------------------------------------------------


def test_landing_from_a_held_review_reads_the_luggage_once_to_store_it(
    world: dict[str, Machine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = world["B"]
    _pid, path = _handoff(world, tmp_path)
    held = b.review(path)
    scans: list[str] = []
    real = review.StreamScanner

    def counting(name: str, **kw: Any) -> Any:
        scans.append(name)
        return real(name, **kw)

    monkeypatch.setattr(review, "StreamScanner", counting)
    with open_pack(path) as opened:
        out = accept.accept(b.store, opened, machine="B", held=held)
    assert scans == []  # the held review's scan is trusted: the digest still matches
    assert isinstance(out, accept.LandingOutcome) and not out.already
    assert sorted(x.name for x in b.store.luggage(out.id)) == ["brief.txt", "evil name.txt"]
    assert held.already is None  # the holder's review was not changed behind its back


def test_a_file_changed_since_its_review_is_read_again_not_trusted(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    b = world["B"]
    path = tmp_path / "h.taskpack.json"
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc([hostile_zips.attachment("brief.txt", b"The brief.\n")])
        )
    )
    held = b.review(path)
    assert held.secrets == []
    # the file is replaced after the person looked at it: now it carries a token
    secret = make_secret("github-ghp")
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [hostile_zips.attachment("brief.txt", f"The brief. {secret}\n".encode())]
            )
        )
    )
    with (
        open_pack(path) as opened,
        pytest.raises(LandingRefused, match=r"GitHub token at brief\.txt"),
    ):
        accept.accept(b.store, opened, machine="B", held=held)
    assert b.store.count() == 0 and _blobs(b) == []
    # and a changed title lands as it is now, not as it was reviewed
    data = hostile_zips.pack_data()
    data["passport"]["title"] = "The title now"
    path.write_bytes(hostile_zips.canonical_json(hostile_zips.flat_doc(passport=data)))
    with open_pack(path) as opened:
        out = accept.accept(b.store, opened, machine="B", held=held)
    assert out.passport.passport.title == "The title now"


def test_what_a_landed_passport_carries_is_typed_and_stored_as_before(
    world: dict[str, Machine], tmp_path: Path
) -> None:
    """`received` and `checks_to_send` are typed records; the stored JSON keeps its keys."""
    a, b = world["A"], world["B"]
    pid, path = _handoff(world, tmp_path)
    assert [c.check for c in a.store.get(pid).checks_to_send or []] == [
        "this machine can render a PDF",
        "fonts are installed",
    ]
    lp = b.land(path).passport
    assert lp.received is not None and lp.received.asks == ["a1"]
    stored = lp.to_data()["received"]
    assert list(stored)[:5] == ["kind", "origin", "note", "packed_at", "from"]
    assert stored["from"] == f"{pid}@2" and stored["pack_sha256"] == lp.received.pack_sha256
    again = b.store.get(lp.id)  # read back from the database: the same typed record
    assert again.received == lp.received


def test_every_error_says_its_code_params_and_exit_code() -> None:
    """The window translates by code and params; the CLI ends with the class's exit code."""
    from taskpack.core import errors

    refused = errors.LandingRefused([errors.Finding("credential", "GitHub token", "note")])
    assert (refused.code, refused.exit_code) == ("landing_refused", 2)
    assert refused.params["findings"] == [
        {"rule": "credential", "kind": "GitHub token", "place": "note", "detail": ""}
    ]
    wrong = errors.MergeRefused("x", code="merge_wrong_target", params={"target": "A", "into": "B"})
    assert (wrong.code, wrong.exit_code, wrong.params["into"]) == ("merge_wrong_target", 2, "B")
    assert errors.NotFound("gone").exit_code == 1 and errors.Cancelled().exit_code == 130
    assert errors.FormatError("bad", place="kind").params == {"place": "kind"}
    # every class in the tree is drawn in the module's docstring, with a code of its own
    classes = [
        c
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, errors.TaskPackError)
    ]
    doc = errors.__doc__ or ""
    assert all(c.__name__ in doc for c in classes), [
        c.__name__ for c in classes if c.__name__ not in doc
    ]
    codes = [c.code for c in classes]
    assert len(set(codes)) == len(codes), codes
    assert errors.sentence(FileNotFoundError(2, "No such file", "/x")).endswith("permissions.")
    assert "KeyError" in errors.sentence(
        KeyError("secret-value")
    ) and "secret" not in errors.sentence(KeyError("secret-value"))
