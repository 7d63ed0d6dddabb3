"""`taskpack doctor` on the embedded desk, one damaged fixture per kind of damage it
checks beyond SQLite's own verdict (rows that disagree, records that no longer read,
tables that are gone), and the bytes nothing points at that `doctor --sweep` removes.
Driven as a person meets it: real `taskpack` subprocesses.

The kinds the doctor checks on this store, and where each is shown:
 1 an empty database file, 2 a file that is not SQLite, 3 SQLite's integrity check,
 4 a blob whose bytes changed (test_doctor.py); 5 a dangling reference (foreign keys),
 6 a passport with no matching version, 7 a version beyond the current one, 8 an orphan
 version row, 9 a history row beyond the current version, 10 a record whose JSON is
 broken, 11 a store table dropped, 12 an A2A table dropped, 13 a missing blob file,
 14 a blob file of the wrong size (here); unused: 15 a failed landing's blob file,
 16 a replaced small blob row, 17 an old receipt file (here, with --sweep)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.desk import Desk
from taskpack.core.desk.blob_folder import blob_path
from test_doctor import MACHINE, cli

OLD = 3600.0  # seconds: older than the sweep's grace period


def _desk(home: Path, tmp_path: Path) -> tuple[str, str]:
    """A desk with two passports, one with a luggage file too big to be a row."""
    with Desk(home, MACHINE, actor="tester") as desk:
        lp = desk.new("Keep the store whole", "check it", current_state="started")
        desk.add_fact(lp.id, "the first fact")
        big = tmp_path / "big.bin"
        big.write_bytes(os.urandom(300_000))
        desk.attach(lp.id, [big])
        other = desk.new("A second passport", "stay whole")
        return lp.id, other.id


def _sql(home: Path, *statements: str, args: tuple[object, ...] = ()) -> None:
    db = sqlite3.connect(home / "store.sqlite3")
    try:
        db.execute("PRAGMA foreign_keys = OFF")
        with db:
            for statement in statements:
                db.execute(statement, args[: statement.count("?")])
    finally:
        db.close()


def _big_blob(home: Path, pid: str) -> Path:
    db = sqlite3.connect(home / "store.sqlite3")
    try:
        (sha,) = db.execute("SELECT sha256 FROM luggage WHERE passport_id = ?", (pid,)).fetchone()
    finally:
        db.close()
    return blob_path(home, sha)


def _no_version(home: Path, pid: str) -> None:
    _sql(
        home,
        "DELETE FROM versions WHERE passport_id = ? AND version = "
        "(SELECT version FROM passports WHERE id = ?)",
        args=(pid, pid),
    )


def _version_beyond(home: Path, pid: str) -> None:
    _sql(
        home,
        "INSERT INTO versions (passport_id, version, data) "
        "SELECT id, version + 5, data FROM passports WHERE id = ?",
        args=(pid,),
    )


def _orphan_version(home: Path, pid: str) -> None:
    _sql(home, "INSERT INTO versions (passport_id, version, data) VALUES ('TP-GONE-GONE', 1, '{}')")


def _history_beyond(home: Path, pid: str) -> None:
    _sql(
        home,
        "UPDATE history SET version = 99 WHERE seq = (SELECT max(seq) FROM history "
        "WHERE passport_id = ?)",
        args=(pid,),
    )


def _broken_json(home: Path, pid: str) -> None:
    _sql(
        home,
        "UPDATE passports SET data = substr(data, 1, 40) WHERE id = ?",
        "UPDATE versions SET data = (SELECT data FROM passports WHERE id = ?) WHERE passport_id = ? "
        "AND version = (SELECT version FROM passports WHERE id = ?)",
        args=(pid, pid, pid),
    )


def _dropped_table(home: Path, pid: str) -> None:
    _sql(home, "DROP TABLE landings")


def _dropped_a2a_table(home: Path, pid: str) -> None:
    A2AStore(home).close()
    db = sqlite3.connect(home / "a2a.sqlite3")
    with db:
        db.execute("DROP TABLE sent")
    db.close()


def _dangling(home: Path, pid: str) -> None:
    _sql(
        home,
        "INSERT INTO luggage (passport_id, name, sha256, size, added_at) "
        "SELECT 'TP-NONE-NONE', 'x.bin', sha256, size, added_at FROM luggage LIMIT 1",
    )


def _blob_gone(home: Path, pid: str) -> None:
    _big_blob(home, pid).unlink()


def _blob_longer(home: Path, pid: str) -> None:
    with open(_big_blob(home, pid), "ab") as f:
        f.write(b"+")


DAMAGE: dict[str, tuple[Callable[[Path, str], None], str]] = {
    "dangling reference": (_dangling, "a dangling reference in luggage row"),
    "no matching version": (_no_version, "has no matching version"),
    "version beyond the current one": (_version_beyond, "beyond its current version"),
    "orphan version row": (_orphan_version, "version 1 of TP-GONE-GONE belongs to no passport"),
    "history beyond the version": (_history_beyond, "names version 99 of"),
    "broken record JSON": (_broken_json, "is damaged and cannot be read"),
    "store table dropped": (_dropped_table, "the table landings is missing"),
    "A2A table dropped": (_dropped_a2a_table, "the A2A table sent is missing"),
    "blob file missing": (_blob_gone, "is missing its stored bytes"),
    "blob file longer": (_blob_longer, "stored bytes instead of 300000"),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_doctor_names_each_kind_of_damage(kind: str, tmp_path: Path) -> None:
    home = tmp_path / "desk"
    pid, _other = _desk(home, tmp_path)
    whole = cli(home, "doctor", "--json")
    assert whole.returncode == 0 and json.loads(whole.stdout)["whole"], whole.stdout + whole.stderr
    damage, sentence = DAMAGE[kind]
    damage(home, pid)
    found = cli(home, "doctor", "--json")
    assert found.returncode == 1, found.stdout + found.stderr
    problems = json.loads(found.stdout)["problems"]
    assert any(sentence in p for p in problems), problems
    said = cli(home, "doctor")
    assert said.returncode == 1 and "damaged" in said.stderr and "Traceback" not in said.stderr


@pytest.mark.parametrize("verb", [("open",), ("pack", "--out", "x.taskpack"), ("move", "waiting")])
def test_a_broken_record_is_one_sentence_for_every_command(verb: tuple[str, ...], tmp_path: Path):
    home = tmp_path / "desk"
    pid, other = _desk(home, tmp_path)
    _broken_json(home, pid)
    args = [a if a != "x.taskpack" else str(tmp_path / a) for a in verb]
    done = cli(home, args[0], pid, *args[1:])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"the stored record of passport {pid} is damaged" in done.stderr
    assert "taskpack doctor" in done.stderr
    assert cli(home, "open", other).returncode == 0  # the others still open


def test_unused_bytes_are_found_and_swept_when_old(tmp_path: Path) -> None:
    home = tmp_path / "desk"
    pid, _other = _desk(home, tmp_path)
    with Desk(home, MACHINE, actor="tester") as desk:
        # a landing that failed after its luggage was stored leaves its blob unnamed
        with open(tmp_path / "failed.bin", "wb") as f:
            f.write(os.urandom(200_000))
        with open(tmp_path / "failed.bin", "rb") as f:
            failed, _ = desk.store.put_blob(f)
        with open(tmp_path / "young.bin", "wb") as f:
            f.write(os.urandom(100_000))
        with open(tmp_path / "young.bin", "rb") as f:
            young, _ = desk.store.put_blob(f)
        # a file replaced by another of the same name: the first one's blob is unnamed
        (tmp_path / "a.txt").write_text("first\n")
        desk.attach(pid, [tmp_path / "a.txt"])
        replaced = desk.luggage(pid)
        (tmp_path / "a.txt").write_text("second\n")
        desk.attach(pid, [tmp_path / "a.txt"])
    [first] = [x.sha256 for x in replaced if x.name == "a.txt"]
    # a small blob kept as a row whose luggage row was replaced the same way
    row = b"a small landed file, replaced"
    _sql(
        home,
        "INSERT INTO blob_bytes (sha256, data) VALUES (?, ?)",
        args=(hashlib.sha256(row).hexdigest(), row),
    )
    A2AStore(home).close()
    receipt = home / "a2a" / "receipts" / pid / f"{pid}-receipt-v2.taskpack"
    receipt.parent.mkdir(parents=True)
    receipt.write_bytes(b"an old receipt")
    old = blob_path(home, failed)
    for path in (old, receipt):
        os.utime(path, (path.stat().st_atime - OLD, path.stat().st_mtime - OLD))

    found = cli(home, "doctor", "--json")
    assert found.returncode == 0, found.stderr
    unused = {(u["kind"], u["name"]) for u in json.loads(found.stdout)["unused"]}
    rel = str(receipt.relative_to(home))
    row_sha = hashlib.sha256(row).hexdigest()
    assert unused == {
        ("blob", failed),
        ("blob", young),
        ("blob", first),
        ("receipt", rel),
        ("blob row", row_sha),
    }
    said = cli(home, "doctor")
    assert "5 stored file(s) or row(s)" in said.stdout and "doctor --sweep" in said.stdout

    swept = cli(home, "doctor", "--sweep")
    assert swept.returncode == 0, swept.stderr
    assert "removed 3 unused stored file(s) or row(s)" in swept.stdout
    assert "2 younger than 15 minutes were left alone" in swept.stdout
    assert not old.exists() and not receipt.exists() and blob_path(home, young).exists()
    left = json.loads(cli(home, "doctor", "--json").stdout)["unused"]
    assert sorted(u["name"] for u in left) == sorted([young, first])
    assert cli(home, "pack", pid, "--out", tmp_path / "after.taskpack").returncode == 0
