"""No data lost: a landing killed with SIGKILL at any moment is whole or absent, the store
passes its integrity check, and processes landing at once still make one passport each."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import PackObject
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.pack_writer import make_pack

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")

MACHINE = "crash-box"

WORKER = r"""
import os, sys, time
from pathlib import Path
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.core.desk import sqlite_store, sqlite_tx

home, mode, *packs = sys.argv[1:]
if mode == "pause-in-tx":          # stop inside the transaction, after every row is written
    original = sqlite_tx.SqliteTx.record_landing
    def record_landing(self, *a, **k):
        original(self, *a, **k)
        print("in-tx", flush=True)
        time.sleep(120)
    sqlite_tx.SqliteTx.record_landing = record_landing
elif mode == "pause-before-tx":    # stop after the blobs are stored, before the transaction
    original_write = sqlite_store.SqliteStore.write
    def write(self):
        print("in-blobs", flush=True)
        time.sleep(120)
        return original_write(self)
    sqlite_store.SqliteStore.write = write
desk = Desk(Path(home), "crash-box", settings=Settings(gate_allow=["*"]))
if mode == "wait":
    go = Path(home).parent / "go"
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.001)
else:
    print("ready", flush=True)
for p in packs:
    print("start", p, flush=True)
    out = desk.land(p)
    print("done", p, out.id, int(out.already), flush=True)
"""


def _packs(folder: Path, n: int, seed: int = 7) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pid = f"TP-SEND-{i:04d}".replace("0", "2").replace("1", "3")
        data = {
            "spec": "task-passport-bag/0.1",
            "kind": "handoff",
            "packed_at": "2026-08-16T03:11:04Z",
            "origin": {"actor": "sender", "machine": "sender-box", "harness": "test"},
            "lineage": {"root_id": pid, "from_version": 1, "chain": [f"{pid}@1"]},
            "note": f"pack {i}",
            "passport": {
                "id": pid,
                "title": f"crash-{i}",
                "goal": "survive",
                "version": 1,
                "facts": [{"claim": f"fact {i}", "scope": "machine", "verified": True}],
            },
            "asks": [],
            "landing_checks": [],
        }
        luggage = [
            LuggageSource.from_bytes("notes.txt", f"notes {i} {rng.random()}\n".encode()),
            LuggageSource.from_bytes("data.bin", rng.randbytes(2048)),
        ]
        path = folder / f"p{i:03d}.taskpack"
        make_pack(PackObject.from_data(data), luggage, path, machine="sender-box")
        out.append(path)
    return out


class _Worker:
    """A landing worker whose output is read by ONE reader thread per pipe, to the end.

    (Reading some lines through one buffered reader and the rest with communicate() lost
    the lines that arrived in the same read: a kill mid-landing was miscounted.)
    """

    def __init__(self, home: Path, mode: str, packs: list[Path], script: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "taskpack-test-pycache")
        self.proc = subprocess.Popen(
            [sys.executable, str(script), str(home), mode, *map(str, packs)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        self.err: list[str] = []
        self._seen = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.lines), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True),
        ]
        for t in self._readers:
            t.start()

    def _read(self, pipe: IO[str] | None, into: list[str]) -> None:
        assert pipe is not None
        for line in pipe:
            with self._seen:
                into.append(line.rstrip("\n"))
                self._seen.notify_all()
        with self._seen:
            self._seen.notify_all()

    def count(self, word: str) -> int:
        with self._seen:
            return sum(1 for line in self.lines if line.startswith(word))

    def wait_for(self, word: str, n: int = 1, timeout: float = 120.0) -> bool:
        """Wait until `n` lines start with `word`; False if the worker ended first."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while sum(1 for line in self.lines if line.startswith(word)) < n:
                if not self._readers[0].is_alive():
                    return False
                left = deadline - time.monotonic()
                assert left > 0, f"no {word!r} line from the worker in {timeout} s"
                self._seen.wait(min(left, 1.0))
        return True

    def expect(self, word: str) -> None:
        assert self.wait_for(word), f"worker ended before {word!r}: {self.stderr}"

    def finish(self, timeout: float = 120.0) -> int:
        code = self.proc.wait(timeout)
        for t in self._readers:
            t.join(timeout)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()
        return code

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)

    @property
    def stderr(self) -> str:
        with self._seen:
            return "\n".join(self.err)


@dataclass(frozen=True)
class _Sent:
    path: Path
    digest: str
    title: str


def _identify(packs: list[Path]) -> list[_Sent]:
    out = []
    for path in packs:
        with open_pack(path) as opened:
            out.append(_Sent(path, opened.content_digest(), opened.pack.passport.title))  # type: ignore[union-attr]
    return out


