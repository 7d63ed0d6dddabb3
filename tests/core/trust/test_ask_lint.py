"""The ask lint judges an accept by what it says, in English and in Chinese alike: a
Chinese accept written without spaces or punctuation is not called short or vague when
its English equivalent is not."""

from __future__ import annotations

import pytest
from taskpack.core.trust.ask_lint import lint_accept

PAIRS = [  # (English, 简体中文): the same accept in both
    ("A name and an email address", "姓名和邮箱地址"),
    ("A number in euros", "欧元金额数字"),
    ("A date before Friday", "周五之前的日期"),
    ("Yes or no, with the reason", "是或否并说明理由"),
]


@pytest.mark.parametrize(("english", "chinese"), PAIRS)
def test_a_clear_accept_is_fine_in_both_languages(english: str, chinese: str) -> None:
    assert lint_accept(english) == []
    assert lint_accept(chinese) == []


@pytest.mark.parametrize(
    ("english", "chinese"),
    [("any answer", "任何回答"), ("some feedback", "一些反馈"), ("ok", "好的"), ("yes", "是")],
)
def test_filler_is_vague_in_both_languages(english: str, chinese: str) -> None:
    assert "too vague" in " ".join(lint_accept(english))
    assert "too vague" in " ".join(lint_accept(chinese))


@pytest.mark.parametrize(("english", "chinese"), [("yes or no", "是或否"), ("a date", "日期")])
def test_too_short_is_too_short_in_both_languages(english: str, chinese: str) -> None:
    assert "too short" in " ".join(lint_accept(english))
    assert "too short" in " ".join(lint_accept(chinese))


def test_repeating_the_question_is_said_in_chinese_too() -> None:
    assert "repeats the question" in " ".join(lint_accept("谁来签字？", "谁来签字？"))


def test_a_mixed_accept_counts_both_scripts() -> None:
    assert lint_accept("一个 CSV 文件") == []
