"""Small building blocks that show pack text safely.

Pack text is untrusted (spec §4.5). It is shown in plain-text labels, or — where a web
address in it should be clickable — as HTML built here with every character escaped;
clicking an address asks the person first, showing the exact address. Nothing from a
pack is ever run: a sender's `how` is a quoted block with a Copy button, never a Run.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QEnterEvent,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from taskpack.app.desk import has_hidden, visible
from taskpack.ui import dialogs, launch, tones
from taskpack.ui.i18n import tr
from taskpack.ui.words import size_words

T = TypeVar("T")

#: pack text longer than this is cut in the view, with "Show all" (a label laying out a
#: 10 MB line blocks the GUI thread for a minute)
LONG_TEXT = 1500
#: and at most this many lines of it
LONG_LINES = 24
#: the plain-text viewer shows long lines broken every this many characters, and fills
#: itself this many lines per turn of the event loop
VIEWER_LINE = 2000
VIEWER_BATCH = 100
SHOW_ALL = "taskpack:show-all"

_URL = re.compile(r"\bhttps?://[^\s<>\"'«»“”]+", re.IGNORECASE)

MUTED = "#5f6368"  # (in a light theme; `tones.muted()` gives the theme's)
COLORS = tones.LIGHT


def plain_tip(text: str) -> str:
    """`text` as a tooltip that shows it as written. Qt renders a tooltip as HTML when it
    merely looks like HTML (``<b>``, a tag anywhere): then it is escaped, so a sender's
    ``<b>✓ verified here</b>`` reads as those characters and ``<!--`` hides nothing."""
    if not QtGui.Qt.mightBeRichText(text):
        return text
    return "<p style='white-space:pre-wrap'>" + html.escape(text, quote=False) + "</p>"


#: a run of this many characters without a space cannot wrap: it would set the label's
#: least width, and with it the width of the whole page that holds it
_UNBROKEN = re.compile(r"\S{60,}")


def keep_width(label: QLabel) -> None:
    """A wrapped label holding one long unbroken string (a digest, a path, a token) takes
    the width its page gives it instead of asking for the string's: the string is cut at the
    label's edge, and every other line of the page still wraps at the window's width."""
    if _UNBROKEN.search(label.text()):
        policy = label.sizePolicy()  # (keeps height-for-width, which a wrapped label needs)
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        label.setSizePolicy(policy)


def plain(
    text: str,
    *,
    bold: bool = False,
    small: bool = False,
    muted: bool = False,
    selectable: bool = True,
) -> QLabel:
    """A label that shows `text` as typed: no HTML, no links, wrapped."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(True)
    keep_width(label)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    font = label.font()
    if bold:
        font.setBold(True)
    if small:
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 7.0))
    label.setFont(font)
    if muted:  # (a palette, not a style sheet: many muted lines lay out quickly)
        palette = label.palette()
        palette.setColor(QPalette.ColorRole.WindowText, QColor(tones.muted()))
        label.setPalette(palette)
    return label


def escaped_html(text: str) -> str:
    """`text` as HTML: everything escaped; http(s) addresses become links to confirm."""
    out: list[str] = []
    pos = 0
    for m in _URL.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        url = m.group(0).rstrip(".,;:!?)")
        # the address as it will be opened (href), shown with hidden characters visible
        out.append(f'<a href="{html.escape(url, quote=True)}">{html.escape(visible(url))}</a>')
        out.append(html.escape(m.group(0)[len(url) :]))
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out).replace("\n", "<br>")


def clip(text: str, limit: int = LONG_TEXT, lines: int = LONG_LINES) -> tuple[str, bool]:
    """The start of `text` a view can lay out quickly, and whether anything was cut."""
    cut = text[:limit]
    if cut.count("\n") >= lines:
        cut = "\n".join(cut.split("\n")[:lines])
    return (cut, True) if len(cut) < len(text) else (text, False)


def hidden_warning(text: str) -> str:
    """A line saying that `text` holds characters that change how it reads ("" if none)."""
    if not has_hidden(text):
        return ""
    return "\n\n⚠ " + tr(
        "It contains hidden or direction-changing characters, shown as \\uXXXX: "
        "it may not be the address it seems."
    )


