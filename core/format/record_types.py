"""The pack object's field types, by record: generated from `model` by
``python -m taskpack.core.format.raw_types``; never edit by hand (see `raw_types`).
"""

from __future__ import annotations

# a field's type: "str", "bool", "int", "any", "list" (of anything),
# ("list", T) or a record name (a JSON object with that record's fields)
Type = str | tuple[str, "Type"]

RECORDS: dict[str, dict[str, Type]] = {
    "PackObject": {
        "spec": "str",
        "kind": "str",
        "packed_at": "str",
        "origin": "Origin",
        "lineage": "Lineage",
        "note": "str",
        "passport": "PassportState",
        "asks": ("list", "Ask"),
        "landing_checks": ("list", "LandingCheck"),
    },
    "Origin": {
        "actor": "str",
        "machine": "str",
        "harness": "str",
    },
    "Lineage": {
        "root_id": "str",
        "from_version": "int",
        "chain": ("list", "str"),
    },
    "PassportState": {
        "id": "str",
        "title": "str",
        "goal": "str",
        "version": "int",
        "machine_id": "str",
        "harness": "str",
        "scope": "str",
        "created_at": "str",
        "updated_at": "str",
        "current_state": "str",
        "facts": ("list", "Fact"),
        "decisions": ("list", "Decision"),
        "actions": "list",
        "artifacts": "list",
        "verification": "any",
        "next_steps": "list",
        "learnings": "list",
    },
    "Fact": {
        "claim": "str",
        "scope": "str",
        "verified": "bool",
        "needs_reverify": "bool",
        "verified_on": "str",
        "source": "str",
        "verified_by": "str",
        "source_actor": "any",
        "landing_check": "any",
    },
    "Decision": {
        "what": "str",
        "why": "str",
    },
    "Ask": {
        "id": "str",
        "to": "str",
        "what": "str",
        "why": "str",
        "accept": "str",
        "status": "str",
        "answer": "any",
        "answered_by": "str",
        "answered_at": "str",
    },
    "LandingCheck": {
        "id": "str",
        "check": "str",
        "how": "str",
        "required": "bool",
        "checked_on": "any",
        "checked_by": "any",
        "checked_at": "any",
    },
}
