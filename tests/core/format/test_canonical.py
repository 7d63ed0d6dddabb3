"""canonical: the exact bytes we write — JavaScript's number text, escapes, timestamps,
UTF-16 slicing — and the strict JSON reader.

Where Node is installed, the same values are also run through the real JavaScript
engine, so "matches JavaScript" is checked against JavaScript itself, not a table we
typed in.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import shutil
import struct
import subprocess
import time
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.errors import FormatError, LimitExceeded
from taskpack.core.format import canonical
from taskpack.core.format.canonical import (
    js_slice,
    json_bytes,
    json_text,
    parse_json,
    zip_timestamp,
)
from taskpack.core.format.writing import write_pack

JS_NUMBERS = [
    (1.0, "1"),
    (-1.0, "-1"),
    (0.0, "0"),
    (-0.0, "0"),
    (0.1, "0.1"),
    (-0.1, "-0.1"),
    (1.5, "1.5"),
    (100.0, "100"),
    (123456789.125, "123456789.125"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (1.5e21, "1.5e+21"),
    (123e20, "1.23e+22"),
    (1e-6, "0.000001"),
    (1.1e-6, "0.0000011"),
    (1e-7, "1e-7"),
    (1.234e-7, "1.234e-7"),
    (5e-324, "5e-324"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (9007199254740993.0, "9007199254740992"),
    (0.30000000000000004, "0.30000000000000004"),
    (1 / 3, "0.3333333333333333"),
    (-2.5e-5, "-0.000025"),
]


@pytest.mark.parametrize(("value", "text"), JS_NUMBERS, ids=[t for _, t in JS_NUMBERS])
def test_js_number_writes_what_javascript_writes(value: float, text: str) -> None:
    assert json_text(value) == text  # a lone number is written as JSON.stringify writes it


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_js_number_refuses_what_json_cannot_carry(bad: float) -> None:
    with pytest.raises(FormatError):
        json_text(bad)


@settings(max_examples=300, deadline=None, database=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_text_reads_back_as_the_same_double(value: float) -> None:
    text = json_text(value)
    assert float(json.loads(text)) == value
    assert "e" not in text or "e+" in text or "e-" in text  # JS always signs the exponent


def test_floats_inside_a_document_use_javascript_text() -> None:
    assert (
        json_text({"a": [1.0, 1e21, 1e-7, -0.0, 3]})
        == '{\n  "a": [\n    1,\n    1e+21,\n    1e-7,\n    0,\n    3\n  ]\n}'
    )


# --- against the real JavaScript engine ------------------------------------------------

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

_NODE = r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
const input = JSON.parse(lines[0]);
const out = {
  numbers: input.numbers.map(h => String(Buffer.from(h, 'hex').readDoubleLE(0))),
  docs: input.docs.map(t => JSON.stringify(JSON.parse(t), null, 2)),
  slices: input.slices.map(([s, n]) => Buffer.from(s.slice(0, n), 'utf8').toString('utf8')),
};
process.stdout.write(JSON.stringify(out));
"""


def _random_double(rng: random.Random) -> float:
    while True:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            return value


def _random_json(rng: random.Random, depth: int = 0) -> object:
    kinds = ["str", "int", "float", "bool", "null"] + (["list", "dict"] * 2 if depth < 4 else [])
    kind = rng.choice(kinds)
    alphabet = 'ab zé中😀"\\\n\t\x01\x7f\u2028\ud800'
    if kind == "str":
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
    if kind == "int":
        return rng.randint(-(2**53), 2**53)
    if kind == "float":
        return rng.choice([_random_double(rng), rng.uniform(-1e6, 1e6), rng.random() * 1e-9, 1e21])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    # keys that are not array indices: JavaScript would move those to the front
    return {
        f"k{''.join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))}": _random_json(
            rng, depth + 1
        )
        for _ in range(rng.randint(0, 4))
    }


@needs_node
def test_numbers_documents_and_slices_match_node() -> None:
    rng = random.Random(20260816)
    numbers = [v for v, _ in JS_NUMBERS] + [_random_double(rng) for _ in range(2000)]
    numbers += [rng.uniform(-1e3, 1e3) for _ in range(500)] + [
        rng.random() * 10.0 ** rng.randint(-30, 30) for _ in range(500)
    ]
    docs = [_random_json(rng) for _ in range(300)]
    slices = [(s, n) for s in ["a😀b", "😀😀", "中文abc", "é", "", "x" * 10] for n in range(0, 6)]
    payload = {
        "numbers": [struct.pack("<d", v).hex() for v in numbers],
        "docs": [json.dumps(d) for d in docs],  # ASCII-escaped: carries lone surrogates intact
        "slices": slices,
    }
    out = subprocess.run(
        ["node", "-e", _NODE],
        input=json.dumps(payload) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    ).stdout
    js = json.loads(out)
    assert [json_text(v) for v in numbers] == js["numbers"]
    assert [json_text(d) for d in docs] == js["docs"]
    assert [js_slice(s, n) for s, n in slices] == js["slices"]


