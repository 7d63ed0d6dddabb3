"""A cursor over a large JSON file: small values parsed, long strings only located.

The flat reader (:mod:`.flat`) walks the top level of a ``.taskpack.json`` with it. Small
values are parsed by `json` on a bounded window that grows while the value does not fit
(up to a limit); an attachment's ``data`` string is skipped at memchr speed and only its
start and end are recorded, so memory stays bounded whatever the file's size.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from ..errors import FormatError, LimitExceeded
from . import canonical
from .streams import CHUNK


class FlatScanner:
    """A cursor over a JSON file read through a bounded buffer."""

    def __init__(self, fp: BinaryIO) -> None:
        self.fp = fp
        fp.seek(0)
        self.buf = b""
        self.base = 0  # file offset of buf[0]
        self.i = 0
        self.eof = False
        self._length: int | None = None

    def length(self) -> int:
        """How long the file is (its end found once, the read position kept)."""
        if self._length is None:
            here = self.fp.tell()
            self._length = self.fp.seek(0, 2)
            self.fp.seek(here)
        return self._length

    @property
    def pos(self) -> int:
        return self.base + self.i

    def _fill(self, want: int) -> None:
        """Make sure at least `want` bytes are buffered past i (unless EOF)."""
        if len(self.buf) - self.i >= want or self.eof:
            return
        if self.i:
            self.buf = self.buf[self.i :]
            self.base += self.i
            self.i = 0
        while len(self.buf) < want and not self.eof:
            more = self.fp.read(max(CHUNK, want - len(self.buf)))
            if not more:
                self.eof = True
            self.buf += more

    def peek(self, n: int) -> bytes:
        """The next `n` bytes (fewer at the end of the file), without moving on."""
        self._fill(n)
        return self.buf[self.i : self.i + n]

    def skip_ws(self) -> bytes:
        """Skip JSON whitespace; returns the next byte (b"" at the end of the file)."""
        while True:
            self._fill(1)
            if self.i >= len(self.buf):
                return b""
            self.i = _WS_RUN.match(self.buf, self.i).end()  # type: ignore[union-attr]
            if self.i < len(self.buf):
                return self.buf[self.i : self.i + 1]

    def expect(self, ch: bytes, what: str) -> None:
        c = self.skip_ws()
        if c != ch:
            got = repr(c.decode("latin-1")) if c else "the end of the file"
            raise FormatError(
                f"the file is not valid TaskPack JSON: expected {ch.decode()!r} {what}, found {got} at byte {self.pos}",
                code="flat_syntax",
                params={"byte": self.pos},
            )
        self.i += 1

    def value(self, limit: int, what: str, budget: canonical.ObjectBudget | None = None) -> Any:
        """Parse one small JSON value with `json` on a growing window (charged to
        `budget`, when given, before it is parsed: the limit is then what is left of it)."""
        total = budget is not None and budget.bytes_left < limit  # the total limits it
        if budget is not None and total:
            limit = budget.bytes_left
        self.skip_ws()
        window = 512  # grown ×8 while the value does not fit: small values stay cheap
        while True:
            self._fill(window)
            raw = self.buf[self.i : self.i + window]
            full = len(raw) == window and not (self.eof and self.i + window >= len(self.buf))
            try:
                text, _ = codecs.utf_8_decode(raw, "strict", not full)
            except UnicodeDecodeError as exc:
                raise FormatError(
                    f"the file is not valid UTF-8 (byte {self.pos + exc.start})",
                    code="not_utf8",
                    params={"what": "the file", "byte": self.pos + exc.start},
                ) from None
            # counted before it is parsed (the window may hold more than the value: a bound)
            items = budget.items_in(text) if budget is not None else 0
            try:
                value, end = _DECODER.raw_decode(text)
            except RecursionError:
                raise LimitExceeded(
                    f"{what} is nested too deeply", code="flat_value_too_deep"
                ) from None
            except json.JSONDecodeError as exc:
                if full and window < limit:
                    window = min(window * 8, limit)
                    continue
                if full and total:
                    raise canonical.too_large(what) from None
                if full:
                    raise LimitExceeded(
                        f"{what} is larger than {limit} bytes",
                        code="flat_value_too_large",
                        params={"limit": limit},
                    ) from None
                at = self.pos + len(text[: exc.pos].encode())
                raise FormatError(
                    f"{what} is not valid JSON: {exc.msg} (near byte {at})",
                    code="flat_syntax",
                    params={"byte": at},
                ) from None
            except ValueError:
                raise LimitExceeded(
                    f"{what} has a number too large to read (over {sys.get_int_max_str_digits()} digits)",
                    code="json_number_too_large",
                ) from None
            if full and end == len(text):  # a number cut by the window edge would parse
                if window >= limit and total:
                    raise canonical.too_large(what)
                if window >= limit:
                    raise LimitExceeded(
                        f"{what} is larger than {limit} bytes",
                        code="flat_value_too_large",
                        params={"limit": limit},
                    )
                window = min(window * 8, limit)
                continue
            used = len(text[:end].encode("utf-8"))
            if budget is not None:
                budget.spend(used, items)
            self.i += used
            canonical.check_depth(value, what=what)
            return value

    def members(self, what: str) -> Iterator[str]:
        """The keys of the object that opens next; after each, the caller reads its value."""
        self.expect(b"{", f"to open {what}")
        if self.skip_ws() == b"}":
            self.i += 1
            return
        while True:
            key = self.value(4096, f"a key of {what}")
            if not isinstance(key, str):
                raise FormatError(
                    "the file is not valid JSON: a key is not a string",
                    code="flat_syntax",
                    params={"byte": self.pos},
                )
            self.expect(b":", f"after {key!r}")
            yield key
            if self.skip_ws() == b",":
                self.i += 1
                continue
            self.expect(b"}", f"to close {what}")
            return

    def items(self, what: str) -> Iterator[int]:
        """1, 2, … for each element of the array that opens next; the caller reads each."""
        self.expect(b"[", f"to open {what}")
        if self.skip_ws() == b"]":
            self.i += 1
            return
        n = 0
        while True:
            n += 1
            yield n
            if self.skip_ws() == b",":
                self.i += 1
                continue
            self.expect(b"]", f"to close {what}")
            return

    def jump(self, pos: int) -> None:
        """Go on reading at file offset `pos` (at or past the current position)."""
        if pos <= self.base + len(self.buf):
            self.i = pos - self.base
            return
        self.fp.seek(pos)
        self.buf, self.base, self.i = b"", pos, 0

    def guessed_string(self, length: int) -> tuple[int, int] | None:
        """Where the inside of a string of `length` bytes opening next starts and ends,
        if a quote that no backslash escapes sits right where it would close; None otherwise.

        Only two bytes are looked at, so whether the string really is that long (no
        quote or backslash inside it) is left to whoever reads it (`Span.guessed`).
        """
        self.skip_ws()
        start = self.pos + 1  # past the opening quote
        end = start + length
        if end + 1 > self.length():  # a size the file cannot hold: never seek for it
            return None
        if end + 1 <= self.base + len(self.buf):
            two = self.buf[end - 1 - self.base : end + 1 - self.base]
        else:
            self.fp.seek(end - 1)
            two = self.fp.read(2)
            self.fp.seek(self.base + len(self.buf))  # where _fill reads on
        if len(two) != 2 or two[1:] != b'"' or two[:1] == b"\\":
            return None
        self.jump(end + 1)
        return start, end

    def string_span(self) -> tuple[int, int, bool]:
        """Skip over a JSON string (opening quote next): where its inside starts and
        ends, and whether it holds an escape.

        Linear, and mostly at memchr speed: `find` the next quote and look at the run
        of backslashes before it (odd: escaped, keep going). Where escaped quotes come
        thick, one regex match steps over the rest of the buffer in C instead.
        """
        self.expect(b'"', "to open an attachment's data")
        start = self.pos
        escapes = False
        run = 0  # backslashes right before self.i (only its parity matters)
        while True:
            self._fill(2)
            buf = self.buf
            i = self.i
            if i >= len(buf):
                raise FormatError(
                    "the file ends inside an attachment's data (truncated?)", code="flat_truncated"
                )
            escaped_quotes = 0
            while True:
                q = buf.find(b'"', i)
                stop = q if q >= 0 else len(buf)
                if not escapes and buf.find(b"\\", i, stop) >= 0:
                    escapes = True
                seg = buf[i:stop]
                plain = len(seg.rstrip(b"\\"))
                n = len(seg) - plain + (run if plain == 0 else 0)
                if q < 0:
                    i, run = len(buf), n
                    break
                if n % 2 == 0:
                    self.i = q + 1
                    return start, self.base + q, escapes
                i, run = q + 1, 0
                escaped_quotes += 1
                if escaped_quotes > 32:
                    end = _STRING_BODY.match(buf, i).end()  # type: ignore[union-attr]
                    if end < len(buf) and buf[end] == 0x22:  # the closing quote
                        self.i = end + 1
                        return start, self.base + end, escapes
                    i, run = len(buf), len(buf) - end  # 1: it stopped at a trailing backslash
                    break
            self.i = i
            if self.eof:
                raise FormatError(
                    "the file ends inside an attachment's data (truncated?)", code="flat_truncated"
                )


# the inside of a JSON string from a given point: runs of plain bytes and escapes, each
# taken once (possessive, so nothing is retried); stops at the closing quote, or at a
# backslash that is the buffer's last byte
_STRING_BODY = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
_WS_RUN = re.compile(rb"[ \t\r\n]*+")


_DECODER = json.JSONDecoder(
    object_pairs_hook=canonical._no_duplicates,
    parse_constant=canonical._reject_constant,
    parse_float=canonical._finite_float,
)
