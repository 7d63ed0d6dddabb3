"""Nothing a pack says is read as HTML: every label and tooltip built from pack text shows
the characters a sender typed (Qt reads a tooltip, and a label left on AutoText, as rich
text whenever it merely looks like HTML)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import RECEIVER, drop, settle
from PySide6 import QtGui
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTreeWidget, QWidget
from pytestqt.qtbot import QtBot

BOLD = "<b>PWNED</b>"  # renders bold, the tags gone, when read as HTML
COMMENT = "<!--HIDE"  # hides itself and every word after it, when read as HTML
ITALIC = "<i>PWNED"  # in a file name (which cannot hold the "/" of a closing tag)


def rendered(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a person reads of `text` shown in `fmt` (a tooltip is always AutoText)."""
    rich = fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)
    )
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def shown_texts(root: QWidget) -> Iterator[tuple[str, str, str]]:
    """(where, source, what a person reads) of every label, tooltip and item tooltip."""
    for w in [root, *root.findChildren(QWidget)]:
        name = type(w).__name__
        if w.toolTip():
            yield f"{name} tooltip", w.toolTip(), rendered(w.toolTip())
        if isinstance(w, QLabel):
            yield f"{name} text", w.text(), rendered(w.text(), w.textFormat())
        if isinstance(w, QTreeWidget):
            for i in range(w.topLevelItemCount()):
                item = w.topLevelItem(i)
                for c in range(w.columnCount()):
                    tip = item.toolTip(c)
                    yield f"{name} item tooltip", tip, rendered(tip)
        if isinstance(w, QAbstractItemView) and not isinstance(w, QTreeWidget):
            model: QAbstractItemModel | None = w.model()
            if model is None:
                continue
            for r in range(model.rowCount()):
                for c in range(model.columnCount()):
                    tip = model.index(r, c).data(Qt.ItemDataRole.ToolTipRole)
                    if isinstance(tip, str) and tip:
                        yield f"{name} row tooltip", tip, rendered(tip)


def assert_no_markup_obeyed(root: QWidget) -> list[tuple[str, str]]:
    """Fail on any text that holds the hostile markup and loses it when shown; return the
    (where, what is read) of those that show it as written."""
    showing = []
    for where, source, read in shown_texts(root):
        if "PWNED" in source:
            assert BOLD in read or ITALIC in read, f"{where}: {source!r} reads {read!r}"
            showing.append((where, read))
        if "HIDE" in source:
            assert COMMENT in read, f"{where}: {source!r} reads {read!r}"
            showing.append((where, read))
    return showing


def test_a_tooltip_that_looks_like_html_shows_its_characters() -> None:
    from taskpack.ui.widgets import plain_tip

    for text in (BOLD, f"Hop 1 of 2: {BOLD}", f"x {COMMENT} y", "a\n  b <i>c</i>"):
        assert rendered(plain_tip(text)) == text
    assert plain_tip("Just words & more") == "Just words & more"  # plain stays as it is


