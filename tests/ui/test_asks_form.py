"""The Asks tab as a person works through it."""

from __future__ import annotations

from typing import Any

from conftest import RECEIVER, settle
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QLabel, QPushButton
from pytestqt.qtbot import QtBot
from taskpack.ui.asks_form import AskCard
from taskpack.ui.paging import filling
from test_large_passport import big_passport, open_passport


def two_asks(desk: Any) -> str:
    pid = desk.new("Invoice export", "Invoices open in Excel").id
    desk.add_ask(pid, "Who in finance signs off?", "A name and an email address")
    desk.add_ask(pid, "Can the export move to 07:00?", "Yes or no, and who decided")
    return pid


def test_save_all_stays_while_the_strip_says_an_answer_is_not_saved(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = two_asks(desk)
    window = make_window(desk)
    open_passport(qtbot, window, "Invoice export")
    window.passport.view.tabs.setCurrentIndex(1)
    form = window.passport.view.asks
    qtbot.keyClicks(form.cards["a1"].answer_edit, "Ms. Zhang")
    qtbot.mouseClick(form.cards["a1"].save_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    form = window.passport.view.asks
    qtbot.keyClicks(form.cards["a2"].answer_edit, "Yes, finance decided")
    assert "1 answer is not saved yet." in form.labels()
    assert form.save_all_button.isVisible() and form.save_all_button.isEnabled()
    assert form.save_all_button.text() == "Save all answers (1)"
    qtbot.mouseClick(form.save_all_button, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert "Saved 1 answer. Export a receipt to send it home." in window.banner.text()
    assert [a.status for a in desk.get(pid).asks or []] == ["answered", "answered"]


def test_show_more_keeps_the_place_and_the_bar_counts_the_answers(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk, 200)
    for n in range(1, 13):
        desk.answer(pid, f"a{n}", "A")
    window = make_window(desk)
    window.resize(800, 600)
    open_passport(qtbot, window, "Survey answers")
    pv = window.passport.view
    pv.tabs.setCurrentIndex(1)
    form = pv.asks
    assert form.progress.text() == "12 of 200 answered"
    [more] = [b for b in form.findChildren(QPushButton) if b.text().startswith("Show")]
    form.scroll_area.ensureWidgetVisible(more)  # the person scrolled down to it …
    qtbot.mouseClick(more, Qt.MouseButton.LeftButton)  # … and clicks it
    qtbot.waitUntil(lambda: not filling())
    bar = form.scroll_area.verticalScrollBar()
    top = form.cards["a41"].mapTo(form.scroll_area.widget(), QPoint(0, 0)).y()
    assert bar.value() > top - form.scroll_area.viewport().height()  # a41 is in view, not a1
    assert bar.value() > 0


def test_open_only_hides_the_answered_asks(qtbot: QtBot, make_desk: Any, make_window: Any) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk, 200)
    for n in range(1, 13):
        desk.answer(pid, f"a{n}", "A")
    window = make_window(desk)
    open_passport(qtbot, window, "Survey answers")
    window.passport.view.tabs.setCurrentIndex(1)
    form = window.passport.view.asks
    assert form.open_only.text() == "Open only"
    qtbot.mouseClick(form.open_only, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not filling())
    assert "a1" not in form.cards and "a13" in form.cards  # the first open ask comes first
    [more] = [b for b in form.findChildren(QPushButton) if b.text().startswith("Show")]
    assert more.text() == "Show 40 more (of 188)"
    edit = form.cards["a13"].answer_edit
    qtbot.keyClicks(edit, "B")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    settle(qtbot, window)
    form = window.passport.view.asks
    assert "a13" not in form.cards and form.open_only.isChecked()
    assert form.progress.text() == "13 of 200 answered"


def test_the_count_is_written_beside_the_bar_not_over_its_fill(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER, "Zhang")
    pid = big_passport(desk, 200)
    for n in range(1, 13):
        desk.answer(pid, f"a{n}", "A")
    window = make_window(desk)
    window.resize(800, 600)
    open_passport(qtbot, window, "Survey answers")
    window.passport.view.tabs.setCurrentIndex(1)
    form = window.passport.view.asks
    said = [w for w in form.findChildren(QLabel) if w.isVisible() and " answered" in w.text()]
    assert [w.text() for w in said] == ["12 of 200 answered"]
    bar = form.progress
    assert bar.isVisible() and not bar.isTextVisible()  # the bar draws no words on its fill
    assert (bar.value(), bar.maximum()) == (12, 200)
    words = said[0].geometry()
    assert not words.intersects(bar.geometry())  # beside it …
    assert words.left() >= bar.geometry().right()  # … after it, on its line
    assert abs(words.center().y() - bar.geometry().center().y()) <= 4
    fm = said[0].fontMetrics()
    assert words.width() >= fm.horizontalAdvance("12 of 200 answered")  # read whole


def test_a_screen_at_800_by_600_shows_several_whole_ask_cards(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    """200 asks: a card is the question, what counts, the field and its buttons, so a
    screen holds more than one of them (one card filled the Asks tab before)."""
    desk = make_desk(RECEIVER, "Zhang")
    desk.settings.actor = "Zhang"
    big_passport(desk, 200)
    window = make_window(desk)
    window.resize(800, 600)
    open_passport(qtbot, window, "Survey answers")
    window.passport.view.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: not filling())
    form = window.passport.view.asks
    view = form.scroll_area.viewport()
    seen = view.rect()
    whole = []
    for card in form.findChildren(AskCard):
        if not card.isVisible():
            continue
        box = QRect(card.mapTo(view, QPoint(0, 0)), card.size())
        if seen.contains(box):
            whole.append(card)
    assert len(whole) >= 2, (seen, [c.height() for c in whole])
    first = whole[0]
    labels = [w.text() for w in first.findChildren(QLabel) if w.isVisible()]
    assert labels[:3] == ["a1 · for whoever receives it", "open", "Question 1: A or B?"]
    assert "What counts as an answer" in labels and "A or B" in labels
    assert first.answer_edit.isVisible() and first.save_button.isVisible()
    assert form.scroll_area.horizontalScrollBar().maximum() == 0  # nothing hangs off the side
