"""Errors a person meets opening a hostile or damaged pack read in the window's language:
under zh_CN no English detail is left. Each raise site gives a `code` and
the `params` its sentence is built from; ui/error_text.py has the template."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_zips import CASE_IDS, CASES, Case
from PySide6.QtWidgets import QApplication
from taskpack.core.errors import TaskPackError
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.visible_text import visible
from taskpack.ui import i18n
from taskpack.ui.error_text import error_sentence

#: two English words in a row: a sentence that fell back to the English detail
ENGLISH = re.compile(r"\b[A-Za-z]{2,}\b[\s,;:'()-]+\b[A-Za-z]{2,}\b")


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def refusal(case: Case, tmp_path: Path) -> TaskPackError:
    path = tmp_path / f"x{case.suffix}"
    path.write_bytes(case.content)
    try:
        with open_pack(path) as opened:
            opened.verify()
    except TaskPackError as exc:
        return exc
    raise AssertionError(f"{case.name}: opened")


def english_left(exc: TaskPackError) -> str | None:
    shown = error_sentence(exc)
    for value in exc.params.values():  # names and numbers from the file are not English text
        for text in {str(value), visible(value)}:
            if text:
                shown = shown.replace(text, "·")
    m = ENGLISH.search(shown)
    return m.group() if m else None


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_a_hostile_pack_is_refused_in_chinese_without_english_detail(
    case: Case, tmp_path: Path, chinese: None
) -> None:
    exc = refusal(case, tmp_path)
    left = english_left(exc)
    assert left is None, f"{exc.code}: {error_sentence(exc)!r} (English: {left!r})"
    assert re.search("[\u4e00-\u9fff]", error_sentence(exc))


def test_the_english_window_still_says_the_cli_sentence(tmp_path: Path, qapp: QApplication) -> None:
    i18n.install("en")
    exc = refusal(next(c for c in CASES if "encrypted" in c.name), tmp_path)
    assert error_sentence(exc) == str(exc)
    assert exc.code == "zip_encrypted" and exc.params["name"] == "data/files/brief.txt"


def test_a_passport_that_is_not_there_or_moved_on_reads_in_chinese(
    tmp_path: Path, chinese: None
) -> None:
    from taskpack.app.desk import Desk
    from taskpack.core.errors import NotFound, VersionConflict

    with Desk(tmp_path / "home", "m1", actor="ana") as desk:
        pid = desk.new("T", "G").id
        errors: list[TaskPackError] = []
        for call in (
            lambda: desk.get("TP-2222-2222"),
            lambda: desk.get_version(pid, 9),
            lambda: desk.add_next(pid, "x", expected_version=7),
        ):
            with pytest.raises((NotFound, VersionConflict)) as caught:
                call()
            errors.append(caught.value)
    for exc in errors:
        assert english_left(exc) is None, error_sentence(exc)
    assert "本工作台上没有护照 TP-2222-2222" in error_sentence(errors[0])
    assert f"{pid} 现在是第 1 版" in error_sentence(errors[2])
