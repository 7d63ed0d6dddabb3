"""The desk's small settings file: ``settings.json`` in the home folder.

    {
      "machine_name": null,          // overrides the host name (TASKPACK_MACHINE wins)
      "actor": null,                 // who packs: origin.actor (TASKPACK_ACTOR wins)
      "language": null,              // UI language, e.g. "zh_CN"; null = the system's
      "gate": {"allow": []},         // senders whose handoffs skip the owner's approval
      "watched_folders": [],         // folders the watcher scans for incoming packs
      "a2a": {"enabled": false,      // the desktop app serves this desk over A2A
              "host": "127.0.0.1",   //   on this address (loopback unless told)
              "port": 8788}          //   and port (0 = any free port)
    }

The gate holds every landed handoff for the owner by default (``allow`` empty). An allow
entry is a sender's actor, machine, or ``actor@machine``; ``*`` lets everyone through.
A file without ``a2a`` (or with only some of its keys) means: the endpoint is off, and
would serve on 127.0.0.1:8788. Keys this version does not know are kept when the file is
saved. The file is written atomically; a damaged file is reported in one sentence, never
silently replaced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskpack.app.a2a import DEFAULT_HOST, DEFAULT_PORT
from taskpack.core.errors import UsageError
from taskpack.core.files import write_bytes_atomically

FILE_NAME = "settings.json"
A2A_KEYS = frozenset({"enabled", "host", "port"})


class SettingsError(UsageError):
    hint = "Fix or delete settings.json in the desk's home folder."


@dataclass
class Settings:
    """The desk's settings as `settings.json` holds them (every field optional)."""

    machine_name: str | None = None
    actor: str | None = None
    language: str | None = None
    gate_allow: list[str] = field(default_factory=list)
    watched_folders: list[str] = field(default_factory=list)
    #: the A2A endpoint the desktop app starts (off unless the file says so)
    a2a_enabled: bool = False
    a2a_host: str = DEFAULT_HOST
    a2a_port: int = DEFAULT_PORT
    #: the team desk's libpq URL (``postgresql://USER@HOST:PORT/DB``; never a password),
    #: None for the embedded desk; TASKPACK_STORE wins
    store: str | None = None
    #: keys this version does not know, kept as they were
    other: dict[str, Any] = field(default_factory=dict)

    # -- file --

    @classmethod
    def load(cls, home: Path) -> Settings:
        path = Path(home) / FILE_NAME
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise SettingsError(f"{path} is not valid JSON (line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise SettingsError(f"{path} must hold a JSON object")
        return cls.from_data(data, where=str(path))

    @classmethod
    def from_data(cls, data: dict[str, Any], *, where: str = "settings") -> Settings:
        def text(key: str) -> str | None:
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise SettingsError(f"{where}: {key} must be text or null")
            return value or None

        def texts(value: Any, key: str) -> list[str]:
            if value is None:
                return []
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise SettingsError(f"{where}: {key} must be a list of text")
            return list(value)

        gate = data.get("gate") or {}
        if not isinstance(gate, dict):
            raise SettingsError(f"{where}: gate must be an object")
        a2a = data.get("a2a")
        if a2a is None:
            a2a = {}
        if not isinstance(a2a, dict):
            raise SettingsError(f"{where}: a2a must be an object")
        enabled = a2a.get("enabled", False)
        if not isinstance(enabled, bool):
            raise SettingsError(f"{where}: a2a.enabled must be true or false")
        host = a2a.get("host")
        if host is not None and not isinstance(host, str):
            raise SettingsError(f"{where}: a2a.host must be text or null")
        port = a2a.get("port", DEFAULT_PORT)
        if port is None:
            port = DEFAULT_PORT
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise SettingsError(f"{where}: a2a.port must be a whole number from 0 to 65535")
        store = text("store")
        if store is not None:
            store_url_problem(store, where=where)
        known = {"machine_name", "actor", "language", "gate", "watched_folders", "a2a", "store"}
        other = {k: v for k, v in data.items() if k not in known}
        if set(gate) - {"allow"}:
            other["gate"] = {k: v for k, v in gate.items() if k != "allow"}
        if set(a2a) - A2A_KEYS:
            other["a2a"] = {k: v for k, v in a2a.items() if k not in A2A_KEYS}
        return cls(
            machine_name=text("machine_name"),
            actor=text("actor"),
            language=text("language"),
            gate_allow=texts(gate.get("allow"), "gate.allow"),
            watched_folders=texts(data.get("watched_folders"), "watched_folders"),
            a2a_enabled=enabled,
            a2a_host=host.strip() if host and host.strip() else DEFAULT_HOST,
            a2a_port=port,
            store=store,
            other=other,
        )

    def to_data(self) -> dict[str, Any]:
        gate = dict(self.other.get("gate") or {})
        gate["allow"] = list(self.gate_allow)
        out: dict[str, Any] = {
            "machine_name": self.machine_name,
            "actor": self.actor,
            "language": self.language,
            "gate": gate,
            "watched_folders": list(self.watched_folders),
        }
        a2a = dict(self.other.get("a2a") or {})
        a2a.update(enabled=self.a2a_enabled, host=self.a2a_host, port=self.a2a_port)
        out["a2a"] = a2a
        if self.store is not None:  # an embedded desk's file stays as it always was
            out["store"] = self.store
        out.update({k: v for k, v in self.other.items() if k not in ("gate", "a2a")})
        return out

    def save(self, home: Path) -> Path:
        home = Path(home)
        home.mkdir(parents=True, exist_ok=True)
        path = home / FILE_NAME
        text = json.dumps(self.to_data(), ensure_ascii=False, indent=2) + "\n"
        return write_bytes_atomically(path, text.encode("utf-8"))

    # -- the keys a person sets from the command line --

    SETTABLE = (
        "machine_name",
        "actor",
        "language",
        "gate.allow",
        "watched_folders",
        "a2a.enabled",
        "a2a.host",
        "a2a.port",
        "store",
    )

    def set(self, key: str, value: str) -> None:
        """Set one key from text; lists take comma-separated items, empty text clears."""
        items = [v.strip() for v in value.split(",") if v.strip()]
        if key == "gate.allow":
            self.gate_allow = items
        elif key == "watched_folders":
            self.watched_folders = items
        elif key in ("machine_name", "actor", "language"):
            setattr(self, key, value.strip() or None)
        elif key == "a2a.enabled":
            word = value.strip().lower()
            if word not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
                raise SettingsError(f"a2a.enabled takes true or false, not {value!r}")
            self.a2a_enabled = word in ("true", "on", "yes", "1")
        elif key == "a2a.host":
            self.a2a_host = value.strip() or DEFAULT_HOST
        elif key == "a2a.port":
            digits = value.strip()
            if not (digits.isascii() and digits.isdigit()) or int(digits) > 65535:
                raise SettingsError(f"a2a.port takes a number from 0 to 65535, not {value!r}")
            self.a2a_port = int(digits)
        elif key == "store":
            url = value.strip() or None
            if url is not None:
                store_url_problem(url, where="store")
            self.store = url
        else:
            raise SettingsError(
                f"there is no setting {key!r}", hint=f"Use one of: {', '.join(self.SETTABLE)}."
            )


def store_url_problem(url: str, *, where: str) -> None:
    """SettingsError unless `url` is a PostgreSQL URL libpq reads (one host or several),
    without a password in it (libpq finds the password in PGPASSWORD or ~/.pgpass;
    settings never hold one)."""
    from taskpack.app.team.url import BadUrl, parse

    try:
        parsed = parse(url)
    except BadUrl as exc:
        raise SettingsError(
            f"{where}: the URL {exc}",
            hint="A team desk is postgresql://USER@HOST:PORT/DB; clear it "
            "(taskpack settings set store '') for the desk on this machine.",
        ) from None
    if parsed.has_password:
        raise SettingsError(
            f"{where}: the URL holds a password; settings never keep one",
            hint="Put the password in PGPASSWORD or ~/.pgpass and leave it out of the URL.",
        )
