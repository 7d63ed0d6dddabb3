"""The `taskpack` command's one start-up measure, taken by its entry point only (never by
the library, which a third party may import into a process of its own).

`dataclasses` imports `inspect` at once (through `ast`, `dis` and `tokenize`: a tenth of a
small pack's judging) but uses it only for a class without a docstring, which the
desk's are not. :func:`defer_inspect` imports `dataclasses` with `inspect` deferred: the
first attribute anyone asks of it imports the real module and answers from it. A process
that has imported either already is left as it is.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _DeferredInspect(types.ModuleType):
    """Stands in for `inspect` inside `dataclasses`: the first attribute asked for
    imports the real module and answers from it."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("inspect") is self:  # still importing `dataclasses`
            del sys.modules["inspect"]
        import inspect

        return getattr(inspect, name)


def defer_inspect() -> None:
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    sys.modules["inspect"] = _DeferredInspect("inspect")
    try:
        import dataclasses  # noqa: F401 - imported here, with the stand-in
    finally:
        if isinstance(sys.modules.get("inspect"), _DeferredInspect):
            del sys.modules["inspect"]