class LinkedText(QLabel):
    """Pack text whose web addresses open only after the person confirms the address.

    Hidden characters are shown (``\\u202e``), and long text is cut: the label ends
    with a "Show all" link that opens the whole text in a plain-text viewer.
    """

    def __init__(
        self, text: str, parent: QWidget | None = None, *, links: bool = True, title: str = ""
    ) -> None:
        super().__init__(parent)
        self.raw = text
        self.title = title
        shown, self.clipped = clip(text)
        shown = visible(shown, multiline=True)
        if (links and _URL.search(shown)) or self.clipped:
            body = escaped_html(shown) if links else html.escape(shown).replace("\n", "<br>")
            if self.clipped:
                more = tr("Show all ({size})").format(size=size_words(len(text)))
                body += f' … <a href="{SHOW_ALL}">{html.escape(more)}</a>'
            self.setTextFormat(Qt.TextFormat.RichText)
            self.setText(body)
            self.setOpenExternalLinks(False)
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            self.linkActivated.connect(self._ask_then_open)
        else:
            self.setTextFormat(Qt.TextFormat.PlainText)
            self.setText(shown)
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWordWrap(True)
        keep_width(self)

    def _ask_then_open(self, url: str) -> None:
        if url == SHOW_ALL:
            self.show_all()
        else:
            open_link(self, url)

    def show_all(self) -> TextViewer:
        viewer = TextViewer(self.raw, self.title or tr("The whole text"), self.window())
        viewer.show()
        return viewer


class TextViewer(QDialog):
    """A whole text from a pack, as plain text: read-only, hidden characters shown.

    Lines longer than VIEWER_LINE characters are broken for display, and the text is
    filled in VIEWER_BATCH lines per turn of the event loop, so a 10 MB one-line note
    opens at once and the window never stops answering.
    """

    def __init__(self, text: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(title)
        self.resize(820, 600)
        self.raw = text
        lay = QVBoxLayout(self)
        self.caption = plain(
            tr(
                "{size}, shown as written (hidden characters as \\uXXXX). It is "
                "the sender's text: nothing in it is run."
            ).format(size=size_words(len(text))),
            small=True,
            muted=True,
        )
        lay.addWidget(self.caption)
        self.edit = QPlainTextEdit()
        self.edit.setReadOnly(True)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.edit, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        copy = QPushButton(tr("Copy all"))
        copy.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(visible(self.raw, multiline=True))
        )
        close = QPushButton(tr("Close"))
        close.setDefault(True)
        close.clicked.connect(self.close)
        buttons.addWidget(copy)
        buttons.addWidget(close)
        lay.addLayout(buttons)
        self._pending = self._lines(text)
        self._done = False
        self._fill()

    @staticmethod
    def _lines(text: str) -> Iterator[str]:
        start = 0
        while start < len(text):
            end = text.find("\n", start, start + VIEWER_LINE + 1)
            if end < 0:
                end = min(len(text), start + VIEWER_LINE)
                yield visible(text[start:end], multiline=True)
                start = end
            else:
                yield visible(text[start:end], multiline=True)
                start = end + 1

    def _fill(self) -> None:
        batch = [line for _, line in zip(range(VIEWER_BATCH), self._pending, strict=False)]
        if not batch:
            self._done = True
            return
        first = self.edit.document().isEmpty()
        cursor = self.edit.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(("" if first else "\n") + "\n".join(batch))
        if first:
            self.edit.moveCursor(cursor.MoveOperation.Start)
        QTimer.singleShot(0, self, self._fill)

    def loaded(self) -> bool:
        """Every line is in the viewer (tests wait for this)."""
        return self._done

    def text(self) -> str:
        return self.edit.toPlainText()


def open_link(parent: QWidget, url: str) -> bool:
    """Open a web address from a pack only after the person confirms the exact address."""
    if not _URL.fullmatch(url):
        return False
    ok = dialogs.confirm(
        parent,
        tr("Open a link from the pack?"),
        tr(
            "The pack contains this address. It was written by the sender; open it in your "
            "browser only if you trust it:\n\n{url}"
        ).format(url=visible(url))
        + hidden_warning(url),
        ok=tr("Open this address"),
        safe=True,
    )
    return bool(ok) and launch.open_url(QUrl(url))


