"""The scan engines: built ahead of need (`prepare`), and the fast engine's two
databases (a stream's and a whole value's, the second built only when first asked for)
report what the pure-Python fallback reports, position for position."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.trust.refusals import StreamScanner, available_engines, prepare_engine
from taskpack.core.trust.scan import engines

SAMPLE = (
    b"x\nUser: hi\n"
    + b"ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    + b" password=hunter2 PK\x03\x04 sk-"
    + b"\0" * 300
)


def stream_positions(engine: engines.Engine, data: bytes, cut: int) -> list[int]:
    s = engine.open()
    out = s.scan(data[:cut]) + s.scan(data[cut:]) + s.close()
    return sorted(set(out))  # a trigger across the cut may be told twice


@given(st.binary(max_size=600), st.data())
@settings(max_examples=60, deadline=None)
def test_every_engine_reports_the_same_positions(noise: bytes, draw: st.DataObject) -> None:
    data = noise + SAMPLE + noise
    cut = draw.draw(st.integers(0, len(data)))
    fallback = engines.engine_named("re")
    want = sorted(fallback.positions(data))
    assert want  # the sample holds triggers, or this test could not fail
    for name in available_engines():
        engine = engines.engine_named(name)
        assert sorted(engine.positions(data)) == want, name
        assert stream_positions(engine, data, cut) == want, name


def test_prepare_builds_the_engine_a_scan_then_uses() -> None:
    prepare_engine()
    prepare_engine()  # a second call while (or after) it builds changes nothing
    with StreamScanner("files/a.bin") as s:  # waits for the build, if it is still going
        s.feed(SAMPLE)
        kinds = sorted(f.kind for f in s.finish())
    assert "GitHub token" in kinds, kinds


@pytest.mark.skipif("hyperscan" not in available_engines(), reason="hyperscan is not usable here")
def test_a_credential_in_a_file_name_is_found_whichever_engine_scans_the_bytes() -> None:
    name = "files/ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8.txt"
    for engine in available_engines():
        with StreamScanner(name, engine=engine) as s:
            s.feed(b"\0" * 1024)
            found = s.finish()
        assert [f.place for f in found] == ["the name of a luggage file"], engine
