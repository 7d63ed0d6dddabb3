"""The two encodings are one model (spec §2, check C9): whatever goes in comes out —
the same pack object, key for key and in the same order, the same luggage bytes under
the same names — and re-encoding gives byte-identical files, whatever the size.

These tests go through `write_pack` (the low-level writer) and `open_pack`; the
one pack writer's `convert` (core/trust/pack_writer.py) is exercised at the end.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import random
import tempfile
import unicodedata
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hostile_zips import pack_data
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from taskpack.core.errors import UnsafeEntry
from taskpack.core.format import bag, canonical, flat
from taskpack.core.format.canonical import json_text
from taskpack.core.format.luggage import LuggageSource, check_luggage_name, check_unique
from taskpack.core.format.model import BAG_SPEC
from taskpack.core.format.reading import OpenedPack, open_pack
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.pack_writer import convert

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SUFFIX = {"bag": ".taskpack", "flat": ".taskpack.json"}

# --- helpers --------------------------------------------------------------------------------


def sources(luggage: list[tuple[str, bytes]]) -> list[LuggageSource]:
    return [LuggageSource.from_bytes(name, content) for name, content in luggage]


def from_opened(opened: OpenedPack) -> list[LuggageSource]:
    """An opened pack's luggage as sources: each streams (and verifies) from the file."""
    return [
        LuggageSource(name=i.name, size=i.size, opener=lambda i=i: opened.open_luggage(i))
        for i in opened.luggage
    ]


def read_all(opened: OpenedPack) -> list[tuple[str, bytes]]:
    out = []
    for item in opened.luggage:
        with opened.open_luggage(item) as f:
            out.append((item.name, b"".join(iter(lambda: f.read(1 << 16), b""))))
    return out


def rewrite(src: Path, out: Path, encoding: str) -> Path:
    """Open `src` and write what it holds in `encoding` — a conversion with no rules."""
    with open_pack(src) as opened:
        write_pack(opened.data, from_opened(opened), out, encoding=encoding)
    return out


def assert_same_pack(
    opened: OpenedPack, data: dict[str, Any], luggage: list[tuple[str, bytes]]
) -> None:
    # the same JSON: same keys in the same order at every level, the same values
    # (json_text is order-sensitive; a number is compared as JSON compares it, so the
    # double 5.270771708139049e16 and the integer 52707717081390490 are one number)
    assert json_text(opened.data) == json_text(data)
    assert json_text(opened.pack.to_data()) == json_text(data)
    assert read_all(opened) == luggage
    for item, (_, content) in zip(opened.luggage, luggage, strict=True):
        assert item.size == len(content)
        assert item.sha256 == hashlib.sha256(content).hexdigest()
    assert opened.notes == []  # our own packs need no leniency


# --- strategies: random pack objects ---------------------------------------------------------

plain_text = st.text(max_size=12)
# values sometimes carry lone surrogates, which JSON carries as \ud800 escapes (a JavaScript
# sender that cut a string inside an emoji writes one)
text = plain_text | st.text(
    st.sampled_from(["a", "\ud800", "\udfff", "\udbff", "é", "😀", "\n"]), max_size=5
)
ints = st.integers(min_value=-(2**63), max_value=2**63)
floats = st.floats(allow_nan=False, allow_infinity=False)


def json_of(txt: st.SearchStrategy[str], *, with_floats: bool = True) -> st.SearchStrategy[Any]:
    leaves = st.none() | st.booleans() | ints | txt | (floats if with_floats else st.nothing())
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(txt, inner, max_size=3),
        max_leaves=6,
    )


json_values = json_of(text)


@st.composite
def record(
    draw: st.DrawFn, known: dict[str, st.SearchStrategy[Any]], extra: st.SearchStrategy[Any]
) -> dict:
    """Some of the known fields, a few unknown ones, in any order."""
    keys = draw(st.lists(st.sampled_from(sorted(known)), unique=True)) if known else []
    # (keys with lone surrogates have their own test: test_a_record_key_with_a_lone_surrogate_is_read)
    unknown = draw(st.dictionaries(plain_text.filter(lambda k: k not in known), extra, max_size=2))
    items = [(k, draw(known[k])) for k in keys] + list(unknown.items())
    return dict(draw(st.permutations(items)))