class QuotedBlock(QFrame):
    """The sender's words (a `how`), shown as a quote with Copy — never a Run button."""

    copied = Signal(str)

    def __init__(
        self, text: str, caption: str, parent: QWidget | None = None, *, links: bool = False
    ) -> None:
        super().__init__(parent)
        self.text = text
        self.setObjectName("quoted")
        self.setStyleSheet(
            f"#quoted {{ border-left: 4px solid {tones.edge()}; background: {tones.wash('plain')};"
            " border-radius: 2px; }"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        lay.setSpacing(2)
        top = QHBoxLayout()
        self.caption = plain(caption, small=True, muted=True, selectable=False)
        top.addWidget(self.caption, 1)
        self.copy_button = QToolButton()
        self.copy_button.setText(tr("Copy"))
        self.copy_button.setToolTip(tr("Copy the sender's text to the clipboard. Nothing is run."))
        self.copy_button.clicked.connect(self.copy)
        top.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(top)
        # a command stays plain text in a fixed font; prose (a note) may carry addresses
        self.body = LinkedText(text, links=links, title=caption)
        if not links:
            self.body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.body)

    def copy(self) -> None:
        # what is copied is what is shown: hidden characters stay visible in a command
        QGuiApplication.clipboard().setText(visible(self.text, multiline=True))
        self.copy_button.setText(tr("Copied"))
        QTimer.singleShot(1500, self.copy_button, lambda: self.copy_button.setText(tr("Copy")))
        self.copied.emit(self.text)


