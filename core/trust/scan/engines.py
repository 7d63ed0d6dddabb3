"""Engines: every position where a trigger occurs, in a stream or in a whole value.

Hyperscan when it can be imported and runs on this CPU; otherwise the ``bytes.find``
fallback ("re" for short). Both report positions only, never a verdict.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import Any, Protocol, cast

from .triggers import (
    _FOLD,
    _TMAX,
    _TRIGGER_LENGTHS,
    _TRIGGERS,
    ZIP_ID,
    _hs_pattern,
    _Needle,
    _needle,
)

#: the hyperscan module, imported when a scan first asks for it (a small scan never does:
#: importing it is a sizeable part of a small judge's start-up); None: not installed here
_NOT_YET = object()
_hs: ModuleType | object | None = _NOT_YET


def _hyperscan() -> ModuleType | None:
    global _hs
    if _hs is _NOT_YET:
        try:  # the fast engine; the `re` fallback below gives the same findings, slower
            import hyperscan

            _hs = hyperscan
        except ImportError:  # pragma: no cover - depends on the platform
            _hs = None
    return cast("ModuleType | None", _hs)


class _EngineStream(Protocol):
    #: where ZIP local headers start (ZIP_TRIGGER), apart from the trigger positions
    zips: list[int]

    def scan(self, data: bytes | bytearray | memoryview) -> list[int]: ...
    def close(self) -> list[int]: ...


class Engine(Protocol):
    name: str

    def open(self) -> _EngineStream: ...
    def positions(self, data: bytes) -> list[int]: ...  # one-shot: a whole value at once


class _HyperscanEngine:
    name = "hyperscan"

    def __init__(self, hs: ModuleType) -> None:
        self._hs = hs
        self.db = self._compile(hs.HS_MODE_STREAM)
        self._block_db: Any = None  # the same patterns, for whole values: built when first asked
        self._block_lock = threading.Lock()
        self._local = threading.local()
        self.close_lock = threading.Lock()

    @property
    def block_db(self) -> Any:
        """The block-mode database (whole values at once), compiled on first use: a
        judge of a big pack scans its luggage as a stream and never needs it."""
        if self._block_db is None:
            with self._block_lock:
                if self._block_db is None:
                    self._block_db = self._compile(self._hs.HS_MODE_BLOCK)
        return self._block_db

    def _compile(self, mode: int) -> Any:
        db = self._hs.Database(mode=mode)
        n = len(_TRIGGERS)
        db.compile(
            expressions=[_hs_pattern(t) for t in _TRIGGERS],
            ids=list(range(n)),
            elements=n,
            flags=[0] * n,
        )
        return db

    def scratch(self, block: bool = False) -> Any:
        name = "block_scratch" if block else "scratch"
        scratch = getattr(self._local, name, None)
        if scratch is None:  # one per thread and database: scratch is not shareable
            scratch = self._hs.Scratch(self.block_db if block else self.db)
            setattr(self._local, name, scratch)
        return scratch

    def open(self) -> _EngineStream:
        return _HyperscanStream(self)

    def positions(self, data: bytes) -> list[int]:
        hits: list[int] = []
        lengths = _TRIGGER_LENGTHS

        def on_match(ident: int, _start: int, end: int, _flags: int, _ctx: object) -> None:
            if ident != ZIP_ID:
                hits.append(end - lengths[ident])

        if data:
            self.block_db.scan(data, match_event_handler=on_match, scratch=self.scratch(True))
        return hits


class _HyperscanStream:
    def __init__(self, engine: _HyperscanEngine) -> None:
        hits: list[int] = []
        zips: list[int] = []
        lengths = _TRIGGER_LENGTHS

        def on_match(ident: int, _start: int, end: int, _flags: int, _ctx: object) -> None:
            if ident == ZIP_ID:
                zips.append(end - 4)
            else:
                hits.append(end - lengths[ident])

        self.zips = zips
        self._hits = hits
        self._on_match = on_match  # the extension keeps only a borrowed reference
        self._engine = engine
        self._stream = engine.db.stream(match_event_handler=on_match)
        self._stream.__enter__()
        self._open = True

    def scan(self, data: bytes | bytearray | memoryview) -> list[int]:
        self._stream.scan(data, scratch=self._engine.scratch(), match_event_handler=self._on_match)
        return self._take()

    def close(self) -> list[int]:
        if self._open:
            self._open = False
            # The binding's close(scratch=...) is broken; plain close() uses the database's
            # own scratch, which must not be used by two threads at once.
            with self._engine.close_lock:
                self._stream.close(match_event_handler=self._on_match)
        return self._take()

    def _take(self) -> list[int]:
        out = list(self._hits)
        self._hits.clear()
        return out


class _ReEngine:
    """The fallback ("re" for short): the same triggers found with `bytes.find`.

    One C-speed `find` pass per trigger beats one `re` alternation by far on text, where
    a regex engine has to try the alternation at almost every byte.
    """

    name = "re"

    def __init__(self) -> None:
        self.needles = tuple(_needle(t) for t in _TRIGGERS)

    def open(self) -> _EngineStream:
        return _ReStream(self.needles)

    def positions(self, data: bytes) -> list[int]:
        return _ReStream(self.needles).scan(data)  # the zip needle reports apart


class _ReStream:
    def __init__(self, needles: tuple[_Needle, ...]) -> None:
        self._needles = needles
        self._carry = b""  # the last _TMAX - 1 bytes: a trigger may start in them
        self._base = 0  # stream offset of self._carry[0]
        self.zips: list[int] = []
        self._zip = len(needles) - 1  # the last needle is ZIP_TRIGGER

    def scan(self, data: bytes | bytearray | memoryview) -> list[int]:
        buf = self._carry + bytes(data)
        low = buf.translate(_FOLD)
        out: list[int] = []
        for n, needle in enumerate(self._needles):
            hay = low if needle.folded else buf
            text, lead = needle.text, needle.lead
            i = hay.find(text)
            target = self.zips if n == self._zip else out
            while i >= 0:
                if lead is None:
                    target.append(self._base + i)
                elif i > 0 and buf[i - 1] in lead:
                    out.append(self._base + i - 1)
                i = hay.find(text, i + 1)
        keep = min(len(buf), _TMAX - 1)
        self._base += len(buf) - keep
        self._carry = buf[len(buf) - keep :]
        return out

    def close(self) -> list[int]:
        return []


_ENGINES: dict[str, Engine | None] = {}
#: one lock per engine: the fallback is never kept waiting while hyperscan compiles
_ENGINE_LOCKS = {"re": threading.Lock(), "hyperscan": threading.Lock()}


def _build(name: str) -> Engine | None:
    if name in _ENGINES:
        return _ENGINES[name]
    with _ENGINE_LOCKS[name]:
        if name not in _ENGINES:
            if name == "re":
                _ENGINES[name] = _ReEngine()
            else:
                engine: Engine | None = None
                try:  # importing can succeed on a CPU hyperscan then refuses to run on
                    hs = _hyperscan()
                    if hs is not None:
                        engine = _HyperscanEngine(hs)
                        probe = engine.open()
                        probe.scan(b"ghp_")
                        probe.close()
                except Exception:  # any failure at all means: use the fallback
                    engine = None
                _ENGINES[name] = engine
        return _ENGINES[name]


#: up to this many bytes to scan, the pure-Python engine is done before hyperscan has
#: built its databases (most of a small judge's time); same findings either way
SMALL_SCAN_BYTES = 256 << 10


def prepare_for(size: int) -> None:
    """:func:`prepare` the engine a scan of `size` bytes will use, if it is not the
    fallback (a caller that knows a file is coming can start this before it imports the
    rest of what reading the file takes)."""
    if size > SMALL_SCAN_BYTES:
        prepare()


def prepare(name: str | None = None) -> None:
    """Start building engine `name` (None: the fastest) on a thread of its own, so that a
    scan that will need it soon does not wait for hyperscan to compile its patterns
    (the GIL released meanwhile): the judge of a big pack asks for it before it opens the
    pack, and its first luggage chunk finds it built. Later calls cost nothing."""
    key = "re" if name in ("re", SMALL) else (name or "hyperscan")
    if key in _ENGINES or key not in _ENGINE_LOCKS:  # built already, or no such engine:
        return  # engine_named says so when it is asked for
    threading.Thread(target=_build, args=(key,), name="scan-engine", daemon=True).start()


def available_engines() -> tuple[str, ...]:
    """Engine names usable here, fastest first: ``("hyperscan", "re")`` or ``("re",)``."""
    return ("hyperscan", "re") if _build("hyperscan") is not None else ("re",)


#: an engine name for a scan known to be small (`refusals.engine_for`): the ``re`` engine,
#: which is done before hyperscan would have built its databases; an archive inside is
#: scanned with the fastest engine, since what it inflates to is not small
SMALL = "small"


def engine_named(name: str | None) -> Engine:
    if name == SMALL:
        name = "re"
    name = name or available_engines()[0]
    engine = _build(name) if name in ("hyperscan", "re") else None
    if engine is None:
        raise ValueError(f"unknown or unavailable scan engine {name!r}")
    return engine
