"""The declared public surface of `taskpack.core` (its `__all__`): every name an embedder
may import resolves, is the object its module defines, and importing the package does not
load the rest of the core."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
import taskpack.core as core

#: the surface as documented for embedders: a change to it is a change to this list
EXPECTED = {
    "Ask", "Cancelled", "Check", "Decision", "Fact", "Finding", "FormatError",
    "IntegrityError", "LandingCheck", "LandingRefused", "LimitExceeded", "Lineage",
    "LocalPassport", "NotConformant", "NotFound", "OpenedPack", "Origin", "PackError",
    "PackObject", "PassportState", "Refused", "Report", "SqliteStore", "Standing", "Store",
    "StoreError", "TaskPackError", "UnsafeEntry", "UnsupportedVersion", "UsageError",
    "VersionConflict", "WriteResult", "LuggageSource", "convert", "judge", "make_pack",
    "open_pack", "seal_facts", "standing", "write_pack",
}  # fmt: skip


def test_the_surface_is_exactly_the_documented_one() -> None:
    assert set(core.__all__) == EXPECTED
    assert core.__all__ == sorted(core.__all__)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_public_name_is_its_modules_own(name: str) -> None:
    value = getattr(core, name)
    home = importlib.import_module(value.__module__)
    assert getattr(home, name) is value
    assert home.__name__.startswith("taskpack.core.")


def test_a_name_outside_the_surface_is_not_served() -> None:
    with pytest.raises(AttributeError, match="no public name 'sniff'"):
        core.sniff  # noqa: B018 - defined in core.format.reading, but not public


def test_from_import_star_gives_the_surface() -> None:
    scope: dict[str, object] = {}
    exec("from taskpack.core import *", scope)
    assert set(scope) >= EXPECTED


def test_importing_the_package_loads_none_of_it() -> None:
    code = (
        "import sys, taskpack.core\n"
        "print(sorted(m for m in sys.modules if m.startswith('taskpack.core.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
