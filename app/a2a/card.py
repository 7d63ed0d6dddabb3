"""The desk's Agent Card (A2A §8): who it is, what it takes, how to authenticate.

The card is built from the endpoint's public URL; the SDK's card route serves it (with
its ETag), and :mod:`.guard` adds Last-Modified and answers If-Modified-Since.
"""

from __future__ import annotations

import json

from a2a.types import a2a_pb2 as pb
from taskpack.app.a2a import (
    ENCODINGS,
    EXTENSION_URI,
    MAX_INLINE_ATTACHMENT_BYTES,
    MEDIA_BAG,
    MEDIA_FLAT,
    PROTOCOL_VERSION,
)

CARD_PATH = "/.well-known/agent-card.json"
#: how long a client may keep the Agent Card without asking again (A2A §8.6.1)
CARD_MAX_AGE = 300


def build_card(url: str, *, name: str, version: str) -> pb.AgentCard:
    card = pb.AgentCard(
        name=name,
        description=(
            "A TaskPack Desk: hand it unfinished work as a TaskPack (.taskpack or "
            ".taskpack.json) and it lands — sealed, idempotent, nothing executed — for a "
            "person to review. Asks come back answered in a receipt."
        ),
        version=version,
        documentation_url="https://taskpack.org",
        default_input_modes=[MEDIA_BAG, MEDIA_FLAT],
        default_output_modes=[MEDIA_BAG, MEDIA_FLAT, "application/json"],
    )
    card.supported_interfaces.add(
        url=url, protocol_binding="HTTP+JSON", protocol_version=PROTOCOL_VERSION
    )
    card.capabilities.streaming = True
    card.capabilities.push_notifications = False
    card.capabilities.extended_agent_card = False
    ext = card.capabilities.extensions.add(
        uri=EXTENSION_URI,
        description="TaskPack 0.1 (spec §5): a file part carries the pack; Task metadata "
        "carries lineage, asks and landing checks; the receipt comes back as an artifact.",
        required=False,
    )
    ext.params.update(
        {
            "encodings": list(ENCODINGS),
            "media_types": [MEDIA_BAG, MEDIA_FLAT],
            "max_inline_attachment_bytes": MAX_INLINE_ATTACHMENT_BYTES,
        }
    )
    scheme = card.security_schemes["bearer"].http_auth_security_scheme
    scheme.scheme = "bearer"
    scheme.description = "A token made on this desk with `taskpack token add NAME`"
    card.security_requirements.add().schemes["bearer"].SetInParent()
    card.skills.add(
        id="land-taskpack",
        name="Receive a TaskPack",
        description="Send one pack per message as a file part. A handoff becomes a new task "
        "(its id is the new passport id); a receipt merges into the passport that asked.",
        tags=["taskpack", "handoff", "receipt"],
        input_modes=[MEDIA_BAG, MEDIA_FLAT],
        output_modes=[MEDIA_BAG, "application/json"],
    )
    return card


def card_json(url: str) -> str:  # pragma: no cover - a debugging aid
    from google.protobuf.json_format import MessageToDict

    return json.dumps(MessageToDict(build_card(url, name="TaskPack Desk", version="")), indent=2)
