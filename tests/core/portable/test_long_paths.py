"""Windows' extended-length paths, with `ntpath`'s rules, on any system."""

from __future__ import annotations

import ntpath
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from taskpack.core.portable import long_paths
from taskpack.core.portable.long_paths import extended, extended_form, plain


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("C:\\Users\\wei\\Downloads\\a.taskpack", "\\\\?\\C:\\Users\\wei\\Downloads\\a.taskpack"),
        ("C:/Users/wei/x/../a.taskpack", "\\\\?\\C:\\Users\\wei\\a.taskpack"),  # taken literally
        ("c:\\", "\\\\?\\c:\\"),
        ("\\\\server\\share\\x.taskpack", "\\\\?\\UNC\\server\\share\\x.taskpack"),
        ("//server/share/team/x.taskpack", "\\\\?\\UNC\\server\\share\\team\\x.taskpack"),
        ("\\\\?\\C:\\already", "\\\\?\\C:\\already"),
        ("\\\\?\\UNC\\server\\share\\x", "\\\\?\\UNC\\server\\share\\x"),
        ("\\\\.\\pipe\\taskpack", "\\\\.\\pipe\\taskpack"),  # a device: left alone
        ("relative\\x.taskpack", "relative\\x.taskpack"),  # no drive: nothing to anchor
        ("\\rooted\\x", "\\rooted\\x"),
        ("C:x.taskpack", "C:x.taskpack"),  # relative to C:'s own current folder
    ],
)
def test_the_extended_form(path: str, form: str) -> None:
    assert extended_form(path) == form


def test_a_unc_path_keeps_its_server_share_and_name() -> None:
    """`\\\\server\\share\\x.taskpack` is not taken for a drive or mangled into `\\\\?\\\\\\…`."""
    form = extended_form("\\\\server\\share\\x.taskpack")
    assert form == "\\\\?\\UNC\\server\\share\\x.taskpack"
    assert plain(form) == "\\\\server\\share\\x.taskpack"
    assert ntpath.basename(form) == "x.taskpack"
    assert ntpath.splitdrive(form)[0].lower() == "\\\\?\\unc\\server\\share"


_NAME = st.text(
    alphabet=st.characters(blacklist_characters='\\/:*?"<>|\x00', blacklist_categories=("Cs",)),
    min_size=1,
    max_size=40,
).filter(lambda n: n.strip(". ") == n and n not in (".", ".."))
_ROOT = st.one_of(
    st.sampled_from(["C:\\", "d:\\", "Z:\\"]),
    st.builds(lambda s, h: f"\\\\{s}\\{h}\\", _NAME, _NAME),
)


@given(_ROOT, st.lists(_NAME, min_size=1, max_size=12))
def test_extended_then_plain_is_the_normalized_path(root: str, names: list[str]) -> None:
    path = root + "\\".join(names)
    form = extended_form(path)
    assert form.startswith("\\\\?\\")
    assert "/" not in form and "\\.\\" not in form
    assert plain(form) == ntpath.normpath(path)
    assert extended_form(form) == form  # once is enough
    assert ntpath.basename(form) == names[-1]


def test_on_windows_only_a_path_at_the_limit_is_extended(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short paths stay as a person knows them (messages name them); long ones are extended."""
    monkeypatch.setattr(long_paths, "_WINDOWS", True)
    short = "C:\\Users\\wei\\Downloads\\a.taskpack"
    deep = "C:\\Users\\wei\\" + "\\".join(["project folder"] * 20) + "\\a.taskpack"
    assert len(deep) > 300
    assert extended(short) == short
    assert extended(deep) == "\\\\?\\" + deep
    assert extended(Path("relative") / "x") == os.fspath(Path("relative") / "x")
    # as Windows counts: a character outside the BMP is two UTF-16 units
    emoji = "C:\\" + "\U0001f4e6" * 125  # 128 characters, 253 units
    assert extended(emoji) == "\\\\?\\" + emoji


def test_elsewhere_every_path_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(long_paths, "_WINDOWS", False)
    deep = "/home/wei/" + "/".join(["project folder"] * 30)
    assert extended(deep) == deep
    assert extended(Path(deep)) == os.fspath(Path(deep))


def test_resolve_of_a_short_path_is_path_resolve(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    assert long_paths.resolve(tmp_path / "a" / ".." / "a") == (tmp_path / "a").resolve()
