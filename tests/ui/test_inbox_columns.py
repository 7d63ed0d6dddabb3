"""The inbox list at the window's smallest usual size: the title takes the spare width,
the other columns only what they show."""

from __future__ import annotations

from conftest import RECEIVER, settle
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QTextLayout, QTextOption
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot
from taskpack.ui.models import InboxModel
from taskpack.ui.window.keys_columns import allotted

TITLES = ["Q3 report charts", "Fix the invoice export for finance", "Migrate the build server"]


def columns(window) -> dict[int, int]:
    header = window.inbox.view.header()
    return {c: header.sectionSize(c) for c in range(header.count())}


def fits(window, row: int, column: int) -> bool:
    """The text of a cell is drawn whole (not elided) in its column."""
    index = window.inbox.proxy.index(row, column)
    text = str(index.data())
    return (
        window.inbox.view.fontMetrics().horizontalAdvance(text) + 6
        <= window.inbox.view.visualRect(index).width()
    )


def drawn_whole(window, row: int, column: int) -> bool:
    """The cell's text is drawn whole where the list draws it: on one line, or, when its
    cell wraps, broken at spaces into lines that all fit in the cell (none cut to "…")."""
    view = window.inbox.view
    index = window.inbox.proxy.index(row, column)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    style = view.style()
    icon = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, view)
    option.decorationSize = view.iconSize() if view.iconSize().isValid() else QSize(icon, icon)
    view.itemDelegateForIndex(index).initStyleOption(option, index)  # its mark, its wrapping
    text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    width = text_rect.width() - 2 * margin
    wraps = bool(option.features & QStyleOptionViewItem.ViewItemFeature.WrapText)
    layout = QTextLayout(option.text, option.font)  # laid out as the list lays it out
    how = QTextOption()
    how.setWrapMode(
        QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere if wraps else QTextOption.WrapMode.NoWrap
    )
    layout.setTextOption(how)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append(line)
    layout.endLayout()
    words = [option.text[x.textStart() : x.textStart() + x.textLength()].strip() for x in lines]
    return (
        " ".join(words) == " ".join(option.text.split())  # no word broken in two
        and all(x.naturalTextWidth() <= width for x in lines)
        and sum(x.height() for x in lines) <= text_rect.height()
    )


def test_at_800_by_600_the_title_is_the_widest_column(qtbot: QtBot, make_desk, make_window) -> None:
    desk = make_desk(RECEIVER)
    for title in TITLES:
        desk.new(title, "A goal")
    window = make_window(desk)
    window.resize(800, 600)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 100)
    sizes = columns(window)
    assert sizes[InboxModel.TITLE] == max(sizes.values())
    assert sizes[InboxModel.TITLE] >= 0.4 * window.inbox.view.viewport().width()
    [q3] = [
        r
        for r in range(window.inbox.proxy.rowCount())
        if window.inbox.proxy.index(r, 0).data() == TITLES[0]
    ]
    assert fits(window, q3, InboxModel.TITLE)  # a typical title is read whole
    assert fits(window, q3, InboxModel.STATE)  # and so is where it stands ("in progress")
    assert sum(sizes.values()) <= window.inbox.view.viewport().width() + 1  # no sideways scrolling

    window.resize(1280, 800)  # wider: every column shows its contents, the title the rest
    settle(qtbot, window)
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 300)
    for row in range(window.inbox.proxy.rowCount()):
        assert fits(window, row, InboxModel.TITLE)
    header = window.inbox.view.header()
    assert header.sectionResizeMode(InboxModel.TITLE) == header.ResizeMode.Stretch
    assert window.inbox.proxy.headerData(InboxModel.TITLE, Qt.Orientation.Horizontal) == "Title"