def _assert_whole_or_absent(home: Path, packs: list[Path] | list[_Sent]) -> int:
    """Every pack either landed whole (passport, both versions, luggage, landing record)
    or left no trace in the database. Returns how many landed."""
    sent = [p if isinstance(p, _Sent) else _identify([p])[0] for p in packs]
    store = SqliteStore(home)
    try:
        assert store.integrity_check() == ["ok"]
        assert store.check(hash_blobs=True) == []
        by_title: dict[str | None, list[str]] = {}
        for row in store.summaries():
            by_title.setdefault(row.title, []).append(row.id)
        landed = 0
        for item in sent:
            rows = by_title.get(item.title, [])
            record = store.landing(item.digest)
            if record is None:
                assert rows == [], f"{item.title}: a passport without its landing record"
                continue
            assert rows == [record.passport_id], f"{item.title}: not exactly one passport"
            assert [h.event for h in store.history(record.passport_id)] == ["landed", "moved"]
            assert sorted(x.name for x in store.luggage(record.passport_id)) == [
                "data.bin",
                "notes.txt",
            ]
            landed += 1
        assert sum(len(v) for v in by_title.values()) == landed  # nothing landed from nowhere
        return landed
    finally:
        store.close()


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "worker.py"
    path.write_text(WORKER, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mode", "word"), [("pause-in-tx", "in-tx"), ("pause-before-tx", "in-blobs")]
)
def test_kill_9_in_the_middle_of_landing_leaves_nothing_partial(
    tmp_path: Path, script: Path, mode: str, word: str
) -> None:
    packs = _packs(tmp_path / "packs", 1)
    home = tmp_path / "home"
    proc = _Worker(home, mode, packs, script)
    proc.expect(word)
    proc.kill()
    proc.finish()
    assert _assert_whole_or_absent(home, packs) == 0
    with SqliteStore(home) as store:
        assert store.count() == 0
    # the same pack lands fine afterwards, once
    again = _Worker(home, "run", packs, script)
    assert again.finish() == 0, again.stderr
    assert _assert_whole_or_absent(home, packs) == 1


def test_processes_landing_the_same_pack_at_once_make_one_passport(
    tmp_path: Path, script: Path
) -> None:
    packs = _packs(tmp_path / "packs", 1)
    home = tmp_path / "home"
    SqliteStore(home).close()
    procs = [_Worker(home, "wait", packs, script) for _ in range(4)]
    for p in procs:
        p.expect("ready")
    (tmp_path / "go").touch()
    ids, already = set(), []
    for p in procs:
        assert p.finish() == 0, p.stderr
        done = [line.split() for line in p.lines if line.startswith("done")]
        ids.add(done[0][2])
        already.append(int(done[0][3]))
    assert len(ids) == 1 and sorted(already) == [0, 1, 1, 1]
    assert _assert_whole_or_absent(home, packs) == 1


@pytest.mark.slow
def test_200_landings_with_random_kill_9(tmp_path: Path, script: Path) -> None:
    sent = _identify(_packs(tmp_path / "packs", 200))
    home = tmp_path / "home"
    SqliteStore(home).close()
    rng = random.Random(2026)
    kills = kills_mid_landing = 0
    for _round in range(8):
        with SqliteStore(home) as store:
            remaining = [x.path for x in sent if store.landing(x.digest) is None]
        if not remaining:
            break
        workers = []
        for _ in range(2):  # two processes race over the same packs in different orders
            order = remaining[:]
            rng.shuffle(order)
            workers.append(_Worker(home, "run", order, script))
        for w in workers:
            # kill only once some landing has begun: after the n-th "start" line (counted,
            # not timed, so a loaded machine changes nothing but the speed)
            w.wait_for("start", rng.randint(1, min(6, len(remaining))))
            w.kill()
        for w in workers:
            code = w.finish()
            started, finished = w.count("start"), w.count("done")
            kills += code == -signal.SIGKILL
            kills_mid_landing += code == -signal.SIGKILL and started > finished
        _assert_whole_or_absent(home, sent)
    final = _Worker(home, "run", [x.path for x in sent], script)  # the rest, without a kill
    assert final.finish() == 0, final.stderr
    assert _assert_whole_or_absent(home, sent) == 200
    with SqliteStore(home) as store:
        assert store.count() == 200
        assert store.sweep_temp() >= 0  # half-written blobs, if any, are swept harmlessly
    assert kills >= 2 and kills_mid_landing >= 1


def test_the_worker_reports_each_landing_as_the_kill_tests_count_it(
    tmp_path: Path, script: Path
) -> None:
    """The kill tests count the worker's "start" and "done" lines: a worker that lands two
    packs without a kill says both, in order, with the passport ids the store then holds,
    and lands the same pack again as already landed."""
    packs = _packs(tmp_path / "packs", 2)
    home = tmp_path / "home"
    first = _Worker(home, "run", [*packs, packs[0]], script)
    assert first.finish() == 0, first.stderr
    assert [line.split()[0] for line in first.lines] == ["ready", *["start", "done"] * 3]
    done = [line.split() for line in first.lines if line.startswith("done")]
    assert [d[1] for d in done] == [str(p) for p in [*packs, packs[0]]]
    assert [d[3] for d in done] == ["0", "0", "1"]
    assert done[2][2] == done[0][2]
    assert _assert_whole_or_absent(home, packs) == 2
    with SqliteStore(home) as store:
        assert sorted(row.id for row in store.summaries()) == sorted({d[2] for d in done})
