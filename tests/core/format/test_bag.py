"""A `.taskpack` is a real BagIt bag: bagit-python validates ours, and we read bags
that bagit-python made and that ordinary tools zipped (at the root, or inside one
top-level folder).

bagit-python changes the working directory and is not thread-safe; these tests call it
from the test thread only.
"""

from __future__ import annotations

import json
import random
import shutil
import zipfile
from pathlib import Path

import bagit
import pytest
from hostile_zips import pack_data
from taskpack.core.errors import IntegrityError
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.reading import open_pack
from taskpack.core.format.writing import write_pack

LUGGAGE = {
    "brief.txt": b"The brief.\n",
    "a b.txt": b"space in the name\n",
    "a_b.txt": b"underscore in the name\n",
    "é.txt": "accent: é\n".encode(),
    "中文/报告 final.md": "# 报告\n".encode(),
    "docs/deep/er/notes.txt": b"nested\n",
    "empty.bin": b"",
    "stream.bin": random.Random(7).randbytes((1 << 20) + 12345),  # streamed, not whole
}


def read_to_end(opened, name: str) -> bytes:  # type: ignore[no-untyped-def]
    with opened.open_luggage(name) as f:
        return b"".join(iter(lambda: f.read(1 << 16), b""))


def test_our_bag_validates_with_bagit_python(tmp_path: Path) -> None:
    pack = write_pack(
        pack_data(),
        [LuggageSource.from_bytes(n, b) for n, b in LUGGAGE.items()],
        tmp_path / "x.taskpack",
        encoding="bag",
    ).path
    out = tmp_path / "extracted"
    with zipfile.ZipFile(pack) as zf:
        zf.extractall(out)  # our own file: safe to extract
    bag = bagit.Bag(str(out))
    bag.validate()  # raises BagValidationError with details if anything disagrees
    assert bag.is_valid()
    assert (
        bag.info["Payload-Oxum"]
        == f"{sum(map(len, LUGGAGE.values())) + len((out / 'data/passport.json').read_bytes())}.{len(LUGGAGE) + 1}"
    )
    assert bag.info["Bag-Spec"] == "task-passport-bag/0.1"
    assert sorted(bag.payload_files()) == sorted(
        ["data/passport.json", *(f"data/files/{n}" for n in LUGGAGE)]
    )
    assert json.loads((out / "data/passport.json").read_bytes()) == pack_data()


def test_bagit_python_notices_when_our_bag_is_altered(tmp_path: Path) -> None:
    """The control for the test above: the same check does fail on a changed file."""
    pack = write_pack(
        pack_data(),
        [LuggageSource.from_bytes("brief.txt", b"The brief.\n")],
        tmp_path / "x.taskpack",
        encoding="bag",
    ).path
    out = tmp_path / "extracted"
    with zipfile.ZipFile(pack) as zf:
        zf.extractall(out)
    (out / "data/files/brief.txt").write_bytes(b"The bruef.\n")
    with pytest.raises(bagit.BagValidationError):
        bagit.Bag(str(out)).validate()


def _bagit_made_bag(root: Path, extra: dict[str, bytes] | None = None) -> Path:
    """A folder bagged by bagit-python: passport.json and files/… become data/…"""
    bag_dir = root / "mybag"
    (bag_dir / "files").mkdir(parents=True)
    (bag_dir / "passport.json").write_text(
        json.dumps(pack_data(), indent=4, ensure_ascii=False), encoding="utf-8"
    )
    for name, content in {**LUGGAGE, **(extra or {})}.items():
        p = bag_dir / "files" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content)
    bagit.make_bag(str(bag_dir), {"Contact-Name": "Ana"}, checksums=["sha256"])
    assert (bag_dir / "data" / "passport.json").is_file() and (
        bag_dir / "manifest-sha256.txt"
    ).is_file()
    return bag_dir


def _zip_at_root(bag_dir: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(bag_dir.rglob("*")):
            zf.write(p, p.relative_to(bag_dir).as_posix())  # directories get entries too
    return out


def _zip_in_folder(bag_dir: Path, out: Path) -> Path:
    made = shutil.make_archive(
        str(out.with_suffix("")), "zip", root_dir=bag_dir.parent, base_dir=bag_dir.name
    )
    return Path(made).rename(out)


@pytest.mark.parametrize("zipper", [_zip_at_root, _zip_in_folder], ids=["at-root", "in-one-folder"])
def test_we_read_a_bag_made_by_bagit_python(tmp_path: Path, zipper) -> None:  # type: ignore[no-untyped-def]
    bag_dir = _bagit_made_bag(tmp_path)
    src = zipper(bag_dir, tmp_path / "made-by-bagit.taskpack")
    with zipfile.ZipFile(src) as zf:
        names = zf.namelist()
    assert ("mybag/bagit.txt" in names) is (zipper is _zip_in_folder)
    with open_pack(src) as o:
        assert o.encoding == "bag"
        assert o.data == pack_data()
        assert {i.name: read_to_end(o, i.name) for i in o.luggage} == LUGGAGE
        o.verify()
        if zipper is _zip_in_folder:
            assert any("inside a folder" in n for n in o.notes)
        assert any("canonical" in n for n in o.notes)  # indent=4 is not our form, and we say so


def test_a_bagit_python_bag_with_percent_in_a_name_is_read(tmp_path: Path) -> None:
    """A name like `My%20Report.pdf` (a saved URL) is not an escape: RFC 8493 encodes only
    CR, LF and %, and bagit-python writes such a name as it is."""
    bag_dir = _bagit_made_bag(tmp_path, {"My%20Report.pdf": b"%PDF-1.4\n"})
    with open_pack(_zip_at_root(bag_dir, tmp_path / "x.taskpack")) as o:
        assert read_to_end(o, "My%20Report.pdf") == b"%PDF-1.4\n"


def test_a_bagit_python_bag_altered_after_bagging_is_refused(tmp_path: Path) -> None:
    bag_dir = _bagit_made_bag(tmp_path)
    (bag_dir / "data/files/brief.txt").write_bytes(b"The bruef.\n")  # same size: Oxum still agrees
    with (
        open_pack(_zip_at_root(bag_dir, tmp_path / "x.taskpack")) as o,
        pytest.raises(IntegrityError),
    ):
        o.verify()
