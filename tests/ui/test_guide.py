"""Help → How it works walks a sender through a handoff with the window's own pictures
(the composer, an ask being added, the preview), in English and in Chinese; a build
without the pictures shows the same words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextDocument
from pytestqt.qtbot import QtBot
from taskpack.ui import guide, i18n
from taskpack.ui.guide import GuideWindow

SENDER_PICTURES = ["composer", "composer-ask", "send-preview"]


def shown_image(window: GuideWindow, name: str) -> QImage:
    found = window.text.document().resource(
        QTextDocument.ResourceType.ImageResource, QUrl(f"guide:{name}")
    )
    return found if isinstance(found, QImage) else QImage()


@pytest.fixture
def language() -> Any:
    def use(code: str) -> None:
        i18n.install(code)

    yield use
    i18n.install("en")


def open_guide(qtbot: QtBot) -> GuideWindow:
    window = GuideWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_guide_walks_a_sender_through_a_handoff_with_the_windows_pictures(
    qtbot: QtBot, language: Any
) -> None:
    language("en")
    window = open_guide(qtbot)
    text = window.shown_text()
    assert "Sending your own work" in text
    steps = [
        "File → New passport… (Ctrl+N)",
        "Add ask… for each question",
        "Send a handoff… shows exactly what the receiver will see",
        "The answers come back as a receipt: open it and merge.",
    ]
    assert [text.index(step) for step in steps] == sorted(text.index(step) for step in steps)
    assert "The composer: each item with Edit… and Remove" in text  # a picture's caption
    assert sorted(window.pictures) == sorted(SENDER_PICTURES)
    for name in SENDER_PICTURES:
        image = shown_image(window, name)
        assert not image.isNull() and image.width() > 300, name
        assert guide.picture_file(name) == guide.guide_folder() / f"{name}.png"
    # each picture stands in the sender's section, after the step it shows
    html = window.text.toHtml()
    assert html.index("guide:composer") < html.index("guide:composer-ask")
    assert html.index("guide:composer-ask") < html.index("guide:send-preview")


def test_in_chinese_the_guide_shows_the_chinese_window(qtbot: QtBot, language: Any) -> None:
    language("zh_CN")
    window = open_guide(qtbot)
    text = window.shown_text()
    assert "发出你自己的工作" in text
    assert "编写器：每一项都有“编辑…”和“移除”" in text
    assert "Sending your own work" not in text
    assert sorted(window.pictures) == sorted(SENDER_PICTURES)
    for name in SENDER_PICTURES:
        assert guide.picture_file(name) == guide.guide_folder() / f"{name}-zh_CN.png"
        chinese = QImage(str(guide.guide_folder() / f"{name}-zh_CN.png"))
        shown = shown_image(window, name)  # the Chinese window's own picture, framed
        assert shown.copy(1, 1, chinese.width(), chinese.height()) == chinese.convertToFormat(
            shown.format()
        )


def test_without_its_pictures_the_guide_says_the_same(
    qtbot: QtBot, language: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    language("en")
    with_pictures = open_guide(qtbot).shown_text()
    monkeypatch.setattr(guide, "guide_folder", lambda: tmp_path / "stripped")
    window = open_guide(qtbot)
    assert window.pictures == {}
    assert "guide:" not in window.text.toHtml()
    words = window.shown_text()
    assert "File → New passport… (Ctrl+N)" in words
    assert "Send a handoff… shows exactly what the receiver will see" in words
    # only the pictures and their captions are gone
    assert "The composer: each item with Edit… and Remove" not in words
    assert len(words) < len(with_pictures)
