"""A mutation fuzzer over real packs: whatever the bytes, the desk answers with its own error.

Seeds are real packs of both encodings (handoffs and a receipt) written by the desk's
own writer. Each case mutates one seed with a seeded random generator — bit flips,
truncations, splices, byte insertions, JSON value and type swaps (in the flat file and
in a bag's data/passport.json, with every manifest made to agree so the mutation
reaches the pack object), tag file line edits (with the tag manifest agreeing) and zip
header field edits — and drives the public entry points a person's file reaches:
`open_pack` + `verify`, the judge, landing (a handoff lands, a receipt merges into the
passport that asked) and `convert`.

A case fails when anything raises an exception outside `TaskPackError`, or when a file
appears outside the folders the operations were told to write to. Every case is
reproducible from its shard and number (printed with the failure).

    FUZZ_CASES=20000 pytest tests/core/format/test_reading_fuzz.py    # a longer run
"""

from __future__ import annotations

import base64
import copy
import io
import json
import os
import random
import shutil
import struct
import traceback
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hostile_zips import BAGIT, build_zip, entry
from taskpack.core.desk import export, landing
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import TaskPackError
from taskpack.core.format import ids
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import Ask, Fact, LocalPassport, PassportState
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.conformance import judge
from taskpack.core.trust.pack_writer import convert

SHARDS = 8
CASES = int(os.environ.get("FUZZ_CASES", "2400"))  # in all, spread over the shards
SEED = int(os.environ.get("FUZZ_SEED", "20261201"))

# --- seeds: real packs, written by the desk ---------------------------------------------


@dataclass
class Seeds:
    packs: dict[str, bytes]  # seed name → file bytes (name ends in the suffix)
    home: Path  # a store where the handoff's passport exists, for receipts to merge into
    target: str  # the passport id receipts answer


LUGGAGE = [
    ("brief.txt", b"The brief, as written.\nSecond line: caf\xc3\xa9 \xe6\x8a\xa5\xe5\x91\x8a\n"),
    ("data/table.csv", b"a,b\n1,2\n" * 40),
    ("blob.bin", bytes(range(256)) * 3),
    ("empty.txt", b""),
    ("notes/é q.md", b'# notes\n\n\\ " \t tabs and quotes\n'),
]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Seeds:
    root = tmp_path_factory.mktemp("fuzz-seeds")
    a, b = SqliteStore(root / "A"), SqliteStore(root / "B")
    lp = LocalPassport(
        passport=PassportState(
            id=ids.new_id(),
            title="Quarterly report",
            goal="Ship the Q3 report",
            current_state="half written",
            facts=[
                Fact(claim="the build passes", scope="machine", verified=True),
                Fact(claim="the customer wants a PDF", scope="universal", verified=True),
            ],
            next_steps=["write part 2"],
        ),
        asks=[
            Ask(
                id="a1",
                to="peer",
                what="which template?",
                why="",
                accept="a file name",
                status="open",
            )
        ],
        landing_checks=[],
    )
    lp.state, lp.waiting_on = "working", None
    with a.write() as tx:
        tx.insert(lp, event="created")
    files = [LuggageSource.from_bytes(n, d) for n, d in LUGGAGE]
    packs: dict[str, bytes] = {}
    for enc, suffix in (("bag", ".taskpack"), ("flat", ".taskpack.json")):
        out = root / f"handoff{suffix}"
        export.export_passport(
            a,
            lp.id,
            out,
            machine="A",
            actor="ana",
            note="over to you ☕",
            files=files,
            encoding=enc,
        )
        packs[f"handoff{suffix}"] = out.read_bytes()
    with open_pack(root / "handoff.taskpack") as opened:
        landed = landing.land_handoff(b, opened, machine="B", allow=["*"])
    with b.write() as tx:
        got = tx.get(landed.passport.id)
        for ask in got.asks or []:
            ask.status, ask.answer = "answered", "template-b.docx"
        tx.save(got, event="answered")
    for enc, suffix in (("bag", ".taskpack"), ("flat", ".taskpack.json")):
        out = root / f"receipt{suffix}"
        export.export_passport(
            b, landed.passport.id, out, kind="receipt", machine="B", actor="bo", encoding=enc
        )
        packs[f"receipt{suffix}"] = out.read_bytes()
    a.close()
    b.close()
    return Seeds(packs, root / "A", lp.id)


