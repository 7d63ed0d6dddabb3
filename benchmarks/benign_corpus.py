"""How often do the refusal patterns fire on text that holds no secrets and no chats?

Scans a benign corpus — this Python's standard library (.py/.txt/.rst) and the text files
under /usr/share/doc — with the same StreamScanner the pack writer and the judge use, and
with scan_value on each file's text as if it were a pack-object field. Prints how many
files were flagged and up to 20 examples (file, kind, byte offset): never the matched text.

    python benchmarks/benign_corpus.py [--limit N] [--examples 20] [extra dirs...]

The standard library does contain a few genuine test keys and sample transcripts; those
are listed too, so a person can judge each one.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from taskpack.core.trust.refusals import StreamScanner, available_engines, scan_value

TEXT_SUFFIXES = {".py", ".txt", ".rst", ".md", ".cfg", ".ini", ".toml", ".json", ".yaml", ".yml"}
MAX_FILE = 8 * 1024 * 1024


def corpus(extra: list[str]) -> Iterator[Path]:
    roots = [Path(os.__file__).parent, Path("/usr/share/doc"), *map(Path, extra)]
    for root in roots:
        if not root.exists():
            continue
        for path in sorted(root.rglob("*")):
            if "site-packages" in path.parts or not path.is_file() or path.is_symlink():
                continue
            name = path.name.lower()
            if (
                path.suffix.lower() in TEXT_SUFFIXES
                or name in {"readme", "changelog", "copyright", "news", "authors"}
                or (root.name == "doc" and name.endswith((".gz",)) and not name.endswith(".tar.gz"))
            ):
                yield path


def as_text(path: Path, data: bytes) -> str:
    if path.suffix == ".gz":
        with contextlib.suppress(OSError, EOFError):
            data = gzip.decompress(data)[:MAX_FILE]
    return data.decode("utf-8", "replace")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", help="more directories to include")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many files")
    ap.add_argument("--examples", type=int, default=20)
    args = ap.parse_args()

    files = flagged = total = 0
    kinds: Counter[str] = Counter()
    examples: list[str] = []
    t0 = time.perf_counter()
    for path in corpus(args.dirs):
        data = path.read_bytes()[:MAX_FILE]
        files += 1
        total += len(data)
        scanner = StreamScanner(str(path))  # raw bytes: .gz files go through the inflater
        scanner.feed(data)
        found = scanner.finish()
        text = as_text(path, data)
        found += [
            f.__class__(f.rule, f.kind, f"{path} (as a field)", f.detail) for f in scan_value(text)
        ]
        if found:
            flagged += 1
            for f in found:
                kinds[f.kind] += 1
            if len(examples) < args.examples:
                examples.append(
                    f"  {found[0].place}: {found[0].kind}"
                    + (f" ({found[0].detail})" if found[0].detail else "")
                )
        if args.limit and files >= args.limit:
            break
    dt = time.perf_counter() - t0
    print(f"engine: {available_engines()[0]}")
    print(f"files scanned: {files} ({total / 1e6:.1f} MB in {dt:.1f} s)")
    print(f"files flagged: {flagged}")
    for kind, n in kinds.most_common():
        print(f"  {n:5d}  {kind}")
    if examples:
        print("examples (file, kind; never the matched text):")
        print("\n".join(examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
