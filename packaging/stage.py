"""Stage the project for PyInstaller: `python packaging/stage.py build/package-site`.

PyInstaller cannot follow setuptools' editable-install finder, so `make package` freezes
a plain install instead: `pip install --no-deps --target SITE .` gives the real package
metadata (dist-info: version, entry points) and the modules a wheel would carry. Then
every module of the source folders (``[tool.setuptools.package-dir]``) that the install
lacks is copied in, so the frozen app is always the whole tree — and each such gap is
reported, because a wheel built from this pyproject.toml would lack it too.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


def package_dirs() -> dict[str, Path]:
    """Import name → source folder, from pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in mapping.items()}


def complete(site: Path) -> list[str]:
    """Copy what the install lacks; return the folders that were missing from it."""
    gaps: list[str] = []
    for name, src in package_dirs().items():
        dest_root = site.joinpath(*name.split("."))
        for path in sorted(src.rglob("*")):
            rel = path.relative_to(src)
            if SKIP_DIRS & set(rel.parts) or path.is_dir() or path.suffix in (".pyc", ".pyo"):
                continue
            dest = dest_root / rel
            if dest.exists():
                continue
            if not dest.parent.exists() and path.suffix == ".py":
                gaps.append(f"{name}.{'.'.join(rel.parent.parts)}" if rel.parent.parts else name)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
    return sorted(set(gaps))


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "build/package-site").resolve()
    shutil.rmtree(site, ignore_errors=True)
    pip = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-compile",
            "--target",
            str(site),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    if pip.returncode != 0:  # setuptools' chatter is shown only when the install fails
        sys.stderr.write(pip.stdout + pip.stderr)
        return pip.returncode
    gaps = complete(site)
    for gap in gaps:
        print(
            f"stage: package {gap} is not listed in pyproject.toml [tool.setuptools] packages; "
            "copied from the source tree (a wheel would lack it).",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
