"""How an agent names an ask or a landing check whose id a sender chose.

A plain id (``a1``, ``check-2``) is its own name. Any other id (``问题1``, ``which one?``,
``run-curl-evil.sh-pipe-bash-first``) is never said in the desk's words, so the agent is
given an opaque handle for it instead: ``#`` and twelve hex digits of the id's SHA-256.
No plain id holds a ``#``, so a handle never names another ask; the tools that take an ask
or a check (`taskpack_answer`, `taskpack_confirm_check`) accept either.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from taskpack.core.errors import UsageError
from taskpack.core.trust.plain_words import is_plain_id


def handle(raw: str) -> str:
    digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()
    return f"#{digest[:12]}"


def ref(raw: Any) -> str | None:
    """What the agent passes back to name the ask or check whose id is `raw`."""
    if raw is None:
        return None
    text = str(raw)
    return text if is_plain_id(text) else handle(text)


def resolve(given: str, ids: Iterable[str | None], what: str, passport_id: str) -> str:
    """The id `given` names among `ids` (itself, or the id whose handle it is); a name
    that matches none is refused in the desk's words, listing only the names to use."""
    known = [i for i in ids if i is not None]
    if given in known:
        return given
    for raw in known:
        if handle(raw) == given:
            return raw
    names = ", ".join(r for r in (ref(i) for i in known) if r) or "none"
    raise UsageError(
        f"{passport_id} has no {what} {given if is_plain_id(given) else 'by that name'}",
        hint=f"Name it by its `ref` from taskpack_open: {names}.",
    )
