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
    landed = receiver.accept(io.BytesIO(raw), name="from-a2a.taskpack.json", review=rv)
    assert not landed.already and landed.passport.passport.title == "Invoice export"
    assert sorted(x.name for x in receiver.luggage(landed.id)) == ["brief.txt", "data.bin"]
    [entry] = [h for h in receiver.history(landed.id) if h.event == "landed"]
    assert entry.detail["file"] == "from-a2a.taskpack.json"
    again = receiver.accept(io.BytesIO(packs["bag"].read_bytes()), name="again.taskpack")
    assert again.already and again.id == landed.id  # the same content, the other encoding
    receiver.close()


def test_a_pass_over_stored_luggage_hands_on_every_byte_and_finds_the_damaged_file(
    tmp_path: Path,
) -> None:
    """The one pass (judge, first contact, verify) reads a stored entry into a few reused
    buffers while another thread hashes them: every byte must reach the caller as it is
    in the file, each file must be checked against its own digest, and a damaged file
    must be told without starving the files after it of buffers."""
    import hashlib
    import os

    from taskpack.core.errors import PackError
    from taskpack.core.format.streams import CHUNK

    desk = Desk(tmp_path / "a", "machine-a")
    lp = desk.new("Big luggage", "three stored files")
    blobs = {f"f{n}.bin": os.urandom(3 * CHUNK + 1234 * n) for n in range(3)}
    for name, data in blobs.items():
        (tmp_path / name).write_bytes(data)
    desk.attach(lp.id, [tmp_path / name for name in blobs])
    bag = desk.pack(lp.id, tmp_path / "h.taskpack").path
    desk.close()
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
