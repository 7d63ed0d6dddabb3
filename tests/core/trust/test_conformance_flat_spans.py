"""The judge guesses where a flat pack's base64 attachments end and proves it as it reads.

`read_flat(speculate=True)` takes a base64 `data` span from the declared `bytes` instead
of scanning for the closing quote, so the judge reads the file once instead of twice.
The guess is only kept when strict base64 decoding of the whole span succeeds (no quote,
no backslash inside); any other outcome judges the file again the exact way. So the
report must be exactly the exact judge's, whatever the file holds: that is what these
tests check, on hand-made damage and on random edits.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.errors import PackError
from taskpack.core.format import flat, reading
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.writing import write_pack
from taskpack.core.trust import conformance

BASE: dict[str, Any] = {
    "spec": "task-passport-bag/0.1",
    "kind": "handoff",
    "packed_at": "2026-08-16T03:11:04Z",
    "origin": {"actor": "lin@acme", "machine": "lin-laptop", "harness": "claude-code"},
    "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 3, "chain": ["TP-G6RZ-DS3B@3"]},
    "note": "the invoice export half works",
    "passport": {
        "id": "TP-G6RZ-DS3B",
        "title": "Invoice export",
        "goal": "Export invoices",
        "version": 3,
        "current_state": "The exporter writes rows.",
        "facts": [],
        "next_steps": ["fix totals"],
    },
    "asks": [],
    "landing_checks": [],
}

BLOB = bytes(range(256)) * 3 + b"\0tail"  # a NUL: written as base64
TEXT = b"id;total\n1;10.00\n"


def flat_pack(tmp_path: Path, luggage: list[LuggageSource] | None = None) -> Path:
    out = tmp_path / "p.taskpack.json"
    if luggage is None:
        luggage = [
            LuggageSource.from_bytes("a.bin", BLOB),
            LuggageSource.from_bytes("t.csv", TEXT),
            LuggageSource.from_bytes("b.bin", BLOB[::-1]),
        ]
    write_pack(copy.deepcopy(BASE), luggage, out, encoding="flat")
    return out


class _Pipe(io.RawIOBase):
    """The file as a stream that cannot seek (a pipe): the judge never guesses on one."""

    def __init__(self, path: Path) -> None:
        self._data = io.BytesIO(path.read_bytes())

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, b: Any) -> int:
        chunk = self._data.read(len(b))
        b[: len(chunk)] = chunk
        return len(chunk)


def outcome(path: Path, *, speculate: bool) -> Any:
    """The judge's report (or the error it raised), as data: of the file (`speculate`:
    spans guessed, then proven) or of the same bytes through a pipe (the exact way)."""
    try:
        if speculate:
            report = conformance.judge(path)
        else:
            report = conformance.judge(_Pipe(path), name=str(path))
    except PackError as exc:
        return (type(exc).__name__, exc.message)
    return report.to_data()


def count_opens(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    calls: list[bool] = []
    real = conformance.open_pack

    def spy(*args: Any, **kwargs: Any) -> reading.OpenedPack:
        calls.append(bool(kwargs.get("speculate")))
        return real(*args, **kwargs)

    monkeypatch.setattr(conformance, "open_pack", spy)
    return calls


def test_a_canonical_pack_is_read_once_and_every_guess_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = flat_pack(tmp_path)
    with reading.open_pack(path, strict=False, speculate=True) as opened:
        assert opened.unproven == {"a.bin", "b.bin"}  # the utf8 one is scanned as before
        exact = flat.read_flat(io.BytesIO(path.read_bytes()))
        guessed = flat.read_flat(io.BytesIO(path.read_bytes()), speculate=True)
        assert [
            (a.span.start, a.span.end, a.span.escapes) for a in guessed.attachments if a.span
        ] == [(a.span.start, a.span.end, a.span.escapes) for a in exact.attachments if a.span]
        assert guessed.attachments[0].span and guessed.attachments[0].span.guessed
        opened.verify()
        assert opened.unproven == set()
    opens = count_opens(monkeypatch)
    assert conformance.judge(path).conformant
    assert opens == [True]


def test_reading_part_of_a_guessed_span_proves_nothing(tmp_path: Path) -> None:
    path = flat_pack(tmp_path)
    with (
        reading.open_pack(path, strict=False, speculate=True) as opened,
        opened.open_luggage("a.bin") as f,
    ):
        assert f.read(10)
        assert "a.bin" in opened.unproven


def damaged(tmp_path: Path, edit: str) -> Path:
    path = flat_pack(tmp_path)
    raw = path.read_bytes()
    att = json.loads(raw)["attachments"][0]
    data = att["data"].encode()
    at = raw.index(data)
    end = at + len(data)
    if edit == "escaped-slash":  # valid JSON, longer than the size says: the guess misses
        i = data.index(b"/")
        raw = raw[: at + i] + b"\\/" + raw[at + i + 1 :]
    elif edit == "early-quote":  # the string really ends early; a quote sits where the guess looks
        raw = raw[: at + 8] + b'", "x": "' + raw[at + 8 + 9 :]
        assert raw[end : end + 1] == b'"'
    elif edit == "quote-opens-a-string":  # where the guess looks, a string opens: the guess
        # reads on from inside it and fails to parse what the exact reader reads fine
        raw = (
            raw[: at + 8] + b'", "x": 1, "y": ' + b" " * (len(data) - 24) + b'"z"' + raw[end + 1 :]
        )
        assert raw[end : end + 1] == b'"'
    elif edit == "not-base64":  # the right length, a byte outside the alphabet
        raw = raw[: at + 5] + b"!" + raw[at + 6 :]
    elif edit == "escaped-quote-at-the-end":
        raw = raw[: end - 1] + b"\\" + raw[end:]
    elif edit == "backslash-inside":
        raw = raw[: at + 20] + b"\\\\" + raw[at + 22 :]
    elif edit == "size-too-big":
        raw = raw.replace(b'"bytes": %d' % len(BLOB), b'"bytes": %d' % (len(BLOB) + 3), 1)
    elif edit == "size-too-small":
        raw = raw.replace(b'"bytes": %d' % len(BLOB), b'"bytes": %d' % (len(BLOB) - 1), 1)
    elif edit == "truncated":
        raw = raw[: at + 100]
    else:
        raise AssertionError(edit)
    path.write_bytes(raw)
    return path


EDITS = [
    "escaped-slash",
    "early-quote",
    "quote-opens-a-string",
    "not-base64",
    "escaped-quote-at-the-end",
    "backslash-inside",
    "size-too-big",
    "size-too-small",
    "truncated",
]


@pytest.mark.parametrize("edit", EDITS)
def test_a_damaged_pack_gets_the_exact_judges_report(tmp_path: Path, edit: str) -> None:
    path = damaged(tmp_path, edit)
    assert outcome(path, speculate=True) == outcome(path, speculate=False)


def test_a_wrong_guess_is_judged_again_the_exact_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = damaged(tmp_path, "early-quote")
    opens = count_opens(monkeypatch)
    report = conformance.judge(path)
    assert opens == [True, False]
    assert not report.conformant


def test_a_stream_that_cannot_seek_is_not_guessed_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = flat_pack(tmp_path).read_bytes()

    class OneWay(io.RawIOBase):
        def __init__(self) -> None:
            self._b = io.BytesIO(raw)

        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            return self._b.readinto(b)

    opens = count_opens(monkeypatch)
    assert conformance.judge(io.BufferedReader(OneWay()), name="p.taskpack.json").conformant  # type: ignore[arg-type]
    assert opens == [False]
    opens.clear()
    assert conformance.judge(io.BytesIO(raw), name="p.taskpack.json").conformant
    assert opens == [True]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_edit_near_the_data_gets_the_exact_judges_report(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    tmp = tmp_path_factory.mktemp("edit")
    path = flat_pack(
        tmp,
        [
            LuggageSource.from_bytes("a.bin", BLOB[: data.draw(st.integers(1, 40))] + b"\0"),
            LuggageSource.from_bytes("b.bin", b"\0" + BLOB[:5]),
        ],
    )
    raw = path.read_bytes()
    lo = raw.index(b'"attachments"')
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(lo, len(raw) - 1))
        cut = data.draw(st.integers(0, 3))
        put = data.draw(
            st.sampled_from(
                [
                    b'"',
                    b"\\",
                    b"\\\\",
                    b'\\"',
                    b"!",
                    b"A",
                    b"=",
                    b" ",
                    b",",
                    b"}",
                    b"",
                    b'", "x": "',
                    b"\\u0041",
                    b"\\/",
                ]
            )
        )
        raw = raw[:at] + put + raw[at + cut :]
    path.write_bytes(raw)
    assert outcome(path, speculate=True) == outcome(path, speculate=False)
