"""A passport with thousands of asks, as a person works on it: counts written as people
write them, and an answer saved without the window's own process reading the whole
passport (saving an answer among 100,000 asks held the GUI's lock for seconds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import RECEIVER, settle, shown_passport_id
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.app import isolated
from taskpack.core.format import ids
from taskpack.core.format.model import Ask, LocalPassport, PassportState
from taskpack.ui import ops

ASKS = 1_200


def big_passport(desk: Any, asks: int = ASKS) -> str:
    state = PassportState(
        id=ids.new_id(),
        title="Survey answers",
        goal="Answer every question",
        facts=[],
        next_steps=[],
    )
    lp = LocalPassport(
        passport=state,
        landing_checks=[],
        asks=[
            Ask(
                id=f"a{n}", to="peer", what=f"Question {n}: A or B?", accept="A or B", status="open"
            )
            for n in range(1, asks + 1)
        ],
    )
    lp.state, lp.waiting_on = "working", None
    with desk.store.write() as tx:
        tx.insert(lp, event="created")
    return lp.id


def open_passport(qtbot: QtBot, window: Any, title: str) -> None:
    proxy = window.inbox.proxy
    [row] = [r for r in range(proxy.rowCount()) if proxy.index(r, 0).data() == title]
    rect = window.inbox.view.visualRect(proxy.index(row, 0))
    qtbot.mouseClick(window.inbox.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    settle(qtbot, window, timeout=60_000)


def helper_jobs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the jobs the window hands to a helper process."""
    names: list[str] = []
    real = isolated.call

    def spy(desk: Any, fn: Any, *args: Any, **kw: Any) -> Any:
        names.append(fn.__name__)
        return real(desk, fn, *args, **kw)

    monkeypatch.setattr(isolated, "call", spy)
    return names


def test_counts_of_thousands_are_written_with_a_separator(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    big_passport(desk)
    window = make_window(desk)
    proxy = window.inbox.proxy
    [row] = [r for r in range(proxy.rowCount()) if proxy.index(r, 0).data() == "Survey answers"]
    assert proxy.index(row, 3).data() == "1,200"  # the inbox's Asks column
    open_passport(qtbot, window, "Survey answers")
    assert window.passport.view.tabs.tabText(1) == "Asks (1,200 open)"


def test_an_answer_on_a_large_passport_is_saved_by_a_helper_and_shown(
    qtbot: QtBot, make_desk: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isolated, "LARGE_BYTES", 50_000)  # 1,200 asks count as large here
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk)
    jobs = helper_jobs(monkeypatch)
    window = make_window(desk)
    open_passport(qtbot, window, "Survey answers")
    pv = window.passport.view
    pv.tabs.setCurrentIndex(1)
    card = pv.asks.cards["a3"]
    qtbot.keyClicks(card.answer_edit, "B, because it reads better")
    assert desk.drafts.of(pid) == {"a3": "B, because it reads better"}  # kept as it is typed
    card.save_button.click()
    settle(qtbot, window, timeout=120_000)
    assert "_change_elsewhere" in jobs, jobs  # not read, changed and stored in the window's process
    assert "Saved the answer to a3." in window.banner.text()
    qtbot.waitUntil(
        lambda: pv.tabs.tabText(1) == "Asks (1,199 open)", timeout=60_000
    )  # the view reloaded
    stored = {a.id: a for a in desk.get(pid).asks or []}
    assert stored["a3"].status == "answered" and stored["a3"].answer == "B, because it reads better"
    assert desk.drafts.of(pid) == {}  # the draft went with the save, in the window's own drafts


def test_a_large_passport_is_packed_by_a_helper(
    tmp_path: Path, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isolated, "LARGE_BYTES", 50_000)
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk)
    jobs = helper_jobs(monkeypatch)
    heard: list[tuple[str, str]] = []
    desk.subscribe(lambda p, event: heard.append((p, event)))
    out = tmp_path / "survey.taskpack"
    outcome = ops.export(desk, pid, out, "handoff", None, lambda d, t: None, lambda: False)
    assert jobs == ["_export"] and out.is_file() and outcome.path == out
    assert any(p == pid for p, _ in heard)  # this desk was told, as if it had packed it
    assert len(outcome.asks_sent) == ASKS


def many_facts_pack(tmp_path: Path, facts: int) -> Path:
    import json

    from taskpack.app.desk import Desk

    with Desk(tmp_path / "sender", "wei-laptop", actor="Wei") as sender:
        pid = sender.new("Migration log", "Finish the migration").id
        flat = tmp_path / "facts.taskpack.json"
        sender.pack(pid, flat, encoding="flat")
    doc = json.loads(flat.read_text(encoding="utf-8"))
    doc["passport"]["passport"]["facts"] = [
        {
            "claim": f"Step {n} ran on the build box",
            "scope": "machine",
            "verified": False,
            "needs_reverify": True,
            "verified_on": "wei-laptop",
        }
        for n in range(1, facts + 1)
    ]
    flat.write_text(json.dumps(doc), encoding="utf-8")
    return flat


def facts_alive() -> int:
    import gc

    from taskpack.core.format.model import Fact

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Fact))


def test_many_facts_come_to_the_window_as_pages(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pack of many facts is read beside the window, which builds only the facts it
    shows (100,000 facts as models cost the window 887 MB and a 1.8 s freeze)."""
    from conftest import drop
    from PySide6.QtWidgets import QPushButton
    from taskpack.ui.paging import FACT_PAGE

    monkeypatch.setattr(isolated, "LARGE_BYTES", 20_000)
    pack = many_facts_pack(tmp_path, 600)
    desk = make_desk(RECEIVER, "Zhang")
    window = make_window(desk)
    baseline = facts_alive()
    drop(window, pack)
    settle(qtbot, window, timeout=120_000)
    review = window.incoming.view
    text = review.section_text("facts")
    assert (
        "600 of 600 facts is not proven here" in text
        or "600 of 600 facts are not proven here" in text
    ), text
    assert "Step 1 ran on the build box" in text and f"Step {FACT_PAGE} ran" in text
    assert f"Step {FACT_PAGE + 1} ran" not in text
    [more] = [
        b for b in review.sections["facts"].findChildren(QPushButton) if b.text().startswith("Show")
    ]
    assert more.text() == f"Show {FACT_PAGE} more (of 600)"
    assert facts_alive() - baseline <= FACT_PAGE + 5  # the page shown, not the 600

    review.land_button.click()
    settle(qtbot, window, timeout=120_000)
    assert window.stack.currentWidget() is window.passport.view, window.banner.text()
    assert facts_alive() - baseline <= 2 * (FACT_PAGE + 5)
    assert len(desk.get(shown_passport_id(window)).passport.facts or []) == 600  # all landed
