"""The docs name only code that exists: every `core/…`, `app/…`, `ui/…` path and every dotted
reference to a module's name in README.md and docs/*.md is checked against the tree.

What is checked:

* a path (`core/format/flat.py`, `ui/window/`, `core/trust/scan`) must be a file or a
  folder; a path ending in `.name` (`core/trust/pack_writer.make_pack`) must be a module
  that defines that name;
* a dotted name in backticks whose first part is the project (`taskpack.core.format.
  reading.open_pack`, or `app.desk.Desk` without the `taskpack.`), one of its modules
  (`canonical.json_text`) or one of its classes (`Desk.land`) must resolve: the module
  exists and defines each following name;
* `from taskpack.… import a, b` in a code block must import names the module defines.

"Defines" is read from the module's source (functions, classes, assignments and imports at
its top level, or in a class's body), so nothing is imported to check it.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the folders behind `taskpack.<name>` (pyproject's package-dir)
PACKAGES = {"core": ROOT / "core", "app": ROOT / "app", "ui": ROOT / "ui"}
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

PATH = re.compile(r"(?<![\w/.\-])(?:core|app|ui)/[\w/.\-]*")
SPAN = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
FROM_IMPORT = re.compile(r"^\s*from\s+(taskpack(?:\.\w+)+)\s+import\s+([\w\s,()]+)$", re.M)
#: a last part that makes a dotted word a file name, not a module's name
FILE_SUFFIXES = {"py", "md", "txt", "json", "sqlite3", "toml", "yaml", "yml", "taskpack", "qm"}


def module_file(parts: list[str]) -> Path | None:
    """The source file of the module `taskpack.<parts…>` (a package: its __init__.py)."""
    if not parts or parts[0] not in PACKAGES:
        return None
    base = PACKAGES[parts[0]].joinpath(*parts[1:])
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


@functools.cache
def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _bound(statements: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names bound by these statements (descending into if/try/with blocks)."""
    names: dict[str, ast.AST] = {}
    for node in statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            inner = list(node.body) + list(getattr(node, "orelse", []))
            inner += list(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                inner += handler.body
            names.update(_bound(inner))
    return names


def _imported_from(path: Path, node: ast.ImportFrom) -> Path | None:
    """The project module a `from … import` in `path` takes its names from, if any."""
    if node.level:  # relative: from the package holding `path`
        package = path.parent
        for _ in range(node.level - 1):
            package = package.parent
        base = package.relative_to(ROOT).parts
        parts = [*base, *(node.module.split(".") if node.module else [])]
    elif node.module and node.module.startswith("taskpack."):
        parts = node.module.split(".")[1:]
    else:
        return None
    return module_file(list(parts))


def defines(path: Path, names: list[str]) -> bool:
    """Does the module at `path` define `names[0]` (and its class `names[1]`, …)? A name
    it imports from another project module (a package's re-export) is followed there, and
    a class's member may come from one of its bases (a mixin of the project's)."""
    scope: list[ast.stmt] = tree_of(path).body
    for i, name in enumerate(names):
        found = _bound(scope).get(name)
        if found is None:
            return False
        if isinstance(found, ast.ImportFrom) and i + 1 < len(names):
            source = _imported_from(path, found)
            original = next(a.name for a in found.names if (a.asname or a.name) == name)
            return source is not None and defines(source, [original, *names[i + 1 :]])
        if i + 1 < len(names):
            if not isinstance(found, ast.ClassDef):
                return False  # only a class's own names are followed
            if names[i + 1] not in _bound(found.body):
                bases = [b.id for b in found.bases if isinstance(b, ast.Name)]
                return any(defines(path, [base, *names[i + 1 :]]) for base in bases)
            scope = found.body
    return True


@functools.cache
def project_modules() -> dict[str, list[Path]]:
    """Each module's short name (`canonical`, `flat`, `desk`) → its files."""
    found: dict[str, list[Path]] = {}
    for folder in PACKAGES.values():
        for path in folder.rglob("*.py"):
            if "__pycache__" not in path.parts and path.name != "__init__.py":
                found.setdefault(path.stem, []).append(path)
    return found


@functools.cache
def project_classes() -> dict[str, list[Path]]:
    """Each top-level class name → the modules defining it."""
    found: dict[str, list[Path]] = {}
    for paths in project_modules().values():
        for path in paths:
            for node in tree_of(path).body:
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).append(path)
    return found


def path_problem(ref: str) -> str | None:
    ref = ref.rstrip(".")
    if (ROOT / ref).exists():
        return None
    folder, _, leaf = ref.rpartition("/")
    module, dot, names = leaf.partition(".")  # `reading.OpenedPack.open_luggage`
    path = ROOT / folder / f"{module}.py"
    if dot and path.is_file():
        if defines(path, names.split(".")):
            return None
        return f"{folder}/{module}.py defines no {names!r}"
    return "no such file or folder"


