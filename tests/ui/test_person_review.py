"""The round trip as a person meets it: what they type, what they read, what they click.

Each test drives the window with typing, clicks and drops and asserts the text on screen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import hostile_zips
from conftest import RECEIVER, SENDER, Prompts, drop, make_handoff, settle, shown_passport_id
from PySide6.QtCore import QDateTime, Qt
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot
from taskpack.app.desk import Desk
from taskpack.ui.pack_items import label_text
from taskpack.ui.paging import PAGE, filling
from taskpack.ui.widgets import LinkedText, TextViewer


def land(qtbot: QtBot, window, pack: Path) -> str:
    drop(window, pack)
    settle(qtbot, window)
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    assert shown_passport_id(window) is not None, window.banner.text()
    return shown_passport_id(window)


def bag(tmp_path: Path, name: str, **overrides: object) -> Path:
    data = hostile_zips.pack_data(**overrides)
    path = tmp_path / name
    path.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    return path


def landed_window(tmp_path: Path, qtbot: QtBot, make_desk, make_window):  # type: ignore[no-untyped-def]
    pack = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    window = make_window(make_desk(RECEIVER, "Zhang"))
    pid = land(qtbot, window, pack)
    window.passport.view.tabs.setCurrentIndex(1)
    return window, pid


# --- 1. typed answers are never lost ---------------------------------------------------


def test_a_typed_answer_survives_another_row_and_a_restart(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    window, pid = landed_window(tmp_path, qtbot, make_desk, make_window)
    desk = window.desk
    own = desk.new("Something else", "Another goal").id
    settle(qtbot, window)
    card = window.passport.view.asks.cards["a1"]
    qtbot.keyClicks(card.answer_edit, "Ms. Zhang, zhang@finance.example.com")
    assert card.draft_badge.isVisible() and card.draft_badge.text() == "not saved yet"
    window.select_key(own)  # the person clicks another row …
    settle(qtbot, window)
    window.select_key(pid)  # … and comes back
    settle(qtbot, window)
    window.passport.view.tabs.setCurrentIndex(1)
    card = window.passport.view.asks.cards["a1"]
    assert card.answer_edit.toPlainText() == "Ms. Zhang, zhang@finance.example.com"
    assert "not saved yet" in window.passport.view.asks.labels()
    assert "1 answer is not saved yet." in window.passport.view.asks.labels()
    assert desk.get(pid).asks[0].status == "open"  # a draft is not an answer

    # the window closes and the desk starts again: the draft is still there
    window.shutdown()
    window.close()
    home = desk.home
    desk.close()
    again = Desk(home, RECEIVER, actor="Zhang")
    try:
        from taskpack.ui.main_window import MainWindow

        second = MainWindow(again, watch=False)
        qtbot.addWidget(second)
        second.show()
        settle(qtbot, second)
        second.select_key(pid)
        settle(qtbot, second)
        assert second.passport.view.asks.cards["a1"].answer_edit.toPlainText() == (
            "Ms. Zhang, zhang@finance.example.com"
        )
        assert second.passport.view.tabs.tabText(1) == "Asks (2 open)"
        second.shutdown()
    finally:
        again.close()


def test_a_receipt_goes_out_with_the_answers_on_screen(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    window, _pid = landed_window(tmp_path, qtbot, make_desk, make_window)
    qtbot.keyClicks(window.passport.view.asks.cards["a2"].answer_edit, "Yes, decided by finance")
    prompts.save_to = tmp_path / "receipt.taskpack.json"
    window.passport.view.export_actions[("receipt", "save_flat")].trigger()  # never pressed Save
    settle(qtbot, window)
    data = json.loads(prompts.save_to.read_text(encoding="utf-8"))
    asks = {a["id"]: a for a in data["passport"]["asks"]}
    assert (asks["a2"]["status"], asks["a2"]["answer"]) == ("answered", "Yes, decided by finance")
    assert asks["a1"]["status"] == "open"  # nothing typed there: still open


def test_enter_saves_a_one_line_answer_and_save_all_saves_the_rest(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    window, pid = landed_window(tmp_path, qtbot, make_desk, make_window)
    desk = window.desk
    form = window.passport.view.asks
    assert form.save_all_button.isVisible() and not form.save_all_button.isEnabled()
    edit = form.cards["a1"].answer_edit
    qtbot.keyClicks(edit, "Ms. Zhang")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    settle(qtbot, window)
    ask = desk.get(pid).asks[0]
    assert (ask.status, ask.answer) == ("answered", "Ms. Zhang")
    assert "Saved the answer to a1" in window.banner.text()

    form = window.passport.view.asks
    edit = form.cards["a2"].answer_edit
    qtbot.keyClicks(edit, "Yes,")
    qtbot.keyClick(
        edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier
    )  # a new line, not a save
    qtbot.keyClicks(edit, "decided by finance")
    qtbot.keyClick(edit, Qt.Key.Key_Return)  # several lines: Enter is a new line
    assert desk.get(pid).asks[1].status == "open"
    qtbot.keyClicks(form.cards["a1"].answer_edit, " (finance)")
    assert form.save_all_button.text() == "Save all answers (2)"
    form.save_all_button.click()
    settle(qtbot, window)
    a1, a2 = desk.get(pid).asks
    assert a1.answer == "Ms. Zhang (finance)" and a2.answer == "Yes,\ndecided by finance\n"
    assert a2.status == "answered"
    assert "Saved 2 answers." in window.banner.text()
    assert desk.drafts.of(pid) == {}


# --- 2. a fact verified here says so ---------------------------------------------------


def test_a_fact_verified_here_and_a_restored_one_show_proven_here_as_the_cli_does(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    alpha = make_desk("alpha", "Wei")
    pack = tmp_path / "mine.taskpack"
    pid = make_handoff(alpha, pack)
    window = make_window(alpha)
    window.select_key(pid)
    settle(qtbot, window)
    overview = window.passport.view.overview_text()
    assert "✓ proven here (alpha)" in overview
    assert "never verified" not in overview

    env = {
        **os.environ,
        "TASKPACK_HOME": str(alpha.home),
        "TASKPACK_MACHINE": "alpha",
        "PYTHONIOENCODING": "utf-8",
    }
    cli = subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", "open", pid],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    ).stdout
    assert "«The export runs in 40 s on this laptop.» — ✓ proven here (alpha)" in cli

    # the pack comes back to alpha (sealed), is restored: the badge gets better, not worse
    landed = land(qtbot, window, pack)
    assert "⚠ unproven here" in window.passport.view.overview_text()
    window.passport.view.restore_buttons[1].click()
    settle(qtbot, window)
    assert shown_passport_id(window) == landed
    assert "restored" in window.banner.text()
    overview = window.passport.view.overview_text()
    assert "✓ proven here (alpha)" in overview and "never verified" not in overview


# --- 3. the receipt review reads like a mail message -----------------------------------


def test_the_receipt_review_shows_each_answer_who_and_when_and_what_stays_open(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    wei_desk = make_desk(SENDER, "Wei")
    zhang_desk = make_desk(RECEIVER, "Zhang")
    handoff = tmp_path / "h.taskpack"
    wei_pid = make_handoff(wei_desk, handoff)
    zhang = make_window(zhang_desk)
    pid = land(qtbot, zhang, handoff)
    zhang.passport.view.tabs.setCurrentIndex(1)
    qtbot.keyClicks(
        zhang.passport.view.asks.cards["a1"].answer_edit, "Ms. Zhang, zhang@finance.example.com"
    )
    qtbot.keyClick(zhang.passport.view.asks.cards["a1"].answer_edit, Qt.Key.Key_Return)
    settle(qtbot, zhang)
    answered_at = zhang_desk.get(pid).asks[0].answered_at
    prompts.save_to = tmp_path / "receipt.taskpack"
    zhang.passport.view.export_actions[("receipt", "save_bag")].trigger()
    settle(qtbot, zhang)

    wei = make_window(wei_desk)
    drop(wei, prompts.save_to)
    settle(qtbot, wei)
    review = wei.incoming.view
    shown = review.section_text("receipt")
    assert "Who in finance signs off?" in shown
    assert "Ms. Zhang, zhang@finance.example.com" in shown
    when = (
        QDateTime.fromString(answered_at, Qt.DateFormat.ISODate)
        .toLocalTime()
        .toString("yyyy-MM-dd HH:mm")
    )
    assert f"Answered by Zhang@{RECEIVER} on {when}" in shown
    assert "answers your question" in shown
    assert "answer them in the Asks tab" not in review.visible_text()
    still = review.section_text("still_open")
    assert "a2 · Can the export move to 07:00?" in still
    assert review.summary.text().startswith("1 answer comes home, 1 ask stays open.")
    assert review.land_button.text() == f"Merge answers into {wei_pid}"

    review.land_button.click()
    settle(qtbot, wei)
    banners = [
        b.text() for b in (wei.banner, wei.passport.view.banner, wei.passport.view.asks.banner)
    ]
    assert sum("The receipt answered: a1." in b for b in banners) == 1  # once, not twice


# --- 6. everything that lands is shown -------------------------------------------------


def test_the_review_shows_decisions_artifacts_and_learnings(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    data = hostile_zips.pack_data()
    data["passport"]["artifacts"] = [
        {"name": "q3-draft.xlsx", "kind": "file"},
        "https://wiki.example.com/q3",
    ]
    data["passport"]["learnings"] = ["the ledger export lags a day"]
    data["passport"]["actions"] = [{"what": "wrote the draft"}]
    pack = tmp_path / "full.taskpack"
    pack.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    assert "use EUR — because finance asked" in review.section_text("decisions")
    assert "q3-draft.xlsx — file" in review.section_text("artifacts")
    assert "https://wiki.example.com/q3" in review.section_text("artifacts")
    assert "the ledger export lags a day" in review.section_text("learnings")
    assert "wrote the draft" in review.section_text("actions")


# --- 7. "I checked this here" ----------------------------------------------------------


def test_i_checked_this_here_records_a_fact_verified_on_this_machine(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    window, pid = landed_window(tmp_path, qtbot, make_desk, make_window)
    desk = window.desk
    view = window.passport.view
    view.tabs.setCurrentIndex(0)
    assert "⚠ unproven here" in view.overview_text()
    prompts.confirm_answer = False
    view.check_buttons[1].click()
    settle(qtbot, window)
    assert desk.get(pid).passport.facts[0].verified is False  # said no: nothing recorded
    prompts.confirm_answer = True
    view.check_buttons[1].click()
    settle(qtbot, window)
    fact = desk.get(pid).passport.facts[0]
    assert (fact.verified, fact.verified_on, fact.verified_by, fact.scope) == (
        True,
        RECEIVER,
        "Zhang",
        "machine",
    )
    overview = window.passport.view.overview_text()
    assert f"✓ proven here ({RECEIVER})" in overview and "Checked by Zhang." in overview
    assert "checked here" in window.passport.view.history_events()
    assert f"Recorded: you checked it on {RECEIVER}." in window.banner.text()

    # the required landing check
    [button] = window.passport.view.landing_check_buttons.values()
    assert button.text() == "I checked this here"
    button.click()
    settle(qtbot, window)
    overview = window.passport.view.overview_text()
    assert "✓ done" in overview and "Checked here by Zhang on" in overview
    assert window.passport.view.landing_check_buttons == {}
    added = desk.get(pid).passport.facts[-1]
    assert added.claim == "This machine can reach the billing database"
    assert (added.verified, added.verified_on, added.verified_by) == (True, RECEIVER, "Zhang")
    assert window.passport.view.history_events()[:2] == ["checked here", "checked here"]


# --- 14. words --------------------------------------------------------------------------


def test_words_plurals_counts_no_empty_rows_no_jargon_local_times(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    data = hostile_zips.pack_data(
        asks=[{"id": "a1", "what": "Which chart first?", "accept": "bar or line", "status": "open"}]
    )
    data["passport"]["facts"] += [
        {"claim": "the VPN is up", "scope": "machine"},
        {"claim": "the budget is signed", "scope": "universal", "verified": True},
    ]
    pack = tmp_path / "words.taskpack"
    pack.write_bytes(hostile_zips.bag_zip(passport=hostile_zips.canonical_json(data)))
    desk = make_desk(RECEIVER)
    desk.new("One of mine", "A goal")
    window = make_window(desk)
    drop(window, pack)
    settle(qtbot, window)
    assert window.status_summary() == "1 passport, 1 incoming"
    review = window.incoming.view
    text = review.visible_text()
    # two facts are not proven here (the sealed one and the never-verified one), of four
    assert "2 of 4 facts are not proven here" in review.section_text("facts")
    asks = review.section_text("asks")
    assert "Why" not in asks.split("\n")  # no empty "Why" row
    assert "(bag)" not in text and "(flat)" not in text
    packed = QDateTime.fromString("2026-08-16T03:11:04Z", Qt.DateFormat.ISODate).toLocalTime()
    assert f"packed {packed.toString('yyyy-MM-dd HH:mm')}" in text
    assert "03:11:04" not in text and "T03:11" not in text  # never the raw UTC stamp
    review.land_button.click()
    settle(qtbot, window)
    assert "1 required check is first in its Overview." in window.banner.text()
    history = window.passport.view.history
    stamp = history.topLevelItem(0).text(0)
    assert not stamp.endswith("Z") and "T" not in stamp


def test_the_landing_review_in_chinese_has_no_english_left(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    from taskpack.ui import i18n

    pack = tmp_path / "p.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    try:
        window.set_language("zh_CN")
        settle(qtbot, window)
        text = window.incoming.view.visible_text()
        assert "先做这些" in text and "已在本机证实" not in text  # sealed: nothing proven here
        assert "个事实中有" in text
        for english in (
            "Do these first",
            "What is proven",
            "unproven here",
            "packed",
            "Land",
            "Why",
        ):
            assert english not in text, english
    finally:
        i18n.install("en")


# --- 15.2 large content, and 10.7 names shown as they are -------------------------------


def test_a_huge_note_is_cut_with_show_all_and_many_asks_are_paged(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    note = "overtime " * 60_000  # 540 KB, one line
    asks = [
        {"id": f"a{n}", "what": f"Question number {n}?", "accept": "yes or no", "status": "open"}
        for n in range(1, 1001)
    ]
    pack = bag(tmp_path, "big.taskpack", note=note, asks=asks)
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    [label] = [w for w in review.findChildren(LinkedText) if w.raw == note]
    assert label.clipped and len(label.text()) < 5_000
    assert label_text(label).endswith("… Show all (540,000 characters)")
    label.linkActivated.emit("taskpack:show-all")  # the person clicks "Show all"
    [viewer] = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, TextViewer) and w.isVisible()
    ]
    qtbot.waitUntil(viewer.loaded, timeout=30_000)
    assert viewer.text().replace("\n", "") == note
    viewer.close()

    asks_text = review.section_text("asks")
    assert "Question number 1?" in asks_text and f"Question number {PAGE}?" in asks_text
    assert f"Question number {PAGE + 1}?" not in asks_text
    [more] = [
        b for b in review.sections["asks"].findChildren(QPushButton) if b.text().startswith("Show")
    ]
    assert more.text() == f"Show {PAGE} more (of 1,000)"
    more.click()
    qtbot.waitUntil(lambda: not filling())  # the page is built a batch per turn of the event loop
    assert f"Question number {2 * PAGE}?" in review.section_text("asks")


def test_hidden_characters_in_names_are_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    evil = "report\u202etxt.exe"
    payload = [(f"data/files/{evil}", b"hello\n")]
    data = hostile_zips.pack_data(origin={"actor": "ana\u200b", "machine": "ana-laptop"})
    pack = tmp_path / "bidi.taskpack"
    pack.write_bytes(hostile_zips.bag_zip(payload, passport=hostile_zips.canonical_json(data)))
    window = make_window(make_desk(RECEIVER))
    drop(window, pack)
    settle(qtbot, window)
    review = window.incoming.view
    text = review.visible_text()
    assert "report\\u202etxt.exe" in review.section_text("luggage")
    assert "\u202e" not in text and "\u200b" not in text
    assert "ana\\u200b on ana-laptop" in text


def test_errors_from_core_are_said_in_chinese(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    from taskpack.core.errors import MergeRefused, NotFound
    from taskpack.ui import i18n
    from taskpack.ui.jobs import sentence

    evil = tmp_path / "evil.taskpack"
    evil.write_bytes(
        hostile_zips.bag_zip([*hostile_zips.LUGGAGE, ("data/files/../../x", b"escaped\n")])
    )
    window = make_window(make_desk(RECEIVER))
    try:
        window.set_language("zh_CN")
        drop(window, evil)
        settle(qtbot, window)
        message = window.banner.text()
        assert "这个文件可能有恶意；什么都没有写入。" in message, message  # the kind, in Chinese
        wrong = MergeRefused(
            "this receipt answers TP-AAAA-AAAA, not TP-BBBB-BBBB",
            code="merge_wrong_target",
            params={"target": "TP-AAAA-AAAA", "into": "TP-BBBB-BBBB"},
        )
        assert sentence(wrong) == (
            "这份回执回答的是 TP-AAAA-AAAA，不是 TP-BBBB-BBBB。回执只能合并到提出问题的那本护照；"
            "什么都没有改变。"
        )
        assert sentence(NotFound("passport TP-CCCC-CCCC has no ask 'a9'")).startswith("没有找到。")
    finally:
        i18n.install("en")
    assert sentence(wrong) == str(wrong)  # English: the CLI's own sentence


def asks_alive() -> int:
    """How many Ask models this process holds (the window's own process)."""
    import gc

    from taskpack.core.format.model import Ask

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Ask))


