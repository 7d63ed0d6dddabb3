"""Collect the UI's `tr("…")` strings into the .ts file and compile the .qm with lrelease.

    .venv/bin/python resources/translations/update_ts.py          # update .ts, build .qm
    .venv/bin/python resources/translations/update_ts.py --check  # fail if any is untranslated

Why not `pyside6-lupdate`: the UI calls one module-level `tr()` (one translation context,
so a string is translated once however many widgets use it), which lupdate does not
recognise as a translation call. This script reads `ui/**/*.py` with `ast`, keeps the
translations already in the .ts (by source text), marks strings no longer used as
obsolete, and runs `pyside6-lrelease` from the same environment to produce the .qm.

Translations themselves live in `zh_CN.py` next to this file (source → translation), so
they are reviewed as ordinary Python diffs; the .ts is generated from it.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CONTEXT = "taskpack"
LANGUAGES = ("zh_CN",)


def collect(folder: Path) -> dict[str, list[str]]:
    """source text → the places it is used ("ui/x.py:12")."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.setdefault(node.args[0].value, []).append(where)
    return found


def load_table(language: str) -> dict[str, str]:
    spec = importlib.util.spec_from_file_location(f"tr_{language}", HERE / f"{language}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.TRANSLATIONS)


def write_ts(language: str, strings: dict[str, list[str]], table: dict[str, str]) -> Path:
    root = ET.Element("TS", version="2.1", language=language, sourcelanguage="en")
    ctx = ET.SubElement(root, "context")
    ET.SubElement(ctx, "name").text = CONTEXT
    for source in sorted(strings):
        msg = ET.SubElement(ctx, "message")
        for where in strings[source][:3]:
            file, line = where.rsplit(":", 1)
            ET.SubElement(msg, "location", filename="../../" + file, line=line)
        ET.SubElement(msg, "source").text = source
        translation = ET.SubElement(msg, "translation")
        if source in table:
            translation.text = table[source]
        else:
            translation.set("type", "unfinished")
    for source in sorted(set(table) - set(strings)):
        msg = ET.SubElement(ctx, "message")
        ET.SubElement(msg, "source").text = source
        ET.SubElement(msg, "translation", type="vanished").text = table[source]
    ET.indent(root)
    out = HERE / f"taskpack_{language}.ts"
    body = ET.tostring(root, encoding="unicode")
    out.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")
    return out


def lrelease() -> str:
    here = Path(sys.executable).parent / "pyside6-lrelease"
    return str(here) if here.exists() else (shutil.which("pyside6-lrelease") or "lrelease")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a string is untranslated")
    args = parser.parse_args()
    strings = collect(ROOT / "ui")
    status = 0
    for language in LANGUAGES:
        table = load_table(language)
        missing = sorted(s for s in strings if s not in table)
        bad = sorted(s for s in strings if s in table and _placeholders(s) != _placeholders(table[s]))
        for s in missing:
            print(f"{language}: untranslated: {s!r}", file=sys.stderr)
        for s in bad:
            print(f"{language}: placeholders differ: {s!r}", file=sys.stderr)
        if missing or bad:
            status = 1
        if args.check:
            continue
        ts = write_ts(language, strings, table)
        qm = ts.with_suffix(".qm")
        subprocess.run([lrelease(), "-silent", str(ts), "-qm", str(qm)], check=True)
        print(f"{ts.relative_to(ROOT)}: {len(strings)} strings, {len(missing)} untranslated -> {qm.name}")
    return status


def _placeholders(text: str) -> list[str]:
    import string

    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


if __name__ == "__main__":
    sys.exit(main())
