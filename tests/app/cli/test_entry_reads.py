"""The judge's verbs (`conformance`, `verify`) as the installed command runs them
(`app/cli/entry.py`, real subprocesses): they read a pack once, and their verdict comes
only from bytes they read and hashed themselves.

Reads are counted by the kernel (`rchar` of /proc/self/io, which takes in every child the
process has reaped), less what the same command reads for a pack without luggage (its
modules, its configuration): what is left is what the pack cost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.pack_writer import make_pack

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/io").exists(), reason="counts reads through /proc/self/io (Linux)"
)

PASSPORT = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-11-30T12:00:00Z",
    "origin": {"actor": "tester", "machine": "test-host", "harness": "pytest"},
    "lineage": {"root_id": "TP-READ-S222", "from_version": 1, "chain": ["TP-READ-S222@1"]},
    "note": "reads",
    "passport": {"id": "TP-READ-S222", "title": "reads", "version": 1, "facts": []},
    "asks": [],
    "landing_checks": [],
}

#: the entry point's own lines, the kernel's read count written where the test says once
#: every exit handler has run (a judging verb leaves through them, without a teardown)
SCRIPT = """
import atexit, sys
where = sys.argv[1]
def told():
    with open("/proc/self/io") as f:
        io = dict(line.split(": ") for line in f.read().splitlines())
    with open(where, "w") as out:
        out.write(io["rchar"])
atexit.register(told)
{before}
from taskpack.app.cli.entry import main
sys.argv = ["taskpack", *sys.argv[2:]]
sys.exit(main())
"""

BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def judge(
    verb: str, pack: Path, tmp_path: Path, before: str = ""
) -> tuple[subprocess.CompletedProcess[str], int]:
    told = tmp_path / "rchar"
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(before=before), str(told), verb, str(pack)],
        capture_output=True,
        text=True,
        timeout=300,
        env=BUFFERED,
    )
    return r, int(told.read_text())


def bag(out: Path, luggage: list[tuple[str, bytes]]) -> Path:
    make_pack(
        PackObject.from_data(json.loads(json.dumps(PASSPORT))),
        [LuggageSource.from_bytes(name, data) for name, data in luggage],
        out,
        machine="test-host",
    )
    return out


@pytest.mark.parametrize("verb", ["conformance", "verify"])
def test_a_judging_verb_reads_the_pack_once(verb: str, tmp_path: Path) -> None:
    big = bag(
        tmp_path / "big.taskpack",
        [("first.bin", os.urandom(24 << 20)), ("second.bin", os.urandom(12 << 20))],
    )
    small = bag(tmp_path / "small.taskpack", [])
    r, read_big = judge(verb, big, tmp_path)
    assert r.returncode == 0, r.stderr
    r, read_small = judge(verb, small, tmp_path)
    assert r.returncode == 0, r.stderr
    size = big.stat().st_size
    ratio = (read_big - read_small) / size
    assert ratio <= 1.15, f"{verb} read {ratio:.2f}× the pack's {size} bytes"


# ---- a pack rewritten while it is judged ------------------------------------------------

KEY = (
    b"\n-----BEGIN RSA PRIVATE KEY-----\n"
    + b"MIIEowIBAAKCAQEAwJ3n1a7Qp4Vt0mXkR8sL2yTzUeHf9bGc6dKjPqWoNvRiYhSx\n" * 4
    + b"-----END RSA PRIVATE KEY-----\n"
)


def crc_tail(head: bytes, target: int) -> bytes:
    """Four bytes that, after `head`, make its CRC-32 `target` (CRC-32 is affine over GF(2)
    in the bits appended: solve for them)."""
    start = zlib.crc32(head)
    base = zlib.crc32(b"\0\0\0\0", start)
    columns = []
    for bit in range(32):
        probe = (1 << bit).to_bytes(4, "little")
        columns.append(zlib.crc32(probe, start) ^ base)
    # Gaussian elimination: rows are (image, preimage) pairs reduced to one bit each
    rows = list(zip(columns, [1 << bit for bit in range(32)], strict=True))
    basis: dict[int, tuple[int, int]] = {}
    for image, pre in rows:
        for pivot, (b_image, b_pre) in basis.items():
            if image >> pivot & 1:
                image, pre = image ^ b_image, pre ^ b_pre
        if image:
            pivot = image.bit_length() - 1
            for other, (o_image, o_pre) in list(basis.items()):
                if o_image >> pivot & 1:
                    basis[other] = (o_image ^ image, o_pre ^ pre)
            basis[pivot] = (image, pre)
    want, x = target ^ base, 0
    for pivot, (image, pre) in basis.items():
        if want >> pivot & 1:
            want, x = want ^ image, x ^ pre
    assert want == 0
    tail = x.to_bytes(4, "little")
    assert zlib.crc32(head + tail) == target
    return tail


#: installed before the command runs: once the judge has read the last byte of `big.bin`
#: (its CRC proven, the verdict on its bytes about to be said), the file gets the bytes
#: its manifest was written for, a private key among them
REWRITE = """
import os
from taskpack.core.format import streams
_finish = streams.VerifyingReader._finish
def _rewritten(self):
    if self._name.endswith("big.bin") and not getattr(streams, "rewritten", False):
        streams.rewritten = True
        fd = os.open({path!r}, os.O_WRONLY)
        try:
            with open({key!r}, "rb") as k:
                os.pwrite(fd, k.read(), {at})
        finally:
            os.close(fd)
    return _finish(self)
streams.VerifyingReader._finish = _rewritten
"""


def test_bytes_written_after_the_judge_read_them_do_not_pass(tmp_path: Path) -> None:
    """The manifest and the CRC are of a private key; the file holds other bytes with the
    same CRC until the judge has read them, then the key. Judged on what it read, the pack
    fails its digest; judged on the key, it fails the credential check: never conformant."""
    filler = os.urandom(16 << 20)
    with_key = filler[: 8 << 20] + KEY + filler[8 << 20 :]
    pack = tmp_path / "raced.taskpack"
    write_pack(
        json.loads(json.dumps(PASSPORT)),
        [LuggageSource.from_bytes("big.bin", with_key)],
        pack,
        encoding="bag",
    )
    with zipfile.ZipFile(pack) as z:
        info = next(i for i in z.infolist() if i.filename.endswith("big.bin"))
        assert info.compress_type == zipfile.ZIP_STORED
        with open(pack, "rb") as f:
            f.seek(info.header_offset + 26)
            lengths = f.read(4)
        at = info.header_offset + 30 + int.from_bytes(lengths[:2], "little")
        at += int.from_bytes(lengths[2:], "little")
    clean = os.urandom(len(with_key) - 4)
    clean += crc_tail(clean, zlib.crc32(with_key))
    with open(pack, "r+b") as f:
        f.seek(at)
        assert f.read(len(with_key)) == with_key
        f.seek(at)
        f.write(clean)
    key = tmp_path / "with-key"
    key.write_bytes(with_key)
    before = REWRITE.format(path=str(pack), key=str(key), at=at)
    for verb in ("conformance", "verify"):
        with open(pack, "r+b") as f:  # the clean bytes back, for the next verb
            f.seek(at)
            f.write(clean)
        r, _ = judge(verb, pack, tmp_path, before=before)
        out = r.stdout + r.stderr
        assert r.returncode != 0, out
        assert "Traceback" not in out
        assert "does not match its sha256" in out, out  # what it read is not the key
        assert " conformant (" not in out.replace("NOT conformant (", "") and "intact" not in out
        with open(pack, "rb") as f:  # and the file did hold the key by the verdict
            f.seek(at)
            assert f.read(len(with_key)) == with_key
