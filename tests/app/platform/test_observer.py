"""The watcher runs on this platform's own observer, and says so honestly when none runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from taskpack.app import watcher as watcher_module
from taskpack.app.platform import observer
from taskpack.app.watcher import FolderWatcher

OWN = {"linux": "inotify", "win32": "read_directory_changes", "darwin": "fsevents"}


@pytest.mark.skipif(sys.platform not in OWN, reason="no observer of its own known here")
def test_the_platform_gets_its_own_observer() -> None:
    events = observer.platform_observer()
    assert events.kind == OWN[sys.platform]
    assert events.moved_is_complete is (sys.platform != "darwin")
    assert events.closed_is_complete is (sys.platform == "linux")


def test_windows_observer_trusts_renames_not_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    import watchdog.observers

    class ReadDirectoryChanges:  # stands for watchdog's WindowsApiObserver off Windows
        __module__ = "watchdog.observers.read_directory_changes"

    monkeypatch.setattr(watchdog.observers, "Observer", ReadDirectoryChanges)
    events = observer.platform_observer()
    assert (events.kind, events.closed_is_complete, events.moved_is_complete) == (
        "read_directory_changes",
        False,
        True,
    )


def test_a_folder_is_live_while_the_observer_runs(tmp_path: Path) -> None:
    w = FolderWatcher([tmp_path], lambda p, _: None, mount_roots=[], settle=0.2)
    with w:
        assert w.live_folders == [tmp_path]
    assert w.live_folders == []


def test_without_an_observer_no_folder_is_called_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def none_here() -> observer.Events:
        raise ImportError("no observer for this platform")

    monkeypatch.setattr(watcher_module, "platform_observer", none_here)
    w = FolderWatcher([tmp_path], lambda p, _: None, mount_roots=[], settle=0.2)
    with w:
        assert w.alive and w.live_folders == []
        assert w.unwatchable == [tmp_path]
