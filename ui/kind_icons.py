"""Small painted marks for what kind of file an inbox row is: a handoff that arrived (an
arrow coming in), a receipt that arrived (a tick coming home), one this desk sent (an
arrow going out), one that cannot be opened (a red "!"). Drawn here, so they need no
image files and look the same in every language and style.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap

#: the marks' colours: the window's info blue, ok green, muted grey and error red
COLOR = {"handoff": "#1c3f9b", "receipt": "#1b6b3a", "sent": "#80868b", "problem": "#9b1c1c"}
SIZE = 16


def _path(mark: str) -> QPainterPath:
    path = QPainterPath()
    if mark == "receipt":  # a tick
        path.moveTo(4.5, 8.5)
        path.lineTo(7, 11)
        path.lineTo(11.5, 5.5)
    elif mark == "sent":  # an arrow going up and out
        path.moveTo(8, 12)
        path.lineTo(8, 4.5)
        path.moveTo(5, 7.5)
        path.lineTo(8, 4.5)
        path.lineTo(11, 7.5)
    elif mark == "problem":  # "!"
        path.moveTo(8, 4)
        path.lineTo(8, 9)
        path.moveTo(8, 11.5)
        path.lineTo(8, 12)
    else:  # a handoff: an arrow coming down and in
        path.moveTo(8, 4)
        path.lineTo(8, 11.5)
        path.moveTo(5, 8.5)
        path.lineTo(8, 11.5)
        path.lineTo(11, 8.5)
    return path


@cache
def kind_icon(mark: str) -> QIcon:
    """The mark for `mark` (handoff | receipt | sent | problem), a ring with a sign."""
    icon = QIcon()
    for scale in (1, 2):
        pixmap = QPixmap(SIZE * scale, SIZE * scale)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(COLOR.get(mark, COLOR["handoff"]))
        painter.setPen(QPen(color, 1.2))
        painter.setBrush(QColor(color.red(), color.green(), color.blue(), 28))
        painter.drawEllipse(QRectF(1, 1, SIZE - 2, SIZE - 2))
        pen = QPen(color, 1.8)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(_path(mark))
        painter.end()
        icon.addPixmap(pixmap)
    return icon