# --- mutations ---------------------------------------------------------------------------

INTERESTING: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    2**64,
    2**70,
    -(2**70),
    1.5,
    1e308,
    -0.0,
    "",
    " ",
    "\u00b2547.1",
    "a\udbffb",
    "\ud800",
    "x\u2028y\u2029z\x85",
    "\x1b[2J\x9b31m",
    "report\u202etxt.exe",
    "../../etc/passwd",
    "/abs",
    "C:\\x",
    "a%25b%0A",
    "TP-AAAA-AAAA@1",
    "handoff",
    "receipt",
    "task-passport-bag/0.1",
    "9" * 5000,
    "x" * 70000,
    [],
    {},
    [None],
    [[]],
    {"": None},
    {"what": True, "accept": 5},
    [{"id": 1}],
    [1, "a", None, {}],
    "2026-13-45T99:99:99Z",
]


def _deep(n: int) -> Any:
    v: Any = []
    for _ in range(n):
        v = [v]
    return v


def interesting(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.08:
        return _deep(rng.choice([10, 63, 64, 65, 200]))
    if r < 0.15:
        return rng.randbytes(rng.randrange(1, 12)).decode("latin-1")
    return copy.deepcopy(rng.choice(INTERESTING))  # never the shared object itself


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if len(path) >= 12:  # deep enough: inside a nest planted by an earlier swap
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def mutate_json(value: Any, rng: random.Random) -> str:
    """One to three swaps somewhere in the tree (a value, a key, a deletion, a duplicate)."""
    for _ in range(rng.randint(1, 3)):
        nodes = [p for p in _nodes(value) if p]
        if not nodes:
            break
        path = rng.choice(nodes)
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        op = rng.random()
        if op < 0.6:
            parent[last] = interesting(rng)
        elif op < 0.75 and isinstance(parent, dict):
            parent[
                rng.choice(
                    ["spec", "kind", "asks", "lineage", "origin", "facts", "passport", "x", ""]
                )
            ] = parent.pop(last)
        elif op < 0.85:
            if isinstance(parent, dict):
                del parent[last]
            else:
                parent.pop(last)
        elif isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[last] = [parent[last]]
    return json.dumps(value, ensure_ascii=rng.random() < 0.3, indent=rng.choice([None, 2]))


def flat_json_swap(raw: bytes, rng: random.Random) -> bytes:
    doc = json.loads(raw)
    if rng.random() < 0.5 and doc.get(
        "attachments"
    ):  # keep attachments honest: aim at the pack object
        doc["passport"] = json.loads(mutate_json({"p": doc["passport"]}, rng)).get("p")
        return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return mutate_json(doc, rng).encode("utf-8", "surrogatepass")


def _read_zip(raw: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def _tag_manifest(d: dict[str, bytes]) -> bytes:
    import hashlib

    return "".join(
        f"{hashlib.sha256(d[n]).hexdigest()}  {n}\n"
        for n in ("bagit.txt", "bag-info.txt", "manifest-sha256.txt")
        if n in d
    ).encode()


def _bag(files: list[tuple[str, bytes]], rng: random.Random, *, fix_tags: bool = True) -> bytes:
    """Zip `files` (a bag's entries, maybe altered); the tag manifest made to agree."""
    d = dict(files)
    if fix_tags:
        d["tagmanifest-sha256.txt"] = _tag_manifest(d)
    return build_zip(
        [
            entry(n.encode("utf-8", "surrogatepass"), b, deflate=rng.random() < 0.3)
            for n, b in d.items()
        ]
    )


def _manifest_for(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """A bag's tag files made to agree with its payload (the tag manifest comes last)."""
    import hashlib

    payload = [(n, b) for n, b in files if n.startswith("data/")]
    man = "".join(
        f"{hashlib.sha256(b).hexdigest()}  {n.replace('%', '%25')}\n" for n, b in payload
    ).encode("utf-8", "surrogatepass")
    octets = sum(len(b) for _, b in payload)
    info = f"Payload-Oxum: {octets}.{len(payload)}\nBag-Spec: task-passport-bag/0.1\n".encode()
    d = {"bagit.txt": BAGIT, "bag-info.txt": info, "manifest-sha256.txt": man}
    return [*d.items(), ("tagmanifest-sha256.txt", _tag_manifest(d)), *payload]


def bag_json_swap(raw: bytes, rng: random.Random) -> bytes:
    files = _read_zip(raw)
    pj = dict(files)["data/passport.json"]
    new = mutate_json(json.loads(pj), rng).encode("utf-8", "surrogatepass")
    files = [(n, new if n == "data/passport.json" else b) for n, b in files]
    return _bag(_manifest_for(files), rng)


TAG_LINES = [
    b"Payload-Oxum: \xc2\xb2547.1",
    b"Payload-Oxum: " + b"9" * 5000 + b".1",
    b"Payload-Oxum: -1.-1",
    b"Bag-Spec: nope/9",
    b"Bag-Spec:",
    b"BagIt-Version: 9.9",
    b"Tag-File-Character-Encoding: UTF-16",
    b"0" * 64 + b"  data/files/../../x",
    b"0" * 64 + b"  data/files/a\xe2\x80\xa8b",
    b"zz  data/passport.json",
    b"0" * 64 + b"  data/files/a%2",
    b"0" * 64 + b"  bagit.txt",
    b"\xff\xfe",
    b"",
    b"  ",
    b"x" * 3000,
]


def bag_tag_edit(raw: bytes, rng: random.Random) -> bytes:
    """One line of one tag file edited; the tag manifest agrees unless it is the one edited."""
    d = dict(_manifest_for(_read_zip(raw)))
    target = rng.choice(
        ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"]
    )
    lines = d[target].split(b"\n")
    op = rng.random()
    i = rng.randrange(len(lines))
    if op < 0.4:
        lines[i] = rng.choice(TAG_LINES)
    elif op < 0.6:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op < 0.8:
        del lines[i]
    else:
        lines[i] = lines[i].replace(
            b" ", rng.choice([b"\t", b"   ", b"\r", b"\xe2\x80\xa8", b"%"]), 1
        )
    d[target] = b"\n".join(lines)
    return _bag(list(d.items()), rng, fix_tags=target != "tagmanifest-sha256.txt")


# where each header's fields sit: (offset, struct format)
_FIELDS = {
    b"PK\x03\x04": [
        (4, "H"),
        (6, "H"),
        (8, "H"),
        (14, "I"),
        (18, "I"),
        (22, "I"),
        (26, "H"),
        (28, "H"),
    ],
    b"PK\x01\x02": [
        (4, "H"),
        (6, "H"),
        (8, "H"),
        (10, "H"),
        (16, "I"),
        (20, "I"),
        (24, "I"),
        (28, "H"),
        (30, "H"),
        (32, "H"),
        (34, "H"),
        (38, "I"),
        (42, "I"),
    ],
    b"PK\x05\x06": [(4, "H"), (6, "H"), (8, "H"), (10, "H"), (12, "I"), (16, "I"), (20, "H")],
}


def zip_field(raw: bytes, rng: random.Random) -> bytes:
    sig = rng.choice(list(_FIELDS))
    at = [i for i in range(len(raw)) if raw.startswith(sig, i)] if len(raw) < 1 << 16 else []
    if not at:
        return bit_flip(raw, rng)
    p = rng.choice(at)
    off, fmt = rng.choice(_FIELDS[sig])
    size = struct.calcsize(fmt)
    if p + off + size > len(raw):
        return raw[:p]
    (old,) = struct.unpack_from("<" + fmt, raw, p + off)
    top = (1 << (8 * size)) - 1
    value = rng.choice(
        [
            0,
            1,
            top,
            top - 1,
            old + 1,
            old - 1,
            old * 2,
            rng.randrange(top + 1),
            0x8000 & top,
            12,
            14,
            99,
            0x0809,
            0x41,
            0xA1FF0000 & top,
            0o120777 << 16 & top,
            3 << 8 | 20,
        ]
    )
    out = bytearray(raw)
    struct.pack_into("<" + fmt, out, p + off, value & top)
    return bytes(out)


def bit_flip(raw: bytes, rng: random.Random) -> bytes:
    out = bytearray(raw)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def truncate(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw))]


def splice(raw: bytes, rng: random.Random, other: bytes) -> bytes:
    a, b = sorted(rng.randrange(len(other) + 1) for _ in range(2))
    at = rng.randrange(len(raw) + 1)
    cut = at + (0 if rng.random() < 0.5 else rng.randrange(len(raw) - at + 1))
    return raw[:at] + other[a:b] + raw[cut:]


def insert_delete(raw: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(raw) + 1)
    if rng.random() < 0.5:
        return raw[:at] + raw[at + rng.randint(1, 64) :]
    junk = rng.choice(
        [b"\\", b'"', b"\\u", b"\\ud800", b",", b"{", b"]", b"\x00", b"PK\x03\x04", b" " * 100]
    )
    return raw[:at] + junk + raw[at:]


def base64_text_swap(raw: bytes, rng: random.Random) -> bytes:
    """Flat: rewrite one attachment's data in the other encoding (or as junk)."""
    doc = json.loads(raw)
    atts = doc.get("attachments") or []
    if not atts:
        return bit_flip(raw, rng)
    att = rng.choice(atts)
    if att.get("encoding") == "base64":
        try:
            att["data"] = base64.b64decode(att["data"]).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            att["data"] = "not base64 ===="
    else:
        att["data"] = base64.b64encode(
            att["data"].encode("utf-8", "surrogatepass")
        ).decode() + rng.choice(["", "=", "A", "\n"])
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


NAMES = [
    "../x",
    "a/../../x",
    "/etc/x",
    "C:/x",
    "a\\b",
    "a\u2028b.txt",
    "a\u0085b",
    "100%25 done.txt",
    "%",
    "a b.txt",
    "é.txt",
    "E\u0301.txt",
    "BRIEF.TXT",
    "brief.txt",
    "brief.txt/x",
    "con.txt",
    "a.",
    "a ",
    "x" * 300,
    "d/" * 200 + "x",
    "report\u202etxt.exe",
    "x\x9by",
    "a\x00b",
    "\ud800",
    "",
    ".",
    "a//b",
]


def _luggage_value(rng: random.Random) -> bytes:
    return rng.choice(
        [
            b"",
            b"x",
            rng.randbytes(rng.randrange(1, 300)),
            b"ghp_" + b"A" * 36 + b"\n",
            b"User: hi\nAssistant: hello\n",
            b"\xef\xbb\xbfBOM",
            b"\\" * 50,
        ]
    )


def flat_luggage_swap(raw: bytes, rng: random.Random) -> bytes:
    """Flat: an attachment renamed or refilled, its sha256 and size made to agree."""
    import hashlib

    doc = json.loads(raw)
    atts = doc.setdefault("attachments", [])
    if not atts or rng.random() < 0.2:
        atts.append({"name": "new.txt", "encoding": "utf8", "data": ""})
    att = rng.choice(atts)
    if rng.random() < 0.5:
        att["name"] = rng.choice(NAMES)
    content = _luggage_value(rng)
    try:
        att["encoding"], att["data"] = "utf8", content.decode("utf-8")
    except UnicodeDecodeError:
        att["encoding"], att["data"] = "base64", base64.b64encode(content).decode()
    att["sha256"], att["bytes"] = hashlib.sha256(content).hexdigest(), len(content)
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def bag_luggage_swap(raw: bytes, rng: random.Random) -> bytes:
    """Bag: a luggage file renamed, refilled or added, every manifest made to agree."""
    files = [(n, b) for n, b in _read_zip(raw) if n.startswith("data/")]
    i = rng.randrange(len(files))
    name, body = files[i]
    if name == "data/passport.json" or rng.random() < 0.3:
        files.append(("data/files/" + rng.choice(NAMES), _luggage_value(rng)))
    elif rng.random() < 0.5:
        files[i] = ("data/files/" + rng.choice(NAMES), body)
    else:
        files[i] = (name, _luggage_value(rng))
    return _bag(_manifest_for(files), rng)


Mutator = Callable[[bytes, random.Random], bytes]


def mutate(name: str, raw: bytes, rng: random.Random, others: list[bytes]) -> tuple[str, bytes]:
    flat = name.endswith(".json")
    ops: list[tuple[str, Mutator]] = [
        ("bit_flip", bit_flip),
        ("truncate", truncate),
        ("insert_delete", insert_delete),
        ("splice", lambda r, g: splice(r, g, g.choice(others))),
    ]
    if flat:
        ops += [("json_swap", flat_json_swap)] * 4 + [
            ("encoding_swap", base64_text_swap),
            ("luggage_swap", flat_luggage_swap),
        ] * 2
    else:
        ops += (
            [("passport_json_swap", bag_json_swap)] * 3
            + [("tag_edit", bag_tag_edit)] * 2
            + [("zip_field", zip_field)] * 3
        )
        ops += [("luggage_swap", bag_luggage_swap)] * 2
    label, op = rng.choice(ops)
    return label, op(raw, rng)


# --- driving the entry points ------------------------------------------------------------


def files_under(root: Path, skip: set[Path]) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        out.update(str((here / f).relative_to(root)) for f in filenames)
    return out


def drive(path: Path, store: SqliteStore, out_dir: Path, target: str) -> list[str]:
    """Every entry point on `path`; returns what escaped the error tree."""
    escaped: list[str] = []

    def attempt(what: str, fn: Callable[[], object]) -> bool:
        try:
            fn()
        except TaskPackError:
            return False
        except Exception as exc:  # the point: anything else is a finding
            tb = traceback.extract_tb(exc.__traceback__)[-1]
            escaped.append(
                f"{what}: {type(exc).__name__}: {str(exc)[:160]} at {Path(tb.filename).name}:{tb.lineno}"
            )
            return False
        return True

    def verify() -> None:
        nonlocal opened
        with open_pack(path) as o:
            opened = True
            o.verify()

    opened = False

    def land() -> None:  # both review the pack first, as the window does before Land
        with open_pack(path) as o:
            if o.pack.kind == "receipt":
                landing.merge_receipt(store, o, target, machine="A")
            else:
                landing.land_handoff(store, o, machine="A", allow=["*"])

    other = "out.taskpack" if path.name.endswith(".json") else "out.taskpack.json"
    attempt("open+verify", verify)
    attempt("judge", lambda: judge(path))
    if opened:  # else landing and convert, which open it the same way, are refused the same way
        attempt("land", land)
        attempt("convert", lambda: convert(path, out_dir / other, machine="A"))
    left = set(os.listdir(out_dir)) - {other}
    if left:
        escaped.append(f"convert left {sorted(left)} in the output folder")
    for f in out_dir.iterdir():
        f.unlink()
    return escaped


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_mutated_pack_escapes_the_error_tree(
    shard: int, seeds: Seeds, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox = tmp_path / "sandbox"
    inbox, out_dir, cwd = sandbox / "inbox", sandbox / "out", sandbox / "cwd"
    for d in (inbox, out_dir, cwd):
        d.mkdir(parents=True)
    monkeypatch.chdir(cwd)  # a relative escape would land here
    home = sandbox / "home"
    shutil.copytree(seeds.home, home)
    store = SqliteStore(home)
    # durability is not what is fuzzed here: without fsync a case costs its CPU time only
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    names = sorted(seeds.packs)
    others = list(seeds.packs.values())
    findings: dict[str, str] = {}
    n_cases = CASES // SHARDS
    try:
        for case in range(n_cases):
            rng = random.Random(f"{SEED}/{shard}/{case}")
            name = rng.choice(names)
            label, raw = mutate(name, seeds.packs[name], rng, others)
            path = inbox / name
            path.write_bytes(raw)
            for problem in drive(path, store, out_dir, seeds.target):
                key = problem.split(" at ")[-1] + " " + problem.split(":")[0]
                findings.setdefault(key, f"case {shard}/{case} ({label} of {name}): {problem}")
            path.unlink()
            stray = files_under(sandbox, {home})
            if stray:
                findings.setdefault(
                    "stray", f"case {shard}/{case} ({label} of {name}) wrote {sorted(stray)}"
                )
                for s in stray:
                    (sandbox / s).unlink()
    finally:
        store.close()
    assert not findings, f"{len(findings)} kinds of escape in {n_cases} cases:\n" + "\n".join(
        findings.values()
    )
