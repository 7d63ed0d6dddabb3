"""`streams.hash_file`: the one file digest every module uses (store, health, export, A2A);
`streams.ReadAhead`: a stream read and hashed on a thread of its own, handed out in order."""

from __future__ import annotations

import hashlib
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from taskpack.core.errors import IntegrityError
from taskpack.core.format.streams import CHUNK, BufferRing, ReadAhead, hash_file


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=4096), st.sampled_from([0, 1, CHUNK - 1, CHUNK, CHUNK + 1]))
def test_hash_file_is_the_sha256_of_the_whole_file(head: bytes, pad: int) -> None:
    data = head + b"\x5a" * pad  # across the read buffer's edges, not only inside one
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.bin"
        path.write_bytes(data)
        assert hash_file(path) == hashlib.sha256(data).hexdigest()
        assert hash_file(str(path)) == hash_file(path)


def test_hash_file_of_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    assert hash_file(tmp_path / "empty") == hashlib.sha256(b"").hexdigest()


class _Source:
    """A stream of `data` read `piece` bytes at a time at most, that raises `fail` once
    `fail_at` bytes have been read; it records the threads it was read on."""

    def __init__(
        self, data: bytes, piece: int, fail_at: int | None = None, fail: Exception | None = None
    ) -> None:
        self.data, self.piece, self.at = data, piece, 0
        self.fail_at, self.fail = fail_at, fail
        self.threads: set[str] = set()

    def readinto(self, view: memoryview) -> int:
        self.threads.add(threading.current_thread().name)
        if self.fail_at is not None and self.at >= self.fail_at:
            assert self.fail is not None
            raise self.fail
        n = min(len(view), self.piece, len(self.data) - self.at)
        view[:n] = self.data[self.at : self.at + n]
        self.at += n
        return n


def _free_buffers(ring: BufferRing, count: int) -> int:
    """How many of the ring's `count` buffers can be taken at once now (each given back)."""
    taken = []
    while len(taken) < count and not ring.would_wait():
        taken.append(ring.take())
    for b in taken:
        ring.give(b)
    return len(taken)


@settings(max_examples=30, deadline=None)
@given(
    st.binary(max_size=3000),
    st.integers(1, 700),
    st.integers(1, 8),
    st.integers(1, 5),
)
def test_read_ahead_hands_out_every_byte_in_order_and_hashes_them(
    data: bytes, piece: int, count: int, batch: int
) -> None:
    size = 256
    ring = BufferRing(count, size)  # fewer buffers than a batch holds, too
    src = _Source(data, piece)
    ahead = ReadAhead(src.readinto, ring, batch=batch)
    got = bytearray()
    while (chunk := ahead.next()) is not None:
        got += chunk
    assert bytes(got) == data
    assert ahead.hexdigest() == hashlib.sha256(data).hexdigest()
    assert ahead.next() is None  # the end stays the end
    assert src.threads == {"read-ahead"}  # read (and hashed) off the caller's thread
    assert _free_buffers(ring, count) == count  # every buffer is back


def test_read_ahead_raises_what_reading_raised_after_the_bytes_before_it() -> None:
    data = bytes(range(256)) * 20
    boom = IntegrityError("the source broke", code="zip_entry_damaged")
    ring = BufferRing(4, 512)
    ahead = ReadAhead(_Source(data, 512, fail_at=2048, fail=boom).readinto, ring, batch=2)
    got = bytearray()
    with pytest.raises(IntegrityError) as raised:
        while (chunk := ahead.next()) is not None:
            got += chunk
    assert raised.value is boom
    assert bytes(got) == data[:2048]  # every chunk read before the error reached the caller
    ahead.close()
    assert _free_buffers(ring, 4) == 4


def test_read_ahead_stopped_half_way_ends_its_thread_and_gives_back_its_buffers() -> None:
    data = b"x" * (64 * 1024)
    ring = BufferRing(3, 1024)
    ahead = ReadAhead(_Source(data, 1024).readinto, ring, name="read-ahead-test", batch=2)
    assert ahead.next() is not None
    ahead.close()  # the reading thread may be waiting for a buffer: it must not hang
    assert not [t for t in threading.enumerate() if t.name == "read-ahead-test"]
    assert _free_buffers(ring, 3) == 3
