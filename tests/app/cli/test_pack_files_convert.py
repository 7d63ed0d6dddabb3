"""`taskpack convert` is a pure re-encoding: a conformant pack goes to the
other encoding and back with every entry unchanged, `convert` repairs nothing, and a pack
the judge fails is refused with the reasons unless `--repair` is given, which lists each
repair. Real subprocesses, as a person or an agent runs the command."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path
from typing import Any

from hostile_zips import pack_data
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.conformance import judge

LUGGAGE = {"brief.txt": b"The brief.\n", "chart.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40}


def reference_shaped(tmp_path: Path, data: dict[str, Any]) -> Path:
    """A conformant bag as the reference writes one: its conventions (an org fact that
    carries no `source_actor`), zipped by another zip writer with its own clock — so its
    zip bytes are not ours, only its entries are."""
    ours = write_pack(
        data,
        [LuggageSource.from_bytes(n, b) for n, b in LUGGAGE.items()],
        tmp_path / "ours.taskpack",
        encoding="bag",
    ).path
    ref = tmp_path / "from-reference.taskpack"
    with zipfile.ZipFile(ours) as src, zipfile.ZipFile(ref, "w") as dst:
        for info in src.infolist():
            new = zipfile.ZipInfo(info.filename, date_time=(2026, 11, 30, 17, 42, 8))
            new.compress_type = (
                zipfile.ZIP_DEFLATED if info.filename.endswith(".txt") else zipfile.ZIP_STORED
            )
            dst.writestr(new, src.read(info))
    ours.unlink()
    return ref


def entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def org_fact_pack() -> dict[str, Any]:
    data = pack_data()
    data["passport"]["facts"].append(
        {
            "claim": "invoices are approved by Mia",
            "scope": "org",
            "verified": True,
            "needs_reverify": False,
            "source": "the finance wiki",
        }
    )
    return data


def test_a_conformant_reference_pack_converts_to_flat_and_back_entry_for_entry(
    run_cli, tmp_path: Path
) -> None:
    data = org_fact_pack()
    src = reference_shaped(tmp_path, data)
    assert judge(src).conformant
    flat, back = tmp_path / "out" / "p.taskpack.json", tmp_path / "out" / "p.taskpack"
    r1 = run_cli(["convert", src, "--out", flat])
    assert (r1.returncode, r1.stderr) == (0, ""), r1.stderr
    assert json.loads(flat.read_text(encoding="utf-8"))["passport"] == data  # no source_actor added
    r2 = run_cli(["convert", flat, "--out", back, "--json"])
    assert r2.returncode == 0, r2.stderr
    assert json.loads(r2.stdout)["repairs"] == [] and json.loads(r2.stdout)["sealed"] == []
    before, after = entries(src), entries(back)
    assert list(after) == list(before)  # the same entries, in the same order
    for name in before:  # data/passport.json, bag-info.txt, both manifests, every luggage file
        assert after[name] == before[name], name
    assert judge(back).conformant


def test_convert_refuses_a_pack_the_judge_fails_and_says_why(run_cli, tmp_path: Path) -> None:
    data = pack_data()
    data["passport"]["facts"][1].update(
        verified=True, needs_reverify=False
    )  # a ✓ crossing a machine
    src = write_pack(data, [], tmp_path / "in.taskpack", encoding="bag").path
    r = run_cli(["convert", src, "--out", tmp_path / "out.taskpack.json"])
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith(
        "taskpack: Not converted: the pack is not conformant as written (fails C0, C6)"
    )
    assert "--repair" in lines[0]
    assert (
        "taskpack:   C6: passport.facts[1] is machine-scoped (or has no scope) and still verified"
        in lines
    )
    assert "taskpack:   C0: landing would have to seal passport.facts[1]" in lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.taskpack"]  # nothing written


def test_repair_lists_each_repair_and_writes_a_conformant_pack(run_cli, tmp_path: Path) -> None:
    data = pack_data()
    data["passport"]["facts"][1].update(verified=True, needs_reverify=False)
    src = write_pack(data, [], tmp_path / "in.taskpack", encoding="bag").path
    out = tmp_path / "out.taskpack.json"
    r = run_cli(["convert", src, "--out", out, "--repair"])
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert (
        "taskpack: repaired: C6: passport.facts[1] is machine-scoped (or has no scope) and still verified — repaired"
        in lines
    )
    assert any(
        line.startswith("taskpack: sealed on the way: sealed passport.facts[1]") for line in lines
    ), lines
    assert judge(out).conformant
    fact = json.loads(out.read_text(encoding="utf-8"))["passport"]["passport"]["facts"][1]
    assert (fact["verified"], fact["needs_reverify"], fact["verified_on"]) == (
        False,
        True,
        "ana-laptop",
    )


def test_repair_cannot_fix_what_only_the_sender_can(run_cli, tmp_path: Path) -> None:
    data = copy.deepcopy(pack_data())
    del data["lineage"]
    src = write_pack(data, [], tmp_path / "in.taskpack", encoding="bag").path
    r = run_cli(["convert", src, "--out", tmp_path / "out.taskpack.json", "--repair"])
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(
        "taskpack: Not converted: the pack fails C4, which --repair cannot repair"
    )
    assert "taskpack:   C4: there is no lineage object" in r.stderr.splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.taskpack"]


def test_a_damaged_pack_is_still_called_damaged_not_unconformant(run_cli, tmp_path: Path) -> None:
    from hostile_zips import bag_zip

    src = tmp_path / "in.taskpack"  # the luggage does not match its manifest digest
    src.write_bytes(
        bag_zip([("data/files/a.txt", b"honest\n")], tamper={"data/files/a.txt": b"HONEST\n"})
    )
    r = run_cli(["convert", src, "--out", tmp_path / "out.taskpack.json"])
    assert r.returncode == 1, r.stderr
    assert len(r.stderr.splitlines()) == 1 and "a.txt" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.taskpack"]
