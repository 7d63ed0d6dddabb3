"""Luggage: the files that travel with a pack, and the rules their names obey.

A luggage name is a relative POSIX path under ``data/files/`` (bag) or the ``name`` of a
flat attachment. Names keep their meaning: ``a b.txt`` stays ``a b.txt`` and ``é.txt``
stays ``é.txt``. A name that could escape the target folder, or that two file systems
would read differently, is refused — never silently rewritten into another name.
"""

from __future__ import annotations

import functools
import io
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..errors import UnsafeEntry, UsageError

MAX_NAME_BYTES = 1024  # a whole luggage path, UTF-8
MAX_SEGMENT_BYTES = 255  # one path segment: the common file-system limit
_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"]
    + [f"com{i}" for i in range(1, 10)]
    + [f"lpt{i}" for i in range(1, 10)]
)
_FORBIDDEN_CHARS = set('<>:"|?*\\')
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def check_luggage_name(name: str, *, where: str = "luggage") -> str:
    """Return `name` unchanged if it is a safe relative luggage path, else raise UnsafeEntry.

    Refused: empty names, absolute paths, drive letters, backslashes, ``.``/``..``
    segments, empty segments, control characters, characters Windows cannot store,
    reserved device names, and over-long names.

    A name found safe is remembered (the thousand most recent): every bag has the
    same tag files' names, and a landing checks each of its entries' names.
    """
    if type(name) is str and type(where) is str:  # (other types: checked, never cached)
        return _safe_name(name, where)
    return _check_luggage_name(name, where)


