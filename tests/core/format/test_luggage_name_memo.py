"""`check_luggage_name` remembers the names it found safe: a refused name is refused
every time it is asked about, each time naming the place it was asked for, and a name
that is not a string is refused with the same one-line error as ever."""

from __future__ import annotations

import pytest
from taskpack.core.errors import UnsafeEntry
from taskpack.core.format.luggage import check_luggage_name


@pytest.mark.parametrize("name", ["../etc/passwd", "a/./b", "con.txt", "x\x00y", "a\\b", ""])
def test_a_refused_name_is_refused_every_time(name: str) -> None:
    for where in ("zip entry", "luggage", "zip entry"):
        with pytest.raises(UnsafeEntry) as refused:
            check_luggage_name(name, where=where)
        assert refused.value.params["where"] == where


def test_a_safe_name_is_safe_in_every_place_and_returned_as_given() -> None:
    for where in ("zip entry", "luggage"):
        assert check_luggage_name("data/files/notes.txt", where=where) == "data/files/notes.txt"


@pytest.mark.parametrize("name", [["a"], {"a": 1}, None, 7])
def test_a_name_that_is_not_text_is_refused_in_one_line(name: object) -> None:
    with pytest.raises(UnsafeEntry, match="empty name"):
        check_luggage_name(name, where="attachment")  # type: ignore[arg-type]
