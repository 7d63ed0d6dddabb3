"""Languages: English (the source text) and Simplified Chinese, as Qt translations.

Every string a person sees goes through :func:`tr`, in one translation context, so one
``.ts`` file holds them all. ``resources/translations/update_ts.py`` collects the
``tr("…")`` literals from ``ui/`` into ``taskpack_zh_CN.ts`` (keeping the translations
already written) and compiles ``taskpack_zh_CN.qm`` with ``pyside6-lrelease``; the app
loads the ``.qm`` with a plain ``QTranslator``. Placeholders are ``{name}`` and are
filled with ``str.format`` *after* translating, so a translation may move them.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

CONTEXT = "taskpack"
#: language code → its own name, as a person looks for it in a list
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

_installed: QTranslator | None = None
_current = "en"


def tr(text: str) -> str:
    """`text` in the current language (English when there is no translation)."""
    return QCoreApplication.translate(CONTEXT, text)


def translations_dir() -> Path:
    return Path(str(resources.files("taskpack.resources") / "translations"))


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
    global _installed, _current
    app = QCoreApplication.instance()
    code = resolve(language)
    if _installed is not None and app is not None:
        app.removeTranslator(_installed)
        _installed = None
    if code != "en" and app is not None:
        translator = QTranslator(app)
        if translator.load(f"taskpack_{code}", str(translations_dir())):
            app.installTranslator(translator)
            _installed = translator
        else:  # a missing .qm leaves the English text: readable, never broken
            code = "en"
    _current = code
    return code


def current() -> str:
    return _current
