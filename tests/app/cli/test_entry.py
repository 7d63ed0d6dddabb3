"""The `taskpack` entry point (`app/cli/entry.py`), as the installed command runs it: a
judging verb leaves as soon as it has said its verdict, with its output and exit code
whole and every exit handler run (real subprocesses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"
SAMPLE = SAMPLES / "invoice-export.taskpack"

#: the console script's own lines (pyproject's `taskpack = "taskpack.app.cli.entry:main"`),
#: with something of the test's before them
SCRIPT = """
import sys
{before}
from taskpack.app.cli.entry import main
sys.argv = ["taskpack", *sys.argv[1:]]
sys.exit(main())
"""


#: output buffered as an installed command's is (this machine's environment may turn
#: buffering off: then what is left unflushed at the end would go unnoticed)
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def run(*args: str, before: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT.format(before=before), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=BUFFERED,
    )


def test_the_installed_command_is_this_entry_point() -> None:
    import tomllib

    project = tomllib.loads((SAMPLES.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["taskpack"] == "taskpack.app.cli.entry:main"


@pytest.mark.parametrize("verb", ["conformance", "verify"])
def test_a_verdict_is_said_whole_and_its_exit_code_kept(verb: str, tmp_path: Path) -> None:
    r = run(verb, str(SAMPLE))
    assert r.returncode == 0, r.stderr
    last = {"conformance": " conformant (11/11 checks pass)", "verify": " is intact (bag, "}
    assert last[verb] in r.stdout.strip().splitlines()[-1]  # the last line, the verdict
    assert r.stderr == ""
    broken = tmp_path / "broken.taskpack"
    broken.write_bytes(SAMPLE.read_bytes()[:-100])
    r = run(verb, str(broken))
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr
    assert r.stdout or r.stderr


def test_a_reader_that_goes_away_gets_no_traceback() -> None:
    p = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(before=""), "conformance", str(SAMPLE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        env=BUFFERED,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # as `| head -0` does, before the verdict is written
    err = p.stderr.read().decode()
    p.stderr.close()
    assert p.wait(timeout=120) == 1
    assert "Traceback" not in err and "Exception ignored" not in err


def test_exit_handlers_run_and_the_teardown_is_skipped(tmp_path: Path) -> None:
    told = tmp_path / "told"
    before = (
        "import atexit\n"
        f"atexit.register(lambda: open({str(told)!r}, 'w').write('exit handler ran'))\n"
        "class Torn:\n"
        "    def __del__(self):\n"
        "        print('torn down', file=sys.stderr)\n"
        "kept = Torn()\n"
    )
    r = run("conformance", str(SAMPLE), before=before)
    assert r.returncode == 0
    assert told.read_text() == "exit handler ran"
    assert "torn down" not in r.stderr
    r = run("show", str(SAMPLE), before=before)  # any other verb: the usual exit
    assert r.returncode == 0 and "torn down" in r.stderr


def test_a_thread_still_working_is_waited_for(tmp_path: Path) -> None:
    done = tmp_path / "done"
    before = (
        "import threading, time\n"
        "def work():\n"
        "    time.sleep(0.5)\n"
        f"    open({str(done)!r}, 'w').write('finished')\n"
        "threading.Thread(target=work).start()\n"
    )
    r = run("conformance", str(SAMPLE), before=before)
    assert r.returncode == 0
    assert done.read_text() == "finished"
