"""A pack with many asks lands from its held review without a model per ask, and is
stored exactly as an ordinary landing stores it (a 100,000-ask landing helper
peaked at 934 MB holding the asks four times over)."""

from __future__ import annotations

import gc
import json
import pickle
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from taskpack.app.desk import Desk
from taskpack.core.desk import sqlite_tx
from taskpack.core.format.model import Ask
from taskpack.core.format.reading import content_digest, open_pack
from taskpack.core.format.record_pages import AskPages
from taskpack.ui import ops

ASKS = 1_000


def many_asks_pack(root: Path, asks: int = ASKS, *, ids: bool = True) -> Path:
    """A flat pack made by a real desk, then given `asks` asks (some without an id)."""
    with Desk(root / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Many asks", "Land them all").id
        sender.add_fact(pid, "The build passes here", scope="machine", verified=True)
        flat = root / "many.taskpack.json"
        sender.pack(pid, flat, encoding="flat")
    doc = json.loads(flat.read_text(encoding="utf-8"))
    doc["passport"]["asks"] = [
        {
            **({"id": f"a{n}"} if ids or n % 2 else {}),
            "to": "peer",
            "what": f"Question {n}: A or B — ü?",
            "accept": "A or B",
            "status": "open",
            "answer": None,
        }
        for n in range(1, asks + 1)
    ]
    flat.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return flat


def live_asks() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Ask))


