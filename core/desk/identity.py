"""Who did something, as one short label: ``actor@machine``.

A pack's ``origin`` names its sender by ``actor`` and ``machine``; an answer is signed
``answered_by``. Both are shown and written as ``actor@machine`` — built here and nowhere
else. A person who typed their name as ``wei@alpha`` on the machine ``alpha`` is
``wei@alpha``, never ``wei@alpha@alpha``.
"""

from __future__ import annotations

from collections.abc import Mapping


def sender_label(actor: object, machine: object) -> str:
    """``actor@machine``; either alone when the other is missing; the machine never twice.

    `actor` that already ends in ``@machine`` (case ignored) is returned as it is.
    Values that are not text (a hostile pack's ``origin``) count as missing.
    """
    who = actor.strip() if isinstance(actor, str) else ""
    where = machine.strip() if isinstance(machine, str) else ""
    if not who or not where:
        return who or where
    if who.casefold().endswith("@" + where.casefold()):
        return who
    return f"{who}@{where}"


def origin_label(origin: Mapping[str, object] | None) -> str:
    """The sender label of a pack's ``origin`` object ("" when it names nobody)."""
    if not isinstance(origin, Mapping):
        return ""
    return sender_label(origin.get("actor"), origin.get("machine"))


def display_name(text: str, machine: str) -> str | None:
    """A name a person typed for themselves, tidied: spaces trimmed, a trailing
    ``@machine`` of this machine dropped (the desk adds it); None when empty."""
    name = " ".join(text.split())
    suffix = "@" + machine.strip()
    if machine.strip() and name.casefold().endswith(suffix.casefold()):
        name = name[: -len(suffix)].rstrip()
    return name or None