def maybe(s: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | s


def pack_objects(
    extra: st.SearchStrategy[Any] = json_values, text: st.SearchStrategy[str] = text
) -> st.SearchStrategy[dict]:
    fact = record(
        {
            "claim": maybe(text),
            "scope": maybe(st.sampled_from(["universal", "org", "machine", "x"])),
            "verified": maybe(st.booleans()),
            "needs_reverify": maybe(st.booleans()),
            "verified_on": maybe(text),
            "source": maybe(text),
        },
        extra,
    )
    state = record(
        {
            "id": st.just("TP-G6RZ-DS3B"),
            "title": maybe(text),
            "goal": text,
            "version": ints,
            "current_state": text,
            "facts": st.lists(fact, max_size=3),
            "decisions": st.lists(record({"what": text, "why": text}, extra), max_size=2),
            "next_steps": st.lists(extra, max_size=3),
            "artifacts": st.lists(extra, max_size=2),
            "verification": extra,
        },
        extra,
    )
    ask = record(
        {
            "id": text,
            "what": text,
            "accept": text,
            "status": st.sampled_from(["open", "answered"]),
            "answer": extra,
        },
        extra,
    )
    check = record(
        {"id": text, "check": text, "how": maybe(text), "required": maybe(st.booleans())}, extra
    )
    top = {
        "spec": st.sampled_from([BAG_SPEC, "taskpack/0.1"]),
        "kind": st.sampled_from(["handoff", "receipt"]),
        "packed_at": st.sampled_from(["2026-08-16T03:11:04Z", "1975-01-01T00:00:00Z", "", "soon"])
        | text,
        "origin": record({"actor": maybe(text), "machine": maybe(text), "harness": text}, extra),
        "lineage": record(
            {"root_id": text, "from_version": maybe(ints), "chain": st.lists(text, max_size=3)},
            extra,
        ),
        "note": text,
        "passport": state,
        "asks": st.lists(ask, max_size=2),
        "landing_checks": st.lists(check, max_size=2),
    }
    # as if it came from a JSON file: a surrogate pair given as two code points is one character
    return record(top, extra).map(lambda d: json.loads(json.dumps(d)))


# --- strategies: random luggage ---------------------------------------------------------------

segment = st.text(alphabet="abcXYZ019 -_.,()'éüñßÅ中文字😀", min_size=1, max_size=10)
names = st.lists(segment, min_size=1, max_size=3).map("/".join).filter(lambda n: _safe_name(n))


def _safe_name(name: str) -> bool:
    try:
        check_luggage_name(name)
    except UnsafeEntry:
        return False
    return True


contents = st.one_of(
    st.binary(max_size=400),
    st.text(max_size=200).map(lambda s: s.encode("utf-8")),
    st.just(b""),
    st.text(alphabet='ab\x00\x01\x08\t\n\x0b\x0c\r\x0e\x1f\x7f"\\é', max_size=50).map(str.encode),
)


@st.composite
def luggage_lists(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    items = draw(
        st.lists(st.tuples(names, contents), max_size=5, unique_by=lambda t: t[0].casefold())
    )
    try:
        check_unique(n for n, _ in items)
    except UnsafeEntry:
        assume(False)
    return items


# --- 1. round-trip properties ------------------------------------------------------------------


@PROPERTY
@given(data=pack_objects(), luggage=luggage_lists())
def test_bag_flat_bag_and_flat_bag_flat_are_byte_identical(
    data: dict, luggage: list[tuple[str, bytes]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        bag1 = write_pack(data, sources(luggage), d / "1.taskpack", encoding="bag").path
        with open_pack(bag1) as o:
            assert o.encoding == "bag"
            assert_same_pack(o, data, luggage)
        flat1 = rewrite(bag1, d / "2.taskpack.json", "flat")
        with open_pack(flat1) as o:
            assert o.encoding == "flat"
            assert_same_pack(o, data, luggage)
        bag2 = rewrite(flat1, d / "3.taskpack", "bag")
        assert bag2.read_bytes() == bag1.read_bytes()

        flat_a = write_pack(data, sources(luggage), d / "a.taskpack.json", encoding="flat").path
        assert flat_a.read_bytes() == flat1.read_bytes()
        bag_b = rewrite(flat_a, d / "b.taskpack", "bag")
        flat_c = rewrite(bag_b, d / "c.taskpack.json", "flat")
        assert flat_c.read_bytes() == flat_a.read_bytes()


def test_unknown_fields_survive_in_their_order_at_every_level(tmp_path: Path) -> None:
    data = {
        "zz_vendor": {"y": 1, "x": [2, {"b": None, "a": 1.5}]},
        "spec": BAG_SPEC,
        "passport": {
            "zeta": "first",
            "id": "TP-G6RZ-DS3B",
            "alpha": [],
            "facts": [{"verified": False, "zz": {}, "claim": "c", "aa": "é"}],
        },
        "kind": "handoff",
        "extra_list": [[], {}, "", 0, -0.0, 1e-7, 1e21, 123456789.125],
    }
    bag1 = write_pack(data, [], tmp_path / "x.taskpack", encoding="bag").path
    flat1 = rewrite(bag1, tmp_path / "x.taskpack.json", "flat")
    with open_pack(flat1) as o:
        assert list(o.data) == ["zz_vendor", "spec", "passport", "kind", "extra_list"]
        assert list(o.data["passport"]) == ["zeta", "id", "alpha", "facts"]
        assert list(o.data["passport"]["facts"][0]) == ["verified", "zz", "claim", "aa"]
        assert list(o.data["zz_vendor"]["x"][1]) == ["b", "a"]
        assert o.data["extra_list"] == [[], {}, "", 0, 0, 1e-7, 1e21, 123456789.125]
        back = o.pack.to_data()
        assert json_text(back) == json_text(data)
    assert rewrite(flat1, tmp_path / "y.taskpack", "bag").read_bytes() == bag1.read_bytes()


def test_a_record_key_with_a_lone_surrogate_is_read(tmp_path: Path) -> None:
    """`{"\\ud83d": 1}` is valid JSON (a JavaScript sender that cut a key inside an emoji
    writes it). We write such a pack; we must read it back too."""
    data = {"spec": BAG_SPEC, "x-\ud83d": 1, "passport": {"id": "TP-G6RZ-DS3B", "y-\udc00": 2}}
    p = write_pack(data, [], tmp_path / "x.taskpack", encoding="bag").path
    assert b'"x-\\ud83d": 1' in zipfile.ZipFile(p).read("data/passport.json")
    with open_pack(p) as o:
        assert json_text(o.pack.to_data()) == json_text(data)


# --- 2. big and many ----------------------------------------------------------------------------


def _sha_file(p: Path) -> str:
    h = hashlib.sha256()
    with open(p, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


def test_a_64_mib_binary_attachment_round_trips_byte_identical(tmp_path: Path) -> None:
    src = tmp_path / "video.bin"
    src.write_bytes(random.Random(64).randbytes(64 << 20))
    want = _sha_file(src)
    data = pack_data()
    bag1 = write_pack(
        data,
        [LuggageSource.from_path(src, "clips/video.bin")],
        tmp_path / "1.taskpack",
        encoding="bag",
    ).path
    flat1 = rewrite(bag1, tmp_path / "2.taskpack.json", "flat")
    bag2 = rewrite(flat1, tmp_path / "3.taskpack", "bag")
    flat2 = rewrite(bag2, tmp_path / "4.taskpack.json", "flat")
    assert _sha_file(bag2) == _sha_file(bag1)
    assert _sha_file(flat2) == _sha_file(flat1)
    with open_pack(flat2) as o:
        assert [(i.name, i.size, i.sha256) for i in o.luggage] == [
            ("clips/video.bin", 64 << 20, want)
        ]
        h = hashlib.sha256()
        with o.open_luggage("clips/video.bin") as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
        assert h.hexdigest() == want
        assert o.data == data


def test_a_large_compressible_attachment_is_deflated_and_round_trips(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = [bytes(rng.choice(b"abcdefghij") for _ in range(rng.randint(2, 9))) for _ in range(500)]
    content = b" ".join(rng.choices(words, k=400_000))  # ~2.3 MiB of text: streamed, not whole
    bag1 = write_pack(
        pack_data(), sources([("log.txt", content)]), tmp_path / "1.taskpack", encoding="bag"
    ).path
    with zipfile.ZipFile(bag1) as zf:
        info = zf.getinfo("data/files/log.txt")
        assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size < len(content) // 2
    flat1 = rewrite(bag1, tmp_path / "2.taskpack.json", "flat")
    assert rewrite(flat1, tmp_path / "3.taskpack", "bag").read_bytes() == bag1.read_bytes()
    with open_pack(flat1) as o:
        assert read_all(o) == [("log.txt", content)]


def test_when_deflate_does_not_pay_after_all_the_entry_is_stored(
    tmp_path: Path, monkeypatch
) -> None:
    content = random.Random(3).randbytes(3 << 20)  # incompressible, larger than one probe
    plain = write_pack(
        pack_data(), sources([("r.bin", content)]), tmp_path / "plain.taskpack", encoding="bag"
    ).path
    real = bag.deflate_pays
    # a probe that is wrong about the rest: says deflate for the big entry's first MiB
    monkeypatch.setattr(
        bag, "deflate_pays", lambda s, gain=1.0: len(s) >= canonical.PROBE or real(s, gain=gain)
    )
    fooled = write_pack(
        pack_data(), sources([("r.bin", content)]), tmp_path / "fooled.taskpack", encoding="bag"
    ).path
    with zipfile.ZipFile(fooled) as zf:
        assert zf.getinfo("data/files/r.bin").compress_type == zipfile.ZIP_STORED
    assert fooled.read_bytes() == plain.read_bytes()
    with open_pack(fooled) as o:
        o.verify()


def test_a_thousand_small_files_round_trip_byte_identical(tmp_path: Path) -> None:
    rng = random.Random(1000)
    luggage = []
    for i in range(1000):
        name = f"dir {i % 10}/sub-{i % 7}/fïle {i:04d}.{'bin' if i % 3 == 0 else 'txt'}"
        content = (
            rng.randbytes(rng.randint(0, 300))
            if i % 3 == 0
            else f"line {i}\n".encode() * rng.randint(0, 20)
        )
        luggage.append((name, content))
    data = pack_data()
    bag1 = write_pack(data, sources(luggage), tmp_path / "1.taskpack", encoding="bag").path
    flat1 = rewrite(bag1, tmp_path / "2.taskpack.json", "flat")
    bag2 = rewrite(flat1, tmp_path / "3.taskpack", "bag")
    flat2 = rewrite(bag2, tmp_path / "4.taskpack.json", "flat")
    assert bag2.read_bytes() == bag1.read_bytes()
    assert flat2.read_bytes() == flat1.read_bytes()
    with open_pack(bag2) as o:
        assert_same_pack(o, data, luggage)  # same names, same order, same bytes


# --- 3. the flat form is plain JSON anyone can produce -------------------------------------------


def expected_attachment(name: str, content: bytes) -> dict:
    forbidden = set(range(0x00, 0x09)) | set(range(0x0E, 0x20))
    try:
        as_text = content.decode("utf-8")
        ok = not (set(content) & forbidden)
    except UnicodeDecodeError:
        ok = False
    return {
        "name": name,
        "encoding": "utf8" if ok else "base64",
        "sha256": hashlib.sha256(content).hexdigest(),
        "bytes": len(content),
        "data": as_text if ok else base64.b64encode(content).decode("ascii"),
    }


def expected_flat(data: dict, luggage: list[tuple[str, bytes]]) -> bytes:
    whole = {
        "taskpack": "0.1",
        "encoding": "flat",
        "note_to_reader": canonical.NOTE_TO_READER,
        "passport": data,
        "attachments": [expected_attachment(n, c) for n, c in luggage],
    }
    return (json.dumps(whole, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@PROPERTY
@given(
    data=pack_objects(json_of(plain_text, with_floats=False), plain_text), luggage=luggage_lists()
)
def test_flat_output_is_exactly_json_dumps_of_the_whole_object(
    data: dict, luggage: list[tuple[str, bytes]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = write_pack(
            data, sources(luggage), Path(tmp) / "x.taskpack.json", encoding="flat"
        ).path
        assert out.read_bytes() == expected_flat(data, luggage)
        bag1 = write_pack(data, sources(luggage), Path(tmp) / "x.taskpack", encoding="bag").path
        with zipfile.ZipFile(bag1) as zf:
            assert (
                zf.read("data/passport.json")
                == (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
            )


def test_flat_of_the_sample_pack_is_json_dumps(tmp_path: Path) -> None:
    luggage = [
        ("brief.txt", "Dear finance,\n\tthe numbers — «final».\r\n".encode()),
        ("chart.png", b"\x89PNG\r\n\x1a\n\x00\x00"),
        ("empty", b""),
    ]
    out = write_pack(
        pack_data(), sources(luggage), tmp_path / "x.taskpack.json", encoding="flat"
    ).path
    assert out.read_bytes() == expected_flat(pack_data(), luggage)
    doc = json.loads(out.read_bytes())
    assert [a["encoding"] for a in doc["attachments"]] == ["utf8", "base64", "utf8"]


ALLOWED = {0x09: "tab", 0x0A: "LF", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR", 0x7F: "DEL"}


@pytest.mark.parametrize("byte", [*range(0x20), 0x7F], ids=lambda b: f"0x{b:02x}")
def test_utf8_or_base64_for_each_control_character(tmp_path: Path, byte: int) -> None:
    content = "ünïcode ".encode() + bytes([byte]) + b" tail"
    out = write_pack(
        {}, sources([("t.txt", content)]), tmp_path / "x.taskpack.json", encoding="flat"
    ).path
    att = json.loads(out.read_bytes())["attachments"][0]
    assert att["encoding"] == ("utf8" if byte in ALLOWED else "base64")
    with open_pack(out) as o:
        assert read_all(o) == [("t.txt", content)]


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe", "café".encode()[:-1], b"\xc0\xaf", b"\xed\xa0\x80", b"ok" + bytes(1)],
    ids=["ff-fe", "cut-character", "overlong", "encoded-surrogate", "nul"],
)
def test_invalid_utf8_or_nul_goes_base64(tmp_path: Path, content: bytes) -> None:
    out = write_pack(
        {}, sources([("b", content)]), tmp_path / "x.taskpack.json", encoding="flat"
    ).path
    assert json.loads(out.read_bytes())["attachments"][0]["encoding"] == "base64"
    with open_pack(out) as o:
        assert read_all(o) == [("b", content)]


def test_a_forbidden_byte_far_into_a_text_file_still_means_base64(tmp_path: Path) -> None:
    content = "é".encode() * (3 << 19) + b"\x00"  # past the first read chunk
    out = write_pack(
        {}, sources([("t", content)]), tmp_path / "x.taskpack.json", encoding="flat"
    ).path
    with open(out, "rb") as f:
        assert b'"encoding": "base64"' in f.read(4096)


def test_flat_attachment_over_1_mib_is_written_but_warns(tmp_path: Path) -> None:
    one_mib = 1_048_576  # max_inline_attachment_bytes in the A2A descriptor
    over = bytes(one_mib + 1)
    at = bytes(one_mib)
    res = write_pack(
        {}, sources([("big.bin", over)]), tmp_path / "big.taskpack.json", encoding="flat"
    )
    assert len(res.warnings) == 1 and "big.bin" in res.warnings[0] and "1 MiB" in res.warnings[0]
    with open_pack(res.path) as o:
        assert read_all(o) == [("big.bin", over)]
    assert (
        write_pack(
            {}, sources([("at.bin", at)]), tmp_path / "at.taskpack.json", encoding="flat"
        ).warnings
        == []
    )
    assert (
        write_pack(
            {}, sources([("big.bin", over)]), tmp_path / "big.taskpack", encoding="bag"
        ).warnings
        == []
    )


# --- JSON text split at every possible place ------------------------------------------------------

tricky_text = st.text(alphabet='ab"\\/\n\r\t\x0b\x0c\x7fé中😀\u2028\ufeff', max_size=120)


@settings(max_examples=60, deadline=None, database=None)
@given(
    content=tricky_text | st.binary(max_size=120),
    chunk=st.sampled_from([3, 6, 9, 12, 30, 99]),
    ascii_only=st.booleans(),
)
def test_attachment_data_survives_any_chunking(
    content: str | bytes, chunk: int, ascii_only: bool
) -> None:
    """Escapes (\\n, \\u000b, \\ud83d\\ude00 ...) cut between two reads still decode right,
    whether we wrote the file or someone's `json.dumps` (ASCII-escaped) did."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.setattr(flat, "B64_CHUNK", chunk)
        ours = write_pack(
            {}, sources([("x", raw)]), Path(tmp) / "ours.taskpack.json", encoding="flat"
        ).path
        theirs = Path(tmp) / "theirs.taskpack.json"
        doc = {
            "taskpack": "0.1",
            "encoding": "flat",
            "passport": {},
            "attachments": [expected_attachment("x", raw)],
        }
        theirs.write_text(json.dumps(doc, ensure_ascii=ascii_only), encoding="utf-8")
        for path in (ours, theirs):
            with open_pack(path) as o:
                assert read_all(o) == [("x", raw)]
                o.verify()


def test_an_attachment_without_sha256_or_size_is_read_and_noted(tmp_path: Path) -> None:
    p = tmp_path / "hand-written.taskpack.json"
    p.write_text(
        json.dumps(
            {
                "taskpack": "0.1",
                "passport": {},
                "attachments": [
                    {"name": "reply.txt", "encoding": "utf8", "data": 'line\\nwith escapes "é"'}
                ],
            }
        ),
        encoding="utf-8",
    )
    with open_pack(p) as o:
        assert read_all(o) == [("reply.txt", 'line\\nwith escapes "é"'.encode())]
        assert o.luggage[0].size == len('line\\nwith escapes "é"'.encode())
        assert any("no sha256" in n for n in o.notes)


# --- 5. luggage names keep their meaning -----------------------------------------------------------

NAMES = [
    "a b.txt",
    "a_b.txt",
    "é.txt",
    "e\u0301x.txt",
    "中文/报告 final.md",
    "Ünï cødé/ß/x (1).txt",
    "100%.txt",
    "#hash&amp;.txt",
    "dir/.hidden",
    "emoji 😀.txt",
]


@pytest.mark.parametrize("encoding", ["bag", "flat"])
def test_luggage_names_survive_exactly(tmp_path: Path, encoding: str) -> None:
    luggage = [(n, n.encode() + b"\n") for n in NAMES]
    out = write_pack(
        {}, sources(luggage), tmp_path / f"x{SUFFIX[encoding]}", encoding=encoding
    ).path
    with open_pack(out) as o:
        got = [i.name for i in o.luggage]
        assert got == NAMES
        assert unicodedata.is_normalized("NFD", got[3]) and got[3] != unicodedata.normalize(
            "NFC", got[3]
        )
        assert read_all(o) == luggage
    if encoding == "bag":
        with zipfile.ZipFile(out) as zf:
            assert "data/files/a b.txt" in zf.namelist() and "data/files/a_b.txt" in zf.namelist()
            assert "data/files/é.txt" in zf.namelist()


@pytest.mark.parametrize(
    "clash",
    [
        ["a.txt", "a.txt"],
        ["Report.txt", "report.TXT"],
        ["é.txt", "e\u0301.txt"],
        ["ß.txt", "SS.txt"],
        ["docs", "docs/a.txt"],
        ["Docs/a.txt", "docs"],
    ],
    ids=["exact", "case", "nfc-nfd", "casefold", "file-and-folder", "file-and-folder-case"],
)
@pytest.mark.parametrize("encoding", ["bag", "flat"])
def test_colliding_luggage_names_are_refused_and_nothing_is_written(
    tmp_path: Path, clash: list[str], encoding: str
) -> None:
    out = tmp_path / f"x{SUFFIX[encoding]}"
    with pytest.raises(UnsafeEntry) as exc:
        write_pack({}, sources([(n, b"x") for n in clash]), out, encoding=encoding)
    assert any(n in str(exc.value) for n in clash)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "name",
    [
        "../x",
        "a/../../x",
        "/etc/passwd",
        "C:/x",
        "a\\b",
        "a//b",
        "./a",
        "con.txt",
        "a/nul",
        "trailing.",
        "trailing ",
        "tab\there",
        "q?.txt",
        "x" * 256,
        "",
    ],
)
def test_unsafe_luggage_names_are_refused_before_writing(tmp_path: Path, name: str) -> None:
    out = tmp_path / "x.taskpack"
    with pytest.raises(UnsafeEntry):
        write_pack({}, sources([(name, b"x")]), out, encoding="bag")
    assert list(tmp_path.iterdir()) == []


# --- 7. the retired .tpx/0.1 ----------------------------------------------------------------------


TPX = {
    "tpx": "0.1",
    "issued_at": "2025-03-04T05:06:07Z",
    "peer": {"note": "over to you — 交给你了"},
    "passport": {
        "id": "TP-K2VQ-8M4N",
        "title": "Old task",
        "goal": "finish",
        "facts": [{"claim": "stale"}],
    },
    "facts": [
        {"claim": "the port is free", "scope": "machine", "verified": True, "verified_on": "box-1"},
        {"claim": "the API is v2", "scope": "universal", "verified": True},
    ],
    "attachments": [
        {
            "name": "old.txt",
            "encoding": "utf8",
            "data": "kept\n",
            "sha256": hashlib.sha256(b"kept\n").hexdigest(),
            "bytes": 5,
        }
    ],
}


def test_a_tpx_file_is_read_and_mapped(tmp_path: Path) -> None:
    p = tmp_path / "old.tpx"
    p.write_text(json.dumps(TPX, ensure_ascii=False, indent=1), encoding="utf-8")
    with open_pack(p) as o:
        assert o.encoding == "tpx"
        assert o.pack.spec == BAG_SPEC and o.pack.kind == "handoff"
        assert o.pack.packed_at == "2025-03-04T05:06:07Z"
        assert o.pack.note == "over to you — 交给你了"
        assert o.data["passport"]["facts"] == TPX["facts"]  # top-level facts win
        assert o.data["passport"]["title"] == "Old task"
        assert o.pack.lineage is not None and o.pack.lineage.root_id == "TP-K2VQ-8M4N"
        assert read_all(o) == [("old.txt", b"kept\n")]
        assert any(".tpx" in n for n in o.notes)


def test_nothing_writes_tpx(tmp_path: Path) -> None:
    p = tmp_path / "old.tpx"
    p.write_text(json.dumps(TPX), encoding="utf-8")
    with pytest.raises(ValueError):
        write_pack({}, [], tmp_path / "new.tpx", encoding="tpx")
    assert not (tmp_path / "new.tpx").exists()
    for encoding in ("bag", "flat"):
        out = rewrite(p, tmp_path / f"new{SUFFIX[encoding]}", encoding)
        with open_pack(out) as o:
            assert o.encoding == encoding
            assert "tpx" not in json_text(o.data)
        if encoding == "flat":
            top = json.loads(out.read_bytes())
            assert top["taskpack"] == "0.1" and "tpx" not in top


def test_a_tpx_without_top_level_facts_keeps_the_passport_facts(tmp_path: Path) -> None:
    p = tmp_path / "old.tpx"
    p.write_text(json.dumps({k: v for k, v in TPX.items() if k != "facts"}), encoding="utf-8")
    with open_pack(p) as o:
        assert o.data["passport"]["facts"] == [{"claim": "stale"}]


# --- the one writer: convert -----------------------------------------------------------------------


def test_convert_round_trips_a_conformant_pack_byte_identical(tmp_path: Path) -> None:
    luggage = [("brief.txt", b"The brief.\n"), ("bin/blob", bytes(range(256)) * 5000)]
    bag1 = write_pack(pack_data(), sources(luggage), tmp_path / "1.taskpack", encoding="bag").path
    flat1 = convert(bag1, tmp_path / "2.taskpack.json", machine="elsewhere").path
    bag2 = convert(flat1, tmp_path / "3.taskpack", machine="elsewhere").path
    assert bag2.read_bytes() == bag1.read_bytes()
    flat2 = convert(bag2, tmp_path / "4.taskpack.json", machine="elsewhere").path
    assert flat2.read_bytes() == flat1.read_bytes()
    assert flat1.read_bytes() == expected_flat(pack_data(), luggage)


@pytest.mark.parametrize("size", [23, 3 << 20], ids=["small", "streamed"])
@pytest.mark.parametrize("out_name", ["out.taskpack.json", "out.taskpack"])
def test_convert_of_a_tampered_pack_writes_nothing(
    tmp_path: Path, size: int, out_name: str
) -> None:
    """The declared digest is trusted only because the stream checks it at its end: an
    altered luggage file must abort the conversion, not be sealed under the old digest."""
    from hostile_zips import bag_zip
    from taskpack.core.errors import IntegrityError

    honest = random.Random(size).randbytes(size)
    altered = bytes([honest[0] ^ 1]) + honest[1:]
    src = tmp_path / "in.taskpack"
    src.write_bytes(
        bag_zip([("data/files/blob.bin", honest)], tamper={"data/files/blob.bin": altered})
    )
    with pytest.raises(IntegrityError, match=r"blob\.bin"):
        convert(src, tmp_path / out_name, machine="m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.taskpack"]


def test_convert_gives_an_unvouched_attachment_its_sha256(tmp_path: Path) -> None:
    src = tmp_path / "reply.taskpack.json"
    src.write_text(
        json.dumps(
            {
                "taskpack": "0.1",
                "passport": pack_data(),
                "attachments": [{"name": "reply.txt", "encoding": "utf8", "data": "done\n"}],
            }
        ),
        encoding="utf-8",
    )
    from taskpack.core.errors import NotConformant

    with pytest.raises(NotConformant, match="C0, C9"):  # convert repairs nothing unless asked
        convert(src, tmp_path / "reply.taskpack", machine="m")
    result = convert(src, tmp_path / "reply.taskpack", machine="m", repair=True)
    assert (
        "C9: attachment 'reply.txt' declares no sha256; the round trip would add one — repaired"
        in result.repairs
    )
    out = result.path
    with open_pack(out) as o:
        assert o.luggage[0].sha256 == hashlib.sha256(b"done\n").hexdigest()
        assert o.notes == []


def test_bag_reader_accepts_what_zipfile_writes(tmp_path: Path) -> None:
    """A bag zipped by another tool (deflated tag files, directory entries) still opens."""
    ours = write_pack(
        pack_data(), sources([("a b/c.txt", b"c")]), tmp_path / "x.taskpack", encoding="bag"
    ).path
    buf = io.BytesIO()
    with zipfile.ZipFile(ours) as src, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        dst.writestr("data/", b"")
        dst.writestr("data/files/", b"")
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info))
    other = tmp_path / "other.taskpack"
    other.write_bytes(buf.getvalue())
    with open_pack(other) as o:
        assert_same_pack(o, pack_data(), [("a b/c.txt", b"c")])
