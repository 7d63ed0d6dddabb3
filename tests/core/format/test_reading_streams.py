"""Streams in: `open_pack` and the judge read a binary stream as they read a path (12.3)."""

from __future__ import annotations

import io
from pathlib import Path

import hostile_zips
import pytest
from taskpack.app.desk import Desk
from taskpack.core.errors import UnsafeEntry
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.conformance import judge
from taskpack.core.trust.pack_writer import convert


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, like a socket or a pipe."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, b: bytearray) -> int:  # type: ignore[override]
        chunk = self._data.read(min(len(b), 4096))
        b[: len(chunk)] = chunk
        return len(chunk)


@pytest.fixture
def packs(tmp_path: Path) -> dict[str, Path]:
    desk = Desk(tmp_path / "a", "machine-a")
    lp = desk.new("Invoice export", "CSV for finance")
    (tmp_path / "brief.txt").write_text("The brief.\n" * 50, encoding="utf-8")
    (tmp_path / "data.bin").write_bytes(bytes(range(256)) * 40)
    desk.attach(lp.id, [tmp_path / "brief.txt", tmp_path / "data.bin"])
    bag = desk.pack(lp.id, tmp_path / "h.taskpack").path
    flat = convert(bag, tmp_path / "h.taskpack.json", machine="machine-a").path
    desk.close()
    return {"bag": bag, "flat": flat}


def _luggage(opened) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    out = {}
    readers = [(i.name, opened.open_luggage(i)) for i in opened.luggage]
    # read the attachments in turn, a little at a time: each keeps its own place
    while readers:
        for name, r in list(readers):
            chunk = r.read(100)
            if chunk:
                out[name] = out.get(name, b"") + chunk
            else:
                r.close()
                readers.remove((name, r))
    return out


@pytest.mark.parametrize("encoding", ["bag", "flat"])
@pytest.mark.parametrize("wrap", ["bytesio", "pipe", "file"])
def test_a_stream_opens_as_the_file_does(packs: dict[str, Path], encoding: str, wrap: str) -> None:
    path = packs[encoding]
    with open_pack(path) as from_path:
        digest, expected = from_path.content_digest(), _luggage(from_path)
    raw = path.read_bytes()
    stream = {
        "bytesio": lambda: io.BytesIO(raw),
        "pipe": lambda: _Pipe(raw),
        "file": lambda: open(path, "rb"),  # noqa: SIM115 (the test closes it)
    }[wrap]()
    with stream, open_pack(stream, name="received.bin") as opened:  # type: ignore[arg-type]
        assert opened.path.name == "received.bin"
        assert opened.encoding == encoding
        assert opened.content_digest() == digest
        assert _luggage(opened) == expected and set(expected) == {"brief.txt", "data.bin"}
        opened.verify()
    assert stream.closed  # closed by the `with` above, not before
    with open(path, "rb") as f:
        with open_pack(f):
            pass
        assert not f.closed  # closing the pack leaves the caller's stream open


def test_a_hostile_stream_is_refused_as_the_file_is(tmp_path: Path) -> None:
    evil = hostile_zips.bag_zip([*hostile_zips.LUGGAGE, ("data/files/../../x", b"escaped\n")])
    (tmp_path / "evil.taskpack").write_bytes(evil)
    with pytest.raises(UnsafeEntry) as from_path:
        open_pack(tmp_path / "evil.taskpack")
    with pytest.raises(UnsafeEntry) as from_stream:
        open_pack(io.BytesIO(evil), name="evil.taskpack")
    assert from_stream.value.message == from_path.value.message
    assert list(tmp_path.iterdir()) == [tmp_path / "evil.taskpack"]  # nothing written


@pytest.mark.parametrize("encoding", ["bag", "flat"])
def test_the_judge_reads_a_stream(packs: dict[str, Path], encoding: str) -> None:
    path = packs[encoding]
    on_disk = judge(path).to_data()
    streamed = judge(io.BytesIO(path.read_bytes()), name=path.name).to_data()
    assert streamed["path"] == path.name
    assert {**streamed, "path": None} == {**on_disk, "path": None}
    broken = judge(io.BytesIO(b'{"taskpack": "0.1", "passport": 5}'), name="reply.json")
    assert broken.failed() == ["C2"] and broken.path == "reply.json"


def test_the_desk_lands_a_stream_without_a_file(packs: dict[str, Path], tmp_path: Path) -> None:
    receiver = Desk(tmp_path / "b", "machine-b")
    raw = packs["flat"].read_bytes()
    rv = receiver.review(io.BytesIO(raw), name="from-a2a.taskpack.json")
    landed = receiver.land(io.BytesIO(raw), name="from-a2a.taskpack.json", expect=None, review=rv)
    assert not landed.already and landed.passport.passport.title == "Invoice export"
    assert sorted(x.name for x in receiver.luggage(landed.id)) == ["brief.txt", "data.bin"]
    [entry] = [h for h in receiver.history(landed.id) if h.event == "landed"]
    assert entry.detail["file"] == "from-a2a.taskpack.json"
    again = receiver.land(io.BytesIO(packs["bag"].read_bytes()), name="again.taskpack", expect=None)
    assert again.already and again.id == landed.id  # the same content, the other encoding
    receiver.close()