class Banner(QFrame):
    """A one-sentence message over the content: errors, outcomes, hints."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        self.label = plain("")
        lay.addWidget(self.label, 1)
        self.actions_lay = QHBoxLayout()
        lay.addLayout(self.actions_lay)
        self.action_buttons: list[QPushButton] = []
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(tr("Dismiss"))
        self.close_button.clicked.connect(self.clear)
        lay.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.kind = ""
        self.hide()

    def show_message(
        self,
        text: str,
        kind: str = "info",
        *,
        actions: Sequence[tuple[str, Callable[[], object]]] = (),
    ) -> None:
        """Show `text`; `actions` are (label, callback) buttons beside it (what to do now)."""
        self._clear_actions()
        for label, callback in actions:
            b = QPushButton(label)
            b.clicked.connect(lambda _c=False, f=callback: f())
            self.actions_lay.addWidget(b)
            self.action_buttons.append(b)
        bg, fg = tones.kind_colors(kind)
        self.kind = kind
        self.setStyleSheet(
            f"#banner {{ background: {bg}; border: 1px solid {fg}; border-radius: 3px; }}"
            f" #banner QLabel {{ color: {fg}; }}"
        )
        self.label.setText(text)
        self.show()

    def text(self) -> str:
        """The message shown now ("" when there is none)."""
        return self.label.text() if self.kind else ""

    def clear(self) -> None:
        self.kind = ""
        self.label.setText("")
        self._clear_actions()
        self.hide()

    def _clear_actions(self) -> None:
        for b in self.action_buttons:
            b.hide()
            b.deleteLater()
        self.action_buttons = []


class FloatingBanner(Banner):
    """A banner laid over the top of `over` (a sibling), not above it in a layout: when a
    message comes or goes nothing beneath moves, so a click meant for a button lands on
    that button.

    Lying over the page, it hides the page's heading while it shows: a plain outcome
    ("Saved …", "Landed as …": kind info or ok, no buttons) goes away by itself once it
    has had time to be read, and waits while the pointer rests on it. Warnings, errors
    and messages that offer a choice stay until dismissed."""

    MARGIN = 8
    #: outcomes leave by themselves (the window's tests turn this off, to read them at leisure)
    auto_hide = True
    PASSING = ("info", "ok")

    def __init__(self, over: QWidget) -> None:
        super().__init__(over.parentWidget())
        self.over = over
        self.setAutoFillBackground(True)
        over.installEventFilter(self)
        self.hide_timer = QTimer(self)
        self.hide_timer.setSingleShot(True)
        self.hide_timer.timeout.connect(self.clear)

    @staticmethod
    def reading_ms(text: str) -> int:
        """Time to read `text`: 4 s, and 60 ms a character past the first 40, at most 15 s."""
        return min(4000 + 60 * max(len(text) - 40, 0), 15_000)

    def enterEvent(self, event: QEnterEvent) -> None:
        self.hide_timer.stop()  # the person is reading it, or about to click
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        if self.kind in self.PASSING and not self.action_buttons and self.auto_hide:
            self.hide_timer.start(3000)
        super().leaveEvent(event)

    def clear(self) -> None:
        self.hide_timer.stop()
        super().clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.over and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.place()
        return False

    def show_message(
        self,
        text: str,
        kind: str = "info",
        *,
        actions: Sequence[tuple[str, Callable[[], object]]] = (),
    ) -> None:
        super().show_message(text, kind, actions=actions)
        self.place()
        self.raise_()
        self.hide_timer.stop()
        if self.auto_hide and kind in self.PASSING and not actions and not self.underMouse():
            self.hide_timer.start(self.reading_ms(text))

    def place(self) -> None:
        """Over the top of `over`, as wide as it less a margin, as tall as the text needs."""
        area = self.over.geometry()
        width = max(area.width() - 2 * self.MARGIN, 120)
        lay = self.layout()
        height = (
            lay.totalHeightForWidth(width)
            if lay is not None and lay.hasHeightForWidth()
            else self.sizeHint().height()
        )
        self.setGeometry(area.x() + self.MARGIN, area.y() + self.MARGIN, width, height)


#: a badge up to this many characters stays on one line whatever the width
PILL_ONE_LINE = 24


class Pill(QLabel):
    """A badge: a short text in a tinted, rounded box. Painted here, not by a style sheet:
    a style sheet per badge made every list of them (facts, asks) slow to lay out."""

    def __init__(self, text: str, kind: str = "info") -> None:
        super().__init__()
        bg, fg = tones.kind_colors(kind)
        self.fill, self.edge = QColor(bg), QColor(fg)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, self.edge)
        self.setPalette(palette)
        self.setContentsMargins(9, 2, 9, 2)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Maximum)
        if len(text) > PILL_ONE_LINE:  # a sentence, not a word: it wraps in a narrow pane
            self.setWordWrap(True)  # instead of widening the whole review past the window
            wrapping = QSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
            wrapping.setHeightForWidth(True)  # as tall as its lines at the width it is given
            self.setSizePolicy(wrapping)

    def sizeHint(self) -> QSize:
        """A wrapping pill still asks for one line; it wraps only when it is not given that."""
        if not self.wordWrap():
            return super().sizeHint()
        m = self.contentsMargins()
        width = self.fontMetrics().horizontalAdvance(self.text()) + m.left() + m.right() + 2
        return QSize(width, self.heightForWidth(width))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.setPen(QPen(self.edge, 1))
        painter.setBrush(self.fill)
        radius = min(8.0, box.height() / 2)
        painter.drawRoundedRect(box, radius, radius)
        painter.end()
        super().paintEvent(event)


def badge(text: str, kind: str = "info") -> QLabel:
    return Pill(text, kind)


def heading(text: str, level: int = 2) -> QLabel:
    label = plain(text, bold=True, selectable=False)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * {1: 1.5, 2: 1.2, 3: 1.0}.get(level, 1.0))
    font.setWeight(QFont.Weight.DemiBold)
    label.setFont(font)
    return label


class Section(QWidget):
    """A titled group of rows: a heading, an optional explanation, then the rows."""

    def __init__(self, title: str, explain: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 8, 0, 4)
        self.lay.setSpacing(6)
        self.title = heading(title)
        self.lay.addWidget(self.title)
        if explain:
            self.lay.addWidget(plain(explain, small=True, muted=True, selectable=False))

    def add(self, widget: QWidget) -> QWidget:
        self.lay.addWidget(widget)
        return widget


def row(*widgets: QWidget | None, stretch_last: bool = False) -> QWidget:
    box = QWidget()
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        if w is not None:
            lay.addWidget(w)
    if not stretch_last:
        lay.addStretch(1)
    return box


def button(
    text: str, slot: Callable[[], object] | None = None, *, tip: str = "", primary: bool = False
) -> QPushButton:
    b = QPushButton(text)
    if tip:
        b.setToolTip(plain_tip(tip))
    if slot is not None:
        b.clicked.connect(lambda _checked=False: slot())
    if primary:
        b.setDefault(True)
        b.setAutoDefault(True)
    return b


def clear_layout(layout: QLayout) -> None:
    while (item := layout.takeAt(0)) is not None:  # None: the layout is empty
        w = item.widget()
        if w is not None:
            w.hide()
            w.deleteLater()
        elif (inner := item.layout()) is not None:
            clear_layout(inner)


def layout_widgets(layout: QLayout) -> list[QWidget]:
    """The widgets `layout` holds, in order (its spacers and inner layouts left out)."""
    items = (layout.itemAt(i) for i in range(layout.count()))
    return [w for item in items if item is not None and (w := item.widget()) is not None]


def unwrapped(label: QLabel) -> QLabel:
    """`label` kept on one line (an id and its version never break apart)."""
    label.setWordWrap(False)
    return label
