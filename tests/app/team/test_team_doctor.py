"""`taskpack doctor` on a team desk against the real throwaway cluster: one damaged
fixture per kind of damage it checks, the records that no longer read (one sentence for
every command, not a traceback), blobs nothing names (`--sweep`), and memory bounded
while it hashes a blob far bigger than one chunk.

The kinds, each a case of test_doctor_names_each_kind_of_damage: another program's
schema, a newer schema, a dropped table (a2a_sent), a passport with no matching version,
a version beyond the current one, an orphan version row, a history row beyond the
current version, a history row of no passport, a luggage row of another size than its
blob, a landing of no passport, an outbox entry of no passport, an A2A task of no
passport, a blob missing its chunks, a renumbered chunk, a blob whose bytes changed, a
foreign key not enforced, a record whose JSON is broken; unused (not damage): a failed
landing's blob and a replaced receipt's blob (test_unused_blobs_…)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from team_helpers import sender_pack

NONE = "TP-NONE-NONE"


def _cli(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _env(tmp_path: Path, url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TASKPACK_HOME=str(tmp_path / "cli-home"),
        TASKPACK_MACHINE="cli-box",
        TASKPACK_ACTOR="cli",
        TASKPACK_NO_PROGRESS="1",
        TASKPACK_STORE=url,
    )
    return env


@pytest.fixture
def team(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str, str]:
    """(url, a landed passport with luggage, another passport made here)."""
    pack = sender_pack(tmp_path, luggage=b"precious " * 1000)
    monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
    with Desk(tmp_path / "a", "alpha", actor="ana", settings=Settings(gate_allow=["*"])) as desk:
        landed = desk.land(pack).passport
        mine = desk.new("Made here", "stay whole")
        desk.add_fact(mine.id, "a fact")
    return team_desk_url, landed.id, mine.id


def _sql(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")  # no foreign key triggers
        for statement in statements:
            conn.execute(statement)


CURRENT = "(SELECT version FROM taskpack.passports WHERE id = '{pid}')"

#: kind -> (the damage, as SQL on the passport `{pid}`; a phrase of what doctor says)
DAMAGE: dict[str, tuple[tuple[str, ...], str]] = {
    "another program's schema": (
        ("UPDATE taskpack.meta SET value = 'other' WHERE key = 'app'",),
        "holds another program's taskpack tables",
    ),
    "a newer schema": (
        ("UPDATE taskpack.meta SET value = '99' WHERE key = 'schema'",),
        "was made by a newer TaskPack Desk",
    ),
    "a dropped table": (
        ("DROP TABLE taskpack.a2a_sent",),
        "the table taskpack.a2a_sent is missing",
    ),
    "no matching version": (
        (f"DELETE FROM taskpack.versions WHERE passport_id = '{{pid}}' AND version = {CURRENT}",),
        "has no matching version",
    ),
    "a version beyond the current one": (
        (
            "INSERT INTO taskpack.versions (passport_id, version, data) "
            "SELECT id, version + 5, data FROM taskpack.passports WHERE id = '{pid}'",
        ),
        "has a version stored beyond its current one",
    ),
    "an orphan version row": (
        (
            f"INSERT INTO taskpack.versions (passport_id, version, data) VALUES ('{NONE}', 1, 'null')",
        ),
        f"version row {NONE}@1 belongs to no passport",
    ),
    "history beyond the version": (
        (
            "UPDATE taskpack.history SET version = 99 WHERE seq = "
            "(SELECT max(seq) FROM taskpack.history WHERE passport_id = '{pid}')",
        ),
        "names a version beyond its passport's current one",
    ),
    "history of no passport": (
        (
            "INSERT INTO taskpack.history (passport_id, version, event, at) "
            f"VALUES ('{NONE}', 1, 'made', 'now')",
        ),
        "points at no passport",
    ),
    "luggage of another size": (
        ("UPDATE taskpack.luggage SET size = size + 1",),
        "points at no blob",
    ),
    "a landing of no passport": (
        (f"UPDATE taskpack.landings SET passport_id = '{NONE}'",),
        "landing",
    ),
    "an outbox entry of no passport": (
        (
            "INSERT INTO taskpack.packs_written (sha256, passport_id, version, kind, written_at) "
            f"VALUES ('x', '{NONE}', 1, 'handoff', 'now')",
        ),
        "outbox entry",
    ),
    "an A2A task of no passport": (
        (
            "INSERT INTO taskpack.a2a_tasks (principal, task_id, context_id, kind, created_at) "
            f"VALUES ('alice', '{NONE}', 'ctx-1', 'handoff', 'now')",
        ),
        f"the A2A task {NONE} names no passport",
    ),
    "a blob missing its chunks": (("DELETE FROM taskpack.blob_chunks",), "is missing chunks"),
    "a renumbered chunk": (
        ("UPDATE taskpack.blob_chunks SET n = n + 7",),
        "has its chunks numbered out of order",
    ),
    "a blob whose bytes changed": (
        ("UPDATE taskpack.blob_chunks SET data = decode(repeat('00', octet_length(data)), 'hex')",),
        "no longer matches its sha256",
    ),
    "a foreign key not enforced": (
        (
            "ALTER TABLE taskpack.luggage DROP CONSTRAINT luggage_sha256_fkey",
            "ALTER TABLE taskpack.luggage ADD CONSTRAINT luggage_sha256_fkey FOREIGN KEY "
            "(sha256) REFERENCES taskpack.blobs (sha256) NOT VALID",
        ),
        "foreign key luggage_sha256_fkey is not enforced",
    ),
    "a broken record": (
        (
            "UPDATE taskpack.passports SET data = left(data, 40) WHERE id = '{pid}'",
            "UPDATE taskpack.versions v SET data = p.data FROM taskpack.passports p "
            "WHERE p.id = '{pid}' AND v.passport_id = p.id AND v.version = p.version",
        ),
        "is damaged and cannot be read",
    ),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_doctor_names_each_kind_of_damage(
    kind: str, team: tuple[str, str, str], tmp_path: Path
) -> None:
    url, landed, _mine = team
    env = _env(tmp_path, url)
    whole = _cli(env, "doctor", "--json")
    assert whole.returncode == 0 and json.loads(whole.stdout)["whole"], whole.stdout + whole.stderr
    statements, phrase = DAMAGE[kind]
    _sql(url, *(s.format(pid=landed) for s in statements))
    found = _cli(env, "doctor")
    assert found.returncode == 1, found.stdout + found.stderr
    assert phrase in found.stderr and "Traceback" not in found.stderr, found.stderr


@pytest.mark.parametrize("verb", [("open",), ("pack", "--out", "x.taskpack"), ("move", "waiting")])
def test_a_broken_record_is_one_sentence_for_every_command(
    verb: tuple[str, ...], team: tuple[str, str, str], tmp_path: Path
) -> None:
    url, landed, mine = team
    env = _env(tmp_path, url)
    statements, _ = DAMAGE["a broken record"]
    _sql(url, *(s.format(pid=mine) for s in statements))
    args = [a if a != "x.taskpack" else str(tmp_path / a) for a in verb]
    done = _cli(env, args[0], mine, *args[1:])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"the stored record of passport {mine} is damaged" in done.stderr
    assert _cli(env, "open", landed).returncode == 0  # the others still open


def test_unused_blobs_are_found_and_swept_when_old(
    team: tuple[str, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, landed, _mine = team
    env = _env(tmp_path, url)
    with Desk(tmp_path / "b", "beta", actor="wei") as desk:
        # a landing that failed after its luggage was stored leaves its blob unnamed
        (tmp_path / "failed.bin").write_bytes(os.urandom(50_000))
        with open(tmp_path / "failed.bin", "rb") as f:
            failed, _ = desk.store.put_blob(f)
        # a receipt replaced by a newer one: the ledger names the new blob only
        receipts = []
        for n in range(2):
            (tmp_path / f"r{n}.taskpack").write_bytes(os.urandom(20_000))
            with open(tmp_path / f"r{n}.taskpack", "rb") as f:
                receipts.append(desk.store.put_blob(f)[0])
        (tmp_path / "young.bin").write_bytes(os.urandom(10_000))
        with open(tmp_path / "young.bin", "rb") as f:
            young, _ = desk.store.put_blob(f)
    _sql(
        url,
        "INSERT INTO taskpack.a2a_receipts (task_id, key, file, published_at, seq) "
        f"VALUES ('{landed}', 'k', 'sha256:{receipts[1]}', 'now', 1)",
        "UPDATE taskpack.blobs SET stored_at = now() - interval '1 hour' "
        f"WHERE sha256 IN ('{failed}', '{receipts[0]}', '{receipts[1]}')",
    )
    found = _cli(env, "doctor", "--json")
    assert found.returncode == 0, found.stderr
    unused = {u["name"] for u in json.loads(found.stdout)["unused"]}
    assert unused == {failed, receipts[0], young}
    said = _cli(env, "doctor")
    assert "3 blob(s)" in said.stdout and "doctor --sweep" in said.stdout

    swept = _cli(env, "doctor", "--sweep")
    assert swept.returncode == 0, swept.stderr
    assert "Removed 2 unused blob(s)" in swept.stdout
    assert "1 stored in the last 15 minutes were left alone" in swept.stdout
    left = json.loads(_cli(env, "doctor", "--json").stdout)
    assert left["whole"] and [u["name"] for u in left["unused"]] == [young]
    assert _cli(env, "pack", landed, "--out", tmp_path / "after.taskpack").returncode == 0


def _doctor_rss(env: dict[str, str]) -> int:
    """The doctor's peak resident memory, in KiB (it runs in a process of its own)."""
    probe = (
        "import resource, sys\n"
        "from taskpack.app.cli.main import main\n"
        "sys.argv = ['taskpack', 'doctor', '--json']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=600
    )
    assert '"whole": true' in done.stdout, done.stdout + done.stderr
    return int(done.stderr.strip().splitlines()[-1])


def test_doctor_hashes_a_big_blob_a_chunk_at_a_time(
    team: tuple[str, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _landed, mine = team
    env = _env(tmp_path, url)
    small = _doctor_rss(env)
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        for _ in range(96):
            f.write(os.urandom(1 << 20))
    with Desk(tmp_path / "b", "beta", actor="wei") as desk:
        desk.attach(mine, [big])
    big.unlink()
    grown = _doctor_rss(env) - small
    assert grown < 32 * 1024, f"the doctor grew by {grown} KiB hashing a 96 MiB blob"
