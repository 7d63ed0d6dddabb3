"""Render taskpack-desk.svg to PNGs at the usual icon sizes with Qt's SVG renderer.

Run from the repository root:  QT_QPA_PLATFORM=offscreen .venv/bin/python resources/icons/render_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HERE = Path(__file__).resolve().parent
SIZES = (16, 32, 48, 64, 128, 256)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(HERE / "taskpack-desk.svg"))
    if not renderer.isValid():
        print("taskpack-desk.svg does not parse", file=sys.stderr)
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        out = HERE / f"taskpack-desk-{size}.png"
        image.save(str(out), "PNG")
        print(out.relative_to(HERE.parent.parent))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
