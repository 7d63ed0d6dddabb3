"""The one place a sender label ``actor@machine`` is built."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from taskpack.core.desk.identity import display_name, origin_label, sender_label


def test_sender_label_never_doubles_the_machine() -> None:
    assert sender_label("wei", "alpha") == "wei@alpha"
    assert sender_label("wei@alpha", "alpha") == "wei@alpha"
    assert sender_label("Wei@ALPHA", "alpha") == "Wei@ALPHA"
    assert sender_label("wei@example.com", "alpha") == "wei@example.com@alpha"
    assert sender_label("", "alpha") == "alpha"
    assert sender_label("wei", None) == "wei"
    assert sender_label(5, ["x"]) == ""


def test_origin_label_reads_hostile_origins() -> None:
    assert origin_label({"actor": "li", "machine": "beta"}) == "li@beta"
    assert origin_label({"actor": {"x": 1}, "machine": "beta"}) == "beta"
    assert origin_label(None) == ""
    assert origin_label([]) == ""  # type: ignore[arg-type]


def test_display_name_drops_this_machine() -> None:
    assert display_name("  Wei   Zhang ", "alpha") == "Wei Zhang"
    assert display_name("wei@alpha", "alpha") == "wei"
    assert display_name("wei@beta", "alpha") == "wei@beta"
    assert display_name("   ", "alpha") is None


@given(st.text(), st.text(min_size=1).filter(str.strip))
def test_label_of_a_label_is_the_label(actor: str, machine: str) -> None:
    once = sender_label(actor, machine)
    if actor.strip():
        assert sender_label(once, machine) == once
