"""The folder watcher: notices packs arriving in Downloads, chat folders and USB drives.

Qt-free and usable headless (``taskpack watch DIR…``); the desk window wraps it.

File-system events are *hints*, never facts. A browser writes ``report.taskpack.part``
and renames it; a chat app writes in bursts; a USB stick appears with files already on
it. So the watcher keeps a list of candidate paths, fed by events (created, modified,
closed, moved-to), by a scan of every folder at start and at a slow interval, and by a
one-time scan of the top level of any removable drive mounted while it runs. A
candidate is reported only when

1. its name is a pack name (``.taskpack``, ``.taskpack.json``, ``.tpx``) and not a
   temporary one (``.part``, ``.crdownload``, ``.tmp``, ``.download`` …, or a hidden
   dot-file such as our own writer's ``.x.taskpack.123.partial``);
2. it is complete: it arrived by a rename (a browser's ``.part`` renamed, a file moved in
   from elsewhere) or its writer closed it (inotify's moved-to and close-write on
   Linux, a rename on Windows: :mod:`taskpack.app.platform.observer`), or else its size and mtime have not changed for `settle` seconds; and
3. it opens as a pack (container, manifests and pack object; luggage is not read).

A file said complete by its event is opened at once; should it not open (a writer that
closes and opens again, a file moved in half-copied), it waits for `settle` like any
other before it is called unreadable. A file still growing is always waited for, and on
platforms without those events every file is.

Each (path, size, mtime) is reported once. A stable file that does not open is reported
once through `on_rejected` with the one-sentence reason, whatever went wrong reading it:
no file in a watched folder can stop the watcher. Should its thread ever die all the
same (a bug, a callback that raises), it is restarted after a short pause and
`on_trouble` says so in one sentence. Nothing is ever landed here: the watcher only
tells a person that something arrived.

Callbacks run on the watcher's own thread.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from taskpack.app.platform.observer import platform_observer
from taskpack.core.desk.identity import sender_label
from taskpack.core.errors import TaskPackError, sentence
from taskpack.core.format import vocabulary
from taskpack.core.portable.long_paths import extended

PACK_SUFFIXES = vocabulary.PACK_SUFFIXES
TEMP_SUFFIXES = (
    ".part",
    ".crdownload",
    ".tmp",
    ".temp",
    ".download",
    ".partial",
    ".opdownload",
    ".!ut",
    ".swp",
    "~",
)


def is_pack_name(name: str) -> bool:
    """A name the watcher should look at: a pack suffix, not hidden, not a temp name."""
    low = name.lower()
    if low.startswith(".") or low.startswith("~$"):
        return False
    if low.endswith(TEMP_SUFFIXES):
        return False
    return low.endswith(PACK_SUFFIXES)


@dataclass(frozen=True)
class FoundPack:
    """A pack that arrived: enough to list it under "Incoming" without opening it again."""

    path: Path
    size: int
    mtime_ns: int
    kind: str
    title: str
    sender: str
    note: str
    encoding: str
    open_asks: int
    content_digest: str
    #: (field, credential kind) for each of title, sender, note that held a credential:
    #: that field already reads "(withheld: …)", never the pack's text
    withheld: tuple[tuple[str, str], ...] = ()

    def to_data(self) -> dict[str, object]:
        out = dict(self.__dict__)
        out["path"] = str(self.path)
        out["withheld"] = {name: kind for name, kind in self.withheld}
        return out

    def withheld_kind(self, name: str) -> str | None:
        """The kind of credential `name` (title, sender, note) held, if it was withheld."""
        return dict(self.withheld).get(name)


def withhold(quoted: dict[str, str]) -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """THE rule for a pack's words quoted outside its review (a notification, an Incoming
    row: its title, sender, note): a field holding a credential is shown as "(withheld: …)"
    and only its kind is kept, never its text. Returns the fields to show and (field,
    credential kind) for each withheld one. The watcher and the window both use it."""
    from taskpack.core.trust.refusals import credential_in
    from taskpack.core.trust.refusals import withheld as withheld_text

    shown = dict(quoted)
    withheld = []
    for name, text in quoted.items():
        found_kind = credential_in(text)
        if found_kind is not None:
            withheld.append((name, found_kind))
            shown[name] = withheld_text(found_kind)
    return shown, tuple(withheld)


def probe(path: Path) -> FoundPack:
    """Open `path` as a pack (no luggage is read) and summarise it; raises TaskPackError."""
    from taskpack.core.format.reading import open_pack  # imported late: keeps `watch --help` fast

    where = Path(extended(path))  # past Windows' MAX_PATH too; `path` stays what is shown
    st = where.stat()
    with open_pack(where) as opened:
        pack = opened.pack
        state = pack.passport
        origin = pack.origin
        sender = sender_label(origin.actor, origin.machine) if origin else ""
        sender = sender or "unknown"
        title = (state.title or state.goal or state.id or "") if state else ""
        asks = [a for a in (pack.asks or []) if (a.status or "open") == "open"]
        # a pack is untrusted: a credential in what a notification quotes is named, not shown
        shown, withheld = withhold(
            {"title": title or path.name, "sender": sender, "note": pack.note or ""}
        )
        return FoundPack(
            path=path,
            size=st.st_size,
            mtime_ns=st.st_mtime_ns,
            kind=pack.kind or "handoff",
            title=shown["title"],
            sender=shown["sender"],
            note=shown["note"],
            encoding=opened.encoding,
            open_asks=len(asks),
            content_digest=opened.content_digest(),
            withheld=withheld,
        )


# --- where to look ----------------------------------------------------------------------


def downloads_folder(home: Path | None = None) -> Path:
    """The desktop's Downloads folder (XDG user-dirs where set), else ~/Downloads."""
    home = home or Path.home()
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "user-dirs.dirs"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in config.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "XDG_DOWNLOAD_DIR":
                value = value.strip().strip('"').replace("$HOME", str(home))
                if value:
                    return Path(value)
    return home / "Downloads"


