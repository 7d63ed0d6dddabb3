"""Team desk URLs as libpq reads them — one host or several — and every bad one said in
one sentence wherever it is met: `settings set store`, TASKPACK_STORE under any command,
`store where`, opening a desk (the window)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from taskpack.app.desk import Desk
from taskpack.app.settings import Settings
from taskpack.app.team.choose import shown, where
from taskpack.app.team.url import BadUrl, parse
from taskpack.core.errors import StoreError, TaskPackError

BAD = {
    "postgresql://u@h:notaport/db": "port",
    "postgresql://u@h:99999/db": "port",
    "postgresql://u@h1:5432,h2:x/db": "port",
    "postgresql://u@[::1/db": "host",
    "mysql://u@h/db": "not a PostgreSQL URL",
}


def _cli(tmp_path: Path, *args: str, store: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("TASKPACK_STORE", None)
    env.update(TASKPACK_HOME=str(tmp_path / "home"), TASKPACK_MACHINE="box", TASKPACK_ACTOR="ana")
    if store is not None:
        env["TASKPACK_STORE"] = store
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_multi_host_url_is_read_with_every_port() -> None:
    url = "postgresql://ana@db1.example:5432,db2.example:5433/taskpack?target_session_attrs=read-write"
    parsed = parse(url)
    assert parsed.hosts == (("db1.example", 5432), ("db2.example", 5433))
    assert parsed.user == "ana" and parsed.database == "taskpack" and not parsed.has_password
    assert shown(url) == url
    assert where(url) == "taskpack on db1.example:5432,db2.example:5433"
    assert parse("postgresql://[::1]:5432,h/db").hosts == (("::1", 5432), ("h", None))


def test_a_password_anywhere_in_the_url_is_seen_and_never_shown() -> None:
    for url in ("postgresql://u:s3cret@h/db", "postgresql://u@h/db?password=s3cret"):
        assert parse(url).has_password
        assert "s3cret" not in shown(url)


@given(st.text(max_size=60))
def test_any_text_is_read_or_refused_with_a_sentence(text: str) -> None:
    try:
        parse("postgresql://" + text)
    except BadUrl as exc:
        assert str(exc)
    assert isinstance(shown("postgresql://" + text), str)
    assert isinstance(where("postgresql://" + text), str)


@pytest.mark.parametrize("url", sorted(BAD))
def test_settings_refuse_a_url_libpq_cannot_read(url: str) -> None:
    with pytest.raises(TaskPackError) as caught:
        Settings().set("store", url)
    assert BAD[url] in str(caught.value)


def test_a_bad_port_in_the_environment_is_one_sentence_everywhere(tmp_path: Path) -> None:
    bad = "postgresql://ana@db.example:notaport/taskpack"
    refused = _cli(tmp_path, "settings", "set", "store", bad)
    assert refused.returncode != 0 and "port" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    for args in (["store", "where"], ["list"], ["store", "init"]):
        done = _cli(tmp_path, *args, store=bad)
        assert done.returncode != 0, args
        assert "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "port that is not a number" in done.stderr
    os.environ.pop("TASKPACK_STORE", None)
    with pytest.MonkeyPatch.context() as mp:  # the window opens its desk this way
        mp.setenv("TASKPACK_STORE", bad)
        with pytest.raises(StoreError, match="port that is not a number"):
            Desk(tmp_path / "window-home", "box")


def test_a_password_in_the_environment_is_refused_and_not_shown(tmp_path: Path) -> None:
    done = _cli(tmp_path, "list", store="postgresql://ana:s3cret@127.0.0.1:1/taskpack")
    assert done.returncode != 0 and "holds a password" in done.stderr
    assert "s3cret" not in done.stderr + done.stdout
