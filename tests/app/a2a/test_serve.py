"""`taskpack serve`'s server limits, set from the command line and seen over real HTTP:
an over-size body gets a clear 413, an idle keep-alive connection is closed, and a
nonsense value is refused before anything listens."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from a2a_testkit import issue

Serve = Callable[..., str]


@pytest.fixture
def serve_cli(desk_b) -> Iterator[Serve]:
    procs: list[subprocess.Popen[str]] = []
    env = dict(os.environ, TASKPACK_HOME=str(desk_b.home), TASKPACK_MACHINE=desk_b.machine)

    def start(*flags: str) -> str:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taskpack.app.cli.main", "serve", "--port", "0", *flags],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        assert "Serving A2A" in line, line + proc.stderr.read()
        return line.rsplit(" ", 1)[-1].strip()

    yield start
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "Stopped." in out


def taskpack(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskpack.app.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_body_over_max_body_gets_a_clear_413(desk_b, serve_cli: Serve) -> None:
    token = issue(desk_b, "ops")
    url = serve_cli("--max-body", "8K")
    headers = {
        "Authorization": f"Bearer {token}",
        "A2A-Version": "1.0",
        "Content-Type": "application/json",
    }
    with httpx.Client(timeout=30) as http:
        big = http.post(
            f"{url}/message:send", headers=headers, content=b'{"x": "' + b"a" * 9000 + b'"}'
        )
        assert big.status_code == 413
        body = big.json()
        assert "larger than 8192 bytes" in str(body)
        assert "send a smaller pack" in str(body)
        small = http.post(
            f"{url}/message:send", headers=headers, content=b'{"x": "' + b"a" * 6000 + b'"}'
        )
        assert small.status_code not in (413, 500)  # read, and refused for what it says


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(serve_cli: Serve) -> None:
    where = urlsplit(serve_cli("--timeout-keep-alive", "1", "--header-timeout", "1"))
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while b"\r\n\r\n" not in got:
            got += sock.recv(65536)
        assert got.startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        while True:  # drain the body, then wait: the server ends the connection
            chunk = sock.recv(65536)
            if not chunk:
                break
        assert time.monotonic() - started < 8


def test_limit_values_are_checked_and_documented() -> None:
    for flags, words in [
        (["--max-body", "12"], "too small"),
        (["--max-body", "lots"], "is not a size"),
        (["--timeout-keep-alive", "0"], "more than 0"),
        (["--limit-concurrency", "0"], "from 1 to 100000"),
        (["--body-timeout", "soon"], "not a number of seconds"),
    ]:
        run = taskpack("serve", *flags)
        assert run.returncode == 2 and words in run.stderr, (flags, run.stderr)
    helptext = taskpack("serve", "--help").stdout
    for flag in (
        "--max-body",
        "--timeout-keep-alive",
        "--header-timeout",
        "--body-timeout",
        "--limit-concurrency",
        "--stream-seconds",
    ):
        assert flag in helptext
    assert "default 32M" in helptext
