"""Short forms of text: numbers, counts and times in the window's language (the locale of
the installed translation), and a name or address from a pack cut to one line."""

from __future__ import annotations

import re

from PySide6.QtCore import QDateTime, QLocale, Qt
from taskpack.app.desk import visible
from taskpack.ui import i18n
from taskpack.ui.i18n import trn


def ui_locale() -> QLocale:
    """The locale of the window's language (numbers and dates as its readers write them)."""
    if i18n.current() == "zh_CN":
        return QLocale(QLocale.Language.Chinese, QLocale.Country.China)
    return QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)


def number(n: int) -> str:
    """1000 → "1,000" (in the window's language)."""
    return ui_locale().toString(n)


def counted(text: str, n: int) -> str:
    """`trn(text, n)` with the count written as `number` writes it ("Asks (20,000 open)"):
    Qt puts plain digits where ``%n`` was."""

    said = trn(text, n)
    return re.sub(rf"(?<!\d){n}(?!\d)", lambda _m: number(n), said, count=1) if n >= 1000 else said


def local_time(stamp: str | None) -> str:
    """An ISO UTC time from a pack or the store ("2026-08-16T09:30:00Z") as this
    computer's local date and time, in the window's language; "" when there is none."""
    if not stamp:
        return ""
    when = QDateTime.fromString(stamp.strip(), Qt.DateFormat.ISODate)
    if not when.isValid():
        return one_line(stamp, 40)
    return ui_locale().toString(when.toLocalTime(), "yyyy-MM-dd HH:mm")


def size_words(chars: int) -> str:
    return trn("%n characters", chars).replace(str(chars), number(chars), 1)


def one_line(value: object, limit: int = 200) -> str:
    """A name or address from a pack for one line: hidden characters shown, cut to `limit`."""
    text = visible(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
