"""A layout that places its widgets left to right and wraps them onto the next line."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Widgets in a row that wraps onto the next line when the space runs out.

    Qt has no wrapping layout (its "flow layout" is an example, not a class); the passport's
    move buttons need one so the window stays usable at 800×600. Widgets
    added with `add_right` go to the end of the last line. Its minimum width is the widest
    single item.
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._right: set[int] = set()  # ids of items kept at the right end
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def add_right(self, widget: QWidget) -> None:
        self.addWidget(widget)
        self._right.add(id(self._items[-1]))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        if not 0 <= index < len(self._items):
            return None
        item = self._items.pop(index)
        self._right.discard(id(item))
        return item

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        visible_items = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in visible_items) + self.spacing() * max(
            len(visible_items) - 1, 0
        )
        height = max((i.sizeHint().height() for i in visible_items), default=0)
        return QSize(width, height)

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        gap = self.spacing()
        left = [i for i in self._items if id(i) not in self._right and not i.isEmpty()]
        right = [i for i in self._items if id(i) in self._right and not i.isEmpty()]
        for item in left:
            hint = item.sizeHint()
            if x > rect.x() and x + hint.width() > rect.right() + 1:
                x, y, line = rect.x(), y + line + gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + gap
            line = max(line, hint.height())
        if right:
            need = sum(i.sizeHint().width() for i in right) + gap * (len(right) - 1)
            if x > rect.x() and x + need > rect.right() + 1:
                x, y, line = rect.x(), y + line + gap, 0
            x = max(x, rect.right() + 1 - need)
            for item in right:
                hint = item.sizeHint()
                if move:
                    item.setGeometry(QRect(QPoint(x, y), hint))
                x += hint.width() + gap
                line = max(line, hint.height())
        return y + line - rect.y()
