"""The desk's small settings file: ``settings.json`` in the home folder.

    {
      "machine_name": null,          // overrides the host name (TASKPACK_MACHINE wins)
      "actor": null,                 // who packs: origin.actor (TASKPACK_ACTOR wins)
      "language": null,              // UI language, e.g. "zh_CN"; null = the system's
      "gate": {"allow": []},         // senders whose handoffs skip the owner's approval
      "watched_folders": []          // folders the watcher scans for incoming packs
    }

The gate holds every landed handoff for the owner by default (``allow`` empty). An allow
entry is a sender's actor, machine, or ``actor@machine``; ``*`` lets everyone through.
Keys this version does not know are kept when the file is saved. The file is written
atomically; a damaged file is reported in one sentence, never silently replaced.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskpack.core.errors import UsageError

FILE_NAME = "settings.json"


class SettingsError(UsageError):
    hint = "Fix or delete settings.json in the desk's home folder."


@dataclass
class Settings:
    machine_name: str | None = None
    actor: str | None = None
    language: str | None = None
    gate_allow: list[str] = field(default_factory=list)
    watched_folders: list[str] = field(default_factory=list)
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
        known = {"machine_name", "actor", "language", "gate", "watched_folders"}
        other = {k: v for k, v in data.items() if k not in known}
        if set(gate) - {"allow"}:
            other["gate"] = {k: v for k, v in gate.items() if k != "allow"}
        return cls(
            machine_name=text("machine_name"),
            actor=text("actor"),
            language=text("language"),
            gate_allow=texts(gate.get("allow"), "gate.allow"),
            watched_folders=texts(data.get("watched_folders"), "watched_folders"),
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
        out.update({k: v for k, v in self.other.items() if k != "gate"})
        return out

    def save(self, home: Path) -> Path:
        home = Path(home)
        home.mkdir(parents=True, exist_ok=True)
        path = home / FILE_NAME
        text = json.dumps(self.to_data(), ensure_ascii=False, indent=2) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=".settings.", suffix=".tmp", dir=home)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return path

    # -- the keys a person sets from the command line --

    SETTABLE = ("machine_name", "actor", "language", "gate.allow", "watched_folders")

    def set(self, key: str, value: str) -> None:
        """Set one key from text; lists take comma-separated items, empty text clears."""
        items = [v.strip() for v in value.split(",") if v.strip()]
        if key == "gate.allow":
            self.gate_allow = items
        elif key == "watched_folders":
            self.watched_folders = items
        elif key in ("machine_name", "actor", "language"):
            setattr(self, key, value.strip() or None)
        else:
            raise SettingsError(
                f"there is no setting {key!r}", hint=f"Use one of: {', '.join(self.SETTABLE)}."
            )
