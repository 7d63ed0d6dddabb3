"""Long lists of records kept compact: one bytes string, read back a page at a time.

A pack may carry 100,000 asks. As pydantic models they are ~200,000 objects that the
cyclic garbage collector walks on every full collection (each walk holds the GIL long
enough to be felt, whichever thread triggers it), and hundreds of MB of memory. A window
shows 40 of them at a time. :class:`AskPages` keeps the list as the asks' JSON texts in
one ``bytes`` (which the collector never walks) plus an offset table, and builds an
:class:`~taskpack.core.format.model.Ask` only when one is read::

    pages = AskPages.of(review.asks)
    len(pages), pages.open, pages[:40]     # 40 Ask models; the rest stay bytes

It is a read-only ``Sequence[Ask]``: indexing, slicing, ``len``, iteration (one record
at a time) and ``index_of(id)``. It pickles as its bytes, so handing it between
processes costs a copy, not a rebuild. Each record reads back equal to the one given
(``Ask.from_data(ask.to_data())``: same keys, same order, same values).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar, TypeVar, cast, overload

from .model import JSON, Ask, Fact, Record

#: more asks than this are worth keeping as pages
PAGED_OVER = 200


R = TypeVar("R", bound=Record)


class _Pages(Sequence[R]):
    """Records of one kind kept as their JSON texts, one after another in one bytes string."""

    __slots__ = ("_blob", "_ends")
    _record: ClassVar[type[Record]]
    _where: ClassVar[str]

    def __init__(self, blob: bytes, ends: array[int]) -> None:
        self._blob = blob
        self._ends = ends  # record n is blob[ends[n-1]:ends[n]] (ends[-1] for n=0 is 0)

    def __len__(self) -> int:
        return len(self._ends)

    def _text(self, n: int) -> str:
        start = self._ends[n - 1] if n else 0
        return self._blob[start : self._ends[n]].decode("utf-8", "surrogatepass")

    def _one(self, n: int) -> R:
        return cast(
            R, self._record.from_data(json.loads(self._text(n)), where=f"{self._where}[{n}]")
        )

    @overload
    def __getitem__(self, n: int) -> R: ...
    @overload
    def __getitem__(self, n: slice) -> list[R]: ...
    def __getitem__(self, n: int | slice) -> R | list[R]:
        if isinstance(n, slice):
            return [self._one(i) for i in range(*n.indices(len(self)))]
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(f"{self._where} index out of range")
        return self._one(n)

    def __iter__(self) -> Iterator[R]:
        for n in range(len(self)):
            yield self._one(n)

    def __bool__(self) -> bool:
        return len(self) > 0

    def to_data(self) -> list[JSON]:
        """The records as plain JSON values (as ``[r.to_data() for r in …]``, none built)."""
        return [json.loads(self._text(n)) for n in range(len(self))]

    def json_array(self) -> str:
        """The records as one JSON array text (compact, as `to_data` reads them)."""
        ends = self._ends
        records = (self._blob[ends[n - 1] if n else 0 : ends[n]] for n in range(len(ends)))
        return (b"[" + b",".join(records) + b"]").decode("utf-8", "surrogatepass")

    @property
    def size(self) -> int:
        """Bytes of JSON text held."""
        return len(self._blob)


def _texts(values: Iterable[JSON]) -> tuple[bytes, array[int]]:
    parts: list[bytes] = []
    ends = array("q")
    at = 0
    for data in values:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8", "surrogatepass"
        )
        parts.append(text)
        at += len(text)
        ends.append(at)
    return b"".join(parts), ends


class FactPages(_Pages[Fact]):
    """A passport's facts as pages (a pack may carry 100,000 of them), like `AskPages`."""

    __slots__ = ()
    _record = Fact
    _where = "facts"

    @classmethod
    def of(cls, facts: Iterable[Fact]) -> FactPages:
        return cls(*_texts(f.to_data() for f in facts))

    def __reduce__(self) -> tuple[type[FactPages], tuple[bytes, array[int]]]:
        return (FactPages, (self._blob, self._ends))

    def __repr__(self) -> str:
        return f"<FactPages: {len(self)} facts, {len(self._blob)} bytes>"


def compact_facts(facts: Sequence[Fact] | None, *, over: int = PAGED_OVER) -> Sequence[Fact] | None:
    """`facts` as :class:`FactPages` when there are more than `over` of them, else as given."""
    if facts is None or isinstance(facts, FactPages) or len(facts) <= over:
        return facts
    return FactPages.of(facts)


