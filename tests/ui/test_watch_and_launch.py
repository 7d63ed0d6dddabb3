"""The watcher inside the window, the single-instance hand-off, and the entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import FAST_WATCH, RECEIVER, SENDER, make_handoff, settle
from pytestqt.qtbot import QtBot
from taskpack.app.gui_main import parse_args
from taskpack.ui.single_instance import InstanceServer, hand_off, server_name


def test_watched_folder_brings_packs_to_incoming_once(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    inbox = tmp_path / "Downloads"
    inbox.mkdir()
    made = tmp_path / "made.taskpack"
    sender = make_desk(SENDER, "Wei")
    make_handoff(sender, made, title="Arrived by chat")
    desk = make_desk(RECEIVER)
    desk.settings.watched_folders = [str(inbox)]
    window = make_window(desk, watch=True, watcher_options=FAST_WATCH)
    qtbot.waitUntil(lambda: window.watching.bridge is not None)
    assert window.status_summary().endswith("watching 1 folder")

    body = made.read_bytes()
    part = inbox / "chat-download.taskpack.part"
    with open(part, "wb") as f:  # a browser writing slowly under a temporary name
        for i in range(0, len(body), 1024):
            f.write(body[i : i + 1024])
            f.flush()
            qtbot.wait(20)
    assert window.inbox.model.incoming() == []
    part.rename(inbox / "chat-download.taskpack")
    qtbot.waitUntil(lambda: len(window.inbox.model.incoming()) == 1, timeout=10_000)
    # a later pack, written in place, is listed only after its own settle period: by then
    # the first would have been reported again, were it ever to be
    make_handoff(sender, inbox / "later.taskpack", title="Arrived later")
    qtbot.waitUntil(lambda: len(window.inbox.model.incoming()) >= 2, timeout=30_000)
    [row] = [r for r in window.inbox.model.incoming() if r.title == "Arrived by chat"]
    assert [r.title for r in window.inbox.model.incoming()].count("Arrived later") == 1
    assert (row.title, row.kind, row.sender, row.open_asks) == (
        "Arrived by chat",
        "handoff",
        "Wei@wei-laptop",
        2,
    )
    assert "A pack arrived" in window.statusBar().currentMessage()
    assert desk.passports() == []  # nothing lands without the person


def test_a_folder_without_change_events_is_not_called_watched(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, monkeypatch
) -> None:
    from taskpack.app import watcher

    def none_here() -> object:
        raise ImportError("watchdog has no observer for this platform")

    monkeypatch.setattr(watcher, "platform_observer", none_here)
    inbox = tmp_path / "Downloads"
    inbox.mkdir()
    desk = make_desk(RECEIVER)
    desk.settings.watched_folders = [str(inbox)]
    window = make_window(desk, watch=True, watcher_options=FAST_WATCH)
    qtbot.waitUntil(lambda: window.watching.bridge is not None)
    summary = window.status_summary()
    assert summary.endswith("1 folder checked every 60 s (no change events)")
    assert "watching" not in summary


def test_watcher_ignores_packs_already_landed_or_discarded(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    sender = make_desk(SENDER)
    make_handoff(sender, inbox / "landed.taskpack", title="Landed before")
    make_handoff(sender, inbox / "discarded.taskpack", title="Discarded before")
    desk = make_desk(RECEIVER)
    desk.land(inbox / "landed.taskpack")
    desk.settings.watched_folders = [str(inbox)]
    window = make_window(desk)  # not watching yet: discard one first
    window.open_files([inbox / "discarded.taskpack"])
    settle(qtbot, window)
    window.incoming.view.discard_button.click()
    settle(qtbot, window)
    assert "nothing was stored" in window.banner.text()
    assert window.inbox.model.incoming() == []
    window.watching.start()
    window.watching.bridge.watcher.settle = 0.05
    assert window.inbox.model.incoming() == []
    # the two old packs were in the folder before this one: had either been listed, it
    # would be listed first
    make_handoff(sender, inbox / "new.taskpack", title="Genuinely new")
    qtbot.waitUntil(lambda: len(window.inbox.model.incoming()) >= 1, timeout=30_000)
    assert [r.title for r in window.inbox.model.incoming()] == ["Genuinely new"]


def test_second_launch_hands_files_to_the_running_window(tmp_path: Path, qtbot: QtBot) -> None:
    """`taskpack-desk FILE` while a desk runs: the file goes to the running one; it exits."""
    home = tmp_path / "home"
    name = server_name(home)
    assert name != server_name(tmp_path / "other-home")  # one desk per home folder
    server = InstanceServer(name)
    assert server.listen()
    got: list[list[Path]] = []
    server.files_received.connect(got.append)
    pack = tmp_path / "double-clicked.taskpack"
    env = dict(os.environ, TASKPACK_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    second = subprocess.Popen([sys.executable, "-m", "taskpack.app.gui_main", str(pack)], env=env)
    try:
        qtbot.waitUntil(lambda: second.poll() is not None, timeout=30_000)
    finally:
        if second.poll() is None:
            second.kill()
        server.close()
    assert second.returncode == 0
    assert got == [[pack.resolve()]]
    assert hand_off(name, [pack], timeout_ms=300) is False  # nobody listening any more


def test_a_stale_socket_is_taken_over(tmp_path: Path) -> None:
    name = server_name(tmp_path / "stale")
    first = InstanceServer(name)
    assert first.listen()
    first.server.close()  # a crashed desk's leftover
    second = InstanceServer(name)
    assert second.listen()
    second.close()


def test_entry_point_arguments_and_help() -> None:
    args = parse_args(["a.taskpack", "b.taskpack.json", "--new-instance"])
    assert args.files == ["a.taskpack", "b.taskpack.json"] and args.new_instance
    # `--help` answers without loading Qt: checked in a fresh process, whose every import
    # `-X importtime` lists (this test process has PySide6 loaded already)
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "taskpack.app.gui_main", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "Nothing in a pack is ever run" in out.stdout
    imported = [
        line.rsplit("|", 1)[-1].strip()
        for line in out.stderr.splitlines()
        if line.startswith("import time:")
    ]
    assert "taskpack.app" in imported  # (the list is of this run: gui_main runs as __main__)
    assert [m for m in imported if m.split(".")[0] == "PySide6"] == []


def test_a_watcher_that_restarts_itself_says_so_in_the_window(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    inbox = tmp_path / "Downloads"
    inbox.mkdir()
    desk = make_desk(RECEIVER)
    desk.settings.watched_folders = [str(inbox)]
    window = make_window(desk, watch=True, watcher_options=FAST_WATCH)
    qtbot.waitUntil(lambda: window.watching.bridge is not None)
    watcher = window.watching.bridge.watcher
    real_check = watcher._check_pending
    calls = {"n": 0}

    def explode_once() -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("a bug in the loop")
        real_check()

    watcher._check_pending = explode_once
    qtbot.waitUntil(
        lambda: "restarted itself" in window.statusBar().currentMessage(), timeout=15_000
    )
    made = tmp_path / "made.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), made, title="After the restart")
    (inbox / "after.taskpack").write_bytes(made.read_bytes())
    qtbot.waitUntil(lambda: len(window.inbox.model.incoming()) == 1, timeout=15_000)


def test_a_receipt_this_desk_wrote_shows_as_sent_not_incoming(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    handoff = tmp_path / "h.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), handoff, title="Invoice export")
    desk = make_desk(RECEIVER, "Zhang")
    pid = desk.land(handoff).id
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    desk.settings.watched_folders = [str(downloads)]
    window = make_window(desk, watch=True, watcher_options=FAST_WATCH)
    qtbot.waitUntil(lambda: window.watching.bridge is not None)
    desk.pack(
        pid, downloads / "invoice-receipt.taskpack.json", kind="receipt"
    )  # saved where it is watched
    qtbot.waitUntil(lambda: len(window.inbox.model.incoming()) == 1, timeout=10_000)
    settle(qtbot, window)
    proxy = window.inbox.proxy
    rows = [[proxy.index(r, c).data() for c in range(3)] for r in range(proxy.rowCount())]
    assert ["Invoice export", "receipt you sent", "you"] in rows
    assert "A receipt arrived" not in window.statusBar().currentMessage()
    window.inbox.incoming_box.setChecked(True)  # "Incoming only" does not list what went out
    assert proxy.rowCount() == 0
