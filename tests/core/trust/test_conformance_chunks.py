"""The judge's one pass over large luggage: hashing, the CRC and the scan run beside each
other over the same chunks, and a finding or a bad digest is the same wherever a chunk
boundary falls (a secret split across two chunks is still one secret, at its own byte)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from taskpack.core.format.flat import B64_CHUNK
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.streams import CHUNK
from taskpack.core.trust.conformance import judge
from test_conformance import BASE, raw_pack

KEY = (
    b"-----BEGIN OPENSSH PRIVATE KEY-----\n"
    b"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    b"-----END OPENSSH PRIVATE KEY-----\n"
)
FILLER = bytes(range(256))

#: where the judge's chunks of a luggage file end: the bag's reads, the flat form's decoded
#: base64 pieces
BOUNDARY = {".taskpack": CHUNK, ".taskpack.json": B64_CHUNK}


def across(boundary: int, secret: bytes, size: int = 3 * CHUNK) -> tuple[bytes, int]:
    """`size` bytes of filler with `secret` split in half by `boundary`; where it starts."""
    at = boundary - len(secret) // 2
    blob = (FILLER * (size // 256 + 1))[:size]
    return blob[:at] + secret + blob[at + len(secret) :], at


@pytest.mark.parametrize("suffix", [".taskpack", ".taskpack.json"])
@pytest.mark.parametrize("chunks", [1, 2])
def test_a_key_split_across_a_chunk_boundary_is_found_at_its_byte(
    tmp_path: Path, suffix: str, chunks: int
) -> None:
    blob, at = across(chunks * BOUNDARY[suffix], KEY)
    pack = raw_pack(tmp_path, BASE, "p" + suffix, [LuggageSource.from_bytes("dump.bin", blob)])
    report = judge(pack)
    assert report.failed() == ["C7"]
    (reason,) = next(c for c in report.checks if c.id == "C7").reasons
    assert f"dump.bin @ byte {at}" in reason
    assert "b3BlbnNz" not in reason


@pytest.mark.parametrize("suffix", [".taskpack", ".taskpack.json"])
def test_a_transcript_whose_turns_fall_in_two_chunks_is_found(tmp_path: Path, suffix: str) -> None:
    turns = b"\nUser: can you fix the export?\nAssistant: yes, here is the patch\n"
    blob, _ = across(BOUNDARY[suffix], turns)
    pack = raw_pack(tmp_path, BASE, "p" + suffix, [LuggageSource.from_bytes("log.txt", blob)])
    assert judge(pack).failed() == ["C8"]


def test_a_bag_manifest_digest_that_lies_about_a_large_file_fails_c1(tmp_path: Path) -> None:
    blob, _ = across(CHUNK, b"")
    wrong = LuggageSource(
        name="big.bin",
        size=len(blob),
        opener=lambda: io.BytesIO(blob),
        sha256="0" * 64,
        verified_stream=True,  # the writer trusts it: the manifest carries the lie
    )
    report = judge(raw_pack(tmp_path, BASE, luggage=[wrong]))
    assert report.failed() == ["C1"]
    assert any("big.bin" in r for r in next(c for c in report.checks if c.id == "C1").reasons)


def test_a_flat_attachment_digest_that_lies_about_a_large_file_fails_c1(tmp_path: Path) -> None:
    blob, _ = across(B64_CHUNK, b"")
    path = raw_pack(tmp_path, BASE, "p.taskpack.json", [LuggageSource.from_bytes("big.bin", blob)])
    text = path.read_text()
    real = json.loads(text)["attachments"][0]["sha256"]
    path.write_text(text.replace(real, "f" * 64))
    report = judge(path)
    assert report.failed() == ["C1"]


def test_a_byte_changed_at_a_chunk_boundary_of_a_bag_fails_c1(tmp_path: Path) -> None:
    blob = random.Random(7).randbytes(3 * CHUNK)  # incompressible: stored as it is
    path = raw_pack(tmp_path, BASE, luggage=[LuggageSource.from_bytes("big.bin", blob)])
    data = bytearray(path.read_bytes())
    at = data.index(blob[:4096]) + CHUNK
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    report = judge(path)
    assert report.failed() == ["C1"]
    assert report.damage  # a damaged file, not a rule broken
