"""The start-up helper that hashes a big bag's luggage while the command starts (`prehash`).

Its reading of the ZIP directory is a guess (property tests: the spans of exactly the big
stored entries, never an error, never outside the file); its digests are used only for
the very bytes the judge reads, of the very file (real processes: the helper forks, so
each case runs in a fresh single-threaded interpreter, as the `taskpack` command does).
"""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import hostile_zips
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.format import prehash, streams
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.trust.pack_writer import make_pack

SMALL = 64  # the threshold the property tests use (a real one is 8 MiB)


def test_the_threshold_is_the_read_ahead_one() -> None:
    assert prehash.MIN_BYTES == streams.READ_AHEAD_BYTES


def _spans_by_zipfile(data: bytes) -> list[tuple[int, int]]:
    """What zipfile says the big stored entries' data spans are."""
    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for info in zf.infolist():
            if info.compress_type != zipfile.ZIP_STORED or info.file_size < SMALL:
                continue
            header = data[info.header_offset : info.header_offset + 30]
            name_len = int.from_bytes(header[26:28], "little")
            extra_len = int.from_bytes(header[28:30], "little")
            out.append((info.header_offset + 30 + name_len + extra_len, info.file_size))
    return sorted(out)


entries = st.lists(
    st.tuples(
        st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]),
        st.integers(0, 300),
        st.booleans(),  # ZIP64 records forced
    ),
    max_size=6,
)


def _zip(spec: list[tuple[int, int, bool]], prefix: bytes, comment: bytes) -> bytes:
    buf = io.BytesIO()
    buf.write(prefix)
    with zipfile.ZipFile(buf, "a" if prefix else "w") as zf:
        for i, (method, size, force64) in enumerate(spec):
            info = zipfile.ZipInfo(f"data/f{i}.bin")
            info.compress_type = method
            with zf.open(info, "w", force_zip64=force64) as f:
                f.write(bytes((i + j) % 251 for j in range(size)))
        zf.comment = comment
    return buf.getvalue()


def _plan(data: bytes, tmp_path: Path) -> list[tuple[int, int]]:
    path = tmp_path / "p.zip"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        return prehash.plan(fd, len(data))
    finally:
        os.close(fd)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    spec=entries, prefix=st.sampled_from([b"", b"#!/bin/sh\n" * 3]), comment=st.binary(max_size=40)
)
def test_the_plan_is_the_big_stored_entries(
    spec: list[tuple[int, int, bool]], prefix: bytes, comment: bytes, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(prehash, "MIN_BYTES", SMALL)
    data = _zip(spec, prefix, comment)
    spans = _plan(data, tmp_path)
    assert spans == _spans_by_zipfile(data)
    for at, n in spans:  # each span is exactly the entry's bytes
        assert data[at : at + n] in {
            bytes((i + j) % 251 for j in range(n)) for i in range(len(spec))
        }


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    spec=entries,
    flips=st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(1, 255)), max_size=8),
    cut=st.integers(0, 1 << 16),
)
def test_a_damaged_zip_gives_fewer_spans_never_an_error(
    spec: list[tuple[int, int, bool]],
    flips: list[tuple[int, int]],
    cut: int,
    tmp_path: Path,
    monkeypatch,
) -> None:
    monkeypatch.setattr(prehash, "MIN_BYTES", SMALL)
    data = bytearray(_zip(spec, b"", b""))
    for at, x in flips:
        data[at % len(data)] ^= x
    data = data[: max(1, len(data) - cut % 64)]
    spans = _plan(bytes(data), tmp_path)
    for at, n in spans:
        assert at >= 0 and n >= SMALL and at + n <= len(data)
    assert all(a + n <= b for (a, n), (b, _) in itertools.pairwise(spans))  # one pass at most


