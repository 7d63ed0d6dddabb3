"""The zip writer deflates at the one level `canonical.DEFLATE_LEVEL` names (issue 12.6):
changing it there changes every deflated entry, whole or streamed."""

from __future__ import annotations

import io
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.format import canonical, zip_archive, zip_entries

TEXT = b"".join(
    b"line %d of a very repetitive file, easy to deflate\n" % (i % 97) for i in range(60_000)
)


def raw_deflate(data: bytes, level: int) -> bytes:
    z = zlib.compressobj(level, zlib.DEFLATED, -15)
    return z.compress(data) + z.flush()


@pytest.mark.parametrize("level", [1, 9])
def test_whole_and_streamed_entries_use_the_canonical_level(
    monkeypatch: pytest.MonkeyPatch, level: int
) -> None:
    assert raw_deflate(TEXT, 1) != raw_deflate(TEXT, 9)  # else this test could not fail
    monkeypatch.setattr(canonical, "DEFLATE_LEVEL", level)
    fp = io.BytesIO()
    zw = zip_archive.ZipWriter(fp, canonical.ZIP_EPOCH)
    zw.add_bytes("whole.txt", TEXT, deflate=True)
    entry = zw.begin_stream("streamed.txt", len(TEXT), deflate=True)
    for i in range(0, len(TEXT), 1 << 16):
        entry.write(TEXT[i : i + (1 << 16)])
    entry.finish()
    zw.close()
    raw = fp.getvalue()
    assert raw.count(raw_deflate(TEXT, level)) == 2


@given(st.lists(st.binary(max_size=5000), max_size=8), st.integers(0, 2**32 - 1))
@settings(max_examples=80, deadline=None)
def test_the_fast_crc_is_zlibs_crc_chunk_by_chunk(chunks: list[bytes], start: int) -> None:
    """A stored entry's CRC-32 is checked with the fast implementation a chunk at a time:
    it must be exactly zlib's, from any starting value (else good packs read as damaged)."""
    fast, slow = start, start
    for chunk in chunks:
        fast, slow = zip_entries.fast_crc32(chunk, fast), zlib.crc32(chunk, slow)
    assert fast == slow
