"""Which store a desk opens, before any connection is made."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from taskpack.app.team.choose import open_store
from taskpack.core.errors import StoreError


def test_an_embedded_desk_never_loads_the_postgresql_client(tmp_path: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from taskpack.app.desk import Desk;"
        f"d = Desk.open(Path({str(tmp_path)!r})); d.close();"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "TASKPACK_MACHINE": "m", "PYTHONPATH": ":".join(sys.path)},
    )
    assert out.stdout.strip() == "[]", out.stderr


def test_a_team_desk_without_the_client_library_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "taskpack.app.team.pg_store", None)  # import fails
    with pytest.raises(StoreError) as caught:
        open_store(tmp_path, settings_store="postgresql://ana:s3cret@db.example/desk", who="a")
    said = str(caught.value)
    assert "the team desk postgresql://ana@db.example/desk" in said
    assert "s3cret" not in said and "\n" not in said
    assert "libpq" in (caught.value.hint or "")


def test_an_installation_without_the_team_extra_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """psycopg is the `team` extra: an embedded desk never needs it, and a team desk opened
    without it says which extra to install."""
    loaded = [n for n in sys.modules if n.startswith("taskpack.app.team.")]
    for name in [n for n in loaded if n != "taskpack.app.team.choose"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # not installed
    with pytest.raises(StoreError) as caught:
        open_store(tmp_path, settings_store="postgresql://ana@db.example/desk", who="a")
    said = str(caught.value)
    assert "no PostgreSQL driver" in said and "\n" not in said
    assert "pip install 'taskpack-desk[team]'" in (caught.value.hint or "")


def test_the_embedded_desk_never_imports_the_team_driver(tmp_path: Path) -> None:
    code = (
        "import sys; from taskpack.app.desk import Desk; from pathlib import Path;"
        f"d = Desk(Path({str(tmp_path)!r}), 'box'); d.passports(); d.close();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
