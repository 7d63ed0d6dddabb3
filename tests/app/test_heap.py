"""`app.heap.keep_freed_heap`: a process about to stream a big pack keeps its C heap, so a
chunk-sized `bytes` comes from the heap instead of a fresh mapping faulted in page by page."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="mallopt(3) thresholds are glibc's",
)

# how many mapped blocks (mallinfo2's hblks) a 2 MiB bytes object adds: glibc's default
# threshold starts at 128 KiB, so 1; with the heap kept (threshold 4 MiB), 0
_MAPPED = r"""
import ctypes, sys
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks",
        "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
if sys.argv[1] == "keep":
    from taskpack.app.heap import keep_freed_heap
    print(keep_freed_heap())
before = libc.mallinfo2().hblks
chunk = bytes(2 << 20)
print(libc.mallinfo2().hblks - before)
"""


def _mapped_blocks(mode: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", _MAPPED, mode], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_kept_heap_serves_a_chunk_without_a_fresh_mapping() -> None:
    assert _mapped_blocks("plain") == ["1"]  # glibc's own behaviour: the test can tell
    assert _mapped_blocks("keep") == ["True", "0"]
