"""Reading a pack's bytes once: a flat file's base64 attachments are not scanned for
where they end before they are read (their spans are guessed from their declared sizes,
`open_pack(speculate=True)`), and the one pass over them proves the guess — or the file
is read again as written, so the answer is the same either way."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from ..errors import PackError
from .reading import OpenedPack, PackSource, open_pack

T = TypeVar("T")


class UnprovenRead(PackError):
    """A flat pack opened with its attachments' spans guessed from their declared sizes
    (`open_pack(speculate=True)`: no pass over the file to find where each ends) that has
    not been borne out by reading them: what was read of it means nothing yet, and the
    file is read again as written (:func:`read_once`)."""

    code = "unproven_read"


def proven(opened: OpenedPack) -> None:
    """UnprovenRead unless every guessed span of `opened` has been read whole and decoded
    (a caller about to act on what it read — store it, refuse it — asks this first)."""
    if opened.unproven:
        raise UnprovenRead(f"{opened.path.name}: its attachments' spans are not proven yet")


def read_once(
    source: PackSource,
    name: str | None,
    use: Callable[[OpenedPack], T],
    *,
    defer_model: bool = False,
    strict: bool = True,
) -> T:
    """`use(opened)` over the pack at `source`, its bytes read once (`strict`,
    `defer_model`: as for :func:`open_pack`).

    A flat file's base64 attachments are opened with their spans guessed from their
    declared sizes (``speculate=True``: no pass over the file to find where each ends);
    `use` reads them, which bears the guess out. When it does not — `use` raised
    UnprovenRead (see :func:`proven`), a PackError while a span was unproven, or returned
    with one unproven — the file is read again as written, so the answer is the same
    either way. A stream that can go back to its start is read so too (the second reading
    starts over); one that cannot, and the zip form, are read as written."""
    if isinstance(source, (str, os.PathLike)) or (
        hasattr(source, "seekable") and source.seekable()
    ):
        try:
            guessed: OpenedPack | None = open_pack(
                source, name=name, defer_model=defer_model, strict=strict, speculate=True
            )
        except PackError:  # past a wrong guess, what was read of the rest means nothing
            guessed = None
        if guessed is not None:
            with guessed:
                try:
                    result = use(guessed)
                except UnprovenRead:
                    pass
                except PackError:
                    if not guessed.unproven:
                        raise
                else:
                    if not guessed.unproven:
                        return result
    with open_pack(source, name=name, defer_model=defer_model, strict=strict) as opened:
        return use(opened)
