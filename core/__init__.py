"""TaskPack's core: the format, the trust rules and one desk, in pure Python.

Importing it imports the standard library's `dataclasses` with `inspect` deferred: the
former imports the latter at once (a tenth of a small pack's judging: 36 M of 343 M
instructions, through `ast`, `dis` and `tokenize`) but uses it only for a class with no
docstring, which ours are not. Whoever asks `inspect` for anything gets the real module,
imported then (:class:`_DeferredInspect`); a process that has imported either already is
left as it is.
"""

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


def _import_dataclasses() -> None:
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    sys.modules["inspect"] = _DeferredInspect("inspect")
    try:
        import dataclasses  # noqa: F401 - imported here, with the stand-in
    finally:
        if isinstance(sys.modules.get("inspect"), _DeferredInspect):
            del sys.modules["inspect"]


_import_dataclasses()
