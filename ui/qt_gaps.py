"""Words Qt's own translation leaves in English, in the window's language.

PySide6's ``qtbase_zh_CN`` has no Chinese for two labels of Qt's file dialog ("Look in:",
"Files of type:"), so a Chinese window's Save and Open dialogs showed them in English.
This translator holds those few, and is searched after Qt's own: a later Qt that
translates them wins.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTranslator

#: (language, Qt's context, Qt's source text) → the translation, mnemonic kept
GAPS: dict[tuple[str, str, str], str] = {
    ("zh_CN", "QFileDialog", "&Look in:"): "查找范围(&L)：",
    ("zh_CN", "QFileDialog", "Files of &type:"): "文件类型(&T)：",
}


class QtGaps(QTranslator):
    def __init__(self, language: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words = {(c, s): t for (lang, c, s), t in GAPS.items() if lang == language}

    def isEmpty(self) -> bool:
        return not self._words

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return self._words.get((context, source), "")
