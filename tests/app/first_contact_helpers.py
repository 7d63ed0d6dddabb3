"""Real `taskpack` processes on named desks, for the first-contact tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


class Machine:
    """One desk (home folder, machine name, person) driven through the real command line."""

    def __init__(self, root: Path, name: str, actor: str) -> None:
        self.home, self.name, self.actor = root / name, name, actor

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            TASKPACK_HOME=str(self.home),
            TASKPACK_MACHINE=self.name,
            TASKPACK_ACTOR=self.actor,
            TASKPACK_NO_PROGRESS="1",
            PYTHONIOENCODING="utf-8",
            LANG="C.UTF-8",
            PYTHONPYCACHEPREFIX=os.path.join(tempfile.gettempdir(), "taskpack-test-pycache"),
        )
        return env

    def __call__(
        self, *args: str, code: int | None = 0, stdin: str | bytes | None = None
    ) -> subprocess.CompletedProcess[str]:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        raw = subprocess.run(
            [sys.executable, "-m", "taskpack.app.cli.main", *args],
            env=self.env(),
            input=data,
            capture_output=True,
            timeout=120,
        )
        proc = subprocess.CompletedProcess(
            raw.args, raw.returncode, raw.stdout.decode("utf-8"), raw.stderr.decode("utf-8")
        )
        if code is not None:
            assert proc.returncode == code, (self.name, args, proc.stdout, proc.stderr)
        return proc

    def json(self, *args: str, code: int = 0, stdin: str | None = None) -> Any:
        return json.loads(self(*args, "--json", code=code, stdin=stdin).stdout)

    def open(self, pid: str) -> dict[str, Any]:
        data: dict[str, Any] = self.json("open", pid)
        return data


def asks_of(lp: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in lp.get("asks") or []}
