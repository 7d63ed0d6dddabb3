"""Long ask lists kept as pages (core/pages.py): read back equal, a page at a time."""

from __future__ import annotations

import gc
import pickle

import pytest
from taskpack.core.model import Ask
from taskpack.core.pages import AskPages, compact, open_count


def asks(n: int) -> list[Ask]:
    out = [Ask.from_data({"id": f"a{i}", "to": "peer", "what": f"Question {i} — ünïcode \ud83d?",
                          "accept": "A or B", "status": "answered" if i % 3 == 0 else "open",
                          "answer": "A" if i % 3 == 0 else None, "x-extra": {"kept": [i]}})
           for i in range(n)]  # fmt: skip
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
