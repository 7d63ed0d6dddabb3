"""The landing review (`core/desk/review.py`): it lands nothing; and a review that is also
judged (`review(judge_up_to=…)`) carries the strict judge's report from its own pass over
the luggage, exactly what `judge` says of the same file, check by check and reason by reason."""

from __future__ import annotations

import base64
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from desk_machines import Machine, _handoff
from taskpack.core.desk import review
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.format import bag as bagmod
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.read_once import read_once
from taskpack.core.format.streams import CHUNK
from taskpack.core.trust.conformance import judge
from test_conformance import _DELETE, BASE, raw_pack, variant

KEY = (
    b"-----BEGIN OPENSSH PRIVATE KEY-----\n"
    b"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    b"-----END OPENSSH PRIVATE KEY-----\n"
)
CHAT = json.dumps(
    [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
).encode()


def reviewed(store: SqliteStore, path: Path, judge_up_to: int | None = 1 << 30) -> Any:
    return read_once(
        path,
        None,
        lambda opened: review.review(
            store, opened, machine="zhang-pc", judge_up_to=judge_up_to, stage=True
        ),
    )


def packs(tmp_path: Path) -> list[Path]:
    """Packs that land (the strict reader takes them) but that the judge fails, each for
    something else — and one it passes."""
    out: list[Path] = []
    n = 0

    def add(data: dict[str, Any], suffix: str, luggage: list[LuggageSource] | None = None) -> None:
        nonlocal n
        n += 1
        out.append(raw_pack(tmp_path, data, f"p{n}{suffix}", luggage))

    boundary = bytes(range(256)) * (CHUNK // 256)
    for suffix in (".taskpack", ".taskpack.json"):
        add(BASE, suffix)
        add(variant(spec=_DELETE), suffix)
        add(variant(kind=_DELETE), suffix)
        add(variant(lineage=_DELETE), suffix)
        add(variant(asks__0__accept=_DELETE), suffix)
        add(variant(passport__facts__1={"claim": "it runs", "verified": True}), suffix)
        add(variant(note="deploy key ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"), suffix)
        add(variant(packed_at="sometime tuesday"), suffix)
        # a private key across a chunk boundary of the luggage, a transcript, plain text
        key_split = boundary[: -len(KEY) // 2] + KEY + boundary
        add(BASE, suffix, [LuggageSource.from_bytes("dump.bin", key_split)])
        add(BASE, suffix, [LuggageSource.from_bytes("chat.json", CHAT)])
        add(
            BASE,
            suffix,
            [
                LuggageSource.from_bytes("notes.txt", "ünïcode notes\n".encode() * 30_000),
                LuggageSource.from_bytes("raw.bin", bytes(range(256)) * 2_000),
            ],
        )
    # the flat form's text rule (C9) and an attachment without a digest (C0, C9)
    wrong_encoding = raw_pack(tmp_path, BASE, "enc.taskpack.json")
    doc = json.loads(wrong_encoding.read_text())
    att = doc["attachments"][0]
    att["encoding"], att["data"] = "base64", base64.b64encode(att["data"].encode()).decode()
    wrong_encoding.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    no_sha = raw_pack(tmp_path, BASE, "nosha.taskpack.json")
    doc = json.loads(no_sha.read_text())
    del doc["attachments"][0]["sha256"]
    no_sha.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    # a bag zipped inside a folder (C0), and one whose passport.json is not canonical (C9)
    nested = tmp_path / "nested.taskpack"
    with zipfile.ZipFile(out[0]) as src, zipfile.ZipFile(nested, "w") as dst:
        for info in src.infolist():
            dst.writestr("bag/" + info.filename, src.read(info))
    compact = tmp_path / "compact.taskpack"
    with open(compact, "wb") as fp:
        bagmod.write_bag(
            fp,
            BASE,
            json.dumps(BASE, separators=(",", ":")).encode(),
            [LuggageSource.from_bytes("sample.csv", b"id;total\n1;10.00\n")],
        )
    return [*out, wrong_encoding, no_sha, nested, compact]


def test_a_judged_review_says_what_the_judge_says(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "desk")
    failed: set[str] = set()
    for path in packs(tmp_path):
        expected = judge(path)
        rv = reviewed(store, path)
        assert rv.conformance is not None, path.name
        assert rv.conformance.to_data() == expected.to_data(), path.name
        assert rv.conformance.damage == expected.damage == []
        failed |= set(expected.failed())
    # the packs above fail every check a landable pack can fail (so the comparison bites)
    assert failed == {"C0", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"}


@pytest.mark.parametrize("suffix", [".taskpack", ".taskpack.json"])
def test_a_secret_across_a_chunk_boundary_is_in_both_the_review_and_the_report(
    tmp_path: Path, suffix: str
) -> None:
    store = SqliteStore(tmp_path / "desk")
    blob = bytes(range(256)) * (CHUNK // 256)
    blob = blob[: -len(KEY) // 2] + KEY + blob
    path = raw_pack(tmp_path, BASE, "key" + suffix, [LuggageSource.from_bytes("dump.bin", blob)])
    rv = reviewed(store, path)
    assert [f.rule for f in rv.secrets] == ["credential"]
    assert rv.conformance is not None and rv.conformance.failed() == ["C7"]
    c7 = next(c for c in rv.conformance.checks if c.id == "C7")
    assert "dump.bin" in c7.reasons[0] and "b3BlbnNz" not in " ".join(c7.reasons)
    assert rv.staged == []  # a pack carrying a secret keeps nothing staged


def test_a_review_is_judged_only_within_its_bound(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "desk")
    path = raw_pack(tmp_path, BASE, "p.taskpack")  # 17 bytes of luggage
    assert reviewed(store, path, judge_up_to=None).conformance is None
    assert reviewed(store, path, judge_up_to=16).conformance is None
    judged = reviewed(store, path, judge_up_to=17).conformance
    assert judged is not None and judged.conformant


def test_review_lands_nothing(world: dict[str, Machine], tmp_path: Path) -> None:
    _, path = _handoff(world, tmp_path)
    b = world["B"]
    rv = b.review(path)
    assert b.store.count() == 0
    assert rv.kind == "handoff" and rv.initial_state == "routed"
    assert rv.next_steps[0].startswith("Landing check (required)")
    facts = {f.claim: f for f in rv.facts}
    assert facts["the build passes"].verified is False
    assert rv.sealed == []  # our packs arrive already sealed; nothing to repair
    assert rv.to_data()["luggage"][0]["name"] == "brief.txt"
    json.dumps(rv.to_data())  # JSON-ready for --json and the GUI
