"""The flat reader's string and whitespace scanner agrees with `json` on every string.

The scanner reads the file a buffer at a time; the interesting cases are an escape or
a run of backslashes cut by a buffer edge, so these tests shrink the buffer to a few
bytes and let hypothesis place the edges.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.errors import FormatError
from taskpack.core.format import flat

# strings made of the characters that matter to a JSON string scanner
tricky = st.text(
    alphabet=st.sampled_from(['"', "\\", "\n", "a", "é", "\u2028", "/", "u", "\x00"]), max_size=200
)
ws = st.text(alphabet=st.sampled_from(" \t\r\n"), max_size=40)


def doc(data_json: str, gap: str) -> bytes:
    return (
        f'{gap}{{{gap}"attachments"{gap}:{gap}[{gap}{{{gap}"name"{gap}:{gap}"a.txt"{gap},{gap}'
        f'"data"{gap}:{gap}{data_json}{gap}}}{gap}]{gap}}}{gap}'
    ).encode()


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=tricky, gap=ws, chunk=st.integers(1, 9))
def test_the_span_is_exactly_the_json_string(
    text: str, gap: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flat, "CHUNK", chunk)
    literal = json.dumps(text)
    raw = doc(literal, gap)
    got = flat.read_flat(io.BytesIO(raw))
    (att,) = got.attachments
    assert att.meta == {"name": "a.txt"}
    assert att.span is not None
    inner = raw[att.span.start : att.span.end].decode("utf-8")
    assert json.loads('"' + inner + '"') == text
    assert att.span.escapes == ("\\" in inner)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=tricky, chunk=st.integers(1, 9), data=st.data())
def test_a_file_cut_anywhere_inside_the_string_is_a_format_error(
    text: str, chunk: int, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flat, "CHUNK", chunk)
    raw = doc(json.dumps(text), "")
    opening = raw.index(b'"data":"') + len(b'"data":"')
    closing = len(raw) - len(b'"}]}')  # where the closing quote is
    cut = data.draw(st.integers(opening, closing))
    with pytest.raises(FormatError, match="ends inside"):
        flat.read_flat(io.BytesIO(raw[:cut]))


@pytest.mark.parametrize("chunk", [1, 2, 3, 1 << 20])
def test_escaped_quotes_in_bulk_take_the_regex_path_and_still_agree(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past 32 escaped quotes in a buffer the scanner switches to one regex match."""
    monkeypatch.setattr(flat, "CHUNK", chunk)
    text = '\\"' * 500 + '"' * 300 + "\\" * 41 + '"x'
    raw = doc(json.dumps(text), " ")
    span = flat.read_flat(io.BytesIO(raw)).attachments[0].span
    assert span is not None
    assert json.loads('"' + raw[span.start : span.end].decode() + '"') == text


def test_a_number_cut_by_the_first_window_is_read_whole() -> None:
    """The reader parses small values on a growing window; a number must not be cut at
    the window's edge and read as its first digits."""
    digits = "7" * 3000
    raw = ('{"attachments": [{"name": "a", "bytes": ' + digits + ', "data": ""}]}').encode()
    (att,) = flat.read_flat(io.BytesIO(raw)).attachments
    assert att.meta["bytes"] == int(digits)
