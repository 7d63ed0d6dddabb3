"""The Windows lane: which tests run under Windows' own Python (CPython 3.11.9 for Windows,
under Wine: packaging/windows/README.md), and why the others do not. The one place where
each exclusion is named with its reason; tests/test_windows_lane.py keeps it whole (every
test file is in the lane or named here, every name here exists).

    .venv/bin/python packaging/windows/winenv.py run -- tests/windows_lane.py [PYTEST ARGS]

(``make test-windows`` does that, then tests/packaging/test_wine_round_trip.py on Linux.)

A Windows process starts in 1–3 s under Wine and Python runs there at about a third of
its Linux speed, so the whole suite (2,500 tests, many starting processes) would not fit
CI's budget. The lane runs what depends on the platform: the format, trust and store
layers (files, ZIPs, SQLite, paths, locks, atomic replaces), the platform seams, the
watcher, the command line in real processes through pipes, the MCP server over stdio,
the desk window's folder watching and a GUI smoke. What it leaves out runs the same
Python code as what it keeps, on top of it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

#: test files and folders run under Windows' Python
LANE = [
    "tests/core",
    "tests/app/platform",
    "tests/app/test_watcher.py",
    "tests/app/test_watcher_withholding.py",
    "tests/app/test_drafts.py",
    "tests/app/test_desk.py",
    "tests/app/test_isolated.py",
    "tests/app/test_luggage_out.py",
    "tests/app/cli/test_passports.py",
    "tests/app/cli/test_receipt_twice.py",
    "tests/app/cli/test_doctor.py",
    "tests/app/cli/test_watch.py",
    "tests/app/cli/test_luggage_verbs.py",
    "tests/app/cli/test_pack_files.py",
    "tests/app/cli/test_terminal.py",
    "tests/app/mcp/test_mcp_stdio.py",
    "tests/ui/test_settings.py",
    "tests/ui/test_watch_and_launch.py",
]

#: what the lane leaves out, by file or folder (the longest matching name applies)
NOT_IN_LANE = {
    "tests/core/format/test_bag.py": "checks our bags with bagit-python, whose last "
    "Windows wheel (1.8.1) imports pkg_resources, deprecated with a warning this suite "
    "fails on",
    "tests/app/team": "the team desk's tests start a PostgreSQL 15 cluster as the postgres "
    "system user (runuser, initdb): a Linux server, reached by the desk over TCP",
    "tests/app/mcp/test_mcp_typescript.py": "drives the server with the MCP TypeScript SDK "
    "under Linux's node",
    "tests/app/mcp": "the MCP tools' logic, over the desk the lane tests; its stdio "
    "transport is in the lane (test_mcp_stdio.py)",
    "tests/app/a2a": "the A2A endpoint is HTTP on loopback over the same desk; its tests "
    "start many servers and clients (the smoke test serves it under Windows)",
    "tests/app/cli": "the other verbs parse and print as the ones in the lane do, through "
    "the same entry point; each test starts several processes (1–3 s each under Wine)",
    "tests/app": "the desk's own logic over the store the lane tests (landing, replies, "
    "first contact, outbox); heavy on processes and time",
    "tests/ui": "the window's logic, the same on every platform Qt draws on; the lane "
    "keeps the settings dialog, folder watching in the window and the smoke test",
    "tests/packaging": "Linux desktop integration (xdg-mime, .desktop files), the Linux "
    "PyInstaller build and the build tooling, each run on Linux",
    "tests/test_docs.py": "reads the docs against the tree: no platform in it",
    "tests/test_module_size.py": "counts lines: no platform in it",
    "tests/test_windows_lane.py": "checks this list against the tree: no platform in it",
}

#: single tests in the lane that are Linux's alone: node id (or its start) -> why
LINUX_ONLY: dict[str, str] = {
    "tests/core/format/test_reading.py::test_hostile_file_is_refused[backslash entry name]": (
        "zipfile turns the backslash the test writes into '/' on Windows, so the hostile "
        "name cannot be made there (the entry is still refused, for its '..' segments)"
    ),
    "tests/app/cli/test_pack_files.py::test_hostile_file_from_the_command_line[backslash": (
        "zipfile turns the backslash the test writes into '/' on Windows"
    ),
    "tests/core/format/test_zip_archive.py::test_a_small_entry_read_whole_is_what_the_str": (
        "its random entry names hold backslashes, which zipfile turns into '/' on Windows "
        "when it reads the directory (the format layer refuses such names anyway)"
    ),
    "tests/core/format/test_reading.py::test_hostile_files_are_refused_in_bounded_memory": (
        "measures peak memory with the resource module, which is POSIX's"
    ),
    "tests/core/trust/scan/test_evasions.py::test_forty_repetitive_logs_are_read_to_the_e": (
        "measures peak memory with the resource module, which is POSIX's"
    ),
    "tests/core/format/test_reading.py::test_a_folder_is_packed_without_following_its_sym": (
        "makes symbolic links and a FIFO: Windows has no FIFOs, and symbolic links need a "
        "privilege ordinary Windows users lack"
    ),
    "tests/core/format/test_reading.py::test_a_file_swapped_for_a_symlink_after_the_walk": (
        "makes symbolic links, which need a privilege ordinary Windows users lack"
    ),
    "tests/core/format/test_reading.py::test_a_symlink_named_on_the_command_line_is_follo": (
        "makes symbolic links, which need a privilege ordinary Windows users lack"
    ),
    "tests/app/cli/test_luggage_verbs.py::test_pack_file_leaves_a_symlink_out_and_says_so": (
        "makes symbolic links, which need a privilege ordinary Windows users lack"
    ),
    "tests/app/cli/test_luggage_verbs.py::test_attach_leaves_a_symlink_out_and_says_so": (
        "makes symbolic links, which need a privilege ordinary Windows users lack"
    ),
    "tests/core/format/test_canonical.py::test_every_entry_of_a_bag_carries_the_pack_time": (
        "changes the time zone with time.tzset, which is POSIX's"
    ),
    "tests/core/desk/test_health.py::test_the_store_its_backups_and_the_a2a_ledger_are_fo": (
        "POSIX file modes (0600): Windows keeps access in ACLs and its Python reports 0666"
    ),
    "tests/core/desk/test_restore_provenance.py": (
        "the test leaves its two desks' stores open when its temporary folder is deleted, "
        "which Windows refuses (the test's handles, not the desk's)"
    ),
    "tests/core/trust/test_refusals.py::test_both_engines_are_available_here": (
        "hyperscan has no Windows wheel: the re engine is the one Windows runs"
    ),
    "tests/core/trust/test_refusals.py::test_engines_and_chunkings_agree": (
        "hyperscan has no Windows wheel: the re engine is the one Windows runs"
    ),
    "tests/core/trust/test_refusals.py::test_python_source_is_not_flagged": (
        "reads the standard library's source, which Windows' embeddable Python ships only compiled"
    ),
    "tests/app/test_isolated.py::test_a_helper_reads_the_file_opened_here_not_whatever": (
        "hands an open descriptor to the helper process, which only POSIX can (on Windows "
        "the helper opens the path)"
    ),
    "tests/app/cli/test_terminal.py::test_an_error_message_quoting_a_hostile_file_name": (
        "makes a file whose name holds control characters, which Windows does not allow"
    ),
    "tests/app/cli/test_watch.py::test_runs_until_interrupted_and_reports_a_new_file": (
        "stops the watcher with SIGINT, which Windows cannot send to another process"
    ),
    "tests/app/cli/test_watch.py::test_watch_survives_a_file_with_the_wrong_json_types": (
        "stops the watcher with SIGINT, which Windows cannot send to another process"
    ),
    "tests/core/trust/test_conformance.py::test_c1_flat_attachment_sha_that_lies": (
        "edits the pack's UTF-8 JSON with read_text()/write_text() in the locale's encoding "
        "(cp1252 on Windows): the test's assumption, not the desk's"
    ),
    "tests/core/trust/test_conformance.py::test_c0_and_c9_flat_attachment_without_sha": (
        "edits the pack's UTF-8 JSON in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/core/trust/test_conformance.py::test_c9_flat_attachment_in_the_wrong_encoding": (
        "edits the pack's UTF-8 JSON in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/core/format/test_reading_streams.py::test_luggage_cut_short_while_it_is_read": (
        "expects every byte up to a cut made while reading, which positioned reads hand "
        "on; through zipfile (Windows) the last chunk before the cut is not, the cut is "
        "still reported (the same on Linux without os.pread)"
    ),
    "tests/core/desk/test_landing_review.py::test_a_judged_review_says_what_the_judge_says": (
        "edits the pack's UTF-8 JSON in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/core/format/test_pack_in_text.py::test_the_senders_markup_is_written_not_render": (
        "decodes the command's UTF-8 output in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/app/cli/test_terminal.py::test_land_and_open_show_ask_and_check_ids_escaped": (
        "decodes the command's UTF-8 output in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/core/trust/test_conformance_chunks.py::test_a_flat_attachment_digest_that_lies": (
        "edits the pack's UTF-8 JSON in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/core/desk/test_compose.py::test_the_preview_is_sealed_as_the_writer_seals": (
        "reads the pack's UTF-8 JSON with read_text() in the locale's encoding (cp1252 on Windows)"
    ),
    "tests/app/cli/test_watch.py::test_stops_cleanly_however_it_was_started": (
        "POSIX signals and sh's trap"
    ),
}


ROOT = Path(__file__).resolve().parent.parent
#: Qt warnings the suite would fail on (it fails on any): Wine 8 lacks the per-monitor DPI
#: awareness Qt asks for; Qt's offscreen platform on Windows looks for fonts in a folder
#: the wheel does not ship (the real window uses Windows' own fonts)
WINE_QUIRKS = [
    "-o",
    "qt_log_ignore=DpiAwareness::PerMonitorVersion2 is not supported"
    "|QFontDatabase: Cannot find font directory",
]


def _longest(rel: str, names: list[str]) -> int:
    return max((len(n) for n in names if rel == n or rel.startswith(n + "/")), default=-1)


def in_lane(rel: str, *, folder: bool) -> bool:
    """Is the test file (or a folder on the way to one) at `rel` in the lane? The longest
    name that holds it decides, LANE's or NOT_IN_LANE's."""
    if folder and any(entry.startswith(rel + "/") for entry in LANE):
        return True
    return _longest(rel, LANE) > _longest(rel, list(NOT_IN_LANE))


#: set by main() for this process and the xdist workers it starts: tests/conftest.py
#: then takes the two hooks below (a plugin object handed to pytest.main never reaches
#: the workers)
SELECT_ENV = "TASKPACK_WINDOWS_LANE_SELECT"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Collect the suite as the Linux run does (the same order, so each folder's conftest
    is the one its tests import), leaving out what is not in the lane."""
    try:
        rel = collection_path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    if rel == "tests":
        return None
    if collection_path.is_dir():
        return None if in_lane(rel, folder=True) else True
    if collection_path.name.startswith("test_") and collection_path.suffix == ".py":
        return None if in_lane(rel, folder=False) else True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for start, reason in LINUX_ONLY.items():
            if item.nodeid.startswith(start):
                item.add_marker(pytest.mark.skip(reason=f"Linux only: {reason}"))


