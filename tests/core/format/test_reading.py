"""Hostile packs are refused: the right `PackError`, one line naming the problem,
bounded memory, and nothing written anywhere.

The corpus is built in tests/hostile_zips.py (each case on top of an otherwise correct
bag or flat file); the command-line side of the same corpus is in
tests/app/cli/test_pack_files.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_zips import (
    BRIEF,
    CASE_IDS,
    CASES,
    LUGGAGE,
    Case,
    attachment,
    bag_zip,
    canonical_json,
    flat_doc,
    pack_data,
)
from taskpack.core.errors import IntegrityError, LimitExceeded, PackError, UnsafeEntry
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.reading import open_pack
from taskpack.core.format.writing import write_pack
from taskpack.core.format.zip_archive import ZipLimits

CANARY = Path("/tmp/taskpack-hostile-canary")  # the absolute-name case points here


def tree(root: Path) -> dict[str, int]:
    """Every file under `root` with its size: what a test compares before and after."""
    return {
        str(p.relative_to(root)): p.stat().st_size
        for p in root.rglob("*")
        if p.is_file() or p.is_symlink()
    }


def read_to_end(opened, name: str) -> bytes:  # type: ignore[no-untyped-def]
    with opened.open_luggage(name) as f:
        return b"".join(iter(lambda: f.read(1 << 16), b""))


# --- the base the corpus is built on is sound ------------------------------------------------


def test_a_clean_raw_bag_opens(tmp_path: Path) -> None:
    """Every hostile bag is this bag plus one defect: so the defect is why it is refused."""
    p = tmp_path / "clean.taskpack"
    p.write_bytes(bag_zip(LUGGAGE))
    with open_pack(p) as o:
        assert o.data == pack_data()
        assert read_to_end(o, "brief.txt") == LUGGAGE[0][1]
        o.verify()
        assert o.notes == []


def test_a_clean_flat_file_opens(tmp_path: Path) -> None:
    p = tmp_path / "clean.taskpack.json"
    p.write_bytes(
        canonical_json(
            flat_doc([attachment("brief.txt", b"hi\n"), attachment("b.bin", b"\xff\x00")])
        )
    )
    with open_pack(p) as o:
        assert [read_to_end(o, n) for n in ("brief.txt", "b.bin")] == [b"hi\n", b"\xff\x00"]


# --- the corpus -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_hostile_file_is_refused(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "inbox" / "unpacked"
    target.mkdir(parents=True)
    monkeypatch.chdir(target)  # a relative escape (../../x) would land in tmp_path
    src = tmp_path / "inbox" / f"hostile{case.suffix}"
    src.write_bytes(case.content)
    before = tree(tmp_path)

    with pytest.raises(PackError) as exc, open_pack(src) as opened:
        if case.stage == "open":
            pytest.fail(f"open_pack accepted it: {case.name}")
        opened.verify()

    assert isinstance(exc.value, case.error), f"{type(exc.value).__name__}: {exc.value}"
    message = str(exc.value)
    assert "\n" not in message and message.strip() == message
    for word in case.words:
        assert word.lower() in message.lower(), message
    assert tree(tmp_path) == before
    assert not CANARY.exists()


@pytest.mark.parametrize("case", [c for c in CASES if c.stage == "read"], ids=lambda c: c.name)
def test_luggage_that_does_not_match_raises_at_the_end_of_reading(
    case: Case, tmp_path: Path
) -> None:
    """Bytes read before the end are unverified; the end of the stream is where the
    verdict comes, so a reader that reads to the end can never keep altered bytes."""
    src = tmp_path / f"hostile{case.suffix}"
    src.write_bytes(case.content)
    try:
        opened = open_pack(src)
    except PackError as exc:
        assert isinstance(exc, case.error)
        return
    with opened, pytest.raises(case.error):
        for item in opened.luggage:
            read_to_end(opened, item.name)


@pytest.mark.parametrize("suffix", [".taskpack", ".taskpack.json"])
def test_read_with_no_size_reads_everything_and_checks_it(tmp_path: Path, suffix: str) -> None:
    altered = b"The brief, as ALTERED.\n"
    if suffix == ".taskpack":
        raw = bag_zip(LUGGAGE, tamper={"data/files/brief.txt": altered})
    else:
        raw = canonical_json(
            flat_doc([attachment("brief.txt", LUGGAGE[0][1], data=altered.decode())])
        )
    src = tmp_path / f"x{suffix}"
    src.write_bytes(raw)
    with (
        open_pack(src) as opened,
        opened.open_luggage("brief.txt") as f,
        pytest.raises(IntegrityError),
    ):
        f.read()  # io's contract: everything up to EOF — so the verdict too


# --- zip-slip, explicitly --------------------------------------------------------------------------


def test_zip_slip_with_a_correct_digest_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch
) -> None:
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    evil = b"#!/bin/sh\necho pwned\n"
    src = deep / "slip.taskpack"
    src.write_bytes(bag_zip([*LUGGAGE, ("data/files/../../x", evil)]))
    assert hashlib.sha256(evil).hexdigest().encode() in src.read_bytes()  # the digest is right
    before = tree(tmp_path)
    with pytest.raises(UnsafeEntry, match=r"\.\."):
        open_pack(src)
    try:
        from taskpack.core.trust.pack_writer import convert
    except ImportError:  # pragma: no cover - chokepoint not there yet
        convert = None
    if convert is not None:
        with pytest.raises(UnsafeEntry):
            convert(src, deep / "out.taskpack.json", machine="m")
    assert tree(tmp_path) == before
    assert not (tmp_path / "x").exists() and not (tmp_path / "a" / "x").exists()


def test_a_zip64_end_record_is_read(tmp_path: Path) -> None:
    """The control for the ZIP64 cases: an honest ZIP64 end record opens."""
    from hostile_zips import bag_entries, build_zip

    es = bag_entries(LUGGAGE)
    src = tmp_path / "z64.taskpack"
    src.write_bytes(build_zip(es, zip64_count=len(es)))
    with open_pack(src) as o:
        o.verify()
        assert [i.name for i in o.luggage] == ["brief.txt"]


# --- limits are the formula, not a guess ----------------------------------------------------------------


def test_entry_limit_counts_real_entries(tmp_path: Path) -> None:
    lug = [LuggageSource.from_bytes(f"f{i}.txt", b"x") for i in range(10)]
    p = write_pack(pack_data(), lug, tmp_path / "ten.taskpack", encoding="bag").path
    with pytest.raises(LimitExceeded, match="entries"):
        open_pack(p, limits=ZipLimits(max_entries=5))
    with open_pack(p, limits=ZipLimits(max_entries=20)) as o:
        assert len(o.luggage) == 10


def test_a_highly_compressible_honest_file_under_the_floor_is_fine(tmp_path: Path) -> None:
    """10 MiB of zeros is a 1000:1 ratio, but far under 200 × size + 64 MiB: not a bomb."""
    zeros = bytes(10 << 20)
    p = write_pack(
        pack_data(),
        [LuggageSource.from_bytes("zeros.bin", zeros)],
        tmp_path / "z.taskpack",
        encoding="bag",
    ).path
    assert p.stat().st_size < 64 << 10
    with open_pack(p) as o:
        o.verify()
    with pytest.raises(LimitExceeded, match="bomb"):
        open_pack(p, limits=ZipLimits(ratio_floor=1 << 20))  # the same file, a tighter floor


# --- memory stays bounded ---------------------------------------------------------------------------------

_PEAK = r"""
import sys
from taskpack.core.format.reading import open_pack
from taskpack.core.errors import PackError

