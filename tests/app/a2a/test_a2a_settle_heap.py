"""A process that only serves freezes what it holds once it serves (`settle_heap`): full
collections stop walking the modules and the app, and what is made later is collected."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import gc
from taskpack.app.a2a.serve import A2AServer, settle_heap  # the server's modules, loaded
before = len(gc.get_objects())
settle_heap()
print(gc.get_freeze_count() >= before, len(gc.get_objects()) < before // 10)
class Node:
    pass
gc.disable()  # (so that the collection below is the one to find them)
for _ in range(1000):  # garbage made after: cycles the collector must still find
    a, b = Node(), Node()
    a.other, b.other = b, a
del a, b
print(gc.collect() >= 2000)
"""


def test_what_a_serving_process_holds_is_frozen_and_later_garbage_still_collected() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert out == ["True", "True", "True"]
