"""Every secret shape, end to end: refused by the one writing chokepoint (nothing is left
on disk) and flagged by the judge's C7 — in a field, and after the first 10 MiB of a
binary luggage file. The judge uses the writer's patterns, so the two must agree."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from taskpack.core.errors import Refused
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.format.writing import write_pack
from taskpack.core.trust.conformance import judge
from taskpack.core.trust.pack_writer import make_pack
from test_conformance import BASE  # tests/core/trust is on sys.path (pyproject pythonpath)
from test_refusals import SHAPES, make_secret

# 10 MiB of binary before the secret (seeded: the same bytes every run); the secret
# starts after a NUL, as strings sit in binary files. (Glued to a letter, only the
# shapes with short prefixes — sk-, AKIA/ASIA, JWT — are ambiguous; the rest are found
# even then, see test_distinctive_prefixes_are_found_glued_to_other_bytes.)
NOISE = random.Random(20261130).randbytes(10 << 20)


def deep_luggage(secret: str) -> LuggageSource:
    return LuggageSource.from_bytes("dump.bin", NOISE + b"\x00" + secret.encode() + b"\x00tail")


AMBIGUOUS_WHEN_GLUED = {"aws-akia", "aws-asia", "jwt", "openai"}


@pytest.mark.parametrize("name", sorted(set(SHAPES) - AMBIGUOUS_WHEN_GLUED))
def test_distinctive_prefixes_are_found_glued_to_other_bytes(tmp_path: Path, name: str) -> None:
    glued = b"\x93\x07A" + make_secret(name).encode() + b"\x00"
    with pytest.raises(Refused):
        make_pack(
            PackObject.from_data(copy.deepcopy(BASE)),
            [LuggageSource.from_bytes("blob.bin", glued)],
            tmp_path / "x.taskpack",
            machine="m",
        )


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_refused_at_pack_time_deep_in_luggage(tmp_path: Path, name: str) -> None:
    secret = make_secret(name)
    out = tmp_path / "x.taskpack"
    with pytest.raises(Refused) as caught:
        make_pack(
            PackObject.from_data(copy.deepcopy(BASE)), [deep_luggage(secret)], out, machine="m"
        )
    message = str(caught.value)
    assert "dump.bin" in message and "credential" not in secret
    assert secret[-12:] not in message  # named by kind and place, never printed
    assert list(tmp_path.iterdir()) == []  # nothing left behind, not even a temp file


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_refused_at_pack_time_in_a_field(tmp_path: Path, name: str) -> None:
    data = copy.deepcopy(BASE)
    data["passport"]["current_state"] = make_secret(name)
    with pytest.raises(Refused):
        make_pack(PackObject.from_data(data), [], tmp_path / "x.taskpack.json", machine="m")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_flagged_by_c7_deep_in_luggage_and_in_a_field(tmp_path: Path, name: str) -> None:
    secret = make_secret(name)
    # written WITHOUT the chokepoint: the judge must catch what the writer would refuse
    deep = write_pack(BASE, [deep_luggage(secret)], tmp_path / "deep.taskpack", encoding="bag").path
    report = judge(deep)
    assert report.failed() == ["C7"], report.to_data()
    c7 = next(c for c in report.checks if c.id == "C7")
    assert any("dump.bin" in r for r in c7.reasons)
    assert secret[-12:] not in " ".join(c7.reasons)

    data = copy.deepcopy(BASE)
    data["note"] = secret
    field = write_pack(data, [], tmp_path / "field.taskpack.json", encoding="flat").path
    assert judge(field).failed() == ["C7"]