def test_a_hostile_pack_shows_its_markup_as_characters_everywhere(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    from taskpack.app.desk import Desk

    sender = Desk(tmp_path / "evil-home", f"{BOLD}pc", actor=f"Boss {COMMENT}")
    pid = sender.new(f"Quarterly {BOLD}", f"Pay now {COMMENT}", current_state=BOLD).id
    sender.add_fact(pid, f"{BOLD} ✓ verified here", scope="machine", verified=True)
    sender.add_check(pid, f"Check {BOLD}", how=f"echo {COMMENT}")
    sender.add_next(pid, f"Then {BOLD}")
    sender.add_ask(pid, f"Who {BOLD}?", f"A name {COMMENT}")
    out = tmp_path / f"{ITALIC} evil.taskpack"
    sender.pack(pid, out, note=f"Note {BOLD}", to=f"you {COMMENT}")
    sender.close()

    window = make_window(make_desk(RECEIVER))
    assert drop(window, out) == (True, True)
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.incoming.view
    review = assert_no_markup_obeyed(window)
    assert any(where == "TreeView row tooltip" or "row tooltip" in where for where, _ in review)

    window.incoming.view.land_button.click()
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.passport.view
    page = window.passport.view
    for tab in range(page.tabs.count()):  # every tab built and shown once
        page.tabs.setCurrentIndex(tab)
        settle(qtbot, window)
    showing = assert_no_markup_obeyed(window)
    places = {where for where, _ in showing}
    # the places the hands-on pass found reading the sender's text as HTML
    journey = page.journey
    assert journey is not None and any("PWNED" in n.toolTip() for n in journey.nodes)
    assert "HistoryTimeline item tooltip" in places  # History details
    assert any("row tooltip" in p for p in places)  # the From column
    restore = [b for b in page.findChildren(QWidget) if b.toolTip().count("PWNED")]
    assert restore, places  # Restore ✓'s reason names the machine the fact was proven on

    window.compose_current()  # the landed passport, open in the composer
    settle(qtbot, window)
    assert window.stack.currentWidget() is window.composer
    assert assert_no_markup_obeyed(window)


def test_a_message_coming_and_going_moves_nothing_beneath(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Fix the invoice export", "Invoices open in Excel").id
    window = make_window(desk)
    window.resize(900, 650)
    window.select_key(pid)
    settle(qtbot, window)
    page = window.passport.view

    def where() -> tuple[int, int]:
        point = page.tabs.mapTo(window, page.tabs.rect().topLeft())
        return point.x(), point.y()

    before = where()
    window.info("Saved /home/someone/Downloads/fix-the-invoice-export-handoff.taskpack. " * 3)
    qtbot.waitUntil(window.banner.isVisible)
    QApplication.processEvents()
    assert where() == before  # the page did not move down under the pointer
    label = window.banner.label
    assert label.height() >= label.heightForWidth(label.width())  # every line of it shows
    assert window.stack.geometry().contains(window.banner.geometry())
    assert window.banner.label.text().startswith("Saved /home/someone")
    window.banner.close_button.click()
    QApplication.processEvents()
    assert not window.banner.isVisible() and where() == before


def test_an_outcome_leaves_by_itself_a_warning_or_a_choice_stays(
    qtbot: QtBot, make_desk: Any, make_window: Any, monkeypatch: Any
) -> None:
    """The banner lies over the page's heading: "Saved …" goes once read, and waits while
    the pointer rests on it; an error, a warning and a message with buttons stay."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QEnterEvent
    from taskpack.ui.widgets import FloatingBanner

    monkeypatch.setattr(FloatingBanner, "auto_hide", True)
    window = make_window(make_desk(RECEIVER))
    window.resize(900, 650)
    settle(qtbot, window)
    banner = window.banner
    assert banner.reading_ms("Saved x.taskpack (2.4 KiB).") == 4000
    assert 4000 < banner.reading_ms("Saved " + "/a-long-folder" * 20) <= 15_000
    monkeypatch.setattr(FloatingBanner, "reading_ms", staticmethod(lambda text: 50))

    window.info("Saved /home/someone/fix-the-invoice-export-handoff.taskpack (2.4 KiB).")
    assert banner.isVisible()
    qtbot.waitUntil(lambda: not banner.isVisible(), timeout=10_000)
    assert banner.text() == ""

    window.info("Saved again.")
    here = QPointF(5, 5)
    QApplication.sendEvent(banner, QEnterEvent(here, here, banner.mapToGlobal(here)))
    assert banner.isVisible() and not banner.hide_timer.isActive()  # being read

    window.error("The file could not be written: the disk is full. Free some space.")
    assert banner.isVisible() and not banner.hide_timer.isActive()
    banner.show_message("Open the folder?", "info", actions=[("Open", lambda: None)])
    assert banner.isVisible() and not banner.hide_timer.isActive()
    banner.show_message("Check the file's format first.", "warn")
    assert banner.isVisible() and not banner.hide_timer.isActive()
