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
