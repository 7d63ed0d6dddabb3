"""Long ask lists kept as pages (core/format/record_pages.py): read back equal, a page at a time."""

from __future__ import annotations

import gc
import pickle

import pytest
from taskpack.core.format.model import Ask
from taskpack.core.format.record_pages import AskPages, compact, open_count


def asks(n: int) -> list[Ask]:
    out = [
        Ask.from_data(
            {
                "id": f"a{i}",
                "to": "peer",
                "what": f"Question {i} — ünïcode \ud83d?",
                "accept": "A or B",
                "status": "answered" if i % 3 == 0 else "open",
                "answer": "A" if i % 3 == 0 else None,
                "x-extra": {"kept": [i]},
            }
        )
        for i in range(n)
    ]
    out.append(Ask.from_data({"why": "no id, no status: open", "what": "Last?"}))
    return out


def test_pages_read_back_every_ask_as_it_was_given_in_its_key_order() -> None:
    given = asks(500)
    pages = AskPages.of(given)
    assert len(pages) == len(given) and bool(pages)
    assert [a.to_data() for a in pages] == [a.to_data() for a in given]
    assert [list(a.to_data()) for a in pages[:40]] == [list(a.to_data()) for a in given[:40]]
    assert pages[-1].to_data() == given[-1].to_data()
    assert [a.id for a in pages[480:520]] == [a.id for a in given[480:520]]
    with pytest.raises(IndexError):
        pages[len(given)]


def test_counts_and_lookups_need_no_ask_built() -> None:
    given = asks(300)
    pages = AskPages.of(given)
    assert pages.open == open_count(given) == 201
    assert open_count(pages) == 201
    assert pages.index_of("a42") == 42 and pages.index_of("nope") is None
    assert pages.ids[:2] == ["a0", "a1"] and pages.ids[-1] == ""
    twice = AskPages.of([*given[:5], Ask.from_data({"id": "a2", "what": "again"})])
    assert twice.index_of("a2") == 5  # the last, as a lookup by id keeps
    assert not AskPages.of([]) and open_count(None) == 0


def test_a_page_builds_only_its_own_asks() -> None:
    pages = AskPages.of(asks(5000))
    gc.collect()
    before = sum(1 for o in gc.get_objects() if isinstance(o, Ask))
    page = pages[:40]
    after = sum(1 for o in gc.get_objects() if isinstance(o, Ask))
    assert len(page) == 40 and after - before == 40


def test_pages_pickle_as_bytes_and_small_lists_stay_lists() -> None:
    pages = AskPages.of(asks(1000))
    blob = pickle.dumps(pages)
    back = pickle.loads(blob)
    assert [a.to_data() for a in back[990:]] == [a.to_data() for a in pages[990:]]
    assert len(blob) < pages.size + 20_000  # the text, the offsets and the ids; no models
    few = asks(3)
    assert compact(few) is few
    assert isinstance(compact(few, over=0), AskPages)


def test_pages_write_their_asks_as_plain_data_and_as_one_json_array() -> None:
    import json

    given = asks(400)
    pages = AskPages.of(given)
    assert pages.to_data() == [a.to_data() for a in given]
    assert json.loads(pages.json_array()) == [a.to_data() for a in given]
    assert AskPages.of([]).json_array() == "[]"


def test_pages_of_stored_data_validate_each_ask() -> None:
    from taskpack.core.errors import FormatError

    given = asks(250)
    assert AskPages.of_data(a.to_data() for a in given).to_data() == [a.to_data() for a in given]
    with pytest.raises(FormatError, match=r"asks\[1\]"):
        AskPages.of_data([{"id": "a1"}, {"id": 2}])


def test_a_copy_sharing_its_asks_shares_the_records_and_nothing_else() -> None:
    from taskpack.core.format.model import PackObject

    pack = PackObject.from_data(
        {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "passport": {"id": "TP-1", "facts": [{"claim": "c", "verified": True}]},
            "asks": [a.to_data() for a in asks(3)],
            "x": 1,
        }
    )
    copy = pack.copy_record(sharing=("asks",))
    assert copy.to_data() == pack.to_data() and list(copy.to_data()) == list(pack.to_data())
    assert copy.asks is not pack.asks and all(
        a is b for a, b in zip(copy.asks, pack.asks, strict=True)
    )
    copy.facts[0].verified = False  # everything but the asks is its own
    assert pack.facts[0].verified is True
    pages = AskPages.of(pack.asks or [])
    pack.asks = pages  # type: ignore[assignment]
    assert pack.copy_record(sharing=("asks",)).asks is pages  # read-only pages: shared as they are


def test_a_repair_changes_its_own_copy_of_an_ask_never_the_pack_as_read() -> None:
    from taskpack.core.format.model import PackObject
    from taskpack.core.trust.repairs import apply_repairs, find_repairs

    data = {
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-01-01T00:00:00Z",
        "asks": [{"id": "a1", "what": "Which?", "status": "open", "answer": "B"}],
    }
    read = PackObject.from_data(data)
    mine = read.copy_record(sharing=("asks",))
    said = apply_repairs(mine, find_repairs(data, encoding="bag"), now="2026-01-02T00:00:00Z")
    assert said and mine.asks is not None and mine.asks[0].status == "answered"
    assert read.asks is not None and read.asks[0].status == "open"


def test_facts_kept_as_pages_read_back_as_given_and_numbered_lazily() -> None:
    from taskpack.core.format.model import Fact
    from taskpack.core.format.record_pages import FactPages, Numbered, compact_facts

    given = [
        Fact.from_data({"claim": f"c{n} ü", "scope": "machine", "verified": n % 2 == 0, "x": [n]})
        for n in range(300)
    ]
    pages = compact_facts(given)
    assert isinstance(pages, FactPages) and len(pages) == 300
    assert [f.to_data() for f in pages[250:260]] == [f.to_data() for f in given[250:260]]
    assert pages.to_data() == [f.to_data() for f in given]
    back = pickle.loads(pickle.dumps(pages))
    assert back[-1].to_data() == given[-1].to_data()
    numbered = Numbered(pages)
    assert len(numbered) == 300 and numbered[0][0] == 1 and numbered[299][1].claim == "c299 ü"
    assert [n for n, _ in numbered[40:43]] == [41, 42, 43]
    assert compact_facts(given[:5]) is not None and not isinstance(
        compact_facts(given[:5]), FactPages
    )
