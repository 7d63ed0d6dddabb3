"""Slim the ICU data library that PySide6's Qt carries on Linux (31 MiB, a fifth of the app).

Qt Core links ICU for collation, case mapping, code pages and time zones, and ICU's data
library (``libicudata.so.NN``: one symbol, ``icudtNN_dat``, holding a table of contents
and the data items) also carries trees Qt never opens: the display names of languages,
regions, currencies and measurement units in every locale, transliterators and
rule-based number spelling (Qt's QLocale formats from its own CLDR tables). ICU's own
data build tool offers exactly these trees as the ones to filter out; an item ICU does
not find is an error code to it, never a crash.

``python packaging/icu_trim.py LIB`` rewrites LIB in place when it is such a library
(the spec calls :func:`trim_library` on the collected copy; the venv's is untouched).
Building the new library needs binutils (``objcopy``, ``ld``), which PyInstaller
already needs on Linux; without them the library is left as it was.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

# trees of the ICU data that Qt never reads (ICU data-filter names: lang_tree,
# region_tree, curr_tree, unit_tree, translit, rbnf_tree)
DROP_TREES = ("lang/", "region/", "curr/", "unit/", "translit/", "rbnf/")

_ALIGN = 16  # every data item starts 16-byte aligned, as ICU's own packager writes them


def _items(dat: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The header and the (name, item) pairs of an ICU common-data package ("CmnD")."""
    header_size = struct.unpack_from("<H", dat, 0)[0]
    if dat[2:4] != b"\xda\x27" or dat[12:16] != b"CmnD" or dat[4 + 4] != 0:
        raise ValueError("not a little-endian ICU common data package")
    toc = header_size
    count = struct.unpack_from("<I", dat, toc)[0]
    entries = [struct.unpack_from("<II", dat, toc + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_off, data_off) in enumerate(entries):
        end_name = dat.index(b"\0", toc + name_off)
        name = dat[toc + name_off : end_name].decode("ascii")
        end = toc + entries[i + 1][1] if i + 1 < count else len(dat)
        items.append((name, dat[toc + data_off : end]))
    return dat[:header_size], items


def _package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    count = len(items)
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    name_base = 4 + 8 * count
    data_base = name_base + len(names)
    data_base += -data_base % _ALIGN
    toc = bytearray(struct.pack("<I", count))
    blob = bytearray()
    name_off = name_base
    for name, item in items:
        toc += struct.pack("<II", name_off, data_base + len(blob))
        name_off += len(name) + 1
        blob += item
        blob += b"\0" * (-len(blob) % _ALIGN)
    body = bytes(toc) + names + b"\0" * (data_base - name_base - len(names)) + bytes(blob)
    return header + body


def trim_data(dat: bytes, drop: tuple[str, ...] = DROP_TREES) -> tuple[bytes, int]:
    """The package without the items under ``drop`` (after the ``icudtNNl/`` prefix),
    and how many items were dropped."""
    header, items = _items(dat)
    kept = [(n, d) for n, d in items if not n.split("/", 1)[-1].startswith(drop)]
    return _package(header, kept), len(items) - len(kept)


def _data_symbol(lib: Path) -> tuple[str, int, int] | None:
    """(symbol, file offset, size) of ICU's data symbol in LIB, or None."""
    try:
        syms = subprocess.run(
            ["nm", "-D", "--defined-only", "-S", str(lib)], capture_output=True, text=True
        ).stdout
        sections = subprocess.run(
            ["readelf", "-SW", str(lib)], capture_output=True, text=True
        ).stdout
    except OSError:
        return None
    found = [ln.split() for ln in syms.splitlines() if re.search(r"\bicudt\d+_dat$", ln)]
    if len(found) != 1:
        return None
    addr, name = int(found[0][0], 16), found[0][-1]
    for ln in sections.splitlines():
        m = re.search(r"\]\s+\.rodata\s+PROGBITS\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", ln)
        if m:
            start, offset, length = (int(g, 16) for g in m.groups())
            # the symbol's own size when it has one (ICU's build), else to the section end
            size = int(found[0][1], 16) if len(found[0]) == 4 else start + length - addr
            return name, offset + addr - start, size
    return None


def trim_library(lib: Path) -> str:
    """Rewrite ICU's data library LIB without the unused trees; say what happened."""
    found = _data_symbol(lib)
    if found is None:
        return f"{lib.name}: no ICU data symbol found (or no binutils); left as it was"
    symbol, offset, size = found
    raw = lib.read_bytes()
    try:
        dat, dropped = trim_data(raw[offset : offset + size])
    except (ValueError, IndexError, struct.error) as exc:
        return f"{lib.name}: not trimmed ({exc})"
    soname = lib.name
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "icudata.bin").write_bytes(dat)
        steps = [
            [
                "objcopy", "-I", "binary", "-O", "elf64-x86-64", "-B", "i386:x86-64",
                "--set-section-alignment", f".data={_ALIGN}",
                "--rename-section", ".data=.rodata,alloc,load,readonly,data,contents",
                "--redefine-sym", f"_binary_icudata_bin_start={symbol}",
                "--strip-symbol", "_binary_icudata_bin_end",
                "--strip-symbol", "_binary_icudata_bin_size",
                "icudata.bin", "icudata.o",
            ],
            ["ld", "-shared", "-z", "noexecstack", "-soname", soname, "-o", soname, "icudata.o"],
        ]  # fmt: skip
        for cmd in steps:
            try:
                p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
            except OSError as exc:
                return f"{lib.name}: not trimmed ({cmd[0]}: {exc.strerror})"
            if p.returncode != 0:
                return f"{lib.name}: not trimmed ({cmd[0]}: {p.stderr.strip()})"
        built = work / soname
        if _data_symbol(built) is None:
            return f"{lib.name}: not trimmed (the rebuilt library lacks {symbol})"
        shutil.copyfile(built, lib)
    return (
        f"{lib.name}: {size / 2**20:.1f} -> {len(dat) / 2**20:.1f} MiB "
        f"({dropped} items of {', '.join(t.rstrip('/') for t in DROP_TREES)} dropped)"
    )


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(trim_library(Path(arg)))