def test_widths_are_granted_in_order_within_the_budget() -> None:
    cols = (1, 2, 3)
    assert allotted([(1, 40), (2, 50), (3, 20)], cols, 10, 200) == {1: 40, 2: 50, 3: 20}
    # a later step gets what is left; an earlier one is never cut for it
    assert allotted([(1, 80), (2, 80), (3, 80)], cols, 10, 150) == {1: 80, 2: 60, 3: 10}
    # a column grows in several steps (its words first, the rest later)
    assert allotted([(1, 30), (2, 30), (1, 90)], cols, 10, 120) == {1: 80, 2: 30, 3: 10}
    # no budget: each keeps the least width
    assert allotted([(1, 30)], cols, 10, 20) == {1: 10, 2: 10, 3: 10}


def test_short_headers_are_read_whole_and_the_sender_gives_way_first(
    tmp_path, qtbot: QtBot, make_desk, make_window
) -> None:
    from conftest import SENDER, make_handoff

    pack = tmp_path / "invoice.taskpack"
    make_handoff(make_desk(SENDER, "Wei Zhang-Longname"), pack, title="Fix the invoice export")
    desk = make_desk(RECEIVER)
    desk.land(pack)
    window = make_window(desk)
    window.resize(1152, 760)
    settle(qtbot, window)
    header = window.inbox.view.header()
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 100)
    fm = header.fontMetrics()
    for col in (InboxModel.ASKS, InboxModel.UPDATED):
        label = window.inbox.proxy.headerData(col, Qt.Orientation.Horizontal)
        assert header.sectionSize(col) >= fm.horizontalAdvance(label) + 8, (
            label
        )  # "Updated", not "Upda…"
    assert not fits(window, 0, InboxModel.SENDER)  # the long sender is the one cut


def test_the_sort_arrow_does_not_sit_on_its_header_word(
    qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    desk.new("Q3 report charts", "A goal")
    window = make_window(desk)
    window.resize(1000, 700)
    settle(qtbot, window)
    header = window.inbox.view.header()
    assert header.sortIndicatorSection() == InboxModel.UPDATED  # newest first, arrow shown
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 100)
    word = header.fontMetrics().horizontalAdvance("Updated")
    assert header.sectionSize(InboxModel.UPDATED) >= word + 12 + 12  # the word, then the arrow


def test_at_800_by_600_the_sender_is_read_whole_and_the_kind_is_a_mark(
    tmp_path, qtbot: QtBot, make_desk, make_window
) -> None:
    """ "root@a…" and a "Handoff:" prefix eating the title; the sender is read
    whole, a long one keeps both ends, and an incoming file's kind is a mark in its State."""
    from conftest import make_handoff

    alpha = make_desk("alpha", "root")
    landed, arrived = tmp_path / "landed.taskpack", tmp_path / "arrived.taskpack"
    make_handoff(alpha, landed, title="Fix the invoice export for finance")
    make_handoff(alpha, arrived, title="Q3 report charts")
    long_name = make_desk("wei-laptop", "Wei Zhang-Longname-Of-Finance")
    make_handoff(long_name, tmp_path / "long.taskpack", title="Budget sheet")
    desk = make_desk(RECEIVER)
    desk.land(landed)
    desk.land(tmp_path / "long.taskpack")
    window = make_window(desk)
    window.resize(800, 600)
    window.open_files([arrived])
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.inbox.proxy.rowCount() == 3)
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 100)
    rows = {window.inbox.proxy.index(r, 0).data(): r for r in range(window.inbox.proxy.rowCount())}
    assert set(rows) == {"Fix the invoice export for finance", "Q3 report charts", "Budget sheet"}
    for title in ("Fix the invoice export for finance", "Q3 report charts"):
        sender = window.inbox.proxy.index(rows[title], InboxModel.SENDER)
        assert sender.data() == "root@alpha"
        assert fits(window, rows[title], InboxModel.SENDER)  # not "root@a…"
        assert sender.data(Qt.ItemDataRole.ToolTipRole) == "root@alpha"
    long_sender = window.inbox.proxy.index(rows["Budget sheet"], InboxModel.SENDER)
    assert (
        long_sender.data(Qt.ItemDataRole.ToolTipRole) == "Wei Zhang-Longname-Of-Finance@wei-laptop"
    )
    width = window.inbox.view.visualRect(long_sender).width()
    option_font = window.inbox.view.fontMetrics()
    assert width >= 12 * option_font.averageCharWidth()  # a readable part of it …
    drawn = option_font.elidedText(long_sender.data(), Qt.TextElideMode.ElideMiddle, width - 6)
    assert drawn.startswith("Wei") and drawn.endswith("top") and "…" in drawn  # both ends
    delegate = window.inbox.view.itemDelegateForIndex(long_sender)
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    delegate.initStyleOption(option, long_sender)
    assert option.textElideMode == Qt.TextElideMode.ElideMiddle
    # the incoming file: its title alone, its kind a mark beside "handoff arrived"
    state = window.inbox.proxy.index(rows["Q3 report charts"], InboxModel.STATE)
    assert state.data() == "handoff arrived"
    assert state.data(Qt.ItemDataRole.ToolTipRole) == "handoff arrived"
    assert not state.data(Qt.ItemDataRole.DecorationRole).isNull()
    assert (
        window.inbox.proxy.index(rows["Fix the invoice export for finance"], InboxModel.STATE).data(
            Qt.ItemDataRole.DecorationRole
        )
        is None
    )  # a passport has no file mark
    sizes = columns(window)
    assert sizes[InboxModel.TITLE] == max(sizes.values())
    assert sum(sizes.values()) <= window.inbox.view.viewport().width() + 1


