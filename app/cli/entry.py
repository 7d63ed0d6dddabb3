"""The `taskpack` command's entry point: what runs before the command line is imported.

Judging or verifying a big bag (`conformance`, `verify`) starts hashing its luggage here,
in a helper process (`taskpack.core.format.prehash`), so that the hash, the slowest step
of the pass, runs while the command imports its modules and opens the pack instead of
after. Every other command goes straight to :func:`taskpack.app.cli.main.main`.
"""

from __future__ import annotations

import sys

#: the verbs that read every luggage byte of the pack they are given
_READS_ALL = frozenset({"conformance", "verify"})


def main() -> int:
    argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] in _READS_ALL:
        pack = next((a for a in argv[1:] if a.lower().endswith(".taskpack")), None)
        if pack is not None and not pack.startswith("-"):
            from taskpack.core.format import prehash

            prehash.start(pack)
    from taskpack.app.cli.main import main as run

    return run()