def rows(home: Path) -> list[str]:
    """Every passport text the store holds (current and each version), ids and times masked."""
    db = next(
        p for p in home.rglob("*") if p.is_file() and p.suffix in (".db", ".sqlite", ".sqlite3")
    )
    with sqlite3.connect(db) as c:
        texts = [r[0] for r in c.execute("SELECT data FROM passports")]
        texts += [r[0] for r in c.execute("SELECT data FROM versions ORDER BY version")]
    masked = [re.sub(r"TP-[0-9A-Z]{4}-[0-9A-Z]{4}", "TP-?", t) for t in texts]
    return [re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z", "T", t) for t in masked]


def held_review(desk: Desk, path: Path) -> Any:
    """The review as the window holds it for a large pack: made as a helper makes it,
    then unpickled as the landing helper does."""
    made = ops.review_elsewhere(desk, path, lambda *a: None, lambda: False)
    assert made.review_pickle is not None
    return pickle.loads(made.review_pickle)


def test_a_held_review_keeps_its_asks_as_pages_not_models(tmp_path: Path) -> None:
    pack = many_asks_pack(tmp_path)
    with Desk(tmp_path / "recv", "recv-box", actor="Ru") as desk:
        held = ops.review_elsewhere(desk, pack, lambda *a: None, lambda: False).review_pickle
    assert held is not None
    review = pickle.loads(held)
    assert isinstance(review.asks, AskPages) and len(review.asks) == ASKS
    # the review and its sealed pack share the asks: the pickle carries them once, not twice
    assert len(held) < 1.5 * len(pickle.dumps(review.asks))
    assert review.asks[ASKS - 1].what == f"Question {ASKS}: A or B — ü?"


def test_landing_from_a_held_review_builds_no_model_per_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = many_asks_pack(tmp_path)
    seen: list[int] = []
    insert = sqlite_tx.SqliteTx.insert

    def counting_insert(self: Any, lp: Any, **kw: Any) -> Any:
        seen.append(live_asks())  # every Ask model alive while the passport is stored
        return insert(self, lp, **kw)

    with Desk(tmp_path / "recv", "recv-box", actor="Ru") as desk:
        review = held_review(desk, pack)
        before = live_asks()  # (other tests in this process may have left some alive)
        monkeypatch.setattr(sqlite_tx.SqliteTx, "insert", counting_insert)
        outcome = desk.land(pack, review=review)
        made = seen[0] - before if seen else None
        assert made is not None and made < 50, f"{made} Ask models made while storing {ASKS} asks"
        assert not outcome.already and len(outcome.passport.asks) == ASKS
        back = desk.get(outcome.passport.id)
    assert [a.id for a in back.asks] == [f"a{n}" for n in range(1, ASKS + 1)]
    assert back.received is not None and back.received.asks == [f"a{n}" for n in range(1, ASKS + 1)]


def test_a_landing_from_pages_stores_the_same_text_as_an_ordinary_one(tmp_path: Path) -> None:
    pack = many_asks_pack(tmp_path)
    with Desk(tmp_path / "held", "recv-box", actor="Ru") as desk:
        desk.land(pack, review=held_review(desk, pack))
    with Desk(tmp_path / "plain", "recv-box", actor="Ru") as desk:
        desk.land(pack)  # no review: read afresh, models all the way
    held, plain = rows(tmp_path / "held"), rows(tmp_path / "plain")
    assert len(held) == len(plain) == 3  # the passport, version 1 (landed), version 2 (moved)
    assert held == plain


def test_asks_without_ids_are_given_free_ids_once_each(tmp_path: Path) -> None:
    pack = many_asks_pack(tmp_path, 600, ids=False)  # asks 2, 4, 6… have no id
    with Desk(tmp_path / "recv", "recv-box", actor="Ru") as desk:
        outcome = desk.land(pack, review=held_review(desk, pack))
        got = [a.id for a in desk.get(outcome.passport.id).asks]
    given = [f"a{n}" for n in range(1, 600, 2)]  # a1, a3 … a599: the pack's own
    assert got[0::2] == given
    assert got[1::2] == [f"a{n}" for n in range(2, 601, 2)]  # the free ones, in order
    assert len(set(got)) == 600


def test_a_stored_passport_read_to_show_comes_back_as_pages(tmp_path: Path) -> None:
    pack = many_asks_pack(tmp_path)
    with Desk(tmp_path / "recv", "recv-box", actor="Ru") as desk:
        pid = desk.land(pack).passport.id
        shown, full = desk.get(pid, pages=True), desk.get(pid)
    assert isinstance(shown.asks, AskPages) and isinstance(full.asks, list)
    assert shown.to_data() == full.to_data()


def test_the_content_digest_is_the_same_however_the_canonical_text_is_had(tmp_path: Path) -> None:
    import hostile_zips
    from taskpack.core.trust.pack_writer import convert

    flat = many_asks_pack(tmp_path, 5)
    bag = tmp_path / "many.taskpack"
    convert(flat, bag, machine="wei-laptop")
    squeezed = tmp_path / "squeezed.taskpack"  # data/passport.json not in the canonical form
    squeezed.write_bytes(
        hostile_zips.bag_zip(passport=json.dumps(hostile_zips.pack_data()).encode())
    )
    for path in (flat, bag, squeezed):
        with open_pack(path) as opened:
            fresh = content_digest(
                opened.data, [(i.name, opened.digest_of(i)) for i in opened.luggage]
            )
            assert opened.content_digest() == fresh, path.name
    with open_pack(squeezed) as opened:
        assert any("canonical" in n for n in opened.notes)


def test_a_passport_of_many_asks_packs_the_asks_it_should_as_they_are(tmp_path: Path) -> None:
    """Packing reads a large passport's asks as pages; the pack carries them unchanged:
    a handoff its open asks, a receipt all but those it sent on (§4.3)."""
    pack = many_asks_pack(tmp_path, 900)
    with Desk(tmp_path / "recv", "recv-box", actor="Ru") as desk:
        pid = desk.land(pack).passport.id
        desk.answer_all(pid, {"a2": "A", "a700": "B"})
        stored = {a.id: a.to_data() for a in desk.get(pid).asks or []}
        outs = {
            kind: desk.pack(pid, tmp_path / f"{kind}.taskpack.json", kind=kind)
            for kind in ("handoff", "receipt")
        }
    for kind, outcome in outs.items():
        with open_pack(outcome.path) as opened:
            sent = opened.data["asks"]
        wanted = [d for d in stored.values() if kind == "receipt" or d.get("status") == "open"]
        assert sent == wanted, kind
        assert len(outcome.asks_sent) == 898 and "a2" not in outcome.asks_sent
