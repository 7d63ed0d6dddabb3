"""Fixtures for the desk tests: three desks, A, B and C (B and C let every sender through)."""

from __future__ import annotations

from pathlib import Path

import pytest
from desk_machines import Machine


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Machine]:
    return {n: Machine(tmp_path, n, allow=("*",) if n != "A" else ()) for n in ("A", "B", "C")}