#: chat apps' own download folders, relative to the home folder (used where they exist)
CHAT_FOLDERS = (
    "Downloads/Telegram Desktop",
    "Downloads/WeChat",
    "Documents/WeChat Files",
    "Documents/xwechat_files",
    "Documents/Tencent Files",
    "Library/Containers/com.tencent.xinWeChat/Data/Library/Caches/Downloads",
    "Downloads/DingTalk",
    "Documents/DingTalk",
    "Downloads/Lark",
    "Downloads/Feishu",
    "Downloads/WhatsApp",
    "Documents/Signal",
)


def default_folders(home: Path | None = None) -> list[Path]:
    """Downloads, and the chat apps' download folders that exist on this machine."""
    home = home or Path.home()
    out = [downloads_folder(home)]
    out += [home / rel for rel in CHAT_FOLDERS if (home / rel).is_dir()]
    return list(dict.fromkeys(out))


def removable_roots(user: str | None = None) -> list[Path]:
    """Where removable drives are mounted: /media/$USER, /run/media/$USER, /Volumes."""
    user = user or os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    roots = [Path("/Volumes")]
    if user:
        roots[:0] = [Path("/media") / user, Path("/run/media") / user]
    return roots


# --- the watcher ------------------------------------------------------------------------

FoundCallback = Callable[[FoundPack], None]
RejectedCallback = Callable[[Path, str], None]
TroubleCallback = Callable[[str], None]
Probe = Callable[[Path], FoundPack]


class WatcherOptions(TypedDict, total=False):
    """`FolderWatcher`'s tuning, for a caller that passes it through (tests make it fast)."""

    settle: float
    tick: float
    rescan_every: float
    mount_roots: Sequence[Path] | None
    mount_poll: float
    probe: Probe
    use_events: bool


log = logging.getLogger(__name__)

#: longest pause before a crashed watcher thread starts again (doubling from `tick`)
MAX_RESTART_PAUSE = 10.0


@dataclass
class _Candidate:
    size: int
    mtime_ns: int
    since: float  # monotonic time the (size, mtime) was first seen
    #: an event said it is complete (renamed in, or its writer closed it): no settle wait
    complete: bool = False