# --- strings ----------------------------------------------------------------------------


def test_lone_surrogates_are_written_as_escapes_and_read_back() -> None:
    value = {"note\udc00": "half a pair: \ud83d, and a low one: \ude00", "ok": "😀"}
    raw = json_bytes(value)
    raw.decode("utf-8")  # always valid UTF-8
    assert b"\\ud83d" in raw and b"\\ude00" in raw and b"\\udc00" in raw
    assert "😀".encode() in raw  # a real pair is written as the character
    assert parse_json(raw, what="x") == value


def test_json_string_escapes_exactly_like_json_text() -> None:
    for s in [
        "plain",
        'q"uote',
        "back\\slash",
        "nl\ncr\rtab\t",
        "\x00\x01\x1f\x7f",
        "\ud800",
        "é中😀",
    ]:
        assert canonical.json_string(s) == json_text(s)


def test_non_ascii_is_kept_and_keys_keep_their_order() -> None:
    assert json_text({"z": "é", "a": "中"}) == '{\n  "z": "é",\n  "a": "中"\n}'
    assert json_bytes([]) == b"[]\n"


# --- js_slice ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units", "expected"),
    [
        ("hello", 3, "hel"),
        ("hello", 10, "hello"),
        ("中文字", 2, "中文"),  # BMP characters are one unit each
        ("a😀b", 3, "a😀"),  # an astral character is two units
        ("a😀b", 2, "a\ufffd"),  # cut in half: Node writes U+FFFD
        ("😀", 1, "\ufffd"),
        ("", 5, ""),
    ],
)
def test_js_slice_counts_utf16_units(text: str, units: int, expected: str) -> None:
    assert js_slice(text, units) == expected


# --- zip timestamps ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("packed_at", "stamp"),
    [
        ("2026-08-16T03:11:04Z", (2026, 8, 16, 3, 11, 4)),
        ("2026-08-16T03:11:05Z", (2026, 8, 16, 3, 11, 4)),  # DOS time has 2-second steps
        ("1970-01-01T00:00:00Z", (1980, 1, 1, 0, 0, 0)),  # before DOS time: clamped
        ("1979-12-31T23:59:59Z", (1980, 1, 1, 0, 0, 0)),
        ("2150-01-01T00:00:00Z", (2107, 12, 31, 23, 59, 58)),  # after: clamped
        ("not a date", (1980, 1, 1, 0, 0, 0)),
        ("", (1980, 1, 1, 0, 0, 0)),
        (None, (1980, 1, 1, 0, 0, 0)),
    ],
)
def test_zip_timestamp_derives_from_packed_at_and_clamps(
    packed_at: str | None, stamp: tuple
) -> None:
    assert zip_timestamp(packed_at) == stamp


def test_every_entry_of_a_bag_carries_the_pack_time_not_the_clock(tmp_path, monkeypatch) -> None:
    data = {
        "spec": "task-passport-bag/0.1",
        "packed_at": "2031-02-03T04:05:06Z",
        "passport": {"id": "TP-G6RZ-DS3B"},
    }
    from taskpack.core.format.luggage import LuggageSource

    lug = [
        LuggageSource.from_bytes("big.bin", bytes(range(256)) * 8192),
        LuggageSource.from_bytes("a.txt", b"a"),
    ]
    first = write_pack(data, lug, tmp_path / "one.taskpack", encoding="bag").path.read_bytes()
    monkeypatch.setenv("TZ", "Asia/Kathmandu")  # another machine, another clock and zone
    time.tzset()
    try:
        second = write_pack(data, lug, tmp_path / "two.taskpack", encoding="bag").path.read_bytes()
    finally:
        monkeypatch.undo()
        time.tzset()
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        assert {i.date_time for i in zf.infolist()} == {(2031, 2, 3, 4, 5, 6)}
        assert [i.filename for i in zf.infolist()][:5] == [
            "bagit.txt",
            "bag-info.txt",
            "manifest-sha256.txt",
            "tagmanifest-sha256.txt",
            "data/passport.json",
        ]
        assert all(i.flag_bits & 0x0800 and not i.extra for i in zf.infolist())


