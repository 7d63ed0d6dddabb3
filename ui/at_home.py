"""What this desk already holds of a pack under review, and whether the pack claims to be
this desk's own."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from taskpack.app.desk import HIDDEN_CHARS, Fact

__all__ = ["AtHome", "claims_this_desk"]


@dataclass
class AtHome:
    """What this desk already holds of a pack under review (read through `Desk`)."""

    #: the passport here the pack is about (a receipt's target, or where this desk's own
    #: pack came from): its facts, by claim, and the line said under each
    facts: dict[str, Fact] = field(default_factory=dict)
    target_id: str = ""
    facts_note: str = ""
    #: a pack this desk wrote: the passport it was sent from, and its title
    original_id: str = ""
    original_title: str = ""
    #: the pack names this desk's own person and machine as its sender, and this desk
    #: has no record of writing it: someone else wrote it in this desk's name
    claims_mine: bool = False


_HIDDEN = re.compile(f"[{HIDDEN_CHARS}]")


def _same_name(name: object) -> str:
    """A name as a person reads it: case, width and invisible characters do not count."""
    text = unicodedata.normalize("NFKC", str(name or ""))
    return " ".join(_HIDDEN.sub("", text).casefold().split())


def claims_this_desk(origin: dict[str, Any], actor: str, machine: str) -> bool:
    """Does the pack name this desk's person and machine as its sender (as a person would
    read the names)?"""
    said_actor, said_machine = _same_name(origin.get("actor")), _same_name(origin.get("machine"))
    return bool(said_actor and said_machine) and (said_actor, said_machine) == (
        _same_name(actor),
        _same_name(machine),
    )
