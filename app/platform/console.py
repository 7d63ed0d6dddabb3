"""The standard streams in UTF-8, whatever the console or the code page.

Windows' Python writes redirected output (a pipe, a file) in the ANSI code page — cp1252
in the West, cp936 in China — which cannot encode ✓, → or most pack titles: a verb that
printed one died with ``UnicodeEncodeError`` half-way through its output. A console is
already UTF-8 (Python writes it as UTF-16 through the console API); so is Linux under any
UTF-8 locale. Every entry point calls :func:`use_utf8` first; a stream that is already
UTF-8, or that cannot be changed, is left as it is, and each keeps its error handler
(stderr's ``backslashreplace`` included), so a lone surrogate still fails or shows as
before.
"""

from __future__ import annotations

import codecs
import sys
from typing import Any


def _is_utf8(stream: Any) -> bool:
    try:
        return codecs.lookup(stream.encoding or "ascii").name == "utf-8"
    except LookupError:
        return False


def use_utf8() -> None:
    """stdin, stdout and stderr read and write UTF-8 from here on."""
    for name in ("stdin", "stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or _is_utf8(stream):  # no console at all (pythonw), or fine
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:  # replaced by something that is not a TextIOWrapper
            continue
        try:
            if name != "stdin":
                stream.flush()
            reconfigure(encoding="utf-8")
        except (OSError, ValueError):  # already read from, or closed: leave it be
            continue