def hwm():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) * 1024

# the records' module (pydantic, ~12 MB) before the mark: a pack read far enough to build
# its record imports it, and what is measured is the reading, not that import
import taskpack.core.format.model
base = hwm()
try:
    with open_pack(sys.argv[1]) as o:
        o.verify()
    verdict = "accepted"
except PackError as exc:
    verdict = type(exc).__name__
print(verdict, hwm() - base)
"""

HEAVY = {
    "zip bomb: 100 MiB of zeros in ~100 KiB": 16 << 20,
    "bomb hiding behind a small declared size": 8 << 20,  # ~3.5 MiB: one inflated chunk
    "passport.json with a 40 MiB note": 16 << 20,  # refused on its declared size, never inflated
    "passport.json nested 100,000 deep": 16 << 20,
    "end record claims 100,001 entries (ZIP64)": 16 << 20,
    "central directory holds 100,001 records behind a lying end record": 16
    << 20,  # counted, not parsed
    "flat: a 40 MiB note in the passport object": 128
    << 20,  # a bounded 32 MiB window, not the file
    "flat: nested 100,000 deep": 16 << 20,
}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("name", list(HEAVY))
def test_hostile_files_are_refused_in_bounded_memory(name: str, tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == name)
    src = tmp_path / f"x{case.suffix}"
    src.write_bytes(case.content)
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, str(src)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    verdict, grew = out.stdout.split()
    assert verdict == case.error.__name__, out.stderr
    assert int(grew) < HEAVY[name], f"peak memory grew by {int(grew) >> 20} MiB"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_directory_of_1_3_million_records_is_refused_without_parsing_it(tmp_path: Path) -> None:
    """60 MiB of central directory behind an end record claiming 3 entries: zipfile alone
    would build 1.3 million entries (~500 MiB, seconds) before anyone could say no."""
    from hostile_zips import central_record, entry, eocd, local_header

    one = entry("data/files/x", b"")
    head = local_header(one)
    cd = central_record(one, 0) * ((60 << 20) // len(central_record(one, 0)))
    src = tmp_path / "x.taskpack"
    src.write_bytes(head + cd + eocd(3, len(cd), len(head)))
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, str(src)], capture_output=True, text=True, timeout=60
    )
    verdict, grew = out.stdout.split()
    assert verdict == "LimitExceeded", out.stderr
    assert int(grew) < 16 << 20


# --- the flat form: a declared sha256 that does not match aborts the read -----------------------------


def test_flat_sha256_mismatch_aborts_and_partial_bytes_are_not_a_verdict(tmp_path: Path) -> None:
    content = b"A" * 300_000
    forged = attachment("big.txt", content, data=("B" + "A" * 299_999))
    src = tmp_path / "x.taskpack.json"
    src.write_text(json.dumps(flat_doc([forged]), ensure_ascii=False), encoding="utf-8")
    with open_pack(src) as o, o.open_luggage("big.txt") as f:
        first = f.read(1000)
        assert first.startswith(b"B")  # bytes flow before the verdict: they are unverified
        with pytest.raises(IntegrityError, match="sha256"):
            while f.read(1 << 16):
                pass
    with open_pack(src) as o, pytest.raises(IntegrityError):
        o.verify()


# --- values a reader once crashed on: the judge, landing and convert agree ----------


@pytest.mark.parametrize("asks", [True, 5, "ask me", {"what": "x"}])
def test_the_judge_fails_asks_that_are_not_a_list_instead_of_crashing(
    asks: object, tmp_path: Path
) -> None:
    from taskpack.core.trust.conformance import judge

    src = tmp_path / "asks.taskpack.json"
    src.write_bytes(canonical_json(flat_doc([BRIEF], passport=pack_data(asks=asks))))
    report = judge(src)
    assert not report.conformant
    assert "C5" in report.failed()
    c5 = next(c for c in report.checks if c.id == "C5")
    assert any("asks that is not a list" in r for r in c5.reasons), c5.reasons
    with pytest.raises(PackError, match="asks"):
        open_pack(src)  # landing and convert refuse it with the same one line


@pytest.mark.parametrize("spec", [[], {}, 5])
def test_the_judge_reads_a_spec_that_is_not_a_string_as_an_unreadable_pack_object(
    spec: object, tmp_path: Path
) -> None:
    from taskpack.core.trust.conformance import judge

    src = tmp_path / "spec.taskpack.json"
    src.write_bytes(canonical_json(flat_doc([BRIEF], passport=pack_data(spec=spec))))
    report = judge(src)
    assert report.failed() == ["C2"]
    assert "spec that is not a string" in report.checks[2].reasons[0]


def test_a_lone_surrogate_escape_is_conformant_and_it_lands(tmp_path: Path) -> None:
    """`"a\\udbffb"` is valid JSON the judge accepts: landing must store it, not crash in
    SQLite's UTF-8 encoder; the stored passport reads back the same text."""
    from taskpack.core.desk import landing
    from taskpack.core.desk.sqlite_store import SqliteStore
    from taskpack.core.trust.conformance import judge

    text = canonical_json(
        flat_doc(
            [BRIEF],
            passport=pack_data(note="NOTE", passport={**pack_data()["passport"], "title": "TITLE"}),
        )
    ).decode()
    src = tmp_path / "sur.taskpack.json"
    src.write_text(
        text.replace("NOTE", "a\\udbffb").replace("TITLE", "Q3 \\ud800 report"), encoding="utf-8"
    )
    assert judge(src).conformant
    store = SqliteStore(tmp_path / "home")
    with open_pack(src) as opened:
        outcome = landing.land_handoff(store, opened, machine="m", allow=["*"])
    lp = store.get(outcome.passport.id)
    assert lp.passport.title == "Q3 \ud800 report"
    assert store.landed_data(outcome.review.content_digest)["note"] == "a\udbffb"
    with open_pack(src) as opened:  # the same pack again: recognised, not a second passport
        assert landing.land_handoff(store, opened, machine="m", allow=["*"]).already