class FolderWatcher:
    """Watches `folders` (top level) and newly mounted drives; see the module docstring."""

    def __init__(
        self,
        folders: Iterable[Path | str],
        on_found: FoundCallback,
        on_rejected: RejectedCallback | None = None,
        *,
        settle: float = 1.0,
        tick: float = 0.2,
        rescan_every: float = 30.0,
        mount_roots: Sequence[Path] | None = None,
        mount_poll: float = 2.0,
        probe: Probe = probe,
        use_events: bool = True,
        on_trouble: TroubleCallback | None = None,
    ) -> None:
        self._folders = _unique(folders)
        self._on_found = on_found
        self._on_rejected = on_rejected
        self._on_trouble = on_trouble
        #: how often the thread died and was started again
        self.restarts = 0
        self.settle = settle
        self.tick = tick
        self.rescan_every = rescan_every
        self.mount_roots = list(removable_roots() if mount_roots is None else mount_roots)
        self.mount_poll = mount_poll
        self._probe = probe
        self._use_events = use_events
        self._hints: queue.Queue[tuple[Path, bool] | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._observer: object | None = None
        self._pending: dict[Path, _Candidate] = {}
        self._reported: dict[Path, tuple[int, int]] = {}
        self._mounts: set[Path] = set()
        self._lock = threading.Lock()
        self.unwatchable: list[Path] = []

    # -- public surface --

    @property
    def folders(self) -> list[Path]:
        return list(self._folders)

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._mounts = set(self._list_mounts())  # drives already there are not "new"
        self._start_observer()
        self._thread = threading.Thread(
            target=self._supervise, name="taskpack-watcher", daemon=True
        )
        self._thread.start()

    @property
    def live_folders(self) -> list[Path]:
        """The folders whose changes arrive as events now. The others are found by the
        rescans alone, every `rescan_every` seconds (a folder not there yet, a system or
        file system without change events, an observer that died)."""
        observer = self._observer
        if observer is None or not observer.is_alive():  # type: ignore[attr-defined]
            return []
        return [f for f in self.folders if f not in self.unwatchable]

    @property
    def alive(self) -> bool:
        """True while the watcher's thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._hints.put(None)
        self._stop_observer()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def set_folders(self, folders: Iterable[Path | str]) -> None:
        """Watch a new set of folders (from Settings); the new ones are scanned at once."""
        with self._lock:
            self._folders = _unique(folders)
        if self._thread is not None:
            self._stop_observer()
            self._start_observer()
            for folder in self._folders:
                self._scan(folder)

    def hint(self, path: Path | str, *, complete: bool = False) -> None:
        """Something may have happened at `path` (an event, a rescan, a caller's guess);
        `complete`: it was renamed into place or its writer closed it, so it need not
        settle."""
        self._hints.put((Path(path), complete))

    def forget(self, path: Path | str) -> None:
        """Report `path` again the next time it is seen stable (e.g. after a discard)."""
        with self._lock:
            self._reported.pop(Path(path), None)

    def __enter__(self) -> FolderWatcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def scan_once(self) -> None:
        """Scan every folder now and wait for what is there to settle (headless `--once`)."""
        for folder in self._folders:
            self._scan(folder)
        self._drain()
        while self._pending and not self._stop.is_set():
            time.sleep(min(self.tick, self.settle))
            self._drain()
            self._check_pending()

    # -- the thread --

    def _supervise(self) -> None:
        """Run the loop; if it ever dies, say so and run it again (with a growing pause)."""
        pause = self.tick
        while not self._stop.is_set():
            try:
                self._run()
                return
            except Exception as exc:  # a bug must not leave the person with a deaf watcher
                log.exception("folder watcher crashed; restarting")
                self.restarts += 1
                self._tell_trouble(
                    f"The folder watcher stopped on an unexpected problem "
                    f"({type(exc).__name__}) and was restarted; packs keep being found."
                )
                self._stop.wait(pause)
                pause = min(pause * 2, MAX_RESTART_PAUSE)

    def _tell_trouble(self, sentence: str) -> None:
        if self._on_trouble is None:
            return
        try:
            self._on_trouble(sentence)
        except Exception:
            log.exception("on_trouble callback failed")

    def _run(self) -> None:
        for folder in self._folders:
            self._scan(folder)
        next_rescan = time.monotonic() + self.rescan_every
        next_mounts = time.monotonic() + self.mount_poll
        while not self._stop.is_set():
            try:
                item = self._hints.get(timeout=self.tick)
                if item is not None:
                    self._consider(*item)
                self._drain()
            except queue.Empty:
                pass
            if self._stop.is_set():
                break
            now = time.monotonic()
            if now >= next_rescan:
                next_rescan = now + self.rescan_every
                if any(f.is_dir() for f in self.unwatchable):  # a missing folder appeared
                    self._stop_observer()
                    self._start_observer()
                for folder in self.folders:
                    self._scan(folder)
            if now >= next_mounts:
                next_mounts = now + self.mount_poll
                self._check_mounts()
            self._check_pending()

    def _drain(self) -> None:
        while True:
            try:
                item = self._hints.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._consider(*item)

    def _consider(self, path: Path, complete: bool = False) -> None:
        if not is_pack_name(path.name):
            return
        try:
            st = os.stat(extended(path))
        except OSError:
            self._pending.pop(path, None)
            return
        if not _is_regular(st.st_mode):
            return
        sig = (st.st_size, st.st_mtime_ns)
        if self._reported.get(path) == sig:
            return
        cand = self._pending.get(path)
        if cand is None or (cand.size, cand.mtime_ns) != sig:
            self._pending[path] = _Candidate(*sig, time.monotonic(), complete)
        elif complete:
            cand.complete = True

    def _check_pending(self) -> None:
        now = time.monotonic()
        for path, cand in list(self._pending.items()):
            try:
                st = os.stat(extended(path))
            except OSError:  # renamed away or deleted: the rename's own event brings the new name
                del self._pending[path]
                continue
            sig = (st.st_size, st.st_mtime_ns)
            if sig != (cand.size, cand.mtime_ns):  # still growing: wait for it to settle
                self._pending[path] = _Candidate(*sig, now)
                continue
            if not cand.complete and now - cand.since < self.settle:
                continue
            del self._pending[path]
            self._open(path, sig, cand)

    def _open(self, path: Path, sig: tuple[int, int], cand: _Candidate) -> None:
        try:
            found = self._probe(path)
        except Exception as exc:  # any file at all: a bug in a reader must not stop the watcher
            if cand.complete and time.monotonic() - cand.since < self.settle:
                # complete by its event, yet it does not open: maybe its writer is not
                # done after all; it settles like any other file before it is set aside
                self._pending[path] = _Candidate(*sig, cand.since)
                return
            if not isinstance(exc, TaskPackError | OSError):
                log.exception("reading %s failed unexpectedly", path)
            self._reported[path] = sig
            self._report(self._on_rejected, path, _one_sentence(exc))
            return
        if (found.size, found.mtime_ns) != sig:  # changed while we read it: wait again
            self.hint(path)
            return
        self._reported[path] = sig
        self._report(self._on_found, found)

    def _report(self, callback: Callable[..., None] | None, *args: object) -> None:
        """Call a front end's callback; one that raises is logged, the watcher goes on."""
        if callback is None:
            return
        try:
            callback(*args)
        except Exception as exc:
            log.exception("watcher callback failed")
            self._tell_trouble(
                f"Showing a found pack failed ({type(exc).__name__}); the watcher goes on."
            )

    def _scan(self, folder: Path) -> None:
        try:
            with os.scandir(extended(folder)) as it:
                for entry in it:
                    if is_pack_name(entry.name):
                        self.hint(folder / entry.name)
        except OSError:
            return

    # -- removable drives --

    def _list_mounts(self) -> list[Path]:
        out = []
        for root in self.mount_roots:
            with contextlib.suppress(OSError), os.scandir(root) as it:
                out += [Path(e.path) for e in it if e.is_dir(follow_symlinks=False)]
        return out

    def _check_mounts(self) -> None:
        now = set(self._list_mounts())
        for new in sorted(now - self._mounts):
            self._scan(new)  # once, at its top level; drives are not watched
        self._mounts = now

    # -- watchdog --

    def _start_observer(self) -> None:
        self.unwatchable = []
        if not self._use_events:
            return
        try:
            from watchdog.events import FileSystemEvent, FileSystemEventHandler
        except ImportError:  # pragma: no cover - watchdog is a dependency; rescans still work
            return

        watcher = self
        try:
            events = platform_observer()
        except ImportError:  # watchdog has no observer here: rescans alone find packs
            self.unwatchable = list(self._folders)
            return
        observer = events.observer

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.is_directory:
                    return
                dest = getattr(event, "dest_path", "")
                if event.src_path:  # complete once its writer closed it (not a reader)
                    closed = events.closed_is_complete and event.event_type == "closed"
                    watcher.hint(os.fsdecode(event.src_path), complete=closed)
                if dest:  # renamed into place
                    watcher.hint(os.fsdecode(dest), complete=events.moved_is_complete)

        handler = Handler()
        for folder in self._folders:
            if not folder.is_dir():
                self.unwatchable.append(folder)  # rescans cover it; events once it exists
                continue
            try:
                observer.schedule(handler, str(folder), recursive=False)
            except OSError:
                self.unwatchable.append(folder)
        observer.daemon = True
        try:
            observer.start()
        except OSError:  # e.g. out of inotify watches: rescans alone still find packs
            self.unwatchable = list(self._folders)
            return
        self._observer = observer

    def _stop_observer(self) -> None:
        observer = self._observer
        self._observer = None
        if observer is not None:
            observer.stop()  # type: ignore[attr-defined]
            observer.join(2.0)  # type: ignore[attr-defined]


def _unique(folders: Iterable[Path | str]) -> list[Path]:
    return list(dict.fromkeys(Path(f).expanduser() for f in folders))


def _is_regular(mode: int) -> bool:
    import stat

    return stat.S_ISREG(mode)


def _one_sentence(exc: BaseException) -> str:
    # not one of our errors: a reader bug met this file. Never echo the file's bytes.
    return sentence(
        exc,
        unknown=(
            f"This file could not be read as a TaskPack (an unexpected {type(exc).__name__} in "
            "the reader). It was set aside; ask the sender for a fresh copy."
        ),
    )
