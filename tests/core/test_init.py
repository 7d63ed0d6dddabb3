"""`taskpack.core` is a library a third party imports into a process of its own:
importing it (the whole judge) leaves the process's modules as the standard library
makes them, `dataclasses` importing the real `inspect` as it always does."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_importing_the_core_stands_in_for_no_module() -> None:
    code = """
        import sys
        before = set(sys.modules)
        import taskpack.core.trust.conformance, taskpack.core.desk.sqlite_store
        import dataclasses
        import inspect
        print(dataclasses.inspect is inspect is sys.modules["inspect"])
        print(type(sys.modules["inspect"]).__name__, inspect.__file__ is not None)
        """
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["True", "module", "True"]
