"""A2A errors, all in the §11.6 shape (``google.rpc.Status`` with an ``ErrorInfo``).

The a2a-sdk maps its own error classes to HTTP status and ``reason`` through one table
(`a2a.utils.errors.A2A_ERROR_MAPPING`); an error it does not know becomes a 500. The
task-plane contract adds one error the SDK lacks — ``409 DUPLICATE_MESSAGE_ID`` — so
:func:`register` adds it to that table (and to the reverse table the SDK *client* uses,
so our client gets the same class back). The middleware's own refusals (401, 413, the
version check) are built here with the same shape.

Desk errors become A2A errors in :func:`from_desk_error`: the caller's or the file's
fault is a 400 that says what is wrong in one sentence — never a 500 — and carries the
TaskPack error class in ``ErrorInfo.metadata``.
"""

from __future__ import annotations

from typing import Any

from a2a.utils import errors as sdk_errors
from a2a.utils.errors import A2AError, ErrorMapping, InvalidParamsError, TaskNotFoundError
from taskpack.core.errors import NotFound, PackError, TaskPackError

DOMAIN = "a2a-protocol.org"
ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


class DuplicateMessageIdError(A2AError):
    """The same messageId came again from the same principal with a different payload."""

    message = "This messageId was already used for a different message"


class UnauthenticatedError(A2AError):
    message = "A bearer token is required"


_EXTRA: dict[type[A2AError], ErrorMapping] = {
    DuplicateMessageIdError: ErrorMapping(409, "ALREADY_EXISTS", "DUPLICATE_MESSAGE_ID"),
    UnauthenticatedError: ErrorMapping(401, "UNAUTHENTICATED", "UNAUTHENTICATED"),
}


def register() -> None:
    """Teach the SDK's error tables our two errors (idempotent)."""
    for cls, mapping in _EXTRA.items():
        sdk_errors.A2A_ERROR_MAPPING.setdefault(cls, mapping)
        sdk_errors.A2A_ERROR_REASONS.setdefault(cls, mapping.reason)
        sdk_errors.A2A_REASON_TO_ERROR.setdefault(mapping.reason, cls)


register()


def payload(
    code: int, status: str, reason: str, message: str, metadata: dict[str, str] | None = None
) -> dict[str, Any]:
    """The §11.6 error body."""
    return {
        "error": {
            "code": code,
            "status": status,
            "message": message,
            "details": [
                {
                    "@type": ERROR_INFO,
                    "reason": reason,
                    "domain": DOMAIN,
                    "metadata": metadata or {},
                }
            ],
        }
    }


def from_desk_error(exc: TaskPackError, *, doing: str) -> A2AError:
    """A desk error as the A2A error a client should see (a 4xx with the one sentence)."""
    from taskpack.app.a2a.mapping import wire  # a lone surrogate a pack chose, escaped

    meta = {"taskpack_error": type(exc).__name__}
    place = getattr(exc, "place", None)
    if place:
        meta["place"] = wire(str(place)[:200])
    text = wire(str(exc))
    if isinstance(exc, PackError):
        return InvalidParamsError(message=f"The pack was refused: {text}", data=meta)
    if isinstance(exc, NotFound):
        return InvalidParamsError(message=text, data=meta)
    return InvalidParamsError(message=f"Could not {doing}: {text}", data=meta)


def task_not_found(task_id: str) -> TaskNotFoundError:
    # the same answer for a task that does not exist and one that belongs to someone else
    return TaskNotFoundError(message=f"Task {task_id[:80]} not found")
