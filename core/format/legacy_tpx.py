"""Retired `.tpx/0.1` files: accepted on read, never produced (spec §8).

A `.tpx` object carried the task state under `passport`, travel-annotated facts at the
top level, the note under `peer.note` and the pack time as `issued_at`. We map it onto
the current pack object and tell the reader that we did.
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, UnsupportedVersion
from .vocabulary import BAG_SPEC

TPX_VERSIONS = frozenset({"0.1"})


def is_tpx(top: dict[str, Any]) -> bool:
    return "tpx" in top and "taskpack" not in top


def tpx_to_pack(top: dict[str, Any]) -> dict[str, Any]:
    version = top.get("tpx")
    if str(version) not in TPX_VERSIONS:
        raise UnsupportedVersion(
            f"this is a .tpx file of version {version!r}; only .tpx 0.1 can be read",
            code="unsupported_tpx",
            params={"version": str(version)},
        )
    state = top.get("passport")
    if state is None:
        state = {}
    if not isinstance(state, dict):
        raise FormatError(
            "the .tpx file's passport is not an object",
            code="not_json_object",
            params={"where": "the .tpx file's passport"},
        )
    facts = top.get("facts")
    if isinstance(facts, list) and facts:
        state = {**state, "facts": facts}
    peer: dict[str, Any] = top["peer"] if isinstance(top.get("peer"), dict) else {}
    lineage = top.get("lineage")
    if not isinstance(lineage, dict):
        lineage = {"root_id": state.get("id"), "from_version": 0, "chain": []}
    return {
        "spec": BAG_SPEC,
        "kind": "receipt" if top.get("kind") == "receipt" else "handoff",
        "packed_at": top.get("issued_at") or "",
        "origin": top.get("origin") if isinstance(top.get("origin"), dict) else {},
        "lineage": lineage,
        "note": peer.get("note") or "",
        "passport": state,
        "asks": top.get("asks") or [],
        "landing_checks": top.get("landing_checks") or [],
    }