@pytest.mark.parametrize("case", hostile_zips.CASES, ids=hostile_zips.CASE_IDS)
def test_the_hostile_corpus_gives_spans_inside_the_file_never_an_error(
    case: hostile_zips.Case, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(prehash, "MIN_BYTES", 1)  # every stored entry is planned
    data = case.content
    spans = _plan(data, tmp_path)
    for at, n in spans:
        assert at >= 0 and n >= 1 and at + n <= len(data)
    assert all(a + n <= b for (a, n), (b, _) in itertools.pairwise(spans))


def test_entries_that_share_bytes_are_not_hashed(tmp_path: Path, monkeypatch) -> None:
    """A directory whose entries overlap (each the whole file, say) would have the helper
    hash the file many times over: it hashes none of them."""
    monkeypatch.setattr(prehash, "MIN_BYTES", SMALL)
    data = _zip([(zipfile.ZIP_STORED, 200, False), (zipfile.ZIP_STORED, 200, False)], b"", b"")
    assert len(_plan(data, tmp_path)) == 2
    directory = data.rindex(b"PK\x01\x02")  # the second entry's record: point it at the first
    first = data.index(b"PK\x03\x04")
    forged = data[: directory + 42] + first.to_bytes(4, "little") + data[directory + 46 :]
    assert _plan(forged, tmp_path) == []


def test_no_helper_from_a_process_with_threads(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(b"\0" * (prehash.MIN_BYTES + 1))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        prehash.start(str(path))
        assert prehash._helper is None  # a fork would copy no thread but the caller
    finally:
        stop.set()
        other.join()


# ---- whole processes: the helper, the judge, and what each sees --------------------------

MIB = 1 << 20


def _pack(tmp_path: Path, luggage: bytes, name: str = "big.taskpack") -> Path:
    src = tmp_path / "big.bin"
    src.write_bytes(luggage)
    pack = PackObject.from_data(
        {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "packed_at": "2026-11-30T12:00:00Z",
            "origin": {"actor": "test", "machine": "test-host", "harness": "test"},
            "lineage": {"root_id": "TP-TEST-H222", "from_version": 1, "chain": ["TP-TEST-H222@1"]},
            "note": "test",
            "passport": {"id": "TP-TEST-H222", "title": "test", "version": 1, "facts": []},
            "asks": [],
            "landing_checks": [],
        }
    )
    out = tmp_path / name
    make_pack(pack, [LuggageSource.from_path(src, "big.bin")], out, machine="test-host")
    return out


#: run in a fresh interpreter: start the helper, then do what the test says between its
#: start and the judging, judge, and say what the helper gave
JUDGE = r"""
import os, signal, sys
from taskpack.core.format import prehash
path, between = sys.argv[1], sys.argv[2]
prehash.start(path)
helper = prehash._helper
assert helper is not None, "no helper started"
if between == "kill":
    os.kill(helper.pid, signal.SIGKILL)
    os.waitpid(helper.pid, 0)
    helper.pid = os.getpid() + 10**6  # (reaped here: end() must not wait on it again)
elif between == "touch":  # the same byte written back: the content is the same, the file is not
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 2)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(b)
elif between == "touch-while-read":  # the same, once the judge has read its first chunk
    from taskpack.core.format import zip_entries
    readinto = zip_entries.StoredEntry.readinto
    def touching(self, b):
        n = readinto(self, b)
        if self.size >= prehash.MIN_BYTES and not getattr(self, "touched", False):
            self.touched = True
            with open(path, "r+b") as f:
                f.seek(os.path.getsize(path) // 2)
                one = f.read(1)
                f.seek(-1, 1)
                f.write(one)
        return n
    zip_entries.StoredEntry.readinto = touching
elif between == "replace":
    os.replace(sys.argv[3], path)
from taskpack.app.cli.main import main
code = main(["conformance", path])
print("helper digests:", len(helper.digests), file=sys.stderr)
sys.exit(code)
"""


def _judge(pack: Path, between: str = "none", *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", JUDGE, str(pack), between, *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


needs_fork = pytest.mark.skipif(
    not hasattr(os, "fork") or not os.path.isdir("/proc/self/task"),
    reason="the helper forks (Linux)",
)


@needs_fork
def test_the_judge_takes_the_helpers_digest(tmp_path: Path) -> None:
    pack = _pack(tmp_path, os.urandom(9 * MIB))
    r = _judge(pack)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "conformant (11/11 checks pass)" in r.stdout
    assert "helper digests: 1" in r.stderr


def _with_luggage(pack: Path, luggage: bytes, out: Path) -> Path:
    """The same bag with other luggage bytes of the same length (its CRC right, its
    sha256 in the manifest now wrong)."""
    with zipfile.ZipFile(pack) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = luggage if info.filename.endswith("/big.bin") else src.read(info)
            dst.writestr(info, data)
    return out


@needs_fork
def test_luggage_that_is_not_what_the_manifest_says_is_still_caught(tmp_path: Path) -> None:
    good = os.urandom(9 * MIB)
    pack = _pack(tmp_path, good)
    bad = bytearray(good)
    bad[5 * MIB] ^= 1
    altered = _with_luggage(pack, bytes(bad), tmp_path / "altered.taskpack")
    r = _judge(altered)
    assert "helper digests: 1" in r.stderr  # the helper's digest, and it is the judge's
    assert r.returncode == 2, r.stdout + r.stderr
    assert "does not match its sha256" in r.stdout


@needs_fork
@pytest.mark.parametrize(
    "between",
    [
        "kill",  # a helper that is gone leaves the judge to hash
        "touch",  # a pack written before it is opened is not the file the helper read
    ],
)
def test_without_the_helpers_digest_the_judge_hashes_its_own_reading(
    tmp_path: Path, between: str
) -> None:
    pack = _pack(tmp_path, os.urandom(9 * MIB))
    r = _judge(pack, between)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "conformant (11/11 checks pass)" in r.stdout
    assert "helper digests: 0" in r.stderr


@needs_fork
def test_a_pack_written_while_it_is_judged_is_told_so(tmp_path: Path) -> None:
    pack = _pack(tmp_path, os.urandom(9 * MIB))
    r = _judge(pack, "touch-while-read")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "changed while it was being read" in r.stdout


@needs_fork
def test_another_file_put_in_its_place_is_judged_on_its_own_bytes(tmp_path: Path) -> None:
    pack = _pack(tmp_path, os.urandom(9 * MIB))
    good = os.urandom(9 * MIB)
    (tmp_path / "o").mkdir()
    other = _pack(tmp_path / "o", good)
    bad = bytearray(good)
    bad[1] ^= 1
    swapped = _with_luggage(other, bytes(bad), tmp_path / "swapped.taskpack")
    r = _judge(pack, "replace", str(swapped))
    assert "helper digests: 0" in r.stderr  # the helper's file is not this one
    assert r.returncode == 2, r.stdout + r.stderr
    assert "does not match its sha256" in r.stdout


@needs_fork
def test_the_taskpack_command_starts_the_helper_for_a_big_bag(tmp_path: Path) -> None:
    pack = _pack(tmp_path, os.urandom(9 * MIB))
    script = (
        "import atexit, sys\n"
        "sys.argv = ['taskpack', 'conformance', sys.argv[1]]\n"
        "from taskpack.app.cli import entry\n"
        "from taskpack.core.format import prehash\n"
        "def told():\n"  # at exit (the verb leaves without returning), before the helper's end
        "    h = prehash._helper\n"
        "    print('helper digests:', len(h.digests) if h else None, file=sys.stderr)\n"
        "start = prehash.start\n"
        "def started(path):\n"
        "    start(path)\n"
        "    atexit.register(told)\n"
        "prehash.start = started\n"
        "sys.exit(entry.main())\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script, str(pack)], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "helper digests: 1" in r.stderr


@needs_fork
def test_a_fifo_is_never_opened_by_the_helper(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.taskpack"
    os.mkfifo(fifo)
    script = (
        "import sys\n"
        "from taskpack.core.format import prehash\n"
        "prehash.start(sys.argv[1])\n"  # an open of a FIFO would wait here for a writer
        "print('helper:', prehash._helper)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0 and "helper: None" in r.stdout


#: in a fresh interpreter: each mutated copy judged with a helper started for it, as the
#: `taskpack` command does; any exception outside the error tree is printed as a traceback
FUZZ = r"""
import sys, traceback
from taskpack.core.format import prehash
from taskpack.app.cli.main import main
codes = []
for path in sys.argv[1:]:
    prehash.start(path)
    try:
        codes.append(main(["conformance", path]))
    except SystemExit as exc:
        codes.append(exc.code)
    except BaseException:
        traceback.print_exc()
        codes.append("crash")
    prehash.stop()
print("codes:", *codes, file=sys.stderr)
"""


@needs_fork
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    flips=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(1, 255)), min_size=1, max_size=6),
)
def test_a_mutated_big_bag_judged_with_the_helper_is_a_verdict_or_one_line(
    tmp_path_factory, seed: int, flips: list[tuple[int, int]]
) -> None:
    """Bytes flipped in the directory, the headers and the luggage of a big bag: the judge
    with its helper gives a verdict or a one-line error, never a traceback or a hang."""
    import random

    work = tmp_path_factory.mktemp("fuzz")
    rng = random.Random(seed)
    good = _pack(work, rng.randbytes(9 * MIB))
    data = good.read_bytes()
    copies = []
    for i, (at, x) in enumerate(flips):
        bad = bytearray(data)
        # near the end (the directory), near the start (headers, tag files) or anywhere
        where = [len(data) - 1 - at % 4096, at % 8192, rng.randrange(len(data))][i % 3]
        bad[where] ^= x
        path = work / f"m{i}.taskpack"
        path.write_bytes(bad)
        copies.append(str(path))
    r = subprocess.run(
        [sys.executable, "-c", FUZZ, *copies], capture_output=True, text=True, timeout=300
    )
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    codes = r.stderr.split("codes:")[-1].split()
    assert len(codes) == len(copies) and set(codes) <= {"0", "1", "2"}, r.stderr[-2000:]
