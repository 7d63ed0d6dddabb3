"""The C heap of a process about to stream a large pack: kept, not handed back and
faulted in again a chunk at a time.

A pass over a big pack makes and frees a ~1 MiB `bytes` a chunk (the flat form's decoded
base64; a deflated entry's inflated bytes), freed on the hashing thread. glibc's heap then
grows and trims by turns, and every page of it is faulted in anew: on this project's
2-core VM, judging 1 GiB of flat luggage took 19,000-52,000 page faults and 0.2-0.75 s of
system time, against ~4,600 faults and 0.12-0.16 s with the heap kept
(`benchmarks/bench_judge.py`). Fixing glibc's two thresholds (mallopt(3)) keeps it:
allocations under 4 MiB come from the heap, and up to 64 MiB of freed heap stays mapped.
The heap a pass uses is a few chunks, so what stays is those few MiB, not 64.

Only for command-line processes that read one big pack and end (`taskpack conformance`,
`taskpack verify`); a long-lived process (the window, the servers) keeps glibc's own
adaptive thresholds.
"""

from __future__ import annotations

import sys

BIG_PACK = 64 << 20  # below this a pass lasts a few tens of ms: ctypes' 2-3 ms is not worth it
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def keep_freed_heap() -> bool:
    """Fix glibc's heap thresholds for this process; False where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):  # no ctypes, or a libc without mallopt
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    ok = mallopt(_M_MMAP_THRESHOLD, 4 << 20) == 1
    return mallopt(_M_TRIM_THRESHOLD, 64 << 20) == 1 and ok
