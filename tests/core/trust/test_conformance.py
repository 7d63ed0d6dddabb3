"""The judge: a conformant pack passes all eleven checks; a wrong pack for each check
fails exactly that check (spec §6: a suite whose checks cannot go red proves nothing)."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from taskpack.core.format import bag as bagmod
from taskpack.core.format.canonical import json_bytes
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.conformance import Unreadable, judge
from taskpack.core.trust.pack_writer import make_pack

BASE: dict[str, Any] = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": "lin@acme", "machine": "lin-laptop", "harness": "claude-code"},
    "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 3, "chain": ["TP-G6RZ-DS3B@3"]},
    "note": "the invoice export half works",
    "passport": {
        "id": "TP-G6RZ-DS3B",
        "title": "Invoice export",
        "goal": "Export invoices as CSV for the customer",
        "version": 3,
        "current_state": "The exporter writes rows; totals are wrong for credit notes.",
        "facts": [
            {"claim": "The customer wants semicolons", "scope": "universal", "verified": True},
            {
                "claim": "python 3.12 is installed",
                "scope": "machine",
                "verified": False,
                "needs_reverify": True,
                "verified_on": "lin-laptop",
            },
        ],
        "decisions": [{"what": "CSV, not XLSX", "why": "their ERP imports CSV"}],
        "next_steps": ["fix credit note totals"],
    },
    "asks": [
        {
            "id": "a1",
            "to": "peer",
            "what": "Which VAT rate applies to credit notes?",
            "why": "totals depend on it",
            "accept": "a rate in percent with a source",
            "status": "open",
            "answer": None,
        }
    ],
    "landing_checks": [
        {"id": "c1", "check": "the exporter runs here", "how": "make export", "required": True}
    ],
}
LUGGAGE = [LuggageSource.from_bytes("sample.csv", b"id;total\n1;10.00\n")]


def raw_pack(
    tmp_path: Path,
    data: dict[str, Any],
    name: str = "p.taskpack",
    luggage: list[LuggageSource] | None = None,
) -> Path:
    """Write bytes as given, WITHOUT the chokepoint (no sealing, no refusals)."""
    out = tmp_path / name
    write_pack(
        data,
        LUGGAGE if luggage is None else luggage,
        out,
        encoding="flat" if name.endswith(".json") else "bag",
    )
    return out


def variant(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    for dotted, value in changes.items():
        *path, last = dotted.split("__")
        target = data
        for key in path:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is _DELETE:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return data


_DELETE = object()


@pytest.mark.parametrize("name", ["ok.taskpack", "ok.taskpack.json"])
def test_our_own_pack_passes_all_eleven(tmp_path: Path, name: str) -> None:
    out = make_pack(
        PackObject.from_data(copy.deepcopy(BASE)), LUGGAGE, tmp_path / name, machine="lin-laptop"
    )
    report = judge(out.path)
    assert [c.id for c in report.checks] == [f"C{i}" for i in range(11)]
    assert report.conformant, report.to_data()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (variant(spec=_DELETE), {"C0"}),
        (variant(kind="transfer"), {"C3"}),
        (variant(kind=_DELETE), {"C3"}),
        (variant(lineage__from_version=None), {"C4"}),
        (variant(lineage__from_version="3"), {"C4"}),
        (variant(lineage__root_id=""), {"C4"}),
        (variant(lineage=_DELETE), {"C4"}),
        (variant(asks__0__accept=_DELETE), {"C5"}),
        (variant(asks__0__accept="  "), {"C5"}),
        # a machine fact still wearing a ✓: landing would have to repair it, so C0 fails too
        (
            variant(
                passport__facts__1={
                    "claim": "port 8080 is free",
                    "scope": "machine",
                    "verified": True,
                }
            ),
            {"C0", "C6"},
        ),
        # no scope counts as machine (the reference's C6 passes this)
        (variant(passport__facts__1={"claim": "it runs", "verified": True}), {"C0", "C6"}),
        (variant(note="deploy key ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"), {"C7"}),
        (
            variant(
                passport__current_state="User: can you fix it?\nAssistant: sure, here is the fix"
            ),
            {"C8"},
        ),
        (variant(packed_at=_DELETE), {"C10"}),
        (variant(packed_at="sometime tuesday"), {"C10"}),
    ],
)
@pytest.mark.parametrize("suffix", [".taskpack", ".taskpack.json"])
def test_each_wrong_pack_fails_exactly_its_check(
    tmp_path: Path, data: dict[str, Any], expected: set[str], suffix: str
) -> None:
    report = judge(raw_pack(tmp_path, data, "wrong" + suffix))
    assert set(report.failed()) == expected, report.to_data()
    assert not report.conformant


def test_c7_scans_luggage_too(tmp_path: Path) -> None:
    key = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"
    blob = bytes(range(256)) * 50_000 + key + bytes(range(256)) * 10
    report = judge(raw_pack(tmp_path, BASE, luggage=[LuggageSource.from_bytes("dump.bin", blob)]))
    assert report.failed() == ["C7"]
    c7 = next(c for c in report.checks if c.id == "C7")
    assert "dump.bin" in c7.reasons[0] and "b3BlbnNz" not in " ".join(c7.reasons)


def test_c8_scans_luggage_too(tmp_path: Path) -> None:
    chat = json.dumps(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    ).encode()
    report = judge(raw_pack(tmp_path, BASE, luggage=[LuggageSource.from_bytes("chat.json", chat)]))
    assert report.failed() == ["C8"]


def test_c1_manifest_that_lies(tmp_path: Path) -> None:
    # a source that claims (falsely) to have verified its digest: the writer trusts it
    # for large entries, so the manifest carries a digest the bytes do not have
    data = bytes(range(256)) * 8192
    wrong = LuggageSource(
        name="sample.bin",
        size=len(data),
        opener=lambda: io.BytesIO(data),
        sha256="0" * 64,
        verified_stream=True,
    )
    report = judge(raw_pack(tmp_path, BASE, luggage=[wrong]))
    assert report.failed() == ["C1"]


def test_c1_flat_attachment_sha_that_lies(tmp_path: Path) -> None:
    path = raw_pack(tmp_path, BASE, "p.taskpack.json")
    text = path.read_text()
    real = json.loads(text)["attachments"][0]["sha256"]
    path.write_text(text.replace(real, "f" * 64))
    assert judge(path).failed() == ["C1"]


def test_c2_unparsable_pack_object(tmp_path: Path) -> None:
    out = tmp_path / "p.taskpack"
    with open(out, "wb") as fp:
        bagmod.write_bag(fp, BASE, b'{"spec": "task-passport-bag/0.1", ', [])
    report = judge(out)
    assert report.failed() == ["C2"]
    assert all(c.ok is None for c in report.checks if c.id != "C2")
    assert not report.conformant


def test_c0_bag_zipped_inside_a_folder(tmp_path: Path) -> None:
    good = raw_pack(tmp_path, BASE)
    nested = tmp_path / "nested.taskpack"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(nested, "w") as dst:
        for info in src.infolist():
            dst.writestr("bag/" + info.filename, src.read(info))
    report = judge(nested)
    assert report.failed() == ["C0"]


def test_c0_and_c9_flat_attachment_without_sha(tmp_path: Path) -> None:
    path = raw_pack(tmp_path, BASE, "p.taskpack.json")
    doc = json.loads(path.read_text())
    del doc["attachments"][0]["sha256"]
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    assert set(judge(path).failed()) == {"C0", "C9"}


def test_c9_non_canonical_passport_json(tmp_path: Path) -> None:
    out = tmp_path / "p.taskpack"
    with open(out, "wb") as fp:
        bagmod.write_bag(fp, BASE, json.dumps(BASE, separators=(",", ":")).encode(), LUGGAGE)
    assert judge(out).failed() == ["C9"]


def test_c9_flat_attachment_in_the_wrong_encoding(tmp_path: Path) -> None:
    path = raw_pack(tmp_path, BASE, "p.taskpack.json")
    doc = json.loads(path.read_text())
    import base64

    att = doc["attachments"][0]
    att["encoding"], att["data"] = "base64", base64.b64encode(att["data"].encode()).decode()
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    assert judge(path).failed() == ["C9"]


def test_the_judge_repairs_nothing(tmp_path: Path) -> None:
    """Strict judging (C0): the file is judged as written, and the file is not changed."""
    path = raw_pack(
        tmp_path,
        variant(passport__facts__1={"claim": "it runs", "scope": "machine", "verified": True}),
    )
    before = path.read_bytes()
    judge(path)
    assert path.read_bytes() == before


def test_unreadable_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.taskpack"
    junk.write_bytes(b"this is not a pack at all")
    with pytest.raises(Unreadable):
        judge(junk)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args], capture_output=True, text=True
    )


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = make_pack(
        PackObject.from_data(copy.deepcopy(BASE)), LUGGAGE, tmp_path / "g.taskpack", machine="m"
    ).path
    bad = raw_pack(tmp_path, variant(kind="transfer"), "b.taskpack")
    junk = tmp_path / "j.taskpack"
    junk.write_bytes(b"\x00" * 100)
    r = run_cli("conformance", str(good))
    assert r.returncode == 0 and "conformant (11/11" in r.stdout
    r = run_cli("conformance", str(bad), "--json")
    assert r.returncode == 2
    doc = json.loads(r.stdout)
    assert doc["conformant"] is False and [c["id"] for c in doc["checks"] if c["ok"] is False] == [
        "C3"
    ]
    r = run_cli("conformance", str(junk))
    assert (
        r.returncode == 1
        and "Traceback" not in r.stderr
        and len(r.stderr.strip().splitlines()) == 1
    )


def test_reference_style_pack_is_judged_on_entries(tmp_path: Path) -> None:
    """A bag written by another zip writer (different timestamps, all deflated) but with
    the same entries passes C9: the judge compares what the bag carries."""
    ours = make_pack(
        PackObject.from_data(copy.deepcopy(BASE)), LUGGAGE, tmp_path / "o.taskpack", machine="m"
    ).path
    other = tmp_path / "other.taskpack"
    with zipfile.ZipFile(ours) as src, zipfile.ZipFile(other, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(
                zipfile.ZipInfo(info.filename, date_time=(2025, 1, 2, 3, 4, 6)), src.read(info)
            )
    assert judge(other).conformant
    assert json_bytes(BASE)  # canonical text exists for the base pack
