"""Where this desk keeps its store, and what this machine and its person are called.

These are the app's questions to the operating system; `core` never asks them and is
handed the answers instead.

* home: ``$TASKPACK_HOME`` if set, else the platform's user data folder
  (``~/.local/share/taskpack-desk`` on Linux, ``~/Library/Application Support/…`` on
  macOS, ``%LOCALAPPDATA%\\taskpack-desk`` on Windows).
* machine name (written as ``origin.machine`` and ``verified_on``):
  ``$TASKPACK_MACHINE``, else the settings' ``machine_name``, else the host name.
* actor (written as ``origin.actor``): ``$TASKPACK_ACTOR``, else the settings' ``actor``,
  else the login name.
"""

from __future__ import annotations

import getpass
import os
import socket
from pathlib import Path

import platformdirs
from taskpack.app.settings import Settings

APP_NAME = "taskpack-desk"
HOME_ENV = "TASKPACK_HOME"
MACHINE_ENV = "TASKPACK_MACHINE"
ACTOR_ENV = "TASKPACK_ACTOR"


def home() -> Path:
    """The desk's home folder (created on first use by the store)."""
    env = os.environ.get(HOME_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_path(APP_NAME, appauthor=False))


def machine_name(settings: Settings | None = None) -> str:
    env = os.environ.get(MACHINE_ENV, "").strip()
    if env:
        return env
    if settings is not None and settings.machine_name:
        return settings.machine_name
    return socket.gethostname() or "unknown"


def actor_name(settings: Settings | None = None) -> str:
    env = os.environ.get(ACTOR_ENV, "").strip()
    if env:
        return env
    if settings is not None and settings.actor:
        return settings.actor
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - no login name (containers)
        return "unknown"
