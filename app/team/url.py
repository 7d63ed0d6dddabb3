"""A team desk's URL as libpq reads it, including the multi-host form a standby needs
(``postgresql://u@h1:5432,h2:5433/db?target_session_attrs=read-write``), which
``urllib.parse`` cannot read (it finds no port in ``5432,h2:5433``). Pure text: no
psycopg here, so the settings and an embedded desk can check a URL without it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote

SCHEMES = ("postgresql", "postgres")


class BadUrl(ValueError):
    """What is wrong with a team desk URL, as the end of a sentence."""


@dataclass(frozen=True)
class StoreUrl:
    scheme: str
    user: str | None
    has_password: bool
    #: (host, port) pairs in the order libpq tries them; port None: libpq's default
    hosts: tuple[tuple[str, int | None], ...]
    database: str
    query: tuple[tuple[str, str], ...] = field(default=())

    def shown(self) -> str:
        """The URL without any password: safe for messages and logs."""
        hosts = ",".join(_host(h) + (f":{p}" if p else "") for h, p in self.hosts)
        user = f"{self.user}@" if self.user else ""
        query = "&".join(f"{k}={v}" for k, v in self.query if k not in ("password", "passfile"))
        return f"{self.scheme}://{user}{hosts}/{self.database}" + (f"?{query}" if query else "")

    def where(self) -> str:
        """In a few words for a status line: ``DB on HOST:PORT`` (every host, in order)."""
        hosts = (
            ",".join(_host(h or "localhost") + (f":{p}" if p else "") for h, p in self.hosts)
            or "localhost"
        )
        db = self.database or (self.user or "")
        return f"{db} on {hosts}" if db else hosts


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def parse(url: str) -> StoreUrl:
    """The parts of `url`; BadUrl names what libpq would stumble on."""
    scheme, sep, rest = url.strip().partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        raise BadUrl("is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB)")
    rest, _, query_text = rest.partition("?")
    rest, _, _fragment = rest.partition("#")
    netloc, _, path = rest.partition("/")
    userinfo, at, hostlist = netloc.rpartition("@")
    if not at:
        userinfo, hostlist = "", netloc
    user, colon, _password = userinfo.partition(":")
    hosts: list[tuple[str, int | None]] = []
    for spec in hostlist.split(",") if hostlist else []:
        hosts.append(_hostspec(spec))
    try:
        query = tuple(parse_qsl(query_text, keep_blank_values=True, strict_parsing=False))
    except ValueError as exc:  # pragma: no cover - parse_qsl is lenient unless strict
        raise BadUrl(f"has a query that cannot be read ({exc})") from None
    for key, value in query:
        if key == "port":
            for p in value.split(","):
                _port(p)
    return StoreUrl(
        scheme=scheme.lower(),
        user=unquote(user) or None,
        has_password=bool(colon) or any(k == "password" for k, _ in query),
        hosts=tuple(hosts),
        database=unquote(path),
        query=query,
    )


def _hostspec(spec: str) -> tuple[str, int | None]:
    if spec.startswith("["):  # an IPv6 address: [::1]:5432
        host, close, after = spec[1:].partition("]")
        if not close:
            raise BadUrl(f"has a host that cannot be read ({spec!r})")
        if after and not after.startswith(":"):
            raise BadUrl(f"has a host that cannot be read ({spec!r})")
        return host, _port(after[1:]) if after else None
    host, colon, port = spec.partition(":")
    return unquote(host), _port(port) if colon else None


def _port(text: str) -> int | None:
    if text == "":
        return None
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise BadUrl(f"has a port that is not a number from 1 to 65535 ({text!r})")
    return int(text)


def check(url: str) -> StoreUrl:
    """The parts of a team desk URL this desk will use, or StoreError in one sentence: a
    URL libpq cannot read, or one holding a password (libpq finds it in PGPASSWORD or
    ~/.pgpass; a URL is shown and logged, a password must not be)."""
    from taskpack.core.errors import StoreError

    try:
        parsed = parse(url)
    except BadUrl as exc:
        raise StoreError(
            f"the team desk URL {exc}",
            hint="Fix TASKPACK_STORE or the settings' store "
            "(taskpack settings set store postgresql://USER@HOST:PORT/DB); nothing was written.",
        ) from None
    if parsed.has_password:
        raise StoreError(
            f"the team desk URL {parsed.shown()} holds a password; a team desk never takes "
            "one from a URL",
            hint="Put the password in PGPASSWORD or ~/.pgpass and leave it out of the URL.",
        )
    return parsed


# --- the URL in words: which one this process uses, and how messages name it ---------

STORE_ENV = "TASKPACK_STORE"


def store_url(settings_store: str | None) -> str | None:
    """The team desk this process uses: TASKPACK_STORE, else the settings' `store`.
    (Here, not beside the connections: an embedded desk never loads psycopg.)"""
    return (os.environ.get(STORE_ENV) or "").strip() or settings_store or None


def shown(url: str) -> str:
    """The URL with any password taken out: safe for messages and logs."""
    try:
        return parse(url).shown()
    except BadUrl:
        return "a team desk URL that cannot be read"


def where(url: str) -> str:
    """A team desk in a few words for a status line: ``DB on HOST:PORT``."""
    try:
        return parse(url).where()
    except BadUrl:
        return shown(url)


def describe(url: str) -> str:
    return f"the team desk {shown(url)}"
