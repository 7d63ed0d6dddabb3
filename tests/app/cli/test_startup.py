"""What `taskpack` imports before it answers: start-up is what a person
waits for on every small command, so `--help`, `--version` and the argument parser
never import the codec or build a pydantic model, and judging a pack never builds one.

Asserted on the modules a real process imported (``python -X importtime``), not on
time: a count of imports does not depend on how loaded the machine is.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack

BASE = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": "lin@acme", "machine": "lin-laptop", "harness": "claude-code"},
    "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 3, "chain": ["TP-G6RZ-DS3B@3"]},
    "note": "the invoice export half works",
    "passport": {
        "id": "TP-G6RZ-DS3B",
        "title": "Invoice export",
        "goal": "Export invoices",
        "version": 3,
        "facts": [
            {"claim": "The customer wants semicolons", "scope": "universal", "verified": True}
        ],
    },
    "asks": [],
    "landing_checks": [],
}

HEAVY = {
    "pydantic",
    "taskpack.core.format.model",
    "taskpack.core.format.reading",
    "taskpack.core.format.bag",
    "taskpack.core.format.zip_archive",
    "taskpack.core.desk.store",
    "taskpack.app.desk",
    "taskpack.app.watcher",
    "sqlite3",
}


#: the installed command's console script (pyproject: `taskpack.app.cli.entry:main`)
ENTRY = (
    "import sys\n"
    "from taskpack.app.cli.entry import main\n"
    "sys.argv = ['taskpack', *sys.argv[1:]]\n"
    "sys.exit(main())\n"
)


def imported(
    args: list[str], env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", ENTRY, *args],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in r.stderr.splitlines()
        if line.startswith("import time:")
    }
    return r, names


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["convert", "--help"], ["land", "--help"]]
)
def test_help_and_version_import_no_codec_and_no_model(
    args: list[str], cli_env: dict[str, str]
) -> None:
    r, names = imported(args, cli_env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "taskpack" in r.stdout
    assert names & HEAVY == set()
    assert "importlib.metadata" not in names  # scanning the path for the version: ~50 ms
    # a record with no docstring makes `dataclasses` import `inspect` (~9 ms) to write one
    assert "inspect" not in names
    if args == ["--version"]:  # answered before any verb's module is imported
        entry = {"taskpack.app.cli.main", "taskpack.app.cli.entry", "taskpack.app.cli.startup"}
        assert not {n for n in names if n.startswith("taskpack.app.cli.") and n not in entry}


@pytest.mark.parametrize("name", ["p.taskpack", "p.taskpack.json"])
def test_judging_a_pack_builds_no_model(name: str, tmp_path: Path, cli_env: dict[str, str]) -> None:
    path = tmp_path / name
    write_pack(
        BASE,
        [LuggageSource.from_bytes("notes.txt", b"hello\n")],
        path,
        encoding="flat" if name.endswith(".json") else "bag",
    )
    r, names = imported(["conformance", str(path)], cli_env)
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    assert "conformant (11/11 checks pass)" in r.stdout
    assert {
        "pydantic",
        "taskpack.core.format.model",
        "taskpack.core.desk.store",
        "sqlite3",
    } & names == set()


def test_a_pack_of_the_wrong_shape_is_still_judged_without_a_model(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    bad = {**BASE, "note": 7, "passport": {**BASE["passport"], "title": ["not", "a", "string"]}}
    path = tmp_path / "bad.taskpack"
    write_pack(bad, [], path, encoding="bag")
    r, names = imported(["conformance", str(path)], cli_env)
    assert r.returncode == 2, r.stdout + r.stderr[-2000:]
    assert "field note: Input should be a valid string" in r.stdout
    assert "field passport.title: Input should be a valid string" in r.stdout
    assert "pydantic" not in names


#: what a small pack's judge has no use for: other verbs, the desk, the fast scanner (its
#: databases only pay for themselves past 256 KiB)
NOT_FOR_A_SMALL_JUDGE = {
    "hyperscan",
    "inspect",  # the entry point defers it (app/cli/startup.py)
    "taskpack.app.cli.passports",
    "taskpack.app.cli.a2a",
    "taskpack.app.cli.watch",
    "taskpack.app.cli.doctor",
    "taskpack.app.settings",
    "taskpack.core.desk.lifecycle",
}


@pytest.mark.parametrize("name", ["p.taskpack", "p.taskpack.json"])
def test_judging_a_small_pack_imports_only_what_judging_needs(
    name: str, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    path = tmp_path / name
    write_pack(
        BASE,
        [LuggageSource.from_bytes("notes.txt", b"hello\n")],
        path,
        encoding="flat" if name.endswith(".json") else "bag",
    )
    r, names = imported(["conformance", str(path)], cli_env)
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    assert "conformant (11/11 checks pass)" in r.stdout
    assert names & NOT_FOR_A_SMALL_JUDGE == set()
    if name.endswith(".taskpack"):  # a zip is never text, and never the flat form
        assert names & {"taskpack.core.format.pack_in_text", "taskpack.core.format.flat"} == set()


def verbs_offered(parser: argparse.ArgumentParser) -> set[str]:
    """The verbs a parser names to a person who types one it does not know."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        parser.parse_args(["no-such-verb"])
    return set(re.findall(r"'([a-z][a-z-]*)'", err.getvalue().split("choose from", 1)[1]))


def test_every_verb_is_run_by_the_module_that_registers_it() -> None:
    # `main` imports only a verb's own module (VERB_HOMES): each verb must be there, or it
    # is parsed by the whole parser, importing every verb module again
    from taskpack.app.cli import main as cli

    whole = verbs_offered(cli.build_parser())
    assert "pack" in whole and set(cli.VERB_HOMES) == whole
    for verb in whole:
        alone = verbs_offered(cli.build_parser(verb))
        assert verb in alone, f"{verb} is not registered by {cli.VERB_HOMES[verb]}"


# ---- the entry point's one start-up measure (app/cli/startup.py) -----------------------


def _run(code: str) -> str:
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip()


def test_inspect_deferred_and_a_dataclass_without_a_docstring_still_gets_one() -> None:
    out = _run(
        """
        import sys
        from taskpack.app.cli.startup import defer_inspect
        defer_inspect()
        import taskpack.core.trust.conformance
        print("inspect" in sys.modules)
        from dataclasses import dataclass
        @dataclass
        class Point:
            x: int
            y: str = "a"
        print(Point.__doc__)
        import inspect
        print(type(inspect).__name__, inspect.signature(Point))
        """
    )
    assert out.splitlines() == [
        "False",
        "Point(x: int, y: str = 'a')",
        "module (x: int, y: str = 'a') -> None",
    ]


def test_a_process_that_imported_inspect_first_keeps_it() -> None:
    out = _run(
        """
        import inspect, sys
        from taskpack.app.cli.startup import defer_inspect
        defer_inspect()
        import dataclasses
        print(dataclasses.inspect is inspect is sys.modules["inspect"])
        """
    )
    assert out == "True"
