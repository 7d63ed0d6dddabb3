"""The folder watcher: events are hints; a pack is reported once, when stable and parsed."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
import taskpack.app.watcher as watcher_module
from taskpack.app.watcher import FolderWatcher, FoundPack, default_folders, is_pack_name
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack


def pack_data(title: str = "Fix the invoice export") -> dict[str, object]:
    return {
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-08-16T03:11:04Z",
        "origin": {"actor": "wei", "machine": "wei-laptop", "harness": "test"},
        "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@2"]},
        "note": "for you",
        "passport": {"id": "TP-G6RZ-DS3B", "title": title, "version": 2, "facts": []},
        "asks": [{"id": "a1", "what": "which format?", "accept": "csv or xlsx", "status": "open"}],
        "landing_checks": [],
    }


def make_pack_bytes(tmp_path: Path, encoding: str = "bag", size: int = 200_000) -> bytes:
    out = tmp_path / f"made.{encoding}"
    luggage = [LuggageSource.from_bytes("data.bin", bytes(range(256)) * (size // 256))]
    write_pack(pack_data(), luggage, out, encoding=encoding)
    data = out.read_bytes()
    out.unlink()
    return data


class Collector:
    def __init__(self) -> None:
        self.found: list[FoundPack] = []
        self.rejected: list[tuple[Path, str]] = []
        self.event = threading.Event()

    def on_found(self, found: FoundPack) -> None:
        self.found.append(found)
        self.event.set()

    def on_rejected(self, path: Path, why: str) -> None:
        self.rejected.append((path, why))
        self.event.set()

    def wait(self, timeout: float = 10.0) -> None:
        assert self.event.wait(timeout), "the watcher reported nothing"
        self.event.clear()


def report_a_later_pack(folder: Path, got: Collector, tmp_path: Path) -> Path:
    """Write one more pack into `folder` and wait until it is reported. It is reported only
    after its own settle period, so anything reported twice before it would show by then:
    the event proves the negative, not a sleep. The caller drops it from `got.found`."""
    later = folder / "later.taskpack.json"
    later.write_bytes(make_pack_bytes(tmp_path, "flat", size=1_000))
    deadline = time.monotonic() + 60
    while later not in [f.path for f in got.found]:
        assert time.monotonic() < deadline, "the later pack was never reported"
        got.event.wait(0.5)
        got.event.clear()
    assert [f.path for f in got.found].count(later) == 1
    got.found = [f for f in got.found if f.path != later]
    return later


def watcher(folder: Path, got: Collector, **kw: object) -> FolderWatcher:
    kw = {"settle": 0.4, **kw}
    return FolderWatcher([folder], got.on_found, got.on_rejected, tick=0.05, mount_roots=[], **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "wanted"),
    [
        ("a.taskpack", True),
        ("a.TASKPACK.json", True),
        ("old.tpx", True),
        ("a.taskpack.part", False),
        ("a.taskpack.crdownload", False),
        ("a.taskpack.tmp", False),
        ("a.taskpack.download", False),
        (".a.taskpack.1234.partial", False),
        (".hidden.taskpack", False),
        ("notes.json", False),
        ("photo.jpg", False),
    ],
)
def test_pack_names(name: str, wanted: bool) -> None:
    assert is_pack_name(name) is wanted


def test_slow_chunked_part_file_renamed_is_reported_once(tmp_path: Path) -> None:
    inbox = tmp_path / "Downloads"
    inbox.mkdir()
    body = make_pack_bytes(tmp_path)
    got = Collector()
    with watcher(inbox, got):
        part = inbox / "work.taskpack.part"
        with open(part, "wb") as f:
            step = len(body) // 8 + 1
            for i in range(0, len(body), step):
                f.write(body[i : i + step])
                f.flush()
                time.sleep(0.08)
        assert got.found == []  # a .part name is never a candidate
        final = inbox / "work.taskpack"
        part.rename(final)
        got.wait()
        report_a_later_pack(inbox, got, tmp_path)
    assert [f.path for f in got.found] == [final]
    assert got.found[0].kind == "handoff"
    assert got.found[0].title == "Fix the invoice export"
    assert got.found[0].sender == "wei@wei-laptop"
    assert got.found[0].open_asks == 1
    assert got.rejected == []


def test_file_written_in_place_waits_until_stable(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    body = make_pack_bytes(tmp_path, "flat")
    got = Collector()
    target = inbox / "work.taskpack.json"
    with watcher(inbox, got):
        with open(target, "wb") as f:
            half = len(body) // 2
            f.write(body[:half])
            f.flush()
            time.sleep(0.25)  # a pause shorter than `settle`: still being written
            assert got.found == [] and got.rejected == []
            f.write(body[half:])
        got.wait()
        report_a_later_pack(inbox, got, tmp_path)
    assert [f.path for f in got.found] == [target]
    assert got.found[0].encoding == "flat"
    assert got.rejected == []


def test_existing_files_are_found_at_start_and_junk_is_rejected_once(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "ready.taskpack").write_bytes(make_pack_bytes(tmp_path))
    (inbox / "broken.taskpack").write_bytes(b"PK\x03\x04 this is not a zip at all")
    (inbox / "holiday.jpg").write_bytes(b"\xff\xd8")
    got = Collector()
    with watcher(inbox, got):
        deadline = time.monotonic() + 10
        while (not got.found or not got.rejected) and time.monotonic() < deadline:
            time.sleep(0.05)
        report_a_later_pack(inbox, got, tmp_path)
    assert [f.path.name for f in got.found] == ["ready.taskpack"]
    assert [p.name for p, _ in got.rejected] == ["broken.taskpack"]
    assert got.rejected[0][1].endswith(".")  # one sentence for a person


def test_rescan_finds_files_without_events(tmp_path: Path) -> None:
    """Where events are unavailable (a network share), periodic rescans still find packs."""
    inbox = tmp_path / "in"
    inbox.mkdir()
    got = Collector()
    with watcher(inbox, got, use_events=False, rescan_every=0.2):
        (inbox / "late.taskpack").write_bytes(make_pack_bytes(tmp_path))
        got.wait()
    assert [f.path.name for f in got.found] == ["late.taskpack"]


def test_new_removable_drive_is_scanned_once_at_top_level(tmp_path: Path) -> None:
    media = tmp_path / "media" / "me"
    media.mkdir(parents=True)
    (media / "OLD-STICK").mkdir()
    (media / "OLD-STICK" / "old.taskpack").write_bytes(make_pack_bytes(tmp_path))
    got = Collector()
    w = FolderWatcher(
        [],
        got.on_found,
        got.on_rejected,
        settle=0.2,
        tick=0.05,
        mount_roots=[media],
        mount_poll=0.1,
    )
    with w:
        time.sleep(0.3)
        stick = tmp_path / "staging" / "USB"
        (stick / "deep").mkdir(parents=True)
        (stick / "handoff.taskpack").write_bytes(make_pack_bytes(tmp_path))
        (stick / "deep" / "nested.taskpack").write_bytes(make_pack_bytes(tmp_path))
        stick.rename(media / "USB")  # "mounted"
        got.wait()
        time.sleep(0.5)
    assert [f.path for f in got.found] == [media / "USB" / "handoff.taskpack"]


def test_default_folders_use_xdg_downloads_and_existing_chat_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "user-dirs.dirs").write_text(
        'XDG_DESKTOP_DIR="$HOME/Desktop"\nXDG_DOWNLOAD_DIR="$HOME/下载"\n', encoding="utf-8"
    )
    (home / "Downloads" / "Telegram Desktop").mkdir(parents=True)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    folders = default_folders(home)
    assert folders[0] == home / "下载"
    assert home / "Downloads" / "Telegram Desktop" in folders
    assert home / "Documents" / "WeChat Files" not in folders  # absent here


def test_scan_once_reports_what_is_there(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "a.taskpack").write_bytes(make_pack_bytes(tmp_path))
    got = Collector()
    watcher(inbox, got).scan_once()
    assert [f.path.name for f in got.found] == ["a.taskpack"]


def test_a_missing_folder_is_watched_once_it_appears(tmp_path: Path) -> None:
    later = tmp_path / "Downloads"  # not there yet (a fresh account, an unmounted share)
    got = Collector()
    with watcher(later, got, rescan_every=0.2) as w:
        assert w.unwatchable == [later]
        time.sleep(0.3)
        later.mkdir()
        deadline = time.monotonic() + 10
        while w.unwatchable and time.monotonic() < deadline:  # the next rescan watches it
            time.sleep(0.05)
        assert w.unwatchable == []
        (later / "arrived.taskpack").write_bytes(make_pack_bytes(tmp_path))
        got.wait()
    assert [f.path.name for f in got.found] == ["arrived.taskpack"]


def test_a_file_that_trips_a_reader_bug_is_set_aside_and_the_watcher_goes_on(
    tmp_path: Path,
) -> None:
    # a reader bug (any exception outside our error tree) used to kill the watcher thread:
    # every later pack went unreported and nothing said so
    inbox = tmp_path / "in"
    inbox.mkdir()
    got = Collector()

    def buggy_probe(path: Path) -> FoundPack:
        if path.name.startswith("odd"):
            raise TypeError("unhashable type: 'list'")
        from taskpack.app.watcher import probe

        return probe(path)

    with watcher(inbox, got, probe=buggy_probe) as w:
        (inbox / "odd.taskpack.json").write_text('{"taskpack": "0.1", "spec": []}')
        got.wait()
        assert [p.name for p, _ in got.rejected] == ["odd.taskpack.json"]
        why = got.rejected[0][1]
        assert "could not be read as a TaskPack" in why and "fresh copy" in why
        (inbox / "later.taskpack").write_bytes(make_pack_bytes(tmp_path))
        got.wait()
        assert [f.path.name for f in got.found] == ["later.taskpack"]
        assert w.alive and w.restarts == 0


def test_a_dead_watcher_thread_restarts_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "notes.txt").write_text("not a pack\n")  # looked at by the loop's first scan
    got = Collector()
    troubles: list[str] = []
    w = watcher(inbox, got, on_trouble=troubles.append)
    calls = {"n": 0}

    def explode_once(name: str) -> bool:  # a bug in the loop, the first time it runs
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("a bug in the loop")
        return is_pack_name(name)

    monkeypatch.setattr(watcher_module, "is_pack_name", explode_once)
    with w:
        deadline = time.monotonic() + 20
        while not troubles and time.monotonic() < deadline:
            time.sleep(0.02)
        assert troubles and "was restarted" in troubles[0]
        (inbox / "after.taskpack").write_bytes(make_pack_bytes(tmp_path))
        got.wait(20)
        assert [f.path.name for f in got.found] == ["after.taskpack"]
        assert w.alive and w.restarts == 1


def test_a_callback_that_raises_does_not_stop_the_watcher(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    got = Collector()
    troubles: list[str] = []
    seen: list[str] = []

    def fragile(found: FoundPack) -> None:
        seen.append(found.path.name)
        if len(seen) == 1:
            raise KeyError("the front end broke")
        got.on_found(found)

    w = FolderWatcher(
        [inbox],
        fragile,
        got.on_rejected,
        settle=0.4,
        tick=0.05,
        mount_roots=[],
        on_trouble=troubles.append,
    )
    with w:
        (inbox / "first.taskpack").write_bytes(make_pack_bytes(tmp_path))
        deadline = time.monotonic() + 20
        while not troubles and time.monotonic() < deadline:
            time.sleep(0.02)
        (inbox / "second.taskpack").write_bytes(make_pack_bytes(tmp_path, size=1000))
        got.wait(20)
    assert seen == ["first.taskpack", "second.taskpack"]
    assert troubles and "goes on" in troubles[0]


# --- a file that arrives complete is listed at once ---------------------------
# The watchers below wait a minute for a file to settle: being listed within the test's
# few seconds means no settle wait was served. A file still being written is shown to be
# held back by a later pack being listed first (events are handled in order).

LONG_SETTLE = 60.0


def listed(got: Collector, name: str, timeout: float = 10.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while name not in [f.path.name for f in got.found] and time.monotonic() < deadline:
        got.event.wait(0.05)
        got.event.clear()
    return [f.path.name for f in got.found]


@pytest.mark.skipif(sys.platform != "linux", reason="inotify's moved-to and close-write")
def test_a_pack_renamed_or_moved_in_or_closed_is_listed_without_the_settle_wait(
    tmp_path: Path,
) -> None:
    inbox, elsewhere = tmp_path / "Downloads", tmp_path / "elsewhere"
    inbox.mkdir()
    elsewhere.mkdir()
    body = make_pack_bytes(tmp_path)
    got = Collector()
    with watcher(inbox, got, settle=LONG_SETTLE):
        part = inbox / "download.taskpack.part"
        part.write_bytes(body)
        part.rename(inbox / "download.taskpack")  # a browser finishing a download
        assert "download.taskpack" in listed(got, "download.taskpack")
        (elsewhere / "moved.taskpack").write_bytes(body)
        (elsewhere / "moved.taskpack").rename(inbox / "moved.taskpack")  # moved into the folder
        assert "moved.taskpack" in listed(got, "moved.taskpack")
        (inbox / "copied.taskpack").write_bytes(body)  # written and closed
        assert "copied.taskpack" in listed(got, "copied.taskpack")
    assert sorted(f.path.name for f in got.found) == [
        "copied.taskpack",
        "download.taskpack",
        "moved.taskpack",
    ]
    assert got.rejected == []


@pytest.mark.skipif(sys.platform != "linux", reason="inotify's moved-to and close-write")
def test_a_pack_still_being_written_waits_until_its_writer_closes_it(tmp_path: Path) -> None:
    inbox, elsewhere = tmp_path / "in", tmp_path / "elsewhere"
    inbox.mkdir()
    elsewhere.mkdir()
    body = make_pack_bytes(tmp_path)
    got = Collector()
    with watcher(inbox, got, settle=LONG_SETTLE):
        with open(inbox / "slow.taskpack", "wb") as f:
            f.write(body[: len(body) // 2])
            f.flush()
            (elsewhere / "later.taskpack").write_bytes(body)
            (elsewhere / "later.taskpack").rename(inbox / "later.taskpack")
            assert listed(got, "later.taskpack") == ["later.taskpack"]  # slow one held back
            f.write(body[len(body) // 2 :])
        assert "slow.taskpack" in listed(got, "slow.taskpack")
    assert [f.path.name for f in got.found] == ["later.taskpack", "slow.taskpack"]
    assert got.rejected == []


@pytest.mark.skipif(sys.platform != "linux", reason="inotify's moved-to and close-write")
def test_a_closed_file_that_does_not_open_is_not_set_aside_before_it_settles(
    tmp_path: Path,
) -> None:
    # its writer may open it again (a chat app writing in bursts): only a settled file is
    # called unreadable
    inbox, elsewhere = tmp_path / "in", tmp_path / "elsewhere"
    inbox.mkdir()
    elsewhere.mkdir()
    body = make_pack_bytes(tmp_path)
    got = Collector()
    with watcher(inbox, got, settle=LONG_SETTLE):
        (inbox / "burst.taskpack").write_bytes(body[:1000])  # first burst, closed
        (elsewhere / "later.taskpack").write_bytes(body)
        (elsewhere / "later.taskpack").rename(inbox / "later.taskpack")
        assert listed(got, "later.taskpack") == ["later.taskpack"]
        assert got.rejected == []
        with open(inbox / "burst.taskpack", "ab") as f:  # the rest, closed
            f.write(body[1000:])
        assert "burst.taskpack" in listed(got, "burst.taskpack")
    assert got.rejected == []
