"""Landing a handoff (`core/desk/landing.py`, spec §3.1, §4.1–§4.3): a new id, the lineage kept,
machine facts sealed, luggage by content, the gate, one landing per pack, nothing stored
from a pack that is damaged or carries a secret, and landing from a held review."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import hostile_zips
import pytest
from desk_machines import Machine, _blobs, _handoff, _leftovers
from taskpack.core.desk import landing, review
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import (
    IntegrityError,
    LandingRefused,
    MergeRefused,
)
from taskpack.core.format import ids
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.pack_writer import convert
from test_refusals import make_secret  # tests/core/trust is on sys.path (pyproject pythonpath)


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


def test_concurrent_landings_make_one_passport(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    home = tmp_path / "B"
    results: list[landing.LandingOutcome] = []
    barrier = threading.Barrier(4)

    def run() -> None:
        store = SqliteStore(home)  # one connection each, like separate processes
        barrier.wait()
        with open_pack(path) as opened:
            results.append(landing.land_handoff(store, opened, machine="B", allow=["*"]))
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
        landing.land_handoff(b.store, opened, machine="B", cancel=lambda: True)
    assert b.store.count() == 0
    assert list((tmp_path / "B" / "blobs" / "tmp").iterdir()) == []
    ticks: list[tuple[int, int]] = []
    with open_pack(path) as opened:
        landing.land_handoff(
            b.store, opened, machine="B", progress=lambda d, t: ticks.append((d, t))
        )
    assert ticks and ticks[-1][0] == ticks[-1][1] == len(b"The brief.\n") + len(b"\x00\x01binary")


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
        out = landing.land(b.store, opened, machine="B", held=held)
    assert scans == []  # the held review's scan is trusted: the digest still matches
    assert isinstance(out, landing.LandingOutcome) and not out.already
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
        landing.land(b.store, opened, machine="B", held=held)
    assert b.store.count() == 0 and _blobs(b) == []
    # and a changed title lands as it is now, not as it was reviewed
    data = hostile_zips.pack_data()
    data["passport"]["title"] = "The title now"
    path.write_bytes(hostile_zips.canonical_json(hostile_zips.flat_doc(passport=data)))
    with open_pack(path) as opened:
        out = landing.land(b.store, opened, machine="B", held=held)
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