def test_a_large_pack_is_read_and_landed_beside_the_window_which_holds_only_the_pages_it_shows(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    """15.2: a pack whose pack object is large is reviewed, landed and its passport read in
    a helper process; the window gets its asks as pages, so its own process builds only
    the asks on screen (100,000 asks as models stall the GUI thread and cost ~1 GB)."""
    from taskpack.app import isolated

    monkeypatch.setattr(isolated, "LARGE_BYTES", 20_000)  # 300 asks count as large here
    asks = [
        {"id": f"a{n}", "what": f"Question number {n}?", "accept": "yes or no", "status": "open"}
        for n in range(1, 301)
    ]
    pack = bag(tmp_path, "many.taskpack", asks=asks)
    desk = make_desk(RECEIVER, "Zhang")
    window = make_window(desk)
    baseline = asks_alive()
    drop(window, pack)
    settle(qtbot, window, timeout=120_000)
    review = window.incoming.view
    asks_text = review.section_text("asks")
    assert "Question number 1?" in asks_text and f"Question number {PAGE}?" in asks_text
    assert f"Question number {PAGE + 1}?" not in asks_text
    [more] = [
        b for b in review.sections["asks"].findChildren(QPushButton) if b.text().startswith("Show")
    ]
    assert more.text() == f"Show {PAGE} more (of 300)"
    more.click()
    qtbot.waitUntil(lambda: not filling())  # the page is built a batch per turn of the event loop
    assert f"Question number {2 * PAGE}?" in review.section_text("asks")
    assert asks_alive() - baseline <= 2 * PAGE  # the pages shown, not the 300 (nor the sealed copy)
    assert window.inbox.model.rowCount() >= 1  # the pack is listed under Incoming …

    review.land_button.click()  # … and lands from the review the person saw
    settle(qtbot, window, timeout=120_000)
    pid = shown_passport_id(window)
    assert pid is not None, window.banner.text()
    assert f"Landed as {pid}." in window.banner.text()
    assert window.stack.currentWidget() is window.passport.view
    pv = window.passport.view
    assert pv.tabs.tabText(1) == "Asks (300 open)"
    pv.tabs.setCurrentIndex(1)
    labels = " ".join(pv.asks.labels())
    assert "Question number 1?" in labels and f"Question number {PAGE + 1}?" not in labels
    assert asks_alive() - baseline <= 2 * PAGE
    assert len(desk.get(pid).asks or []) == 300  # everything landed

    card = pv.asks.cards["a2"]  # and is answerable in the window
    qtbot.keyClicks(card.answer_edit, "yes")
    card.save_button.click()
    settle(qtbot, window, timeout=120_000)
    stored = {a.id: a for a in desk.get(pid).asks or []}
    assert stored["a2"].status == "answered" and stored["a2"].answer == "yes"
    assert pv.tabs.tabText(1) == "Asks (299 open)"
