"""The desk as an A2A v1.0 endpoint, and the client that talks to other desks.

TaskPack is what A2A hands off *to* when the connection is not the transport
(spec §5); when both ends happen to be alive, a pack can travel over A2A instead of
through a chat app. The contract is in ``docs/a2a.md``. Modules:

* :mod:`.server`   — ``A2AServer(desk, host, port).start()/stop()``, the Starlette app
* :mod:`.handler`  — the A2A methods over the desk (an a2a-sdk ``RequestHandler``)
* :mod:`.mapping`  — passport ↔ A2A Task: the state table, metadata, artifacts
* :mod:`.store`    — ``a2a.sqlite3``: principals' tasks, contexts, dedupe, receipts, sends
* :mod:`.tokens`   — bearer tokens: secrets in the keyring, a hash index in the home
* :mod:`.hub`      — change notifications (desk events + a poll) for streams and receipts
* :mod:`.receipts` — a receipt appears as an artifact once the asks are answered
* :mod:`.client`   — ``send`` a pack to another desk, ``fetch`` its receipt home

This package is imported lazily by the CLI: the constants below are all it costs.
"""

from __future__ import annotations

#: the TaskPack extension (spec §5), declared in the Agent Card
EXTENSION_URI = "https://taskpack.org/a2a/ext/taskpack/v1"
MEDIA_BAG = "application/vnd.taskpack+zip"
MEDIA_FLAT = "application/vnd.taskpack+json"
ENCODINGS = ("bagit-zip", "flat")
MAX_INLINE_ATTACHMENT_BYTES = 1 << 20
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8788
PROTOCOL_VERSION = "1.0"

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "ENCODINGS",
    "EXTENSION_URI",
    "MAX_INLINE_ATTACHMENT_BYTES",
    "MEDIA_BAG",
    "MEDIA_FLAT",
    "PROTOCOL_VERSION",
]
