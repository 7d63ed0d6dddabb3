"""Passport ids (``TP-XXXX-XXXX``) and lineage chain entries (``<id>@<version>``).

An id is eight characters drawn by :mod:`secrets` from an alphabet without the letters
people misread (no 0/O, 1/I/L): 31**8 ≈ 8.5e11 ids, so a desk that mints a million
passports has about a one-in-a-million chance of ever drawing the same one twice — and
the store still refuses a duplicate rather than trusting the odds.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import UsageError

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ID_RE = re.compile(rf"^TP-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}$")
CHAIN_ENTRY_RE = re.compile(r"^(?P<id>.+)@(?P<version>[0-9]+)$")


def new_id(choice: Callable[[str], str] | None = None) -> str:
    """A fresh passport id, e.g. ``TP-G6RZ-DS3B`` (`choice` defaults to `secrets.choice`)."""
    if choice is None:
        import secrets  # late: the CLI's start-up should not pay for it

        choice = secrets.choice
    chars = [choice(ALPHABET) for _ in range(8)]
    return f"TP-{''.join(chars[:4])}-{''.join(chars[4:])}"


def is_passport_id(text: str) -> bool:
    """True when `text` is exactly a passport id as this desk writes them."""
    return bool(ID_RE.match(text))


def looks_like_id(text: str) -> bool:
    """True when `text` is an id typed loosely (lower case, spaces around it)."""
    return is_passport_id(text.strip().upper())


def parse_id(text: str) -> str:
    """The canonical id for what a person typed (case and surrounding spaces forgiven)."""
    candidate = text.strip().upper()
    if not is_passport_id(candidate):
        raise UsageError(
            f"{text!r} is not a passport id",
            hint="Ids look like TP-G6RZ-DS3B; see them with `taskpack list`.",
        )
    return candidate


def chain_entry(passport_id: str, version: int) -> str:
    """One lineage chain entry: ``TP-G6RZ-DS3B@3``."""
    return f"{passport_id}@{version}"


def parse_chain_entry(entry: str) -> tuple[str, int | None]:
    """Split ``<id>@<version>``; an entry without a version gives ``(entry, None)``.

    Chain entries come from other people's files, so the id part is returned as written,
    not checked against our own id pattern (another implementation may mint other ids).
    """
    match = CHAIN_ENTRY_RE.match(entry)
    if not match:
        return entry, None
    return match.group("id"), int(match.group("version"))
