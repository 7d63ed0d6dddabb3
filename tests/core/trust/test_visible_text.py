"""A sender's text reaches a screen with every hidden or controlling character shown."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from taskpack.core.trust.visible_text import has_hidden, visible


def test_escape_sequences_and_c1_csi_are_shown_not_obeyed() -> None:
    assert visible("\x1b[2J\x1b]0;pwned\x07ok") == "\\u001b[2J\\u001b]0;pwned\\u0007ok"
    assert visible("a\x9b31mb") == "a\\u009b31mb"


def test_bidi_override_reads_as_what_it_is() -> None:
    assert visible("report\u202etxt.exe") == "report\\u202etxt.exe"
    assert visible("a\u2066b\u2069c\u200bd\ufeff") == "a\\u2066b\\u2069c\\u200bd\\ufeff"


def test_line_separators_do_not_break_a_line() -> None:
    assert visible("one\u2028two\u2029three\x85four") == "one\\u2028two\\u2029three\\u0085four"
    assert visible("a\r\nb\tc") == "a ⏎ b c"
    assert visible("a\r\nb\tc", multiline=True) == "a\nb\tc"


def test_a_lone_surrogate_is_shown_as_its_escape_so_it_can_be_printed() -> None:
    shown = visible("a\udbffb")
    assert shown == "a\\udbffb"
    shown.encode("utf-8")  # what a terminal needs; the raw text raises here


def test_ordinary_text_is_untouched() -> None:
    for text in ["naïve café", "修复登录", "emoji 🙂 ok", "x = 1 # done"]:
        assert visible(text) == text
        assert not has_hidden(text)


@given(st.text())
def test_nothing_hidden_survives(text: str) -> None:
    shown = visible(text)
    assert not has_hidden(shown)
    assert "\n" not in shown and "\t" not in shown
