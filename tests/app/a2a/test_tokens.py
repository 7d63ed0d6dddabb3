"""Tokens: secrets in the keyring (in-memory here), a non-secret index in the home, the
server resolving a bearer by its hash; `taskpack token add|list|revoke`."""

from __future__ import annotations

import io
import json
import time
from typing import ClassVar

import httpx
import pytest
from a2a_testkit import V1
from taskpack.app.a2a import tokens
from taskpack.app.a2a.guard import Guard
from taskpack.app.a2a.ledger import A2AStore
from taskpack.app.cli import main as cli
from taskpack.core.errors import NotFound, UsageError


def _files_contain(root, needle: str) -> list[str]:
    hits = []
    for path in root.rglob("*"):
        if path.is_file() and needle.encode() in path.read_bytes():
            hits.append(str(path))
    return hits


def test_a_token_lives_in_the_keyring_and_only_its_hash_in_the_home(desk_b, memory_keyring):
    with A2AStore(desk_b.home) as store:
        new = tokens.add_token(store, "alice")
        assert new.token.startswith("tpk_") and len(new.token) > 40
        assert tokens.principal_for(store, new.token) == "alice"
        assert tokens.principal_for(store, new.token + "x") is None
        [row] = store.tokens()
        assert row.sha256 == tokens.token_hash(new.token)
        assert memory_keyring.entries == {}  # before: the keyring kept it; now only its hash
        with pytest.raises(UsageError):
            tokens.add_token(store, "alice")  # one token per name
        with pytest.raises(UsageError):
            tokens.add_token(store, "not a name!")
        store.close()
    assert _files_contain(desk_b.home, new.token) == []  # never a plaintext file


def test_two_desks_on_one_machine_keep_their_keyring_entries_apart(desks, memory_keyring):
    a, b = desks("desk-a"), desks("desk-b")
    with A2AStore(a.home) as sa, A2AStore(b.home) as sb:
        tokens.add_remote_token(sa, "peer", "tpk_for-a")
        tokens.add_remote_token(sb, "peer", "tpk_for-b")
        assert tokens.get_secret(sa, "peer") == "tpk_for-a"
        assert tokens.get_secret(sb, "peer") == "tpk_for-b"
        tokens.revoke(sa, "peer", kind="remote")
        with pytest.raises(NotFound):
            tokens.get_secret(sa, "peer")
        assert tokens.get_secret(sb, "peer") == "tpk_for-b"


def test_the_cli_prints_a_token_once_lists_names_and_revokes(desk_b, serve, monkeypatch, capsys):
    monkeypatch.setenv("TASKPACK_HOME", str(desk_b.home))
    monkeypatch.setenv("TASKPACK_MACHINE", desk_b.machine)
    assert cli.main(["token", "add", "carol"]) == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert token.startswith("tpk_") and "shown once" in err
    assert cli.main(["token", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(t["name"], t["kind"]) for t in listed] == [("carol", "accept")]
    assert token not in json.dumps(listed)

    server = serve(desk_b)
    headers = {**V1, "Authorization": f"Bearer {token}"}
    assert httpx.get(f"{server.url}/tasks", headers=headers).status_code == 200
    assert cli.main(["token", "revoke", "carol"]) == 0
    # the guard trusts a looked-up token for PRINCIPAL_TTL: move its clock past that
    later = time.monotonic() + Guard.PRINCIPAL_TTL + 0.01
    monkeypatch.setattr(Guard, "clock", staticmethod(lambda: later))
    assert httpx.get(f"{server.url}/tasks", headers=headers).status_code == 401
    assert cli.main(["token", "revoke", "carol"]) == 1  # a second revoke: not found
    assert "no accept token named 'carol'" in capsys.readouterr().err


def test_a_missing_keyring_is_one_clear_sentence(desk_b, monkeypatch, capsys):
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    monkeypatch.setenv("TASKPACK_HOME", str(desk_b.home))
    monkeypatch.setattr("sys.stdin", io.StringIO("tpk_from-dave\n"))
    assert cli.main(["token", "add", "dave", "--remote"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "taskpack: no system keyring works on this computer, so the token was not stored. "
    )
    assert err.count("\n") == 1
    assert "Windows Credential Manager" in err  # what to do, for each system
    assert "Traceback" not in err and "pypi" not in err  # not keyring's paragraph
    with A2AStore(desk_b.home) as store:
        assert store.tokens() == []  # nothing half-made


def test_a_plain_file_keyring_is_refused_in_one_line(desk_b, monkeypatch, capsys):
    import keyring
    from keyring.backend import KeyringBackend

    class PlaintextKeyring(KeyringBackend):  # what keyrings.alt's base64 file looks like
        priority = 1  # type: ignore[assignment]
        written: ClassVar[dict[str, str]] = {}

        def get_password(self, service, username):  # type: ignore[no-untyped-def]
            return self.written.get(username)

        def set_password(self, service, username, password):  # type: ignore[no-untyped-def]
            self.written[username] = password

        def delete_password(self, service, username):  # type: ignore[no-untyped-def]
            self.written.pop(username, None)

    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        monkeypatch.setenv("TASKPACK_HOME", str(desk_b.home))
        monkeypatch.setattr("sys.stdin", io.StringIO("tpk_from-erin\n"))
        # before: the peer's token went to the plain file
        assert cli.main(["token", "add", "erin", "--remote"]) == 1
        err = capsys.readouterr().err
        assert "keeps secrets in a plain file" in err and len(err.strip().splitlines()) == 1
        assert PlaintextKeyring.written == {}
        assert cli.main(["token", "add", "frank"]) == 0  # made here: only its hash is kept
        assert PlaintextKeyring.written == {}
    finally:
        keyring.set_keyring(previous)
