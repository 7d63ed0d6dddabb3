"""Every luggage name the writer accepts, the reader reads back.

The writer refuses names that could escape or collide (`check_luggage_name`); whatever
it lets through must survive a pack → open → verify round trip in both encodings,
byte for byte. U+2028, U+2029 and U+0085 once packed fine and failed `verify`, because
the manifest parser split lines where Unicode does, not where RFC 8493 does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_zips import pack_data
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from taskpack.core.errors import UnsafeEntry
from taskpack.core.format.bag import tag_lines
from taskpack.core.format.luggage import LuggageSource, check_luggage_name
from taskpack.core.format.reading import open_pack
from taskpack.core.format.writing import write_pack

# the characters line splitters, whitespace rules and percent-decoding trip over, plus
# anything else Unicode has (surrogates are not text: the writer refuses them)
SPECIAL = "\u2028\u2029\u0085\u000b\u000c\u001c\u001d\u001e \u00a0\u3000%25%0A%0D%\t\ufeff\u200b\u202e\u009b.-_~é漢🙂"
segment = st.text(
    alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters(blacklist_categories=("Cs",))),
    min_size=1,
    max_size=12,
)
names = st.lists(segment, min_size=1, max_size=3).map("/".join)


def accepted(name: str) -> bool:
    try:
        check_luggage_name(name)
    except UnsafeEntry:
        return False
    return True


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(name=names, content=st.binary(max_size=40))
@pytest.mark.parametrize("encoding", ["bag", "flat"])
def test_every_name_the_writer_accepts_reads_back(
    name: str, content: bytes, encoding: str, tmp_path_factory
) -> None:  # type: ignore[no-untyped-def]
    assume(accepted(name))
    out = tmp_path_factory.mktemp("n") / ("p.taskpack" if encoding == "bag" else "p.taskpack.json")
    write_pack(pack_data(), [LuggageSource.from_bytes(name, content)], out, encoding=encoding)
    with open_pack(out) as opened:
        opened.verify()
        assert [i.name for i in opened.luggage] == [name]
        with opened.open_luggage(name) as f:
            assert f.read() == content


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085"])
@pytest.mark.parametrize("encoding", ["bag", "flat"])
def test_a_unicode_line_separator_in_a_name_packs_and_verifies(
    sep: str, encoding: str, tmp_path: Path
) -> None:
    name = f"notes{sep}2026.txt"
    out = tmp_path / ("p.taskpack" if encoding == "bag" else "p.taskpack.json")
    write_pack(pack_data(), [LuggageSource.from_bytes(name, b"x")], out, encoding=encoding)
    with open_pack(out) as opened:
        opened.verify()
        assert opened.luggage[0].name == name


def test_a_title_cannot_forge_a_bag_info_line(tmp_path: Path) -> None:
    """bag-info.txt carries the title; a U+2028 in it must not start a new line that
    reads as a second (false) Payload-Oxum."""
    data = pack_data()
    data["passport"]["title"] = "Q3\u2028Payload-Oxum: 1.1"
    out = tmp_path / "p.taskpack"
    write_pack(data, [LuggageSource.from_bytes("a.txt", b"abc")], out, encoding="bag")
    with open_pack(out) as opened:
        opened.verify()


def test_tag_lines_end_at_lf_cr_and_crlf_only() -> None:
    assert tag_lines("a\u2028b\u0085c\n".encode()) == ["a\u2028b\u0085c".encode()]
    assert tag_lines(b"a\nb\r\nc\rd") == [b"a", b"b", b"c", b"d"]
