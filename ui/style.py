"""The desk's look: Fusion, with a focus ring a person can see.

Fusion marks keyboard focus faintly (a thin tint that is hard to see on a button or a
check box). `FocusRingStyle` draws a 2-pixel ring in the highlight blue instead, so
whoever works from the keyboard sees where they are (issue 11.13).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)
from taskpack.ui import tones

FOCUS_COLOR = "#1a66d2"  # (in a light theme; `tones.focus()` gives the theme's)
_installed: list[QProxyStyle] = []  # kept alive: the application does not own a Python object


class FocusRingStyle(QProxyStyle):
    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            ring(painter, option.rect)  # type: ignore[attr-defined]
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
        ):  # type: ignore[attr-defined]
            ring(painter, option.rect)  # type: ignore[attr-defined]


def ring(painter: QPainter, rect: QRect) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor(tones.focus()), 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), 3, 3)
    painter.restore()


def install(app: QApplication | None = None) -> None:
    """Use Fusion with the focus ring (once per application)."""
    app = app or QApplication.instance()  # type: ignore[assignment]
    if not isinstance(app, QApplication) or isinstance(app.style(), FocusRingStyle):
        return
    style = FocusRingStyle(QStyleFactory.create("Fusion"))
    _installed.append(style)
    app.setStyle(style)
