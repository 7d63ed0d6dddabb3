"""packaging/icu_trim.py: ICU's data library without the trees Qt never reads."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import icu_trim  # noqa: E402

# what Qt asks ICU for: case mapping, collation, code pages, time-zone names
PROBE = r"""
from PySide6.QtCore import QCollator, QLocale, QStringEncoder, QTimeZone
print(QLocale("tr_TR").toUpper("istanbul"), QLocale("de").toUpper("straße"))
print(sorted(["张", "阿", "李"], key=QCollator(QLocale("zh_CN")).sortKey))
print(QCollator(QLocale("sv_SE")).compare("ö", "z"), QCollator(QLocale("de_DE")).compare("ö", "z"))
print([QStringEncoder(n).isValid() for n in ("Shift-JIS", "GB18030", "Big5", "EUC-KR", "KOI8-R")])
tz = QTimeZone(b"Asia/Shanghai")
for lang in ("en", "zh_CN", "de"):
    print(tz.displayName(QTimeZone.StandardTime, QTimeZone.LongName, QLocale(lang)))
"""


def package(names: list[str]) -> bytes:
    """A small common-data package as ICU's tools write one: header, TOC, names, items."""
    info = struct.pack("<HHBBBB4s4s4s", 20, 0, 0, 0, 2, 0, b"CmnD", b"\1\0\0\0", b"\3\0\0\0")
    header = struct.pack("<HBB", 32, 0xDA, 0x27) + info
    header += b"\0" * (32 - len(header))
    items = [(f"icudt73l/{n}", n.encode() * 3 + b"\0") for n in names]
    return icu_trim._package(header, items)


def test_the_unused_trees_go_and_the_rest_reads_back_in_order() -> None:
    names = ["af.res", "coll/zh.res", "curr/de.res", "lang/fr.res", "nfc.nrm", "unit/en.res"]
    trimmed, dropped = icu_trim.trim_data(package(names))
    assert dropped == 3
    _, items = icu_trim._items(trimmed)
    assert [n for n, _ in items] == ["icudt73l/af.res", "icudt73l/coll/zh.res", "icudt73l/nfc.nrm"]
    assert items[1][1].startswith(b"coll/zh.res" * 3 + b"\0")  # each item's bytes intact
    header_size = struct.unpack_from("<H", trimmed)[0]
    offsets = [struct.unpack_from("<II", trimmed, header_size + 4 + 8 * i)[1] for i in range(3)]
    assert all((header_size + o) % 16 == 0 for o in offsets)  # ICU reads items aligned


def test_something_else_is_refused_not_rewritten() -> None:
    with pytest.raises(ValueError, match="not a little-endian ICU"):
        icu_trim.trim_data(b"\x20\x00\xda\x27" + b"\0" * 60)


def _icu_library() -> Path:
    import PySide6

    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    if not found or not sys.platform.startswith("linux"):
        pytest.skip("this PySide6 carries no ICU data library (Qt uses the system's ICU)")
    for tool in ("objcopy", "ld", "nm", "readelf"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian package binutils)")
    return found[-1]


def test_qt_answers_the_same_with_the_trimmed_library(tmp_path: Path) -> None:
    original = _icu_library()
    slim = tmp_path / original.name
    shutil.copyfile(original, slim)
    said = icu_trim.trim_library(slim)
    assert "items of lang, region, curr, unit, translit, rbnf dropped" in said
    assert slim.stat().st_size < original.stat().st_size * 0.7

    def probe(preload: Path | None) -> str:
        env = dict(os.environ, LD_PRELOAD=str(preload)) if preload else dict(os.environ)
        out = subprocess.run(
            [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    whole, trimmed = probe(None), probe(slim)
    assert trimmed == whole
    assert "İSTANBUL" in trimmed and "['阿', '李', '张']" in trimmed and "中国标准时间" in trimmed
    assert "[True, True, True, True, True]" in trimmed
    assert icu_trim.trim_library(slim).startswith(f"{slim.name}: ")  # a second pass is harmless