def _three_stored_files(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    import os

    from taskpack.core.format.streams import CHUNK

    desk = Desk(tmp_path / "a", "machine-a")
    lp = desk.new("Big luggage", "three stored files")
    blobs = {f"f{n}.bin": os.urandom(3 * CHUNK + 1234 * n) for n in range(3)}
    for name, data in blobs.items():
        (tmp_path / name).write_bytes(data)
    desk.attach(lp.id, [tmp_path / name for name in blobs])
    bag = desk.pack(lp.id, tmp_path / "h.taskpack").path
    desk.close()
    return bag, blobs


@pytest.fixture(params=["read here", "read ahead"])
def read_ahead(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Each pass twice: each file read on the caller's thread and hashed on another, and
    (above `streams.READ_AHEAD_BYTES`, lowered here to a chunk) read and hashed on a
    thread of its own and handed to the caller in order."""
    from taskpack.core.format import streams

    ahead = request.param == "read ahead"
    monkeypatch.setattr(streams, "READ_AHEAD_BYTES", streams.CHUNK if ahead else 1 << 62)
    return ahead


def test_a_pass_over_stored_luggage_hands_on_every_byte_and_finds_the_damaged_file(
    tmp_path: Path, read_ahead: bool
) -> None:
    """The one pass (judge, first contact, verify) reads a stored entry into a few reused
    buffers, hashed on a thread of their own: every byte must reach the caller as it is
    in the file, each file must be checked against its own digest, and a damaged file
    must be told without starving the files after it of buffers."""
    import hashlib

    from taskpack.core.errors import PackError
    from taskpack.core.format.streams import CHUNK

    bag, blobs = _three_stored_files(tmp_path)
    raw = bytearray(bag.read_bytes())
    at = raw.find(blobs["f1.bin"][CHUNK : CHUNK + 64])  # inside f1's second chunk: stored
    assert at > 0
    raw[at] ^= 0xFF
    bag.write_bytes(bytes(raw))

    seen: dict[str, hashlib._Hash] = {}
    damaged: list[tuple[str, PackError]] = []
    with open_pack(bag) as o:
        o.stream_luggage(
            lambda item, chunk: seen.setdefault(item.name, hashlib.sha256()).update(chunk),
            on_error=lambda item, exc: damaged.append((item.name, exc)),
        )
    for name in ("f0.bin", "f2.bin"):
        assert seen[name].hexdigest() == hashlib.sha256(blobs[name]).hexdigest(), name
    assert [(n, type(e).__name__) for n, e in damaged] == [("f1.bin", "IntegrityError")]
    assert "f1.bin" in damaged[0][1].message
    assert "CRC-32" in damaged[0][1].message  # the zip's own check comes first, as before
    threads = {t.name for t in __import__("threading").enumerate()}
    assert "read-sha256" not in threads  # no reading thread outlives its file


def test_luggage_cut_short_while_it_is_read_is_told_after_the_bytes_before_it(
    tmp_path: Path, read_ahead: bool
) -> None:
    """Another process truncates the pack after it was opened (the judge of a file in a
    shared folder): the pass reports the file that lost its end, in order, and neither
    hangs nor raises anything but the pack's own error."""
    from taskpack.core.errors import PackError
    from taskpack.core.format.streams import CHUNK

    bag, blobs = _three_stored_files(tmp_path)
    raw = bag.read_bytes()
    start = raw.find(blobs["f1.bin"][:64])
    cut = start + 2 * CHUNK + 4321  # inside f1's third chunk
    assert 0 < start < cut
    seen: dict[str, bytearray] = {}
    damaged: list[tuple[str, PackError]] = []
    with open_pack(bag) as o:
        with open(bag, "r+b") as f:
            f.truncate(cut)
        o.stream_luggage(
            lambda item, chunk: seen.setdefault(item.name, bytearray()).extend(chunk),
            on_error=lambda item, exc: damaged.append((item.name, exc)),
        )
    assert seen["f0.bin"] == blobs["f0.bin"]
    assert seen["f1.bin"] == blobs["f1.bin"][: cut - start]  # every byte up to the cut
    names = [n for n, _e in damaged]
    assert names == ["f1.bin", "f2.bin"], names  # f2 lies wholly past the cut
    assert all("shorter than it declares" in e.message for _n, e in damaged)


def test_a_pass_stopped_by_its_caller_stops_reading(tmp_path: Path, read_ahead: bool) -> None:
    """A caller that raises on a chunk (a scan that gave up, a cancel) gets its own
    error back at once, and no thread goes on reading the pack."""
    import threading

    bag, _blobs = _three_stored_files(tmp_path)

    class Enough(Exception):
        pass

    calls = 0

    def on_chunk(item: object, chunk: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Enough

    with open_pack(bag) as o, pytest.raises(Enough):
        o.stream_luggage(on_chunk)
    assert calls == 2
    assert "read-sha256" not in {t.name for t in threading.enumerate()}
