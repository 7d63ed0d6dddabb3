"""The two callables every long operation takes, named once.

``progress(done, total)`` is told how many bytes are done out of how many (``total`` 0:
not known yet); ``cancel()`` returning True asks the operation to stop, which it does by
raising :class:`~taskpack.core.errors.Cancelled` with nothing half-written.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
CancelCheck = Callable[[], bool]

__all__ = ["CancelCheck", "Progress"]
