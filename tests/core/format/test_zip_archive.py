"""The zip writer deflates at the one level `canonical.DEFLATE_LEVEL` names:
changing it there changes every deflated entry, whole or streamed. The reader's shortcut
for small entries reads what its streaming reader reads, and nothing it would refuse."""

from __future__ import annotations

import io
import zipfile
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.errors import PackError
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


def _zip_of(entries: list[tuple[bytes, bool]]) -> bytes:
    fp = io.BytesIO()
    with zipfile.ZipFile(fp, "w") as zf:
        for n, (data, deflate) in enumerate(entries):
            zf.writestr(f"e{n}.bin", data, zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED)
    return fp.getvalue()


def _streamed(zip: zip_archive.SafeZip, info: zipfile.ZipInfo) -> bytes | None:
    """The entry as the streaming reader reads it; None where it says it is damaged."""
    try:
        with zip_entries.CheckedEntry(zip.zf, info) as f:
            out = bytearray()
            while chunk := f.read(4096):
                out += chunk
            return bytes(out)
    except PackError:
        return None


@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.binary(max_size=3000),
                st.sampled_from([b"", b"a" * 70_000, bytes(range(256)) * 300]),
            ),
            st.booleans(),
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), max_size=3),
)
@settings(max_examples=150, deadline=None)
def test_a_small_entry_read_whole_is_what_the_streaming_reader_reads(
    entries: list[tuple[bytes, bool]], flips: list[tuple[float, int]]
) -> None:
    """`SafeZip.open` reads a small entry whole (one read, zlib's inflate and CRC) when it
    is exactly what it declares: then its bytes must be the streaming reader's, and in a
    zip with any bytes damaged it must take no bytes the streaming reader would refuse."""
    raw = bytearray(_zip_of(entries))
    for at, xor in flips:
        raw[int(at * len(raw))] ^= xor
    try:
        zip = zip_archive.SafeZip(io.BytesIO(bytes(raw)), len(raw))
    except PackError:
        return  # refused before any entry is read: nothing to compare
    small = zip_archive.WHOLE_ENTRY_BYTES
    for info in zip.infos:
        whole = zip._whole(info, None)
        if whole is not None:
            assert whole == _streamed(zip, info), info.filename
            if max(info.file_size, info.compress_size) > small:
                continue  # read whole only below the limit: streamed, as before
            streaming = zip.zf.open
            zip.zf.open = _not_streamed  # type: ignore[method-assign]
            try:
                with zip.open(info) as f:  # the shortcut: zipfile's reader is not asked
                    assert f.read() == whole
            finally:
                zip.zf.open = streaming  # type: ignore[method-assign]
        elif not flips and info.file_size <= small:
            raise AssertionError(f"{info.filename}: undamaged, yet not read whole")


def _not_streamed(*args: object, **kw: object) -> None:
    raise AssertionError("a small entry that is what it declares went through zipfile")
