"""The desk's look: Fusion, with a focus ring a person can see.

Fusion marks keyboard focus faintly (a thin tint that is hard to see on a button or a
check box). `FocusRingStyle` draws a 2-pixel ring in the highlight blue instead, so
whoever works from the keyboard sees where they are.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QPlainTextEdit,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QTextEdit,
    QWidget,
)
from shiboken6 import isValid
from taskpack.ui import tones

FOCUS_COLOR = "#1a66d2"  # (in a light theme; `tones.focus()` gives the theme's)
_installed: list[QProxyStyle] = []  # kept alive: the application does not own a Python object
_frames: list[QObject] = []


class FocusRingStyle(QProxyStyle):
    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            ring(painter, option.rect)
            return
        super().drawPrimitive(element, option, painter, widget)

    def drawControl(
        self,
        element: QStyle.ControlElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawControl(element, option, painter, widget)
        # Fusion tints a focused button's frame; draw the ring over it
        if (
            element == QStyle.ControlElement.CE_PushButton
            and option.state & QStyle.StateFlag.State_HasFocus
        ):
            ring(painter, option.rect)


def ring(painter: QPainter, rect: QRect) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor(tones.focus()), 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), 3, 3)
    painter.restore()


class _Ring(QWidget):
    """The ring itself: a see-through layer over a scroll area (clicks pass through)."""

    def __init__(self) -> None:
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        ring(painter, self.rect())
        painter.end()


class FocusFrames(QObject):
    """A ring round a scroll area that has the keyboard focus (the Overview, a review):
    Fusion draws nothing there, so a Tab that stopped on one seemed to vanish. Item views
    and text fields show their own focus, and are left alone. The ring is drawn inside the
    area's edge: one flush with its parent's edge would otherwise be cut off."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.ring: _Ring | None = None
        self.area: QWidget | None = None
        app.focusChanged.connect(self._moved)

    def _moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        bare = isinstance(new, QAbstractScrollArea) and not isinstance(
            new, QAbstractItemView | QPlainTextEdit | QTextEdit
        )
        if self.area is not None and isValid(self.area):
            self.area.removeEventFilter(self)
        if self.ring is not None and isValid(self.ring):
            self.ring.hide()
        self.area = None
        if not bare or new is None:
            return
        if self.ring is None or not isValid(self.ring):
            self.ring = _Ring()
        self.ring.setParent(new)
        self.area = new
        new.installEventFilter(self)
        self._place()

    def _place(self) -> None:
        if self.ring is not None and self.area is not None:
            self.ring.setGeometry(self.area.rect())
            self.ring.raise_()
            self.ring.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.area and event.type() == QEvent.Type.Resize:
            self._place()
        return False


def install(app: QApplication | None = None) -> None:
    """Use Fusion with the focus ring (once per application)."""
    current = app or QApplication.instance()
    if not isinstance(current, QApplication) or isinstance(current.style(), FocusRingStyle):
        return
    style = FocusRingStyle(QStyleFactory.create("Fusion"))
    _installed.append(style)
    current.setStyle(style)
    _frames.append(FocusFrames(current))
