"""A team desk's URL in words: which one this process uses, and how to name it in a
message or a status line (never with its password). A leaf: every module of the team
desk may use it, and it imports none of them."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

STORE_ENV = "TASKPACK_STORE"


def store_url(settings_store: str | None) -> str | None:
    """The team desk this process uses: TASKPACK_STORE, else the settings' `store`.
    (Here, not beside the connections: an embedded desk never loads psycopg.)"""
    return (os.environ.get(STORE_ENV) or "").strip() or settings_store or None


def shown(url: str) -> str:
    """The URL with any password taken out: safe for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "a team desk URL that cannot be read"
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    user = f"{parts.username}@" if parts.username else ""
    query = "&".join(q for q in (parts.query or "").split("&") if not q.startswith("password="))
    return urlunsplit((parts.scheme, user + host, parts.path, query, ""))


def where(url: str) -> str:
    """A team desk in a few words for a status line: ``DB on HOST:PORT``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return shown(url)
    db = parts.path.lstrip("/") or (parts.username or "")
    host = (parts.hostname or "localhost") + (f":{port}" if port else "")
    return f"{db} on {host}" if db else host


def describe(url: str) -> str:
    return f"the team desk {shown(url)}"
