"""What an incoming A2A request carries: who sent it, whether it asked for the TaskPack
extension, the one file part with a pack, the identity of its payload (for idempotency on
messageId), and the root of the pack's lineage."""

from __future__ import annotations

import hashlib
from typing import Any

from a2a.server.context import ServerCallContext
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import ContentTypeNotSupportedError, InvalidParamsError
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG, MEDIA_FLAT
from taskpack.app.a2a.errors import UnauthenticatedError
from taskpack.core.format import vocabulary

PACK_SUFFIXES = vocabulary.PACK_SUFFIXES
PACK_MEDIA = (MEDIA_BAG, MEDIA_FLAT)


def message_digest(message: pb.Message) -> str:
    """The identity of a message's payload: everything the client sent but its messageId."""
    copy = pb.Message()
    copy.CopyFrom(message)
    copy.ClearField("message_id")
    return hashlib.sha256(copy.SerializeToString(deterministic=True)).hexdigest()


def principal_of(context: ServerCallContext) -> str:
    principal = context.state.get("principal")
    if not principal:
        raise UnauthenticatedError()
    return str(principal)


def wants_extension(context: ServerCallContext) -> bool:
    return EXTENSION_URI in context.requested_extensions


def pick_pack_part(message: pb.Message) -> tuple[bytes, str]:
    """The one file part carrying a pack, as (bytes, suffix for the temp file)."""
    packs: list[pb.Part] = []
    for part in message.parts:
        kind = part.WhichOneof("content")
        name = part.filename.lower()
        if part.media_type in PACK_MEDIA or name.endswith(PACK_SUFFIXES):
            if kind == "url":
                raise InvalidParamsError(
                    message="This desk does not fetch URLs: send the pack's bytes inline (a raw file part)"
                )
            if kind != "raw":
                raise ContentTypeNotSupportedError(
                    message="Send the pack as a file part (raw bytes), not as "
                    f"{'text' if kind == 'text' else 'a data part'}"
                )
            packs.append(part)
    if not packs:
        raise ContentTypeNotSupportedError(
            message="The message carries no TaskPack: attach the pack as a file part named "
            f"*.taskpack or *.taskpack.json, or with media type {MEDIA_BAG} or {MEDIA_FLAT}"
        )
    if len(packs) > 1:
        raise InvalidParamsError(message=f"Send one pack per message, not {len(packs)}")
    part = packs[0]
    head = part.raw[:8]
    suffix = ".taskpack" if head.startswith(b"PK") else ".taskpack.json"
    return part.raw, suffix


def root_of(lineage: dict[str, Any] | None) -> str | None:
    """The root passport of a pack's lineage (as the review has it), if it names one: the
    key the ledger groups a principal's tasks by, a lone surrogate in it escaped (no
    database driver binds one)."""
    from taskpack.app.a2a.mapping import wire

    if not lineage:
        return None
    if lineage.get("root_id"):
        return wire(str(lineage["root_id"]))  # type: ignore[no-any-return]
    chain = lineage.get("chain") or []
    if not isinstance(chain, list) or not chain:
        return None
    return wire(str(chain[0]).rsplit("@", 1)[0])  # type: ignore[no-any-return]
