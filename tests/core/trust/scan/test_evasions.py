"""Hiding a secret from the luggage scanner: each way a sender
could wrap a token so the old scanner missed it, and the bounds that keep looking inside
cheap. Every secret is generated at run time (tests/core/trust/test_refusals.make_secret)."""

from __future__ import annotations

import bz2
import copy
import gzip
import io
import lzma
import random
import struct
import subprocess
import sys
import tarfile
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest
from taskpack.core.errors import Finding, Refused
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.conformance import judge
from taskpack.core.trust.pack_writer import make_pack
from taskpack.core.trust.refusals import LuggageScan, StreamScanner, scan_luggage_stream
from taskpack.core.trust.scan import archives
from test_conformance import BASE
from test_refusals import make_secret

SECRET = make_secret("github-ghp").encode()
LINE = b"\n" + SECRET + b"\n"


def _scan(blob: bytes, name: str, chunk: int = 997) -> list[Finding]:
    return scan_luggage_stream(name, io.BytesIO(blob), chunk_size=chunk)


def _places(found: list[Finding]) -> list[str]:
    return [f.place.split(" @")[0] for f in found]


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def _logs(n: int, seed: int) -> bytes:
    """A repetitive log of about `n` bytes: compresses ~100x, as real logs do."""
    rng = random.Random(seed)
    lines = [
        b"2026-12-01T10:%02d:%02dZ INFO worker-%d job done in %d ms\n"
        % (rng.randrange(60), rng.randrange(60), rng.randrange(4), rng.randrange(999))
        for _ in range(64)
    ]
    block = b"".join(lines)
    return (block * (n // len(block) + 1))[:n]


# --- item 2: the inflater no longer doubles its leftovers; the scan reaches the end -----------


def _varied_log(n: int, seed: int) -> bytes:
    """A log that compresses about 3x, as an ordinary one does: 128 KiB of varied lines,
    tiled (deflate sees back 32 KiB only, so the tiling does not help it)."""
    rng = random.Random(seed)
    out, size = [], 0
    while size < 128 * 1024:
        line = b"%08x req=%d user=%d took %d ms path=/api/v1/items/%d\n" % (
            rng.getrandbits(32),
            rng.randrange(10**6),
            rng.randrange(5000),
            rng.randrange(2000),
            rng.randrange(10**5),
        )
        out.append(line)
        size += len(line)
    block = b"".join(out)
    return (block * (n // len(block) + 1))[:n]


def test_a_token_in_member_10_of_an_ordinary_zip_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Members bigger than one inflate step: each member end used to double the buffer
    (unused_data and unconsumed_tail are the same bytes) and lose the thread."""
    monkeypatch.setattr(archives, "MAX_INSIDE_SECONDS", 1e9)  # bytes decide here, not load
    members = {f"log{i:02d}.txt": _varied_log(3 << 19, i) for i in range(1, 13)}
    members["log10.txt"] = members["log10.txt"][: 1 << 20] + LINE + members["log10.txt"][1 << 20 :]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, data in members.items():
            z.writestr(name, data)
    blob = out.getvalue()
    assert SECRET not in blob and len(blob) > 4 << 20
    for chunk in (4 << 20, 4093):
        assert _places(_scan(blob, "files/logs.zip", chunk)) == ["files/logs.zip!/log10.txt"]


def test_forty_repetitive_logs_are_read_to_the_end_in_bounded_memory(tmp_path: Path) -> None:
    """The 205 KB zip of 40 repetitive 2 MiB logs: 3 GB and a MemoryError before. Run in
    a child process under a 1.5 GB address-space limit, with tokens in members 10 and 40."""
    members = {f"log{i:02d}.txt": _logs(2 << 20, i) for i in range(1, 41)}
    for i in (10, 40):
        name = f"log{i:02d}.txt"
        members[name] = members[name][: 1 << 20] + LINE + members[name][1 << 20 :]
    blob = _zip(members)
    assert len(blob) < 1 << 20
    path = tmp_path / "logs.zip"
    path.write_bytes(blob)
    code = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
        from taskpack.core.trust.scan import archives
        archives.MAX_INSIDE_SECONDS = 1e9  # the bytes bound decides here, not the machine's load
        from taskpack.core.trust.refusals import scan_luggage_stream
        with open({str(path)!r}, "rb") as f:
            found = scan_luggage_stream("files/logs.zip", f)
        print("|".join(x.place.split(" @")[0] for x in found))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["files/logs.zip!/log10.txt|files/logs.zip!/log40.txt"]


# --- item 3: the evasions ---------------------------------------------------------------------


def _gz(data: bytes, times: int = 1) -> bytes:
    for _ in range(times):
        data = gzip.compress(data)
    return data


def _stored_with_descriptor(members: dict[str, bytes]) -> bytes:
    """A zip written to a pipe with stored members: sizes only in descriptors."""

    class Pipe(io.RawIOBase):
        def __init__(self) -> None:
            self.data = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b: object) -> int:
            self.data += b  # type: ignore[operator]
            return len(b)  # type: ignore[arg-type]

    out = Pipe()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as z:
        for name, data in members.items():
            with z.open(name, "w") as member:
                member.write(data)
    return bytes(out.data)


def _tar(members: dict[str, bytes], mode: str = "w") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as t:  # type: ignore[call-overload]
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


EVASIONS: dict[str, tuple[bytes, str]] = {
    "zip in zip in zip": (
        _zip({"b.zip": _zip({"c.zip": _zip({"d.txt": LINE})})}),
        "files/x!/b.zip!/c.zip!/d.txt",
    ),
    "gzip of gzip of gzip": (_gz(b"notes" + LINE, 3), "files/x (inflated) (inflated) (inflated)"),
    "bzip2": (bz2.compress(b"notes" + LINE), "files/x (inflated)"),
    "two bzip2 streams": (bz2.compress(b"a\n") + bz2.compress(LINE), "files/x (inflated)"),
    "xz": (lzma.compress(b"notes\n" * 200 + LINE), "files/x (inflated)"),
    "lzma alone": (lzma.compress(b"notes" + LINE, format=lzma.FORMAT_ALONE), "files/x (inflated)"),
    "zlib stream": (zlib.compress(b"notes" + LINE), "files/x (inflated)"),
    "zip member bzip2": (_zip({"a.txt": LINE}, zipfile.ZIP_BZIP2), "files/x!/a.txt"),
    "zip member lzma": (_zip({"a.txt": LINE}, zipfile.ZIP_LZMA), "files/x!/a.txt"),
    "one byte before a zip": (b"\0" + _zip({"a.txt": LINE}), "files/x!/a.txt"),
    "a self-extractor stub before a zip": (
        b"MZ" + random.Random(1).randbytes(40_000) + _zip({"a.txt": LINE}),
        "files/x!/a.txt",
    ),
    "a member after a stored entry with a descriptor": (
        _stored_with_descriptor({"a.bin": b"PK\x07\x08 decoy" * 50, "b.gz": _gz(LINE)}),
        "files/x!/b.gz (inflated)",
    ),
    "tar": (_tar({"a/b.gz": _gz(LINE)}), "files/x!/a/b.gz (inflated)"),
    # a tar holds its members verbatim: found in the tar's bytes and in the member
    "tar.gz": (_gz(_tar({"notes.txt": LINE})), "files/x (inflated)|files/x (inflated)!/notes.txt"),
    "UTF-16 with a BOM": (("notes" + LINE.decode()).encode("utf-16"), "files/x (UTF-16 text)"),
    "UTF-16-BE without a BOM": (
        ("notes" + LINE.decode()).encode("utf-16-be"),
        "files/x (UTF-16 text)",
    ),
    "UTF-32 with a BOM": (("notes" + LINE.decode()).encode("utf-32"), "files/x (UTF-32 text)"),
    "UTF-32-LE without a BOM": (
        ("notes" + LINE.decode()).encode("utf-32-le"),
        "files/x (UTF-32 text)",
    ),
    "UTF-16 inside a gzip inside a zip": (
        _zip({"n.gz": _gz(("notes" + LINE.decode()).encode("utf-16-le"))}),
        "files/x!/n.gz (inflated) (UTF-16 text)",
    ),
}


@pytest.mark.parametrize("case", sorted(EVASIONS))
def test_a_wrapped_secret_is_found(case: str) -> None:
    blob, place = EVASIONS[case]
    assert SECRET not in blob
    for chunk in (1 << 20, 997, 64):
        found = _scan(blob, "files/x", chunk)
        assert {f.kind for f in found} == {"GitHub token"}, (case, chunk, found)
        assert _places(found) == place.split("|")


def test_a_stored_entry_with_a_descriptor_is_read_to_its_end_and_no_further() -> None:
    blob = _stored_with_descriptor(
        {"a.gz": _gz(b"first" + LINE), "b.txt": b"PK\x03\x04 not a header\n" * 100}
    )
    found = _scan(blob, "files/d.zip", 333)
    assert _places(found) == ["files/d.zip!/a.gz (inflated)"]


def _ppk() -> bytes:
    rng = random.Random("ppk")
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    lines = lambda n: "".join("".join(rng.choice(b64) for _ in range(64)) + "\n" for _ in range(n))  # noqa: E731
    return (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20261201\n"
        f"Public-Lines: 2\n{lines(2)}Private-Lines: 1\n{lines(1)}Private-MAC: {'ab' * 32}\n"
    ).encode()


def test_a_putty_key_is_a_credential_also_with_crlf_and_zipped() -> None:
    key = _ppk()
    assert [f.kind for f in _scan(key, "files/id.ppk")] == ["PuTTY private key"]
    assert [f.kind for f in _scan(key.replace(b"\n", b"\r\n"), "files/id.ppk")] == [
        "PuTTY private key"
    ]
    assert _places(_scan(_zip({"id.ppk": key}), "files/k.zip")) == ["files/k.zip!/id.ppk"]
    doc = b"A .ppk file starts with PuTTY-User-Key-File-3: ssh-ed25519 and then..."
    assert _scan(doc, "files/readme.txt") == []


@pytest.mark.parametrize("body", ["MIIBOgIBAAJBAKj3", "QUJD", "MIIB\nOgIB\nAAJB"])
def test_a_complete_pem_block_is_a_key_whatever_its_length(body: str) -> None:
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n".encode()
    assert [f.kind for f in _scan(block, "files/k.pem")] == ["private key block"]
    docs = b"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n"
    assert _scan(docs, "files/readme.md") == []


# --- the judge sees what the writer refuses (one scanner, spec §6) ----------------------------


@pytest.mark.parametrize("case", ["gzip of gzip of gzip", "zip member lzma", "UTF-16 with a BOM"])
def test_the_writer_refuses_and_the_judge_fails_c7(tmp_path: Path, case: str) -> None:
    blob, _ = EVASIONS[case]
    with pytest.raises(Refused) as caught:
        make_pack(
            PackObject.from_data(copy.deepcopy(BASE)),
            [LuggageSource.from_bytes("wrapped.bin", blob)],
            tmp_path / "x.taskpack",
            machine="m",
        )
    assert "wrapped.bin" in str(caught.value) and SECRET.decode() not in str(caught.value)
    # written without the chokepoint: the judge must catch it
    raw = write_pack(
        BASE,
        [LuggageSource.from_bytes("wrapped.bin", blob)],
        tmp_path / "raw.taskpack",
        encoding="bag",
    ).path
    report = judge(raw)
    assert report.failed() == ["C7"], report.to_data()


# --- bounds: per pack, in bytes, streams and time ---------------------------------------------


def test_the_budget_is_per_pack_not_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "MAX_INFLATED_BYTES", 8 << 20)
    monkeypatch.setattr(archives, "INFLATE_PER_LUGGAGE_BYTE", 0)
    bomb = _gz(b"\0" * (6 << 20), 2)  # 6 MiB at the bottom of a gzip of a gzip
    scan = LuggageScan()
    for i in range(20):
        scan.feed(f"files/b{i}.gz", bomb)
    assert scan.finish() == []
    spent = (8 << 20) - scan.budget.left
    assert spent <= 8 << 20 and scan.budget.exhausted  # 20 files shared 8 MiB, not 20 x 8
    alone = StreamScanner("files/one.gz")
    alone.feed(bomb)
    alone.finish()
    assert not alone.budget.exhausted  # one file alone fits: the bound is the pack's


def test_time_spent_inside_archives_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "MAX_INSIDE_SECONDS", 0.0)
    scan = LuggageScan()
    scan.feed("files/a.gz", _gz(b"a\n"))  # the first look is paid for, then time is up
    scan.feed("files/b.gz", _gz(LINE))
    assert scan.finish() == [] and scan.budget.exhausted


def test_streams_opened_per_pack_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "MAX_ARCHIVE_MEMBERS", 50)
    many = _zip({f"m{i}.txt": b"x" for i in range(60)})
    scan = LuggageScan()
    scan.feed("files/a.zip", many)
    scan.feed("files/b.zip", _zip({"late.txt": LINE}))
    assert scan.finish() == [] and scan.budget.exhausted


def test_a_damaged_member_does_not_hide_the_members_after_it() -> None:
    good = _zip({"a.txt": b"x" * 3000, "b.txt": LINE})
    # break a.txt's deflate stream (its size in the header stays right)
    start = 30 + len("a.txt")
    broken = good[:start] + b"\xff" * 8 + good[start + 8 :]
    assert _places(_scan(broken, "files/z.zip")) == ["files/z.zip!/b.txt"]


def test_hostile_zip_headers_end_quietly() -> None:
    header = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0x08, 0, 0, 0, 0, 0, 0, 1, 0)
    blobs = [
        (header + b"a" + b"PK\x07\x08" * 5000) * 3,  # fake descriptors, nothing matches
        b"PK\x03\x04" * 100_000,  # headers everywhere
        header[:20],  # cut short
        _gz(b"PK\x03\x04" * 50_000),
    ]
    for blob in blobs:
        assert _scan(blob, "files/h.zip", 4096) == []
