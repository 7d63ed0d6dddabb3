"""Boxes the window tints (the next step, the journey, a quoted `how`, "What counts as an
answer") read in a light and in a dark theme: their colours come from the palette."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import RECEIVER, SENDER, make_handoff, settle
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QWidget
from pytestqt.qtbot import QtBot
from taskpack.ui.widgets import QuotedBlock


def _dark() -> QPalette:
    p = QPalette()
    R = QPalette.ColorRole
    for role, colour in (
        (R.Window, "#2b2b2b"),
        (R.WindowText, "#eeeeee"),
        (R.Base, "#1e1e1e"),
        (R.AlternateBase, "#333333"),
        (R.Text, "#eeeeee"),
        (R.Button, "#353535"),
        (R.ButtonText, "#eeeeee"),
        (R.Highlight, "#3d7bd9"),
        (R.HighlightedText, "#ffffff"),
        (R.ToolTipBase, "#353535"),
        (R.ToolTipText, "#eeeeee"),
        (R.PlaceholderText, "#9a9a9a"),
    ):
        p.setColor(role, QColor(colour))
    return p


@pytest.fixture(params=["light", "dark"])
def theme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    before = QApplication.palette()
    if request.param == "dark":
        QApplication.setPalette(_dark())
    yield request.param
    QApplication.setPalette(before)


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(widget: QWidget) -> float:
    """The contrast ratio (WCAG) between the box's background — its commonest colour — and
    the text drawn on it — the pixel that differs from it most."""
    image = widget.grab().toImage()
    pixels = Counter(
        image.pixel(x, y) for x in range(0, image.width(), 1) for y in range(image.height())
    )
    background = QColor.fromRgb(pixels.most_common(1)[0][0])
    lb = _luminance(background)
    far = max((_luminance(QColor.fromRgb(p)) for p in pixels), key=lambda lum: abs(lum - lb))
    hi, lo = max(lb, far), min(lb, far)
    return (hi + 0.05) / (lo + 0.05)


def test_tinted_boxes_read_in_both_themes(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any, theme: str
) -> None:
    pack = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack)
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.land(pack).id
    window = make_window(desk)
    window.resize(1000, 800)
    window.select_key(pid)
    settle(qtbot, window)
    page = window.passport.view
    boxes: dict[str, QWidget] = {}
    boxes["next step"] = page.findChild(QFrame, "nextline")
    assert page.journey is not None
    boxes["journey node"] = page.journey.nodes[0]
    boxes["this desk's node"] = page.journey.nodes[-1]
    boxes["quoted how"] = page.overview.widget().findChildren(QuotedBlock)[0]
    seen = {name: contrast(box) for name, box in boxes.items() if box and box.isVisible()}
    assert set(seen) == set(boxes)
    page.tabs.setCurrentIndex(1)
    settle(qtbot, window)
    card = page.asks.cards["a1"]
    [accept] = [
        w for w in card.findChildren(QLabel) if w.text().startswith("A name and an email address")
    ]
    assert accept.isVisible()
    seen["what counts as an answer"] = contrast(accept)
    unreadable = {name: round(c, 2) for name, c in seen.items() if c < 4.5}
    assert unreadable == {}, f"in the {theme} theme"
