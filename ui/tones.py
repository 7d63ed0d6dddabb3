"""Colours from the palette: tinted boxes and muted text that read in a light and a dark theme.

A box painted a fixed light colour under the palette's text turns unreadable in a dark
theme (white on pale blue). Here each tint is a mix of the palette's own window and text
colours with a hue: a faint wash of it under whatever text colour the theme has. The
light theme keeps the hand-picked colours of `LIGHT`; a dark one gets mixes of them.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication, QPalette

#: the hand-picked (background, text) of a message kind in a light theme
LIGHT = {
    "error": ("#fde8e8", "#9b1c1c"),
    "warn": ("#fdf6e3", "#7a5200"),
    "info": ("#e8f1fd", "#1c3f9b"),
    "ok": ("#e6f6ec", "#1b6b3a"),
}


def palette() -> QPalette:
    return QGuiApplication.palette() if QGuiApplication.instance() else QPalette()


def is_dark(p: QPalette | None = None) -> bool:
    """Is the theme's window darker than its text (a dark theme)?"""
    p = p or palette()
    window = p.color(QPalette.ColorRole.Window)
    text = p.color(QPalette.ColorRole.WindowText)
    return window.lightness() < text.lightness()


def mix(a: QColor | str, b: QColor | str, t: float) -> str:
    """`a` moved `t` (0..1) of the way to `b`, as ``#rrggbb``."""
    ca, cb = QColor(a), QColor(b)
    return QColor(
        round(ca.red() + (cb.red() - ca.red()) * t),
        round(ca.green() + (cb.green() - ca.green()) * t),
        round(ca.blue() + (cb.blue() - ca.blue()) * t),
    ).name()


def _window() -> QColor:
    return palette().color(QPalette.ColorRole.Window)


def _text() -> QColor:
    return palette().color(QPalette.ColorRole.WindowText)


def muted() -> str:
    """Secondary text: the theme's text, part way to its window."""
    return "#5f6368" if not is_dark() else mix(_text(), _window(), 0.35)


def kind_colors(kind: str) -> tuple[str, str]:
    """(background, text) of a banner or a badge of `kind` (error, warn, info, ok)."""
    bg, fg = LIGHT.get(kind, LIGHT["info"])
    if not is_dark():
        return bg, fg
    return mix(_window(), fg, 0.35), mix(fg, _text(), 0.7)


def wash(kind: str = "info") -> str:
    """A box's background: the window with a faint wash of `kind`'s hue (or of the text,
    for ``"plain"``); the palette's text stays readable on it."""
    if kind == "plain":
        return "#f4f5f7" if not is_dark() else mix(_window(), _text(), 0.08)
    bg, fg = LIGHT.get(kind, LIGHT["info"])
    return bg if not is_dark() else mix(_window(), fg, 0.3)


def edge(kind: str = "plain") -> str:
    """A box's border: between window and text (``"plain"``), or `kind`'s hue."""
    if kind == "plain":
        return "#c9ccd1" if not is_dark() else mix(_window(), _text(), 0.3)
    return kind_colors(kind)[1]


def focus() -> str:
    """The keyboard focus ring: the theme's highlight, lightened on a dark window."""
    return "#1a66d2" if not is_dark() else "#6ea8ff"
