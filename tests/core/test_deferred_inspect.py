"""`taskpack.core` imports `dataclasses` with `inspect` deferred (start-up: a tenth of a
small pack's judging). Nothing may notice but the clock: `inspect` is the real module
for whoever imports it, and a dataclass without a docstring still gets its signature
as its docstring, as the standard library gives it."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run(code: str) -> str:
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip()


def test_judging_needs_no_inspect_and_a_dataclass_without_a_docstring_still_gets_one() -> None:
    out = run(
        """
        import sys
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
    out = run(
        """
        import inspect, sys
        import taskpack.core.errors, dataclasses
        print(dataclasses.inspect is inspect is sys.modules["inspect"])
        """
    )
    assert out == "True"
