"""A small scan uses the pure-Python engine (no hyperscan database to build, which is
most of a small judge's start-up) and finds exactly what the fast engine finds; what an
archive inside inflates to is never small, so it is scanned with the fastest engine."""

from __future__ import annotations

import gzip

import pytest
from taskpack.core.trust.refusals import (
    SMALL_SCAN_BYTES,
    StreamScanner,
    available_engines,
    engine_for,
    scan_value,
)

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_engine_for_small_and_large() -> None:
    assert engine_for(0) == engine_for(SMALL_SCAN_BYTES) == "small"
    assert engine_for(SMALL_SCAN_BYTES + 1) is None


@pytest.mark.parametrize(
    "data", [b"notes\n" * 100 + TOKEN.encode(), b"User: hi\nAssistant: hello\n" * 3, b"plain"]
)
def test_small_engine_finds_what_the_fastest_finds(data: bytes) -> None:
    def found(engine: str | None) -> list[str]:
        with StreamScanner("files/a.txt", engine=engine) as s:
            s.feed(data)
            return [str(f) for f in s.finish()]

    assert found("small") == found(None)
    assert scan_value({"note": data.decode()}, engine="small") == scan_value(
        {"note": data.decode()}
    )


def test_an_archive_inside_a_small_stream_is_scanned_with_the_fastest_engine() -> None:
    inner = gzip.compress(b"\0" * (8 << 20) + TOKEN.encode())
    with StreamScanner("files/a.gz", engine="small") as s:
        nested = s.nested("files/a.gz!/a")
        assert nested is not None and nested.engine.name == available_engines()[0]
        s.feed(inner)
        found = s.finish()
    assert [f.kind for f in found if "(inflated)" in f.place] == ["GitHub token"], found