#: Wine's CreateProcess now and then fails with ERROR_INTERNAL_ERROR (seen once in ~1,900
#: tests on a loaded machine: `OSError: [WinError 1359] Internal error` from Popen, before
#: any code of ours ran in a child). Windows itself has no such failure; it is Wine's, so
#: in the lane the call is made again, at most twice, saying so on stderr. Any other
#: error, or a third 1359, is the test's result as it is.
WINE_INTERNAL_ERROR = 1359


def retry_wine_process_creation() -> None:
    import subprocess
    import time

    winapi: Any = getattr(subprocess, "_winapi", None)
    if winapi is None or getattr(winapi.CreateProcess, "wine_retries", False):
        return
    create = winapi.CreateProcess

    def create_process(*args: Any) -> Any:
        for attempt in range(3):
            try:
                return create(*args)
            except OSError as exc:
                if getattr(exc, "winerror", None) != WINE_INTERNAL_ERROR or attempt == 2:
                    raise
                print(
                    f"windows lane: Wine's CreateProcess failed ({exc}); calling it again",
                    file=sys.stderr,
                )
                time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    create_process.wine_retries = True  # type: ignore[attr-defined]
    winapi.CreateProcess = create_process


def main(argv: list[str]) -> int:
    """pytest over the lane (or over the paths in `argv`, each still held to the lane)."""
    import os

    # Wine keeps the host's QT_* variables from Windows programs: set it on this side
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ[SELECT_ENV] = "1"
    paths = [a for a in argv if not a.startswith("-") and (ROOT / a).exists()]
    args = ["-p", "no:cacheprovider", "--rootdir", str(ROOT), *WINE_QUIRKS, *argv]
    if not any(a.startswith("--basetemp") for a in argv):
        # one folder of its own, emptied at the start: pytest's numbered temporary folders
        # are cleaned up by every xdist worker at once, and on Windows one worker's
        # cleanup meets another's open files and leaves a directory iterator unclosed
        args.append(f"--basetemp={ROOT / 'build' / 'windows-lane-tmp'}")
    if not paths:
        args.append(str(ROOT / "tests"))
    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
