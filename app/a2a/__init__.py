"""The desk as an A2A v1.0 endpoint, and the client that talks to other desks.

TaskPack is what A2A hands off *to* when the connection is not the transport
(spec §5); when both ends happen to be alive, a pack can travel over A2A instead of
through a chat app. The contract is in ``docs/a2a.md``. Modules:

* :mod:`.server`   — ``A2AServer(desk, host, port).start()/stop()``, the Starlette app
* :mod:`.server_processes` — more than one server process on one desk (``--processes``)
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

# the server's limits (`taskpack serve` flags); here so the CLI's parser needs no server
#: a request body larger than this is refused with 413 before it is read
MAX_BODY_BYTES = 32 << 20
#: the request line and headers must arrive within this long of the connection opening
#: (or of the previous response): an idle or trickling connection is closed
HEADER_TIMEOUT = 10.0
#: a request body must arrive whole within this long (408 otherwise)
BODY_TIMEOUT = 60.0
#: connections and requests at once; past it uvicorn answers 503
MAX_CONNECTIONS = 1024
#: how long an idle keep-alive connection stays open between requests
KEEP_ALIVE_TIMEOUT = 30.0
#: a task's event stream ends after this long; the client reads the Task and subscribes again
STREAM_SECONDS = 900.0

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