class Numbered(Sequence[tuple[int, R]]):
    """``list(enumerate(items, 1))`` without reading every item: (n, item) as they are read."""

    def __init__(self, items: Sequence[R]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, n: int) -> tuple[int, R]: ...
    @overload
    def __getitem__(self, n: slice) -> list[tuple[int, R]]: ...
    def __getitem__(self, n: int | slice) -> tuple[int, R] | list[tuple[int, R]]:
        if isinstance(n, slice):
            start = n.indices(len(self))[0]
            return (
                list(enumerate(self._items[n], start + 1))
                if (n.step or 1) == 1
                else [(i + 1, self._items[i]) for i in range(*n.indices(len(self)))]
            )
        if n < 0:
            n += len(self)
        return (n + 1, self._items[n])


class AskPages(_Pages[Ask]):
    """A read-only list of asks stored as JSON text; see the module docstring."""

    __slots__ = ("_id_text", "_ids", "_open")
    _record = Ask
    _where = "asks"

    def __init__(self, blob: bytes, ends: array[int], id_text: bytes, open_flags: bytes) -> None:
        super().__init__(blob, ends)
        self._id_text = id_text  # the ids as one JSON array: read only when one is looked up
        self._ids: list[str] | None = None
        self._open = open_flags

    @classmethod
    def of(cls, asks: Iterable[Ask]) -> AskPages:
        return cls._of((ask.to_data(), ask.id, ask.status) for ask in asks)

    @classmethod
    def of_data(cls, asks: Iterable[JSON]) -> AskPages:
        """Pages of asks given as JSON values (a stored passport's), each validated as it is
        read (a wrong type is a FormatError naming the ask); no more than one model at a time.
        Each is kept as the text of the value given (a model reads back exactly what it was
        built from, so that is the text of the ask)."""

        def checked() -> Iterator[tuple[JSON, str | None, str | None]]:
            for n, data in enumerate(asks):
                ask = Ask.from_data(data, where=f"asks[{n}]")
                yield data, ask.id, ask.status

        return cls._of(checked())

    @classmethod
    def _of(cls, records: Iterable[tuple[JSON, str | None, str | None]]) -> AskPages:
        ids: list[str] = []
        flags = bytearray()

        def values() -> Iterator[JSON]:
            for data, ask_id, status in records:
                ids.append(ask_id or "")
                flags.append(1 if (status or "open") == "open" else 0)
                yield data

        blob, ends = _texts(values())
        id_text = json.dumps(ids, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return cls(blob, ends, id_text, bytes(flags))

    def __repr__(self) -> str:
        return f"<AskPages: {len(self)} asks, {self.open} open, {len(self._blob)} bytes>"

    def __reduce__(self) -> tuple[type[AskPages], tuple[bytes, array[int], bytes, bytes]]:
        return (AskPages, (self._blob, self._ends, self._id_text, self._open))

    @property
    def open(self) -> int:
        """How many asks are open (no status counts as open)."""
        return self._open.count(1)

    @property
    def ids(self) -> list[str]:
        """Each ask's id ("" when it has none), in order."""
        if self._ids is None:
            self._ids = json.loads(self._id_text.decode("utf-8", "surrogatepass"))
        return self._ids

    def index_of(self, ask_id: str) -> int | None:
        """Where the ask with this id is (the last one, as a lookup by id keeps), or None."""
        ids = self.ids
        for n in range(len(ids) - 1, -1, -1):
            if ids[n] == ask_id:
                return n
        return None

    def select(self, keep: Iterable[bool]) -> AskPages:
        """The asks for which `keep` says True (one flag per ask, in order), as pages: their
        texts copied as they are, no ask built."""
        parts: list[bytes] = []
        ends = array("q")
        ids: list[str] = []
        flags = bytearray()
        at = 0
        all_ids = self.ids
        for n, wanted in enumerate(keep):
            if not wanted:
                continue
            start = self._ends[n - 1] if n else 0
            parts.append(self._blob[start : self._ends[n]])
            at += self._ends[n] - start
            ends.append(at)
            ids.append(all_ids[n])
            flags.append(self._open[n])
        id_text = json.dumps(ids, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return AskPages(b"".join(parts), ends, id_text, bytes(flags))

    @property
    def open_flags(self) -> bytes:
        """One byte per ask: 1 when it is open (no status counts as open), else 0."""
        return self._open


def open_count(asks: Sequence[Ask] | None) -> int:
    """How many of `asks` are open, without building every ask when they are pages."""
    if isinstance(asks, AskPages):
        return asks.open
    return sum(1 for a in asks or [] if (a.status or "open") == "open")


def ask_ids(asks: Sequence[Ask] | None) -> list[str | None]:
    """Each ask's id, without building every ask when they are pages ("" there is None)."""
    if isinstance(asks, AskPages):
        return [i or None for i in asks.ids]
    return [a.id for a in asks or []]


def compact(asks: Sequence[Ask] | None, *, over: int = PAGED_OVER) -> Sequence[Ask] | None:
    """`asks` as :class:`AskPages` when there are more than `over` of them, else as given."""
    if asks is None or isinstance(asks, AskPages) or len(asks) <= over:
        return asks
    return AskPages.of(asks)
