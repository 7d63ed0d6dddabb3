"""The pack object: a walk over a JSON value with the luggage patterns, and the asks."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from ...errors import Finding
from .engines import SMALL, Engine, engine_named
from .fields import _is_secret_key_name, is_instruction_field
from .scanner import (
    AFTER,
    RULE_ASK,
    RULE_CREDENTIAL,
    RULE_INSTRUCTION,
    RULE_TRANSCRIPT,
    scan_bytes,
)
from .transcripts import _message_class, _turn_at
from .verifiers import _secret_value

_SHORT = 64 << 10  # bytes up to which a lone text is scanned by the pure-Python engine
_ROOT_ALLOWED = frozenset({"note_to_reader"})  # the flat wrapper's own field (spec §2.2)


def _shown_key(key: str) -> str:
    shown = key if len(key) <= 80 else key[:77] + "..."
    return shown if shown.isprintable() else "".join(c if c.isprintable() else "?" for c in shown)


Path = tuple[str | int, ...]


def _show(prefix: str, path: Path) -> str:
    out = prefix
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else part
    return out or "(the whole value)"


#: short strings are handed to the engine together, this many bytes at a time
_BATCH_BYTES = 256 << 10
#: a string longer than this is scanned on its own
SCAN_ALONE_OVER = 4 << 10
#: between two strings of a batch: no trigger holds this byte, so a trigger the engine
#: finds lies inside one string (and one at a string's start has no byte before it)
_APART = b"\x00"


#: a key's judgment: (credential kinds in it, how it is shown, instruction field?, secret name?)
_Judged = tuple[tuple[str, ...], str | None, bool, bool]
#: keys repeat: 100,000 asks share seven, and every pack the same few dozen. Each is judged
#: once per process; short ones are remembered (a pack cannot grow this past its bound).
_judged_keys: dict[str, _Judged] = {}
_REMEMBER_KEYS = 4096
_REMEMBER_KEY_CHARS = 128


def _judge_key(key: str, engine: Engine, here: dict[str, _Judged]) -> _Judged:
    """Judge `key`, and remember it: process-wide if short, else in `here` (one scan's)."""
    kinds = tuple(scan_bytes(key.encode("utf-8", "surrogatepass"), engine).credentials)
    judged = (
        kinds,
        None if kinds else _shown_key(key),
        is_instruction_field(key),
        _is_secret_key_name(key),
    )
    if len(key) > _REMEMBER_KEY_CHARS:
        here[key] = judged
    else:
        if len(_judged_keys) >= _REMEMBER_KEYS:
            _judged_keys.clear()  # (a pack of many odd keys: start again, the common come back)
        _judged_keys[key] = judged
    return judged


class _ValueScan:
    def __init__(self, prefix: str, engine: Engine) -> None:
        self.prefix = prefix
        self.engine = engine
        self._findings: list[Finding] = []
        self.messages: list[tuple[str, Path]] = []
        self.long_keys: dict[str, _Judged] = {}  # keys too long to remember past this scan
        self._batch: list[tuple[bytes, Path]] = []
        self._batch_bytes = 0

    @property
    def findings(self) -> list[Finding]:
        self._flush()
        return self._findings

    def add(self, finding: Finding) -> None:
        self._flush()  # (the strings before it were found before it)
        self._findings.append(finding)

    def place(self, path: Path) -> str:
        return _show(self.prefix, path)

    def text(self, s: str, path: Path) -> None:
        """Scan one string. Short ones wait in a batch: 100,000 asks are ~600,000 strings,
        and one engine call (and one verifier set-up) each cost more than the scan. A
        string in which the engine finds no trigger holds nothing the verifiers could
        report (a transcript needs two turns, each at a trigger or the string's start),
        so only strings with a trigger are looked at again, alone, as they always were."""
        data = s.encode("utf-8", "surrogatepass")
        if len(data) > SCAN_ALONE_OVER:
            self._flush()
            self._one(data, path)
            return
        self._batch.append((data, path))
        self._batch_bytes += len(data) + 1
        if self._batch_bytes >= _BATCH_BYTES:
            self._flush()

    def _one(self, data: bytes, path: Path) -> None:
        raw = scan_bytes(data, self.engine)
        self._findings += raw.findings(lambda _offset: self.place(path))

    def _flush(self) -> None:
        batch = self._batch
        if not batch:
            return
        self._batch, self._batch_bytes = [], 0
        hits = self.engine.positions(_APART.join(data for data, _ in batch))
        if not hits:
            return
        starts: list[int] = []
        at = 0
        for data, _ in batch:
            starts.append(at)
            at += len(data) + 1
        for n in sorted({bisect.bisect_right(starts, h) - 1 for h in hits}):
            data, path = batch[n]
            self._one(data, path)

    def walk(self, root: Any) -> None:
        stack: list[tuple[Any, Path]] = [(root, ())]
        while stack:
            value, path = stack.pop()
            if isinstance(value, str):
                self.text(value, path)
            elif isinstance(value, dict):
                stack.extend(reversed(self.dict_children(value, path)))
            elif isinstance(value, list):
                self.list_turns(value, path)
                stack.extend(reversed([(v, (*path, i)) for i, v in enumerate(value)]))

    def dict_children(self, d: dict[Any, Any], path: Path) -> list[tuple[Any, Path]]:
        role = _message_class(d)
        if role is not None:
            self.messages.append((role, path))
        children: list[tuple[Any, Path]] = []
        for i, (key, value) in enumerate(d.items()):
            key = str(key)
            seen = _judged_keys.get(key) or self.long_keys.get(key)
            if seen is None:
                seen = _judge_key(key, self.engine, self.long_keys)
            kinds, plain, instruction, secret_name = seen
            if plain is None:
                shown: str = f"<field #{i}>"
                for kind in kinds:
                    self.add(
                        Finding(
                            RULE_CREDENTIAL, kind, self.place((*path, shown)), "in a field name"
                        )
                    )
            else:
                shown = plain
            here: Path = (*path, shown)
            if instruction and not (path == () and key in _ROOT_ALLOWED):
                self.add(
                    Finding(
                        RULE_INSTRUCTION,
                        "instruction field",
                        self.place(here),
                        "a pack carries data, never instructions to its reader (spec §4.5)",
                    )
                )
            if (
                secret_name
                and isinstance(value, str)
                and _secret_value(value.encode("utf-8", "surrogatepass"), quoted=True)
                and not scan_bytes(value.encode("utf-8", "surrogatepass"), self.engine).credentials
            ):
                self.add(
                    Finding(RULE_CREDENTIAL, "password or secret assignment", self.place(here))
                )
            children.append((value, here))
        return children

    def list_turns(self, items: list[Any], path: Path) -> None:
        """A list of strings each opening with a turn is a transcript too."""
        roles = set()
        first = None
        for i, item in enumerate(items):
            if isinstance(item, str) and item:
                head = item[:AFTER].encode("utf-8", "surrogatepass")[:AFTER]
                turn = _turn_at(head, 0, True)
                if turn is not None and turn[1] <= 16:
                    roles.add(turn[0])
                    first = i if first is None else first
        if len(roles) >= 2:
            a, b = sorted(roles)[:2]
            self.add(
                Finding(
                    RULE_TRANSCRIPT,
                    "chat transcript",
                    self.place(path),
                    f"list items are role-prefixed turns by {a} and {b}",
                )
            )

    def message_findings(self) -> None:
        if len(self.messages) < 2:
            return
        roles = {r for r, _ in self.messages}
        parents: dict[Path, int] = {}
        for _r, p in self.messages:
            parents[p[:-1]] = parents.get(p[:-1], 0) + 1
        if len(roles) < 2 and max(parents.values()) < 2:
            return
        common = list(self.messages[0][1])
        for _r, p in self.messages[1:]:
            n = 0
            while n < min(len(common), len(p)) and common[n] == p[n]:
                n += 1
            common = common[:n]
        shown = ", ".join(sorted(roles))
        self.add(
            Finding(
                RULE_TRANSCRIPT,
                "chat transcript",
                self.place(tuple(common)),
                f"{len(self.messages)} chat messages as JSON objects ({shown})",
            )
        )


def scan_value(value: Any, path: str = "", *, engine: str | None = None) -> list[Finding]:
    """Credentials, transcripts and instruction fields anywhere in a JSON value.

    Strings are scanned with the same patterns as luggage; dict keys are scanned too
    (for instruction fields, and for credentials — a key holding a secret is shown as
    ``<field #n>``). `path` prefixes every place, e.g. ``passport``.
    """
    scan = _ValueScan(path, engine_named(engine))
    scan.walk(value)
    scan.message_findings()
    return scan.findings


def holds_credential(text: str, *, engine: str | None = None) -> bool:
    """Does this text hold anything the credential rules refuse? (For redacting a display.)"""
    return credential_in(text, engine=engine) is not None


def credential_in(text: str, *, engine: str | None = None) -> str | None:
    """The kind of the first credential `text` holds (``"GitHub token"``), or None."""
    if not text:
        return None
    data = text.encode("utf-8", "surrogatepass")
    # a title or a name: the pure-Python engine is done before hyperscan would be built
    raw = scan_bytes(data, engine_named(engine or (SMALL if len(data) <= _SHORT else None)))
    if not raw.credentials:
        return None
    return min(raw.credentials.items(), key=lambda kv: kv[1][0])[0]


def withheld(kind: str) -> str:
    """What is shown instead of a text that holds a credential: its kind, never its value."""
    return f"(withheld: it contains a credential — {kind})"


def shown_text(text: str, *, engine: str | None = None) -> str:
    """`text`, or :func:`withheld` when it holds a credential (for a display of pack text)."""
    kind = credential_in(text, engine=engine)
    return text if kind is None else withheld(kind)


def redact_value(value: Any, *, engine: str | None = None) -> Any:
    """A copy of a JSON value in which every string that holds a credential, or is the
    value of a field named like a secret that looks real (the rules of :func:`scan_value`),
    is replaced by :func:`withheld`; a key holding one becomes ``<field #n>``."""
    eng = engine_named(engine or SMALL)

    def text(s: str) -> str:
        raw = scan_bytes(s.encode("utf-8", "surrogatepass"), eng)
        if not raw.credentials:
            return s
        return withheld(min(raw.credentials.items(), key=lambda kv: kv[1][0])[0])

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return text(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            out: dict[str, Any] = {}
            for i, (key, item) in enumerate(v.items()):
                key = str(key)
                shown = key if credential_in(key, engine=engine) is None else f"<field #{i}>"
                if (
                    isinstance(item, str)
                    and _is_secret_key_name(key)
                    and _secret_value(item.encode("utf-8", "surrogatepass"), quoted=True)
                ):
                    out[shown] = withheld("password or secret assignment")
                else:
                    out[shown] = walk(item)
            return out
        return v

    return walk(value)


def check_asks(asks: Sequence[Any] | Any) -> list[Finding]:
    """Spec §4.3: every ask needs a non-empty `what` and a non-empty `accept`.

    `asks` comes from a pack as it was read, so it may be any JSON value.
    """
    if not isinstance(asks, list | tuple):
        return [
            Finding(
                RULE_ASK, "asks that is not a list", "asks", "asks must be a list of ask objects"
            )
        ]
    out: list[Finding] = []
    for i, ask in enumerate(asks):
        place = f"asks[{i}]"
        if not isinstance(ask, dict):
            out.append(Finding(RULE_ASK, "ask that is not an object", place))
            continue
        if not _filled(ask.get("what")):
            out.append(
                Finding(RULE_ASK, "ask without what", place, "say what you need from the receiver")
            )
        if not _filled(ask.get("accept")):
            out.append(
                Finding(
                    RULE_ASK,
                    "ask without accept",
                    place,
                    "say what would count as an answer (spec §4.3)",
                )
            )
    return out


def _filled(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def scan_pack_object(data: dict[str, Any], *, engine: str | None = None) -> list[Finding]:
    """Everything that forbids a pack object: :func:`scan_value` plus :func:`check_asks`."""
    found = scan_value(data, engine=engine)
    asks = data.get("asks") if isinstance(data, dict) else None
    if isinstance(asks, list):
        found += check_asks(asks)
    return found
