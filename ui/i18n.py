"""Languages: English (the source text) and Simplified Chinese, as Qt translations.

Every string a person sees goes through :func:`tr`, in one translation context, so one
``.ts`` file holds them all. ``resources/translations/update_ts.py`` collects the
``tr("…")`` literals from ``ui/`` into ``taskpack_zh_CN.ts`` (keeping the translations
already written) and compiles ``taskpack_zh_CN.qm`` with ``pyside6-lrelease``; the app
loads the ``.qm`` with a plain ``QTranslator``. Placeholders are ``{name}`` and are
filled with ``str.format`` *after* translating, so a translation may move them. A
count goes through :func:`trn` (Qt's ``%n`` numerus forms): English loads
``taskpack_en.qm`` too, which holds only the singular/plural forms.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from taskpack.ui.qt_gaps import QtGaps

CONTEXT = "taskpack"
#: language code → its own name, as a person looks for it in a list
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

_installed: QTranslator | None = None
#: Qt's own words (file dialogs, message box buttons, context menus) in that language
_qt_installed: QTranslator | None = None
#: what Qt's own translation leaves in English (`qt_gaps`), searched after it
_gaps_installed: QTranslator | None = None
_current = "en"
_tried = False


def tr(text: str) -> str:
    """`text` in the current language (English when there is no translation)."""
    return QCoreApplication.translate(CONTEXT, text)


def trn(text: str, n: int) -> str:
    """`text` with a count: Qt's numerus form for `n`, with ``%n`` replaced by `n`.

    The English source is written in the plural (``"%n passports"``); English forms come
    from ``taskpack_en.qm`` (one and other), Chinese from ``taskpack_zh_CN.qm`` (one form).
    Other ``{placeholders}`` are filled with ``str.format`` afterwards, as with :func:`tr`.
    """
    if _installed is None and not _tried:
        install(_current)  # the English forms live in a .qm too: load it on first use
    return QCoreApplication.translate(CONTEXT, text, None, n)


def translations_dir() -> Path:
    return Path(str(resources.files("taskpack.resources") / "translations"))


def qt_translations_dir() -> str:
    """Where Qt's own translations are (in PySide6's wheel, or the frozen app's Qt)."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def system_language() -> str:
    name = QLocale.system().name()
    return "zh_CN" if name.startswith("zh") else "en"


def resolve(language: str | None) -> str:
    """A settings value (None = the system's) as one of LANGUAGES."""
    if not language:
        language = system_language()
    if language in LANGUAGES:
        return language
    return "zh_CN" if language.startswith("zh") else "en"


def install(language: str | None) -> str:
    """Make `language` (None = the system's) current for new text; returns its code."""
    global _installed, _current, _tried, _qt_installed, _gaps_installed
    app = QCoreApplication.instance()
    _tried = app is not None
    code = resolve(language)
    if _installed is not None and app is not None:
        app.removeTranslator(_installed)
        _installed = None
    for old in (_qt_installed, _gaps_installed):
        if old is not None and app is not None:
            app.removeTranslator(old)
    _qt_installed = _gaps_installed = None
    if app is not None:
        if code != "en":  # installed first: Qt searches the translator installed last first
            gaps = QtGaps(code, app)
            if not gaps.isEmpty():
                app.installTranslator(gaps)
                _gaps_installed = gaps
        translator = QTranslator(app)
        if translator.load(f"taskpack_{code}", str(translations_dir())):
            app.installTranslator(translator)
            _installed = translator
        else:  # a missing .qm leaves the English text: readable, never broken
            code = "en"
        qt_words = QTranslator(app)
        if code != "en" and qt_words.load(f"qtbase_{code}", qt_translations_dir()):
            app.installTranslator(qt_words)
            _qt_installed = qt_words
    _current = code
    return code


def current() -> str:
    return _current
