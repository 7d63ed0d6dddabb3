"""The team desk itself: who did what, the schema and its refusals, one line for bad
input, doctor, migrating an embedded desk in."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.app.team import schema
from taskpack.app.team.pg_store import PgStore
from taskpack.core.errors import StoreError
from team_helpers import sender_pack


def _desk(url: str, home: Path, machine: str, actor: str, monkeypatch: pytest.MonkeyPatch) -> Desk:
    monkeypatch.setenv("TASKPACK_STORE", url)
    return Desk(home, machine, actor=actor, settings=Settings(gate_allow=["*"]))


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _env(tmp_path: Path, url: str | None, **more: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TASKPACK_STORE", None)
    env.update(
        TASKPACK_HOME=str(tmp_path / "cli-home"),
        TASKPACK_MACHINE="cli-box",
        TASKPACK_ACTOR="cli",
        TASKPACK_NO_PROGRESS="1",
        **more,
    )
    if url:
        env["TASKPACK_STORE"] = url
    return env


def test_history_says_who_and_the_inbox_filters_by_who_took_it_on(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana", monkeypatch)
    wei = _desk(team_desk_url, tmp_path / "b", "beta", "wei", monkeypatch)
    landed = ana.land(sender_pack(tmp_path)).passport
    wei.move(landed.id, "accepted")
    # the name the desk gives, beside the database role the server saw sign in
    assert [h.who for h in ana.history(landed.id)][-1] == "wei@beta (role postgres)"
    assert ana.history(landed.id)[0].who == "ana@alpha (role postgres)"
    mine = ana.new("Mine", "ana's own")
    assert [s.id for s in ana.passports(taken_by="wei")] == [landed.id]
    assert [s.id for s in wei.passports(taken_by="ana@alpha")] == [mine.id]
    ana.close(), wei.close()


def test_a_team_desk_keeps_nothing_of_the_store_in_the_home(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = _desk(team_desk_url, tmp_path / "home", "alpha", "ana", monkeypatch)
    desk.land(sender_pack(tmp_path, luggage=b"bytes" * 100))
    desk.close()
    assert not (tmp_path / "home" / "store.sqlite3").exists()
    assert not (tmp_path / "home" / "blobs").exists()


def test_the_window_hook_hears_of_another_process_change(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana", monkeypatch)
    heard = threading.Event()
    ana.on_changes_elsewhere(heard.set)
    env = _env(tmp_path, team_desk_url)
    made = _cli(["new", "--title", "From the CLI", "--goal", "a change made elsewhere"], env)
    assert made.returncode == 0, made.stderr
    assert heard.wait(timeout=30)
    assert ana.changes_elsewhere()
    ana.close()


def test_init_twice_and_from_two_starters_at_once_makes_one_schema(team_url: str) -> None:
    results: list[tuple[int, int]] = []
    starters = [
        threading.Thread(target=lambda: results.append(schema.init(team_url))) for _ in range(2)
    ]
    for t in starters:
        t.start()
    for t in starters:
        t.join()
    assert sorted(results) == [(0, schema.LATEST), (schema.LATEST, schema.LATEST)] or sorted(
        results
    ) == [(0, schema.LATEST), (0, schema.LATEST)]
    assert schema.init(team_url) == (schema.LATEST, schema.LATEST)


def test_a_schema_newer_than_this_desk_is_refused_and_untouched(
    team_desk_url: str, tmp_path: Path
) -> None:
    with psycopg.connect(team_desk_url, autocommit=True) as conn:
        conn.execute("UPDATE taskpack.meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="made by a newer TaskPack Desk") as got:
        PgStore(team_desk_url, home=tmp_path, who="x@y")
    assert "127.0.0.1" in str(got.value)
    env = _env(tmp_path, team_desk_url)
    done = _cli(["list"], env)
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1
    assert "newer TaskPack Desk" in done.stderr
    with psycopg.connect(team_desk_url) as conn:
        assert conn.execute("SELECT value FROM taskpack.meta WHERE key='schema'").fetchone() == (
            "99",
        )


def test_a_database_of_another_program_is_refused_and_nothing_written(
    team_url: str, tmp_path: Path
) -> None:
    with psycopg.connect(team_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id int)")
    done = _cli(["store", "init"], _env(tmp_path, team_url))
    assert done.returncode != 0
    assert "holds another program's tables" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    with psycopg.connect(team_url) as conn:
        assert conn.execute("SELECT to_regnamespace('taskpack')").fetchone() == (None,)


def test_no_schema_yet_says_to_run_init(team_url: str, tmp_path: Path) -> None:
    done = _cli(["list"], _env(tmp_path, team_url))
    assert done.returncode != 0 and "taskpack store init" in done.stderr
    assert not (tmp_path / "cli-home" / "store.sqlite3").exists()


def test_a_wrong_url_and_a_refused_password_are_one_line_without_the_password(
    postgres: object, tmp_path: Path
) -> None:
    closed = "postgresql://nobody@127.0.0.1:1/desk"
    done = _cli(["list"], _env(tmp_path, closed))
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1
    assert "cannot be reached" in done.stderr and "127.0.0.1:1" in done.stderr
    port = postgres.port  # type: ignore[attr-defined]
    with psycopg.connect(postgres.admin_url, autocommit=True) as conn:  # type: ignore[attr-defined]
        conn.execute(  # another test may have made it already (one cluster per session)
            "DO $$ BEGIN CREATE ROLE locked LOGIN PASSWORD 'right-one'; "
            "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
    wrong = f"postgresql://locked@127.0.0.1:{port}/postgres"
    done = _cli(["list"], _env(tmp_path, wrong, PGPASSWORD="s3cret-wrong"))
    assert done.returncode != 0
    assert "refused the password" in done.stderr
    assert "s3cret-wrong" not in done.stderr + done.stdout
    assert not (tmp_path / "cli-home" / "store.sqlite3").exists()
    bad = _cli(["settings", "set", "store", "postgresql://u:pw@h/db"], _env(tmp_path, None))
    assert bad.returncode != 0 and "never keep" in bad.stderr


def test_doctor_checks_every_blob_read_only_and_says_what_is_wrong(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = _desk(team_desk_url, tmp_path / "a", "alpha", "ana", monkeypatch)
    desk.land(sender_pack(tmp_path, luggage=b"precious" * 1000))
    desk.close()
    env = _env(tmp_path, team_desk_url)
    whole = _cli(["doctor"], env)
    assert whole.returncode == 0, whole.stderr
    assert "is whole" in whole.stdout and "1 luggage blob(s)" in whole.stdout
    with psycopg.connect(team_desk_url, autocommit=True) as conn:
        conn.execute(  # the same length, other bytes
            "UPDATE taskpack.blob_chunks SET data = decode(repeat('00', octet_length(data)), 'hex')"
        )
    damaged = _cli(["doctor"], env)
    assert damaged.returncode == 1
    assert "no longer matches its sha256" in damaged.stderr.splitlines()[0]


# the landed luggage is kept as a database row (small) or as a file of the blob folder
@pytest.mark.parametrize("size", [500, 5000], ids=["kept as a row", "kept as a file"])
def test_migrate_copies_a_desk_whole_and_twice_changes_nothing(
    team_desk_url: str, tmp_path: Path, size: int
) -> None:
    env = _env(tmp_path, None)
    home = Path(env["TASKPACK_HOME"])
    local = Desk(home, "cli-box", actor="cli", settings=Settings(gate_allow=["*"]))
    landed = local.land(sender_pack(tmp_path, luggage=b"carried" * size)).passport
    mine = local.new("Mine", "made here")
    local.add_fact(mine.id, "a fact")
    local.pack(mine.id, tmp_path / "out.taskpack", to="finance")
    before = {
        p.id: (local.get(p.id).to_data(), [h.event for h in local.history(p.id)])
        for p in local.passports()
    }
    local.close()
    first = _cli(["store", "migrate", "--to", team_desk_url], env)
    assert first.returncode == 0, first.stderr
    assert "Copied 2 passport(s) and 1 luggage blob(s)" in first.stdout
    second = _cli(["store", "migrate", "--to", team_desk_url], env)
    assert "Copied 0 passport(s) and 0 luggage blob(s)" in second.stdout
    assert "2 were there already" in second.stdout
    with PgStore(team_desk_url, home=tmp_path / "t", who="t@t", listen=False) as team:
        after = {
            pid: (team.get(pid).to_data(), [h.event for h in team.history(pid)]) for pid in before
        }
        assert after == before
        assert [p.to for p in team.outbox()] == ["finance"]
        assert len(team.landings_for(landed.id)) == 1
        assert team.check(hash_blobs=True) == []


def test_a_fact_proven_on_alpha_is_sealed_for_beta_as_if_a_pack_had_crossed(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taskpack.core.trust.sealing import standing

    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana", monkeypatch)
    wei = _desk(team_desk_url, tmp_path / "b", "beta", "wei", monkeypatch)
    lp = ana.new("Invoice export", "CSV for finance")
    ana.add_fact(lp.id, "port 5432 answers", scope="machine", verified=True)
    assert standing(ana.get(lp.id).passport.facts[0], machine="alpha").kind == "proven_here"
    on_beta = standing(wei.get(lp.id).passport.facts[0], machine="beta")
    # the same fact carried by a pack from alpha's own desk to beta's
    monkeypatch.delenv("TASKPACK_STORE")
    sender = Desk(tmp_path / "alpha-own", "alpha", actor="ana")
    mine = sender.new("Invoice export", "CSV for finance")
    sender.add_fact(mine.id, "port 5432 answers", scope="machine", verified=True)
    pack = sender.pack(mine.id, tmp_path / "crossed.taskpack").path
    receiver = Desk(tmp_path / "beta-own", "beta", actor="wei", settings=Settings(gate_allow=["*"]))
    crossed = standing(receiver.land(pack).passport.passport.facts[0], machine="beta")
    assert on_beta.kind != "proven_here"
    assert (on_beta.kind, crossed.kind) == ("claimed_elsewhere", "unproven_here") or (
        on_beta.kind == crossed.kind
    )
    assert "alpha" in on_beta.text
    checked = wei.check_fact_here(lp.id, 1).passport.facts[0]
    assert standing(checked, machine="beta").kind == "proven_here"
    for d in (ana, wei, sender, receiver):
        d.close()


def test_a_checkpoint_from_beta_with_a_new_proven_fact_is_beta_s_alone(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taskpack.core.trust.sealing import standing

    ana = _desk(team_desk_url, tmp_path / "a", "alpha", "ana", monkeypatch)
    wei = _desk(team_desk_url, tmp_path / "b", "beta", "wei", monkeypatch)
    lp = ana.new("Invoice export", "CSV for finance")
    facts = [{"claim": "the VPN is up", "scope": "machine", "verified": True}]
    wei.checkpoint(lp.id, {"facts": facts}, expected_version=lp.version)
    fact = ana.get(lp.id).passport.facts[0]
    assert standing(fact, machine="beta").kind == "proven_here"
    assert standing(fact, machine="alpha").kind != "proven_here"
    ana.close(), wei.close()


def test_migrate_carries_the_a2a_tokens_and_message_ids(
    team_desk_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import keyring
    from taskpack.app.a2a import tokens
    from taskpack.app.a2a.ledger import A2AStore, open_ledger
    from taskpack.app.a2a.migrate_team import migrate_a2a

    previous = keyring.get_keyring()
    keyring.set_keyring(tokens.MemoryKeyring())
    try:
        home = tmp_path / "local"
        with A2AStore(home) as local:
            accept = tokens.add_token(local, "agent-1").token
            tokens.add_remote_token(local, "peer", "peer-secret-1234567890", url="https://peer")
            local.complete(
                "agent-1",
                "m-1",
                "d" * 64,
                "TP-AAAA-AAAA",
                kind="handoff",
                requested_context=None,
                root_id="TP-AAAA-AAAA",
            )
        assert migrate_a2a(home, team_desk_url) == 5  # 2 tokens, 1 context, 1 task, 1 message
        assert migrate_a2a(home, team_desk_url) == 0  # twice changes nothing
        monkeypatch.setenv("TASKPACK_STORE", team_desk_url)
        with open_ledger(tmp_path / "elsewhere") as team:
            assert tokens.principal_for(team, accept) == "agent-1"
            assert tokens.get_secret(team, "peer") == "peer-secret-1234567890"
            assert team.message("agent-1", "m-1").task_id == "TP-AAAA-AAAA"
    finally:
        keyring.set_keyring(previous)
