"""The CLI progress bar: drawn for a person at a terminal, silent for pipes and agents."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from taskpack.app.cli.progress_bar import NoProgress, TerminalProgress, human_bytes, progress_bar


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_bar_when_stdout_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TASKPACK_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # piped: an agent reads our output
    stream = FakeTTY()
    bar = progress_bar("packing", stream=stream)
    assert isinstance(bar, NoProgress)
    with bar as p:
        p(50, 100)
    assert stream.getvalue() == ""


def test_bar_when_stdout_and_the_stream_are_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TASKPACK_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stdout", FakeTTY())
    assert isinstance(progress_bar("x", stream=FakeTTY()), TerminalProgress)
    assert isinstance(progress_bar("x", stream=io.StringIO()), NoProgress)  # stderr redirected
    monkeypatch.setenv("TASKPACK_NO_PROGRESS", "1")
    assert isinstance(progress_bar("x", stream=FakeTTY()), NoProgress)


def test_the_bar_shows_label_percent_and_sizes_and_ends_its_line() -> None:
    stream = FakeTTY()
    with TerminalProgress("packing", stream, width=60) as bar:
        bar(0, 4 * 2**20)
        bar(4 * 2**20, 4 * 2**20)  # the final state is always drawn
    frames = stream.getvalue().split("\r")[1:]
    assert len(frames) == 2
    last = frames[-1]
    assert last.endswith("\n")
    line = last.rstrip("\n")
    assert len(line) == 59  # one column short of the terminal: no wrap
    assert line.startswith("packing [")
    assert "100%  4.0 MiB / 4.0 MiB" in line
    assert "#" * 10 in line and "." not in line.split("]")[0]


def test_a_finished_bar_ends_its_line_without_close_and_only_once() -> None:
    stream = FakeTTY()
    bar = TerminalProgress("verifying", stream, width=40)
    bar(10, 10)
    bar(10, 10)  # reported twice by the caller: drawn once
    assert stream.getvalue().count("\n") == 1 and stream.getvalue().endswith("\n")
    bar.close()
    assert stream.getvalue().count("\n") == 1  # no blank line after a finished bar
    stream2 = FakeTTY()
    bar2 = TerminalProgress("packing", stream2, width=40)
    bar2(3, 10)
    bar2.close()  # stopped short (an error): close ends the line
    assert stream2.getvalue().endswith("\n") and "30%" in stream2.getvalue()


def test_redraws_are_throttled_but_the_end_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeTTY()
    bar = TerminalProgress("x", stream, width=40)
    for done in range(0, 1000):
        bar(done, 1000)
    bar(1000, 1000)
    bar.close()
    assert 2 <= stream.getvalue().count("\r") < 50


def test_unknown_total_shows_what_is_done_without_a_bar() -> None:
    bar = TerminalProgress("reading", FakeTTY(), width=50)
    line = bar.render(1536, 0, 0.0)
    assert "1.5 KiB" in line and "[" not in line and "%" not in line


def test_counts_unit_shows_plain_numbers() -> None:
    bar = TerminalProgress("judging", FakeTTY(), width=70, unit="checks")
    assert "3 / 11" in bar.render(3, 11, 0.0)


def test_a_closed_terminal_does_not_break_the_work() -> None:
    stream = FakeTTY()
    bar = TerminalProgress("x", stream, width=40)
    stream.close()
    bar(1, 2)  # ValueError from the closed stream is swallowed
    bar.close()


def test_human_bytes() -> None:
    assert [human_bytes(n) for n in (0, 1023, 1024, 5 * 2**30)] == [
        "0 B",
        "1023 B",
        "1.0 KiB",
        "5.0 GiB",
    ]


def test_in_a_real_terminal_the_bar_goes_to_stderr_and_stdout_stays_clean(tmp_path: Path) -> None:
    code = (
        "import sys; from taskpack.app.cli.progress_bar import progress_bar\n"
        "with progress_bar('work') as p:\n"
        "    [p(i, 10) for i in range(11)]\n"
        "print('RESULT', type(p).__name__)\n"
    )
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "60"}
    env.pop("TASKPACK_NO_PROGRESS", None)
    # stdout and stderr on one pseudo-terminal: what a person sees
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execvpe(sys.executable, [sys.executable, "-c", code], env)
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    seen = b"".join(chunks).decode()
    assert "RESULT TerminalProgress" in seen
    assert "work [" in seen and "100%" in seen
    # the same program with stdout piped: no bar at all
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.stdout == "RESULT NoProgress\n" and r.stderr == ""
