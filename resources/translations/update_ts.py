"""Collect the UI's `tr("…")` strings into the .ts file and compile the .qm with lrelease.

    .venv/bin/python resources/translations/update_ts.py          # update .ts, build .qm
    .venv/bin/python resources/translations/update_ts.py --check  # fail if any is untranslated

Why not `pyside6-lupdate`: the UI calls one module-level `tr()` (one translation context,
so a string is translated once however many widgets use it), which lupdate does not
recognise as a translation call. This script reads `ui/**/*.py` with `ast`, keeps the
translations already in the .ts (by source text), marks strings no longer used as
obsolete, and runs `pyside6-lrelease` from the same environment to produce the .qm.

Translations themselves live in `zh_CN.py` next to this file (source → translation), so
they are reviewed as ordinary Python diffs; the .ts is generated from it. Counted strings
(`trn("%n passports", n)`) are Qt numerus messages: their forms are in each table's
`PLURALS` (`en.py` gives English its singular and plural; Chinese has one form).
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


def collect(folder: Path, func: str = "tr") -> dict[str, list[str]]:
    """source text → the places it is used ("ui/x.py:12"), for `tr("…")` or `trn("…", n)`."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == func
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


def load_plurals(language: str) -> dict[str, tuple[str, ...]]:
    """`%n` strings → their numerus forms (Qt's order for the language)."""
    spec = importlib.util.spec_from_file_location(f"tr_{language}", HERE / f"{language}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {
        k: (v,) if isinstance(v, str) else tuple(v)
        for k, v in getattr(module, "PLURALS", {}).items()
    }


def write_ts(
    language: str,
    strings: dict[str, list[str]],
    table: dict[str, str],
    plurals: dict[str, list[str]] | None = None,
    plural_table: dict[str, tuple[str, ...]] | None = None,
) -> Path:
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
    for source in sorted(plurals or {}):
        msg = ET.SubElement(ctx, "message", numerus="yes")
        for where in (plurals or {})[source][:3]:
            file, line = where.rsplit(":", 1)
            ET.SubElement(msg, "location", filename="../../" + file, line=line)
        ET.SubElement(msg, "source").text = source
        translation = ET.SubElement(msg, "translation")
        forms = (plural_table or {}).get(source)
        if not forms:
            translation.set("type", "unfinished")
        for form in forms or ("",):
            ET.SubElement(translation, "numerusform").text = form
    for source in sorted(set(table) - set(strings)):
        msg = ET.SubElement(ctx, "message")
        ET.SubElement(msg, "source").text = source
        ET.SubElement(msg, "translation", type="vanished").text = table[source]
    ET.indent(root)
    out = HERE / f"taskpack_{language}.ts"
    body = ET.tostring(root, encoding="unicode")
    out.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8"
    )
    return out


def lrelease() -> str:
    here = Path(sys.executable).parent / "pyside6-lrelease"
    return str(here) if here.exists() else (shutil.which("pyside6-lrelease") or "lrelease")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a string is untranslated")
    args = parser.parse_args()
    strings = collect(ROOT / "ui")
    plurals = collect(ROOT / "ui", "trn")
    # `counted("… %n …", n)` (ui/words.py) is trn with the count written out: numerus too
    for source, places in collect(ROOT / "ui", "counted").items():
        plurals.setdefault(source, []).extend(places)
    status = 0
    # English: only the singular/plural forms of the %n strings (the source is the plural)
    en_forms = load_plurals("en")
    en_missing = sorted(s for s in plurals if s not in en_forms or len(en_forms[s]) != 2)
    for s in en_missing:
        print(f"en: no singular and plural for: {s!r}", file=sys.stderr)
        status = 1
    if not args.check:
        ts = write_ts("en", {}, {}, plurals, en_forms)
        subprocess.run(
            [lrelease(), "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True
        )
        print(
            f"{ts.relative_to(ROOT)}: {len(plurals)} plural strings -> {ts.with_suffix('.qm').name}"
        )
    for language in LANGUAGES:
        table = load_table(language)
        plural_table = load_plurals(language)
        missing = sorted(s for s in strings if s not in table)
        missing += sorted(s for s in plurals if s not in plural_table)
        bad = sorted(
            s for s in strings if s in table and _placeholders(s) != _placeholders(table[s])
        )
        bad += sorted(
            s
            for s in plurals
            if s in plural_table
            and any(_placeholders(s) != _placeholders(f) or "%n" not in f for f in plural_table[s])
        )
        for s in missing:
            print(f"{language}: untranslated: {s!r}", file=sys.stderr)
        for s in bad:
            print(f"{language}: placeholders differ: {s!r}", file=sys.stderr)
        if missing or bad:
            status = 1
        if args.check:
            continue
        ts = write_ts(language, strings, table, plurals, plural_table)
        qm = ts.with_suffix(".qm")
        subprocess.run([lrelease(), "-silent", str(ts), "-qm", str(qm)], check=True)
        print(
            f"{ts.relative_to(ROOT)}: {len(strings)} strings, {len(missing)} untranslated -> {qm.name}"
        )
    return status


def _placeholders(text: str) -> list[str]:
    import string

    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


if __name__ == "__main__":
    sys.exit(main())
