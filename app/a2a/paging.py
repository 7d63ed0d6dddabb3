"""The page cursor of ``GET /tasks`` (an opaque token: the last row's update time and
id) and its ``statusTimestampAfter`` filter."""

from __future__ import annotations

import base64
import json

from a2a.utils.errors import InvalidParamsError


def later(stamp: str, after: str) -> bool:
    """Is the time `stamp` after `after`? (True when either cannot be read.)"""
    from datetime import datetime

    def parse(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    try:
        return parse(stamp) > parse(after)
    except ValueError:
        return True


def write_cursor(cursor: tuple[str, str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(cursor)).encode()).decode().rstrip("=")


def read_cursor(token: str) -> tuple[str, str]:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        a, b = json.loads(raw)
        if not isinstance(a, str) or not isinstance(b, str):
            raise ValueError
        return a, b
    except (ValueError, TypeError):
        raise InvalidParamsError(message="pageToken is not one this server gave out") from None
