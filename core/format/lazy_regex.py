"""A regular expression compiled the first time it is used, not when its module loads.

Compiling is not free (a long alternation or a wide character class takes a millisecond
or more), and a module-level pattern is compiled on every start of every command that
imports it. Patterns only some inputs need (a credential's full shape, looked at only
where a trigger was found) are declared with `lazy` and cost nothing until then.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, AnyStr, Generic


class LazyRegex(Generic[AnyStr]):
    """The parts of `re.Pattern` this project uses, compiling on first use."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: AnyStr, flags: int = 0) -> None:
        self._pattern: AnyStr = pattern
        self._flags: int = flags
        self._compiled: re.Pattern[AnyStr] | None = None

    @property
    def compiled(self) -> re.Pattern[AnyStr]:
        rx = self._compiled
        if rx is None:  # two threads may both compile it once: the same pattern either way
            rx = self._compiled = re.compile(self._pattern, self._flags)
        return rx

    @property
    def pattern(self) -> AnyStr:
        return self._pattern

    def match(
        self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[AnyStr] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[AnyStr] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def search(
        self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[AnyStr] | None:
        return self.compiled.search(string, pos, endpos)

    def finditer(
        self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[AnyStr]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def sub(
        self, repl: AnyStr | Callable[[re.Match[AnyStr]], AnyStr], string: AnyStr, count: int = 0
    ) -> AnyStr:
        return self.compiled.sub(repl, string, count)

    def split(self, string: AnyStr, maxsplit: int = 0) -> list[AnyStr | Any]:
        return self.compiled.split(string, maxsplit)


def lazy(pattern: AnyStr, flags: int = 0) -> LazyRegex[AnyStr]:
    """`re.compile(pattern, flags)`, done when the pattern is first used."""
    return LazyRegex(pattern, flags)