def test_convert_refuses_a_flat_attachment_declaring_2_to_the_70_bytes(tmp_path: Path) -> None:
    from taskpack.core.trust.conformance import judge
    from taskpack.core.trust.pack_writer import convert

    src = tmp_path / "big.taskpack.json"
    src.write_bytes(canonical_json(flat_doc([attachment("a.txt", b"hi", bytes=2**70)])))
    with pytest.raises(IntegrityError, match="at most 2"):
        convert(src, tmp_path / "out.taskpack", machine="m")
    assert not (tmp_path / "out.taskpack").exists()
    report = judge(src)  # the judge keeps going and says so
    assert not report.conformant
    assert any("at most 2" in r for c in report.checks for r in c.reasons)


# --- packing a folder never reaches outside it ---------------------------------------


def test_a_folder_is_packed_without_following_its_symlinks(tmp_path: Path) -> None:
    from taskpack.core.format.luggage import luggage_from_paths

    secret = tmp_path / "outside" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0\n")
    proj = tmp_path / "proj"
    (proj / "docs").mkdir(parents=True)
    (proj / "docs" / "a.txt").write_text("mine\n")
    (proj / "link").symlink_to(secret)
    (proj / "docs" / "dirlink").symlink_to(secret.parent, target_is_directory=True)
    (proj / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(proj / "pipe")
    skipped: list[str] = []
    sources = luggage_from_paths([proj], skipped=skipped)
    assert [s.name for s in sources] == ["proj/docs/a.txt"]
    assert skipped == [
        "proj/dangling (a symbolic link; not followed)",
        "proj/docs/dirlink (a symbolic link; not followed)",
        "proj/link (a symbolic link; not followed)",
        "proj/pipe (not a regular file: a device, pipe or socket)",
    ]
    out = write_pack(pack_data(), sources, tmp_path / "p.taskpack", encoding="bag").path
    assert b"root:x" not in out.read_bytes()


def test_a_file_swapped_for_a_symlink_after_the_walk_is_not_read(tmp_path: Path) -> None:
    from taskpack.core.errors import UsageError
    from taskpack.core.format.luggage import luggage_from_paths

    secret = tmp_path / "secret"
    secret.write_text("root:x:0:0\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "a.txt").write_text("mine\n")
    (source,) = luggage_from_paths([proj])
    (proj / "a.txt").unlink()
    (proj / "a.txt").symlink_to(secret)
    with pytest.raises(UsageError, match="symbolic link"):
        source.open()


def test_a_symlink_named_on_the_command_line_is_followed_like_cp(tmp_path: Path) -> None:
    from taskpack.core.format.luggage import luggage_from_paths

    real = tmp_path / "real.txt"
    real.write_text("x")
    (tmp_path / "named.txt").symlink_to(real)
    skipped: list[str] = []
    assert [s.name for s in luggage_from_paths([tmp_path / "named.txt"], skipped=skipped)] == [
        "named.txt"
    ]
    assert skipped == []


# --- interop warnings -----------------------------------------------------------------


def test_a_percent_in_a_name_is_warned_about_in_a_bag_only(tmp_path: Path) -> None:
    lug = [
        LuggageSource.from_bytes("100% done.txt", b"x"),
        LuggageSource.from_bytes("plain.txt", b"y"),
    ]
    bag = write_pack(pack_data(), lug, tmp_path / "p.taskpack", encoding="bag")
    assert len(bag.warnings) == 1
    assert "'100% done.txt'" in bag.warnings[0] and "reference" in bag.warnings[0]
    flat = write_pack(pack_data(), lug, tmp_path / "p.taskpack.json", encoding="flat")
    assert flat.warnings == []
    with open_pack(bag.path) as o:  # ours reads it, of course
        o.verify()
        assert [i.name for i in o.luggage] == ["100% done.txt", "plain.txt"]
