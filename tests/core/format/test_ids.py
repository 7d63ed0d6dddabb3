"""Passport ids: shape, alphabet, randomness source, chain entries."""

from __future__ import annotations

import pytest
from taskpack.core.errors import UsageError
from taskpack.core.format import ids


def test_new_ids_have_the_documented_shape_and_alphabet() -> None:
    seen = {ids.new_id() for _ in range(2000)}
    assert len(seen) == 2000  # 31**8 ids: a repeat in 2000 would mean a broken source
    for pid in seen:
        assert ids.is_passport_id(pid), pid
        body = pid[3:7] + pid[8:]
        assert set(body) <= set(ids.ALPHABET)
        assert not set(body) & set("01OIL")


def test_ids_come_from_the_given_random_choice() -> None:
    assert ids.new_id(lambda alphabet: alphabet[0]) == "TP-2222-2222"


@pytest.mark.parametrize("text", ["TP-G6RZ-DS3B", "TP-2222-ZZZZ"])
def test_valid_ids(text: str) -> None:
    assert ids.is_passport_id(text)
    assert ids.parse_id(f"  {text.lower()} ") == text


@pytest.mark.parametrize(
    "text",
    [
        "TP-G6RZ-DS3",
        "TP-G6RZ-DS3BB",
        "TP-O6RZ-DS3B",
        "TP-16RZ-DS3B",
        "tp_G6RZ_DS3B",
        "",
        "plan.taskpack",
    ],
)
def test_invalid_ids_are_refused_with_a_hint(text: str) -> None:
    assert not ids.is_passport_id(text)
    with pytest.raises(UsageError, match="not a passport id"):
        ids.parse_id(text)


def test_chain_entries_round_trip() -> None:
    assert ids.chain_entry("TP-G6RZ-DS3B", 3) == "TP-G6RZ-DS3B@3"
    assert ids.parse_chain_entry("TP-G6RZ-DS3B@3") == ("TP-G6RZ-DS3B", 3)
    # another implementation's ids are kept as written
    assert ids.parse_chain_entry("urn:x:task@12") == ("urn:x:task", 12)
    assert ids.parse_chain_entry("TP-G6RZ-DS3B") == ("TP-G6RZ-DS3B", None)
