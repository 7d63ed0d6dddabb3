"""Huge numbers and lone surrogates planted at every JSON path of real packs: whatever
the value, the desk answers with its own error or reads the pack.

The seeds are `test_reading_fuzz`'s (a handoff and a receipt, in both encodings). Every
node of each seed's JSON — the flat file's whole document, attachments included, and a
bag's ``data/passport.json`` (its manifests made to agree) — gets in turn a huge number
(past 64 bits, past a file offset, past what a file may be; a number gets each of them),
a string holding a lone surrogate (written as its ``\\ud800`` escape: valid JSON; a
string gets each of them), and, for an object's key, the key with a lone surrogate in it. Each case drives `open_pack` + `verify`, the judge,
landing and `convert` (`test_reading_fuzz.drive`); anything raised outside the error tree
is a failure, named with its path. Deterministic: the same cases every run.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from taskpack.core.desk.sqlite_store import SqliteStore
from test_reading_fuzz import Seeds, _bag, _manifest_for, _nodes, _read_zip, drive, seeds

__all__ = ["seeds"]  # the fixture, shared with test_reading_fuzz

HUGE = [2**63, 2**64, 10**30, 2**62, -(2**63)]
SURROGATES = ["which one? \ud800", "\udfff"]


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _planted(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = copy.deepcopy(doc)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


def _key_planted(doc: Any, path: tuple[Any, ...]) -> Any | None:
    """`doc` with the key at `path` (in an object) given a lone surrogate, in its place."""
    doc = copy.deepcopy(doc)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if not isinstance(parent, dict):
        return None
    items = [(k + "\ud800" if k == path[-1] else k, v) for k, v in parent.items()]
    parent.clear()
    parent.update(items)
    return doc


def cases(name: str, raw: bytes) -> list[tuple[str, bytes]]:
    """(what was planted where, the pack's bytes) for every node of the seed `name`."""
    flat = name.endswith(".json")
    doc = json.loads(raw if flat else dict(_read_zip(raw))["data/passport.json"])
    rng = random.Random(name)  # (only whether the bag's entries are deflated)

    def pack(value: Any) -> bytes:
        text = json.dumps(value, ensure_ascii=True).encode("ascii")
        if flat:
            return text
        files = [(n, text if n == "data/passport.json" else b) for n, b in _read_zip(raw)]
        return _bag(_manifest_for(files), rng)

    out = []
    for i, path in enumerate(p for p in _nodes(doc) if p):
        where = "/".join(map(str, path))
        was = _at(doc, path)
        # in the flat file a number gets every huge number, a string every lone
        # surrogate, any other node one of each, in turn
        # (in a bag, only the pack object is JSON: one of each, in turn, is enough there)
        numbers = HUGE if flat and type(was) is int else [HUGE[i % len(HUGE)]]
        strings = SURROGATES if flat and type(was) is str else [SURROGATES[i % len(SURROGATES)]]
        for value in [*numbers, *strings]:
            out.append((f"{value!r} at {where}", pack(_planted(doc, path, value))))
        keyed = _key_planted(doc, path)
        if keyed is not None:
            out.append((f"a lone surrogate in the key {where}", pack(keyed)))
    return out


@pytest.mark.parametrize(
    "name",
    ["handoff.taskpack.json", "receipt.taskpack.json", "handoff.taskpack", "receipt.taskpack"],
)
def test_no_huge_number_or_lone_surrogate_escapes_the_error_tree(
    name: str, seeds: Seeds, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox, out_dir, cwd = tmp_path / "inbox", tmp_path / "out", tmp_path / "cwd"
    for d in (inbox, out_dir, cwd):
        d.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # durability is not what is fuzzed
    home = tmp_path / "home"
    shutil.copytree(seeds.home, home)
    store = SqliteStore(home)
    findings: dict[str, str] = {}
    try:
        todo = cases(name, seeds.packs[name])
        for planted, raw in todo:
            path = inbox / name
            path.write_bytes(raw)
            for problem in drive(path, store, out_dir, seeds.target):
                key = problem.split(" at ")[-1] + " " + problem.split(":")[0]
                findings.setdefault(key, f"{planted}: {problem}")
            path.unlink()
    finally:
        store.close()
    assert len(todo) > 40  # every node of the seed, not a handful
    assert not findings, f"{len(findings)} kinds of escape in {len(todo)} cases:\n" + "\n".join(
        findings.values()
    )