def _check_luggage_name(name: str, where: str) -> str:

    def bad(why: str, problem: str) -> UnsafeEntry:
        return unsafe_name(f"{where} name {name!r} {why}", where, name, problem)

    if not isinstance(name, str) or not name:
        raise unsafe_name(f"{where} has an empty name", where, str(name), "empty")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise bad("is too long", "too_long")
    if _CONTROL.search(name):
        raise bad("contains a control character", "control")
    if "\\" in name:
        raise bad("contains a backslash (a Windows path separator)", "backslash")
    if name.startswith("/"):
        raise bad("is an absolute path", "absolute")
    if len(name) >= 2 and name[1] == ":" and name[0].isalpha():
        raise bad("starts with a drive letter", "drive")
    for seg in name.split("/"):
        if seg in ("", ".", ".."):
            raise bad("has an empty, '.' or '..' segment", "dot_segment")
        if len(seg.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES:
            raise bad("has a segment longer than 255 bytes", "long_segment")
        if set(seg) & _FORBIDDEN_CHARS:
            raise bad('contains a character Windows cannot store (<>:"|?*)', "windows_char")
        if seg.split(".")[0].lower() in _WINDOWS_RESERVED:
            raise bad("is a reserved device name on Windows", "reserved")
        if seg != seg.rstrip(" ."):
            raise bad("has a segment ending in a space or dot", "trailing")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise bad("is not valid Unicode", "not_unicode") from None
    return name


#: the names found safe, the most recent first; a refused one raises and is not kept
_safe_name = functools.lru_cache(maxsize=1024)(_check_luggage_name)


def unsafe_name(message: str, where: str, name: str, problem: str, **more: str) -> UnsafeEntry:
    """An unsafe luggage or entry name; `problem` (``dot_segment``, ``twice`` …) lets a
    window say it in its own language (code ``unsafe_name``)."""
    params = {"where": where, "name": name, "problem": problem, **more}
    return UnsafeEntry(message, place=name, code="unsafe_name", params=params)


def collision_key(name: str) -> str:
    """Two names with the same key would land on one file on macOS or Windows."""
    return unicodedata.normalize("NFC", name).casefold()


def check_unique(names: Iterable[str], *, where: str = "luggage") -> None:
    """Refuse duplicate names and names that collide on case-insensitive file systems."""
    seen: dict[str, str] = {}
    for name in names:
        key = collision_key(name)
        if key in seen:
            other = seen[key]
            what = (
                "appears twice"
                if other == name
                else f"collides with {other!r} on case-insensitive disks"
            )
            problem = "twice" if other == name else "collides"
            raise unsafe_name(f"{where} name {name!r} {what}", where, name, problem, other=other)
        seen[key] = name
    # a file and a folder of the same name: "a" and "a/b" cannot both land
    folders = {collision_key(n).rsplit("/", 1)[0] for n in seen.values() if "/" in n}
    expanded: set[str] = set()
    for f in folders:
        parts = f.split("/")
        expanded.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    for key, name in seen.items():
        if key in expanded:
            raise unsafe_name(
                f"{where} name {name!r} is both a file and a folder", where, name, "file_and_folder"
            )


@dataclass(frozen=True)
class LuggageSource:
    """Bytes to put into a pack: a name under ``files/`` and a way to stream them.

    `sha256` may be given when it is already known. The writer trusts it instead of
    hashing again only when `verified_stream` is true: the opener's stream itself checks
    the bytes against `sha256` and raises at the end if they differ (a luggage stream of
    an opened pack does), so a wrong digest can never be written into a manifest.
    """

    name: str
    size: int
    opener: Callable[[], BinaryIO] = field(repr=False)
    sha256: str | None = None
    verified_stream: bool = False

    def open(self) -> BinaryIO:
        return self.opener()

    @classmethod
    def from_path(cls, path: Path | str, name: str | None = None) -> LuggageSource:
        p = Path(path)
        return cls(name=name or p.name, size=p.stat().st_size, opener=lambda: open(p, "rb"))

    @classmethod
    def from_bytes(cls, name: str, data: bytes) -> LuggageSource:
        return cls(name=name, size=len(data), opener=lambda: io.BytesIO(data))


def luggage_from_paths(
    paths: Sequence[Path | str], *, skipped: list[str] | None = None
) -> list[LuggageSource]:
    """Files as given; a folder is walked (sorted) and keeps its shape: ``docs/a/b.txt``.

    A path named here is taken as named (a symlink you name is followed, as `cp` does).
    Inside a folder only regular files are luggage: a symbolic link is never followed
    (``proj/link -> /etc/passwd`` would pack a file from outside the folder) and devices,
    pipes and sockets are left out; each one left out is appended to `skipped` as
    ``"<luggage name> (why)"`` so the caller can say so. Files found in a folder are
    opened without following a link, so one swapped in after the walk is refused.
    """
    out: list[LuggageSource] = []
    left_out = skipped if skipped is not None else []

    def walk(p: Path, rel: str, *, named: bool) -> None:
        if not named and p.is_symlink():
            left_out.append(f"{rel} (a symbolic link; not followed)")
            return
        if p.is_file():
            out.append(LuggageSource.from_path(p, rel) if named else _no_follow_source(p, rel))
        elif p.is_dir():
            for child in sorted(os.listdir(p)):
                walk(p / child, f"{rel}/{child}", named=False)
        else:
            left_out.append(f"{rel} (not a regular file: a device, pipe or socket)")

    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise UsageError(
                f"no such file or folder: {p}",
                hint="Check the path and try again.",
                code="no_such_path",
                params={"path": str(p)},
            )
        walk(p, p.resolve().name if p.name in ("", ".", "..") else p.name, named=True)
    for src in out:
        check_luggage_name(src.name)
    check_unique(s.name for s in out)
    return out


_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, where links need privileges


def _no_follow_source(p: Path, name: str) -> LuggageSource:
    def opener() -> BinaryIO:
        try:
            fd = os.open(p, os.O_RDONLY | _O_NOFOLLOW | getattr(os, "O_BINARY", 0))
        except OSError:
            if p.is_symlink():
                raise UsageError(
                    f"{name} became a symbolic link after it was listed; it is not packed",
                    code="became_symlink",
                    params={"name": name},
                ) from None
            raise
        return os.fdopen(fd, "rb")

    return LuggageSource(name=name, size=p.lstat().st_size, opener=opener)


def interop_warnings(names: Iterable[str], *, encoding: str) -> list[str]:
    """What a reader other than ours may stumble on in these names (the pack is still
    correct TaskPack; see docs/format.md): `%` in a `.taskpack` (percent-encoded in the
    manifest as RFC 8493 requires; the reference implementation cannot read it back)."""
    if encoding != "bag":
        return []
    with_percent = [n for n in names if "%" in n]
    if not with_percent:
        return []
    shown = ", ".join(repr(n) for n in with_percent[:3]) + (" …" if len(with_percent) > 3 else "")
    return [
        f"{len(with_percent)} luggage name(s) contain '%' ({shown}): RFC 8493 makes it %25 in the "
        "manifest, which the reference implementation (task-passport) cannot read; rename the "
        "file(s) if the receiver uses it"
    ]


@dataclass(frozen=True)
class LuggageItem:
    """One luggage file inside an opened pack (see `pack.OpenedPack.open_luggage`)."""

    name: str
    size: int
    #: the digest the pack declares (bag manifest or flat `sha256`); None if it declares none
    sha256: str | None