def dotted_problem(ref: str) -> str | None:
    """What is wrong with a dotted name in backticks, or None (also for a foreign one)."""
    parts = ref.split(".")
    if parts[-1] in FILE_SUFFIXES:
        return None  # a file name (`SKILL.md`, `store.sqlite3`)
    if parts[0] in PACKAGES:  # `core.format.reading`: the same as `taskpack.core.…`
        parts = ["taskpack", *parts]
    if parts[0] == "taskpack":
        for cut in range(len(parts), 1, -1):
            path = module_file(parts[1:cut])
            if path is not None:
                rest = parts[cut:]
                if not rest or defines(path, rest):
                    return None
                return f"{path.relative_to(ROOT)} defines no {'.'.join(rest)!r}"
        return "no such module"
    if parts[0] in project_modules():
        paths = project_modules()[parts[0]]
        if any(defines(p, parts[1:]) for p in paths):
            return None
        where = ", ".join(str(p.relative_to(ROOT)) for p in paths)
        return f"{where} defines no {'.'.join(parts[1:])!r}"
    if parts[0] in project_classes():
        paths = project_classes()[parts[0]]
        if any(defines(p, parts) for p in paths):
            return None
        return f"class {parts[0]} has no {'.'.join(parts[1:])!r}"
    return None  # not the project's (`json.dumps`, `Task.id`, `lineage.root_id`)


def references() -> list[tuple[str, str, str]]:
    """(doc, kind, reference) for every reference in the docs."""
    found: list[tuple[str, str, str]] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        name = str(doc.relative_to(ROOT))
        found += [(name, "path", m.group()) for m in PATH.finditer(text)]
        for m in SPAN.finditer(text):
            span = m.group(1).strip()
            call = re.fullmatch(rf"({DOTTED.pattern})(\(.*\))?", span)
            if call:
                found.append((name, "name", call.group(1)))
        for m in FROM_IMPORT.finditer(text):
            for imported in re.split(r"[\s,()]+", m.group(2)):
                if imported:
                    found.append((name, "name", f"{m.group(1)}.{imported}"))
    return found


def problems() -> list[str]:
    out = []
    for doc, kind, ref in references():
        problem = path_problem(ref) if kind == "path" else dotted_problem(ref)
        if problem:
            out.append(f"{doc}: `{ref}`: {problem}")
    return out


def test_the_docs_name_only_code_that_exists() -> None:
    assert problems() == []


def test_the_docs_name_code_at_all() -> None:
    # the check above would pass on docs that name nothing it recognises
    refs = references()
    assert sum(1 for _, kind, _ in refs if kind == "path") >= 20
    assert any(ref.startswith("taskpack.") for _, kind, ref in refs if kind == "name")


@pytest.mark.parametrize(
    ("ref", "wrong"),
    [
        ("core/packer.make_pack", True),  # README's old name for the one writer
        ("core/trust/pack_writer.make_pack", False),
        ("core/trust/pack_writer.no_such_function", True),
        ("core/format/reading.OpenedPack.open_luggage", False),
        ("core/format/reading.OpenedPack.no_such_method", True),
        ("core/format/", False),
        ("ui/no_such_window.py", True),
    ],
)
def test_a_path_that_is_not_there_is_found(ref: str, wrong: bool) -> None:
    assert (path_problem(ref) is not None) is wrong


@pytest.mark.parametrize(
    ("ref", "wrong"),
    [
        ("taskpack.core.format.reading.open_pack", False),
        ("taskpack.core.format.reading.no_such_name", True),
        ("taskpack.core.chokepoint", True),
        ("app.desk.Desk.land", False),
        ("app.isolated", False),
        ("canonical.json_text", False),
        ("canonical.no_such_name", True),
        ("Desk.land", False),
        ("Desk.no_such_method", True),
        ("json.dumps", False),  # not the project's: not checked
        ("store.sqlite3", False),  # a file name
    ],
)
def test_a_name_that_is_not_defined_is_found(ref: str, wrong: bool) -> None:
    assert (dotted_problem(ref) is not None) is wrong


def test_the_readme_tree_shows_every_package_folder() -> None:
    """README's "How it is built" has one line per folder: each folder it names exists
    (checked above), and no package folder of core/ or app/ is missing from it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## How it is built", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    shown = {line.split()[0] for line in block.splitlines() if line.strip()}
    folders = {
        f"{top}/{sub.name}/"
        for top in ("core", "app")
        for sub in PACKAGES[top].iterdir()
        if (sub / "__init__.py").is_file()
    }
    assert folders | {"core/", "app/", "ui/"} <= shown, sorted(folders - shown)


def test_the_tests_the_docs_name_exist() -> None:
    """A doc that says which test proves something names a test that is there."""
    named = {
        (doc.name, ref.rstrip("."))
        for doc in DOCS
        for ref in re.findall(r"(?<![\w/.\-])tests/[\w/.\-]+", doc.read_text(encoding="utf-8"))
    }
    assert sorted(f"{doc}: {ref}" for doc, ref in named if not (ROOT / ref).exists()) == []


def test_the_pictures_stay_small() -> None:
    """docs/screenshots.py writes 256-colour PNGs: each well under 150 KB."""
    root = Path(__file__).resolve().parent.parent
    pictures = [
        *(root / "docs" / "screenshots").glob("*.png"),
        *(root / "resources" / "guide").glob("*.png"),
    ]
    assert pictures
    big = {p.name: p.stat().st_size for p in pictures if p.stat().st_size > 150_000}
    assert not big, big