def test_at_800_by_600_the_state_is_read_whole_beside_a_long_sender(
    tmp_path, qtbot: QtBot, make_desk, make_window
) -> None:
    """ "ne…" was all a narrow list said of "needs your approval": the state is written on
    two lines when one would cut it, and the sender stays readable beside it."""
    from conftest import make_handoff

    alpha = make_desk("alpha", "root")
    make_handoff(alpha, tmp_path / "landed.taskpack", title="Fix the invoice export for finance")
    make_handoff(alpha, tmp_path / "arrived.taskpack", title="Q3 report charts")
    long_name = make_desk("wei-laptop", "Wei Zhang-Longname-Of-Finance")
    make_handoff(long_name, tmp_path / "long.taskpack", title="Budget sheet")
    desk = make_desk(RECEIVER)
    desk.land(tmp_path / "landed.taskpack")
    desk.land(tmp_path / "long.taskpack")
    desk.new("Migrate the build server", "A goal")
    window = make_window(desk)
    window.resize(800, 600)
    window.open_files([tmp_path / "arrived.taskpack"])
    settle(qtbot, window)
    proxy = window.inbox.proxy
    qtbot.waitUntil(lambda: proxy.rowCount() == 4)
    qtbot.waitUntil(lambda: columns(window)[InboxModel.TITLE] > 100)
    states = {proxy.index(r, InboxModel.STATE).data() for r in range(proxy.rowCount())}
    assert {"needs your approval", "handoff arrived", "in progress"} <= states
    for row in range(proxy.rowCount()):
        assert drawn_whole(window, row, InboxModel.STATE), proxy.index(row, InboxModel.STATE).data()
        if proxy.index(row, InboxModel.SENDER).data() == "root@alpha":
            assert drawn_whole(window, row, InboxModel.SENDER)
    sizes = columns(window)
    assert sizes[InboxModel.TITLE] == max(sizes.values())  # the title is still the widest
    assert sum(sizes.values()) <= window.inbox.view.viewport().width() + 1

    window.resize(1280, 800)  # room for every state on one line: rows of one line again
    settle(qtbot, window)
    one_line = window.inbox.view.fontMetrics().lineSpacing() * 2
    qtbot.waitUntil(lambda: window.inbox.view.rowHeight(proxy.index(0, 0)) < one_line)
    for row in range(proxy.rowCount()):
        assert drawn_whole(window, row, InboxModel.STATE)