# --- the strict reader ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "error", "words"),
    [
        (b'\xef\xbb\xbf{"a": 1}', FormatError, "byte-order mark"),
        (b'{"a": "\xff"}', FormatError, "UTF-8"),
        (b'{"a": 1, "a": 2}', FormatError, "twice"),
        (b'{"a": NaN}', FormatError, "NaN"),
        (b'{"a": -Infinity}', FormatError, "Infinity"),
        (b'{"a": 1e999}', LimitExceeded, "too large"),
        (b'{"a": ' + b"1" * 5000 + b"}", LimitExceeded, "too large"),
        (b"[" * 100_000 + b"]" * 100_000, LimitExceeded, "deep"),
        (b"[" * 65 + b"]" * 65, LimitExceeded, "deep"),
        (b'{"a": [1, 2}', FormatError, "not valid JSON"),
    ],
)
def test_parse_json_refuses_what_it_cannot_trust(raw: bytes, error: type, words: str) -> None:
    with pytest.raises(error) as exc:
        parse_json(raw, what="the test document")
    assert words.lower() in str(exc.value).lower()
    assert "\n" not in str(exc.value)


def test_a_number_with_too_many_digits_is_named_not_explained_in_python_terms() -> None:
    with pytest.raises(LimitExceeded) as exc:
        parse_json(b'{"a": ' + b"9" * 5000 + b"}", what="data/passport.json")
    assert "number" in str(exc.value) and "sys." not in str(exc.value)


def test_parse_json_accepts_64_levels() -> None:
    assert parse_json(b"[" * 64 + b"]" * 64, what="x") is not None


# --- the utf8-or-base64 rule, byte by byte ---------------------------------------------------------


@pytest.mark.parametrize("byte", [*range(0x20), 0x7F])
def test_text_eligibility_per_control_byte(byte: int) -> None:
    test = canonical.TextEligibility()
    test.feed(b"line one " + bytes([byte]) + " é".encode())
    ok = test.finish()
    assert ok is (byte in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x7F))


@pytest.mark.parametrize(
    "raw",
    [b"\xff", b"caf\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"ok\x80"],
    ids=[
        "ff",
        "cut-sequence",
        "overlong",
        "encoded-surrogate",
        "above-U+10FFFF",
        "stray-continuation",
    ],
)
def test_text_eligibility_refuses_invalid_utf8(raw: bytes) -> None:
    test = canonical.TextEligibility()
    test.feed(raw)
    assert test.finish() is False


def test_text_eligibility_accepts_a_character_split_across_chunks() -> None:
    test = canonical.TextEligibility()
    emoji = "😀".encode()
    for piece in (b"a", emoji[:1], emoji[1:3], emoji[3:], b"z"):
        test.feed(piece)
    assert test.finish() is True


def test_long_strings_are_escaped_in_slices_exactly_as_in_one_pass() -> None:
    import json as _json
    import re as _re

    from taskpack.core.format import canonical

    # escapes and lone surrogates right at the edges of the slices long strings are escaped
    # in (a power of two: 4, 16 and 64 Ki are tried), and a long plain run
    texts = []
    for step in (1 << 12, 1 << 14, 1 << 16):
        tricky = "a" * (step - 1) + '"\\\n\ud800' + "é报" * step + "\udfff\t" + "z" * (3 * step)
        texts += [tricky, "plain " * (step // 2), "x" * step, "x" * (step + 1)]
    for text in texts:
        expected = _re.sub(
            "[\ud800-\udfff]",
            lambda m: f"\\u{ord(m.group()):04x}",
            _json.dumps({"note": text}, ensure_ascii=False, indent=2),
        )
        assert canonical.json_text({"note": text}) == expected
        assert canonical.json_string(text) == expected[len('{\n  "note": ') : -len("\n}")]


def _reference_text(value: object) -> str:
    """The canonical text as the stdlib's own (pure-Python, indenting) encoder writes it,
    with JavaScript's number text (as `json_text` writes a lone number) and lone surrogates
    escaped: what `json_text` must equal, character for character."""
    encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
    make = json.encoder._make_iterencode  # type: ignore[attr-defined]
    chunks = make(
        {},
        encoder.default,
        json.encoder.py_encode_basestring,
        encoder.indent,
        json_text,
        encoder.key_separator,
        encoder.item_separator,
        False,
        False,
        False,
    )(value, 0)
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", "".join(chunks))


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(_json_values)
def test_the_canonical_text_is_the_stdlib_encoders_text(value: object) -> None:
    assert json_text(value) == _reference_text(value)


def test_the_canonical_text_of_odd_keys_containers_and_long_strings() -> None:
    long = "a" * ((1 << 16) + 3) + '"\n\ud800é'
    value = {
        "": [],
        "e": {},
        7: "int key",
        2.5: "float key",
        True: "t",
        False: "f",
        None: "n",
        "t": (1, [2, {"x": None}]),
        "long": long,
        "deep": [[[[[]]]]],
        "f": [1e21, -0.0, 1.5e-7],
    }
    assert json_text(value) == _reference_text(value)
    for lone in ("text", 1.0, 3, None, True):
        assert json_text(lone) == _reference_text(lone)
    with pytest.raises(TypeError):
        json_text({"x": object()})
