"""What a pack must never carry (spec §4.1, §4.5): one pattern set for writer and judge.

Spec §6 says the conformance judge (C7, C8) must never be looser than the writer, so both
call this module and nothing else decides what a credential, a transcript or an
instruction field is. Findings name the *kind* and the *place*; the matched text never
leaves this module.

How bytes are scanned
---------------------
Finding a secret in bytes is two steps:

1. **Triggers.** Every shape has a short, fixed-length byte pattern it must contain at a
   known place (``ghp_``, ``-----BEGIN ``, ``\\nUser:``, ``"role``, ``password``...). An
   engine reports every position where one occurs. Hyperscan does it at memory speed in
   stream mode, so a trigger split across two chunks is still seen; a pure-Python engine
   (``bytes.find``, ~50x slower) is the fallback when hyperscan cannot be imported. Both
   are built from the *same* trigger table and report nothing but positions, so they
   cannot disagree (a property test holds them to it).
2. **Verifiers.** Plain Python on a small window around each position (512 bytes before,
   1024 after) decides: the full token shape, placeholder or real, line start or not.
   Positions are rare, so this costs nothing measurable. A window is looked at only once
   all its bytes have arrived (or the stream ended): chunking never changes a result.

Decisions worth knowing
-----------------------
* ``password=`` / ``token:`` / ``"api_key": "…"`` style assignments are refused only when
  the value looks real: at least 6 characters, no whitespace, not a template
  (``${TOKEN}``, ``<your password>``, ``%(pw)s``, ``{{ x }}``), not a placeholder word
  (``changeme``, ``xxxxx``, ``password``, ``example``, ``redacted``, anything with
  ``test``/``dummy``/``your``…), not all digits, not a path, and — when unquoted — not a
  code reference (``token: str``, ``password=args.password``, ``secret=get()``,
  ``GITHUB_TOKEN``). So ``secret=changeme`` is *not* refused: it is the documented default
  of many tools, not somebody's secret. Nor are words (letters only, unless long and
  randomly cased: ``"Incorrect"``, ``"apiKeySecurityScheme"``), lowercase slugs
  (``"auth-request-type/at"``), or values after a qualifier that makes them public
  (``next_page_token``, ``publicKeyToken``, ``cursor token``).
* Token shapes must also look random (several distinct characters, mixed classes where
  the real format guarantees it), and must not contain ``EXAMPLE``/``xxxx``, so
  documentation placeholders such as ``AKIAIOSFODNN7EXAMPLE`` pass.
* A private key block is the ``-----BEGIN … PRIVATE KEY-----`` line *followed by key
  material*; the header alone (as in documentation) is not a key.
* A transcript needs two turns of two different roles (user / assistant / system) within
  64 KiB of each other, each at the start of the value or of a line (``User:``,
  ``**User**:``, ``> User:``, ``Q:``/``A:``, ``用户：``…; an ASCII colon must be followed
  by a space or the end of the line). JSON messages count when ``"role": "user"`` sits in
  an object whose ``content``/``text``/``parts`` is a literal, or under ``"author": {``
  (ChatGPT export), or as ``"sender": "human"`` (Claude export). Code that builds one
  message around a variable is not a transcript.
* Archives (``.zip``, ``.gz``, recognised by their first bytes) are inflated in memory, at
  most two levels deep, 256 MiB in all and 65,536 members per archive; past a bound we
  stop looking inside, which is not a finding. A damaged archive is simply scanned as the
  bytes it is (its own bytes are always scanned too).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType, TracebackType
from typing import Any, Protocol

from .errors import Finding

try:  # the fast engine; the `re` fallback below gives the same findings, slower
    import hyperscan as _hyperscan

    _hs: ModuleType | None = _hyperscan
except ImportError:  # pragma: no cover - depends on the platform
    _hs = None

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MAX_ARCHIVE_DEPTH",
    "MAX_ARCHIVE_MEMBERS",
    "MAX_INFLATED_BYTES",
    "StreamScanner",
    "available_engines",
    "check_asks",
    "holds_credential",
    "is_instruction_field",
    "scan_luggage_stream",
    "scan_pack_object",
    "scan_value",
]

BEFORE = 512  # bytes of context a verifier may look at before a trigger
AFTER = 1024  # ... and after it
TRANSCRIPT_SPAN = 64 * 1024  # two turns further apart than this are not one conversation
MAX_ARCHIVE_DEPTH = 2  # luggage.zip -> inner.gz -> bytes, and no deeper
MAX_INFLATED_BYTES = 256 * 1024 * 1024  # per luggage file, across all its archive levels
MAX_ARCHIVE_MEMBERS = 65536  # members looked into per archive; past that we stop looking
DEFAULT_CHUNK_SIZE = 4 * 1024 * 1024

RULE_CREDENTIAL = "credential"
RULE_TRANSCRIPT = "transcript"
RULE_INSTRUCTION = "instruction_field"
RULE_ASK = "ask"


# === triggers ==========================================================================


Atoms = tuple[bytes, ...]  # a fixed-length pattern: the bytes allowed at each position


def _atoms(text: bytes, *, caseless: bool = False) -> Atoms:
    return tuple(
        bytes(sorted({c, ord(chr(c).upper()), ord(chr(c).lower())})) if caseless else bytes([c])
        for c in text
    )


def _class(allowed: bytes) -> bytes:
    """One position as a regex in the subset hyperscan and `re` share."""
    if len(allowed) == 1 and bytes(allowed).isalnum():
        return allowed
    escaped = b"".join(b"\\x%02x" % c for c in allowed)
    return escaped if len(allowed) == 1 else b"[" + escaped + b"]"


def _hs_pattern(atoms: Atoms) -> bytes:
    return b"".join(_class(a) for a in atoms)


_FOLD = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))


@dataclass(frozen=True)
class _Needle:
    """A trigger as `bytes.find` sees it: literal bytes, maybe on the case-folded buffer,
    maybe preceded by one byte from a class (the turn prefix)."""

    text: bytes
    folded: bool
    lead: bytes | None


def _needle(atoms: Atoms) -> _Needle:
    def case_pair(a: bytes) -> bool:
        return len(a) == 2 and a.lower() == bytes([a[1]]) * 2 and a[0] != a[1]

    lead = None
    if len(atoms[0]) > 1 and not case_pair(atoms[0]):
        lead, atoms = atoms[0], atoms[1:]
    folded = any(case_pair(a) for a in atoms)
    for a in atoms:  # what the fallback can express; the trigger table stays within it
        assert case_pair(a) or (len(a) == 1 and not (folded and a.isalpha())), atoms
    return _Needle(bytes(a[-1] for a in atoms), folded, lead)


_CREDENTIAL_TRIGGERS = (
    b"-----BEGIN ",
    b"sk-",
    b"ghp_",
    b"gho_",
    b"ghu_",
    b"ghs_",
    b"ghr_",
    b"github_pat_",
    b"glpat-",
    b"xoxa-",
    b"xoxb-",
    b"xoxp-",
    b"xoxr-",
    b"xoxs-",
    b"hooks.slack.com/services/",
    b"AKIA",
    b"ASIA",
    b"AIza",
    b"sk_live_",
    b"rk_live_",
    b"eyJ",
    b"npm_",
    b"pypi-AgEIcHlwaS5vcmc",
    b"://",
    b"Bearer ",
    b"bearer ",
)
_KEYWORD_TRIGGERS = (
    b"password",
    b"passwd",
    b"passphrase",
    b"secret",
    b"token",
    b"api_key",
    b"apikey",
    b"api-key",
)
_ROLE_WORDS = (b"user", b"human", b"assistant", b"system", b"ai", b"q", b"a")
_CJK_ROLE_WORDS = tuple(w.encode() for w in ("用户", "助手", "问", "答"))
_FULLWIDTH_COLON = "：".encode()
_TURN_PREFIX = b"\n >\t*"  # what may sit right before a role word on a turn line
_JSON_TRIGGERS = (b'"role', b"'role", b'"sender', b"'sender")


def _build_triggers() -> tuple[Atoms, ...]:
    out: list[Atoms] = [_atoms(lit) for lit in _CREDENTIAL_TRIGGERS + _JSON_TRIGGERS]
    out += [_atoms(lit, caseless=True) for lit in _KEYWORD_TRIGGERS]
    prefix: Atoms = (_TURN_PREFIX,)
    for sep in (b":", _FULLWIDTH_COLON, b"**:"):
        out += [prefix + _atoms(role, caseless=True) + _atoms(sep) for role in _ROLE_WORDS]
        out += [prefix + _atoms(role) + _atoms(sep) for role in _CJK_ROLE_WORDS]
    return tuple(out)


_TRIGGERS = _build_triggers()
_TRIGGER_LENGTHS = tuple(len(t) for t in _TRIGGERS)
_TMAX = max(_TRIGGER_LENGTHS)
_KEEP = BEFORE + AFTER + _TMAX  # bytes of the stream a scanner must remember


# === engines: positions where a trigger occurs =========================================


class _EngineStream(Protocol):
    def scan(self, data: bytes | bytearray | memoryview) -> list[int]: ...
    def close(self) -> list[int]: ...


class _Engine(Protocol):
    name: str

    def open(self) -> _EngineStream: ...
    def positions(self, data: bytes) -> list[int]: ...  # one-shot: a whole value at once


class _HyperscanEngine:
    name = "hyperscan"

    def __init__(self, hs: ModuleType) -> None:
        self._hs = hs
        self.db = self._compile(hs.HS_MODE_STREAM)
        self.block_db = self._compile(hs.HS_MODE_BLOCK)  # the same patterns, for whole values
        self._local = threading.local()
        self.close_lock = threading.Lock()

    def _compile(self, mode: int) -> Any:
        db = self._hs.Database(mode=mode)
        n = len(_TRIGGERS)
        db.compile(
            expressions=[_hs_pattern(t) for t in _TRIGGERS],
            ids=list(range(n)),
            elements=n,
            flags=[0] * n,
        )
        return db

    def scratch(self, block: bool = False) -> Any:
        name = "block_scratch" if block else "scratch"
        scratch = getattr(self._local, name, None)
        if scratch is None:  # one per thread and database: scratch is not shareable
            scratch = self._hs.Scratch(self.block_db if block else self.db)
            setattr(self._local, name, scratch)
        return scratch

    def open(self) -> _EngineStream:
        return _HyperscanStream(self)

    def positions(self, data: bytes) -> list[int]:
        hits: list[int] = []
        lengths = _TRIGGER_LENGTHS

        def on_match(ident: int, _start: int, end: int, _flags: int, _ctx: object) -> None:
            hits.append(end - lengths[ident])

        if data:
            self.block_db.scan(data, match_event_handler=on_match, scratch=self.scratch(True))
        return hits


class _HyperscanStream:
    def __init__(self, engine: _HyperscanEngine) -> None:
        hits: list[int] = []
        lengths = _TRIGGER_LENGTHS

        def on_match(ident: int, _start: int, end: int, _flags: int, _ctx: object) -> None:
            hits.append(end - lengths[ident])

        self._hits = hits
        self._on_match = on_match  # the extension keeps only a borrowed reference
        self._engine = engine
        self._stream = engine.db.stream(match_event_handler=on_match)
        self._stream.__enter__()
        self._open = True

    def scan(self, data: bytes | bytearray | memoryview) -> list[int]:
        self._stream.scan(data, scratch=self._engine.scratch(), match_event_handler=self._on_match)
        return self._take()

    def close(self) -> list[int]:
        if self._open:
            self._open = False
            # The binding's close(scratch=...) is broken; plain close() uses the database's
            # own scratch, which must not be used by two threads at once.
            with self._engine.close_lock:
                self._stream.close(match_event_handler=self._on_match)
        return self._take()

    def _take(self) -> list[int]:
        out = list(self._hits)
        self._hits.clear()
        return out


class _ReEngine:
    """The fallback ("re" for short): the same triggers found with `bytes.find`.

    One C-speed `find` pass per trigger beats one `re` alternation by far on text, where
    a regex engine has to try the alternation at almost every byte.
    """

    name = "re"

    def __init__(self) -> None:
        self.needles = tuple(_needle(t) for t in _TRIGGERS)

    def open(self) -> _EngineStream:
        return _ReStream(self.needles)

    def positions(self, data: bytes) -> list[int]:
        return _ReStream(self.needles).scan(data)


class _ReStream:
    def __init__(self, needles: tuple[_Needle, ...]) -> None:
        self._needles = needles
        self._carry = b""  # the last _TMAX - 1 bytes: a trigger may start in them
        self._base = 0  # stream offset of self._carry[0]

    def scan(self, data: bytes | bytearray | memoryview) -> list[int]:
        buf = self._carry + bytes(data)
        low = buf.translate(_FOLD)
        out: list[int] = []
        for needle in self._needles:
            hay = low if needle.folded else buf
            text, lead = needle.text, needle.lead
            i = hay.find(text)
            while i >= 0:
                if lead is None:
                    out.append(self._base + i)
                elif i > 0 and buf[i - 1] in lead:
                    out.append(self._base + i - 1)
                i = hay.find(text, i + 1)
        keep = min(len(buf), _TMAX - 1)
        self._base += len(buf) - keep
        self._carry = buf[len(buf) - keep :]
        return out

    def close(self) -> list[int]:
        return []


_ENGINES: dict[str, _Engine | None] = {}
_ENGINES_LOCK = threading.Lock()


def _build(name: str) -> _Engine | None:
    with _ENGINES_LOCK:
        if name not in _ENGINES:
            if name == "re":
                _ENGINES[name] = _ReEngine()
            else:
                engine: _Engine | None = None
                try:  # importing can succeed on a CPU hyperscan then refuses to run on
                    if _hs is not None:
                        engine = _HyperscanEngine(_hs)
                        engine.positions(b"ghp_")
                except Exception:  # any failure at all means: use the fallback
                    engine = None
                _ENGINES[name] = engine
        return _ENGINES[name]


def available_engines() -> tuple[str, ...]:
    """Engine names usable here, fastest first: ``("hyperscan", "re")`` or ``("re",)``."""
    return ("hyperscan", "re") if _build("hyperscan") is not None else ("re",)


def _engine(name: str | None) -> _Engine:
    name = name or available_engines()[0]
    engine = _build(name) if name in ("hyperscan", "re") else None
    if engine is None:
        raise ValueError(f"unknown or unavailable scan engine {name!r}")
    return engine


# === verifiers: what a trigger position really is =====================================

_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_PLACEHOLDER_PARTS = (
    b"example",
    b"xxxx",
    b"your",
    b"placeholder",
    b"redacted",
    b"dummy",
    b"sample",
    b"fake",
    b"changeme",
)


def _classes(s: bytes) -> int:
    return (
        any(48 <= c <= 57 for c in s)
        + any(65 <= c <= 90 for c in s)
        + any(97 <= c <= 122 for c in s)
    )


def _varied(body: bytes) -> bool:
    """Random enough to be a real token, not a placeholder such as ``xxxx…`` or EXAMPLE."""
    low = body.lower()
    if any(p in low for p in _PLACEHOLDER_PARTS):
        return False
    return len(set(body)) >= min(8, max(2, len(body) // 2))


def _mixed(body: bytes) -> bool:
    """Varied, and at least two of digits / upper / lower: the alphabet of a random token."""
    return _varied(body) and _classes(body) >= 2


@dataclass(frozen=True)
class _TokenRule:
    kind: str
    rx: re.Pattern[bytes]
    prefix: int  # length of the fixed prefix; the rest is the body checked for randomness
    check: Callable[[bytes], bool] | None
    left_boundary: bool = True


def _tok(
    kind: str,
    rx: bytes,
    prefix: int,
    check: Callable[[bytes], bool] | None,
    left_boundary: bool = True,
) -> _TokenRule:
    return _TokenRule(kind, re.compile(rx), prefix, check, left_boundary)


_TOKEN_RULES = (
    _tok("Anthropic API key", rb"sk-ant-[A-Za-z0-9_\-]{32,}", 7, _mixed),
    _tok("OpenAI API key", rb"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", 3, _mixed),
    _tok("GitHub token", rb"gh[pousr]_[A-Za-z0-9]{36}", 4, _varied),
    _tok("GitHub token", rb"github_pat_[A-Za-z0-9_]{36,}", 11, _mixed),
    _tok("GitLab token", rb"glpat-[A-Za-z0-9_\-]{20,}", 6, _varied),
    _tok("Slack token", rb"xox[abprs]-[A-Za-z0-9]{1,40}-[A-Za-z0-9\-]{8,}", 5, _mixed),
    _tok(
        "Slack webhook URL",
        rb"hooks\.slack\.com/services/T[A-Za-z0-9]{6,}/B[A-Za-z0-9]{6,}/[A-Za-z0-9]{16,}",
        26,
        _varied,
        left_boundary=False,
    ),
    _tok("AWS access key id", rb"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", 4, _varied),
    _tok("Google API key", rb"AIza[A-Za-z0-9_\-]{35}", 4, _mixed),
    _tok("Stripe live key", rb"[sr]k_live_[A-Za-z0-9]{24,}", 8, _mixed),
    _tok("npm token", rb"npm_[A-Za-z0-9]{36}", 4, _mixed),
    _tok("PyPI token", rb"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}", 20, _varied),
)

_NL = rb"(?:\r?\n|\\r\\n|\\n)"  # a real line break, or one escaped inside a JSON string
_PEM_RX = re.compile(
    rb"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
    rb"(?:" + _NL + rb"|[ \t]+)"
    rb"(?:[A-Za-z][A-Za-z0-9\-]*:[^\r\n\\]*" + _NL + rb"){0,8}"
    rb"(?:" + _NL + rb")?"
    rb"[A-Za-z0-9+/=]{32}"
)
_JWT_RX = re.compile(rb"(eyJ[A-Za-z0-9_\-]{8,})\.([A-Za-z0-9_\-]{8,})\.[A-Za-z0-9_\-]{16,}")
_BEARER_RX = re.compile(rb"[Bb]earer[ \t]+([A-Za-z0-9\-._~+/]{20,}=*)")
_AWS_SECRET_RX = re.compile(
    rb"(?i:secret_access_key)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)
_SCHEME_RX = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]{0,30}\Z")
_USERINFO_RX = re.compile(
    rb"://([^\s/?#@:'\"<>\\]{1,128}):([^\s/?#@'\"<>\\]{1,256})@([A-Za-z0-9\-._~%]+|\[[0-9A-Fa-f:.]+\])"
)
_ASSIGN_RX = re.compile(
    rb"(?i:password|passwd|passphrase|secret_key|secretkey|secret_access_key|secret|token"
    rb"|api_key|apikey|api-key)"
    rb"[\"']?[ \t]{0,4}(?:=>|:|=)(?![=>:])[ \t]{0,4}"
    rb"(?:[bBrRuUfF]{0,2}(?P<q>[\"'`]))?"
    rb"(?P<v>[^\s\"'`<>,;(){}\[\]&|\\]{1,200})"
)
_SECRET_KEY_ENDINGS = (
    "password",
    "passwd",
    "passphrase",
    "secret",
    "secret_key",
    "secretkey",
    "secret_access_key",
    "token",
    "api_key",
    "apikey",
)
_PLACEHOLDER_WORDS = frozenset(
    b"none null nil true false undefined string str bytes text integer number boolean "
    b"object required optional hidden masked value default empty unknown unset notset "
    b"missing invalid secret token password passwd".split()
)
_PLACEHOLDER_SUBSTRINGS = (
    b"apikey",
    b"api_key",
    b"password",
    b"passwd",
    b"secret",
    b"token",
    b"example",
    b"your",
    b"change",
    b"placeholder",
    b"redacted",
    b"dummy",
    b"sample",
    b"xxx",
    b"***",
    b"...",
    b"test",
    b"fake",
    b"demo",
    b"insert",
    b"enter",
    b"here",
    b"todo",
    b"fixme",
    b"foo",
    b"bar",
)
_TEMPLATE_STARTS = frozenset(b"$%{<[*.~/\\!#@&")
_CODE_REF_RX = re.compile(rb"[A-Za-z_]+|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_CONSTANT_RX = re.compile(rb"[A-Z][A-Z0-9_]*")  # CARD32, GITHUB_TOKEN: a type or a variable
_SLUG_RX = re.compile(rb"[a-z]+(?:[-_./:][a-z]+)+")
# what is said right before the keyword when the value is no secret: a page token, a
# publicKeyToken, a sync cursor
_NOT_SECRET_BEFORE_RX = re.compile(
    rb"(?i:page|public|publickey|public[_ \-]key|continuation|pagination|cursor|sync|next)"
    rb"[ _\-]?\Z"
)
_VALUE_FORBIDDEN = re.compile(rb"[\s\"'`<>,;(){}\[\]&|\\]")
_PLACEHOLDER_USERS = frozenset(b"anonymous ftp user username login name".split())
_EXAMPLE_HOST_RX = re.compile(rb"(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid)$", re.I)


def _random_case(word: bytes) -> bool:
    """Letters only, yet random: long, with capitals and small letters well mixed."""
    upper = sum(65 <= c <= 90 for c in word)
    return len(word) >= 16 and min(upper, len(word) - upper) >= len(word) // 4


def _secret_value(value: bytes, *, quoted: bool, followed_by: bytes = b"") -> bool:
    """Does an assigned value look like a real secret rather than a placeholder or code?"""
    if not quoted:
        value = value.rstrip(b".:!?")  # "the Token= setting." ends a sentence
    if len(value) < 6 or _VALUE_FORBIDDEN.search(value) or b"%20" in value:
        return False
    low = value.lower()
    if value[0] in _TEMPLATE_STARTS or low in _PLACEHOLDER_WORDS or b"://" in value:
        return False
    if any(p in low for p in _PLACEHOLDER_SUBSTRINGS) or len(set(low)) <= 2:
        return False
    if value.isdigit() or (value.isalpha() and not _random_case(value)):
        return False  # a number, or words: "Incorrect", "apiKeySecurityScheme"
    if _SLUG_RX.fullmatch(value):
        return False  # "auth-request-type/at": lowercase words, not a secret
    if quoted:
        return True
    if followed_by[:1] in (b"(", b"[", b"."):
        return False  # a call or an index: code, not a value
    if _CONSTANT_RX.fullmatch(value) and (len(value) < 12 or b"_" in value):
        return False
    return _CODE_REF_RX.fullmatch(value) is None


def _credential_at(w: bytes, at: int) -> tuple[str, int] | None:
    """The kind of credential starting at `at` (and where it starts), or None."""
    left_ok = at == 0 or w[at - 1] not in _ALNUM
    for rule in _TOKEN_RULES:
        m = rule.rx.match(w, at)
        if not m or not (left_ok or not rule.left_boundary):
            continue
        if rule.check is None or rule.check(m.group()[rule.prefix :]):
            return rule.kind, at
    if (m := _PEM_RX.match(w, at)) is not None:
        return "private key block", at
    if left_ok and (m := _JWT_RX.match(w, at)) is not None and _jwt_ok(m.group(1), m.group(2)):
        return "JWT", at
    if (m := _BEARER_RX.match(w, at)) is not None:
        tok = m.group(1)
        if not tok.startswith(b"eyJ") and _mixed(tok) and left_ok:
            return "bearer token", at
    if (m := _AWS_SECRET_RX.match(w, at)) is not None and _mixed(m.group(1)):
        return "AWS secret access key", at
    if w.startswith(b"://", at):
        return _url_password(w, at)
    if (m := _ASSIGN_RX.match(w, at)) is not None:
        if _NOT_SECRET_BEFORE_RX.search(w, max(0, at - 16), at):
            return None
        q = m.group("q")
        value = m.group("v")
        after = w[m.end() : m.end() + 1]
        if q and after != q:
            return None  # the quoted value goes on past what a secret may contain
        if _secret_value(value, quoted=bool(q), followed_by=after):
            return "password or secret assignment", at
    return None


def _b64url(segment: bytes) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(segment + b"=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        return None


def _jwt_ok(header: bytes, payload: bytes) -> bool:
    """A JSON header naming an algorithm, and a payload that is a JSON object."""
    raw_header, raw_payload = _b64url(header), _b64url(payload)
    if raw_header is None or raw_payload is None or not raw_payload.lstrip().startswith(b"{"):
        return False
    try:
        parsed = json.loads(raw_header)
    except ValueError:
        return False
    return isinstance(parsed, dict) and "alg" in parsed


def _url_password(w: bytes, at: int) -> tuple[str, int] | None:
    scheme = _SCHEME_RX.search(w, max(0, at - 31), at)
    m = _USERINFO_RX.match(w, at)
    if scheme is None or m is None:
        return None
    user, password, host = m.group(1), m.group(2), m.group(3)
    if user.lower() in _PLACEHOLDER_USERS or _EXAMPLE_HOST_RX.search(host):
        return None
    low = password.lower()
    if len(password) < 3 or password[0] in _TEMPLATE_STARTS or low in _PLACEHOLDER_WORDS:
        return None
    if any(p in low for p in _PLACEHOLDER_SUBSTRINGS) or low in (b"pass", b"pwd", b"pw"):
        return None
    if len(set(low)) <= 1 or low == user.lower():
        return None
    return "password in URL", scheme.start()


# --- transcripts -------------------------------------------------------------------------

_ROLE_CLASS = {
    b"user": "user",
    b"human": "user",
    b"q": "user",
    "用户".encode(): "user",
    "问".encode(): "user",
    b"assistant": "assistant",
    b"ai": "assistant",
    b"a": "assistant",
    "助手".encode(): "assistant",
    "答".encode(): "assistant",
    b"system": "system",
    b"model": "assistant",
    b"bot": "assistant",
    b"developer": "system",
}
_ROLE_RX = re.compile(
    rb"(?:(?i:(user|human|assistant|system|ai|q|a))|(" + b"|".join(_CJK_ROLE_WORDS) + rb"))"
    rb"(?:\*\*)?(?:(:)|" + _FULLWIDTH_COLON + rb")"
)
_LINE_PREFIX_RX = re.compile(rb"(?:>[ \t]*)*(?:\*\*)?")
_MSG_RX = re.compile(
    rb"[\"'](role|sender)\\?[\"'][ \t]*:[ \t]*\\?[\"']"
    rb"(?i:(user|human|assistant|ai|model|bot|system|developer))\\?[\"']"
)
_CONTENT_KEY = rb"[\"'](?:content|text|parts)\\?[\"'][ \t]*:[ \t]*(?:\\?[\"']|\[|\{)"
_CONTENT_AFTER_RX = re.compile(rb"[^{}]{0,800}?" + _CONTENT_KEY)
_CONTENT_RX = re.compile(_CONTENT_KEY)
_AUTHOR_BEFORE_RX = re.compile(rb"[\"']author\\?[\"'][ \t]*:[ \t]*\{[ \t\r\n]*\\?\Z")


def _turn_at(w: bytes, at: int, sos: bool) -> tuple[str, int] | None:
    """A role-prefixed turn whose role word starts at `at` or `at + 1`: (role class, where)."""
    starts = [at] if sos and at == 0 else []
    if at < len(w) and w[at] in _TURN_PREFIX:
        starts.append(at + 1)
    for s in starts:
        m = _ROLE_RX.match(w, s)
        if m is None:
            continue
        if m.group(3) is not None and w[m.end() : m.end() + 1] not in (
            b"",
            b" ",
            b"\t",
            b"\r",
            b"\n",
            b"*",
        ):
            continue  # "user:x:1000" is a record, not a turn
        line_start = w.rfind(b"\n", max(0, s - 16), s) + 1
        if line_start == 0 and not (sos and s <= 16):
            continue
        if _LINE_PREFIX_RX.fullmatch(w, line_start, s) is None:
            continue
        word = (m.group(1) or m.group(2)).lower()
        return _ROLE_CLASS[word], s
    return None


def _message_at(w: bytes, at: int) -> str | None:
    """A chat message in JSON (or a Python repr of one) whose role key starts at `at`."""
    m = _MSG_RX.match(w, at)
    if m is None:
        return None
    key, role = m.group(1), m.group(2).lower()
    if key == b"sender":
        return _ROLE_CLASS[role] if role in (b"human", b"assistant") else None
    if _AUTHOR_BEFORE_RX.search(w, max(0, at - 48), at) is not None:
        return _ROLE_CLASS[role]
    if _CONTENT_AFTER_RX.match(w, m.end()) is not None:
        return _ROLE_CLASS[role]
    before = w[max(0, at - 500) : at]
    opening = before.rfind(b"{")
    if opening >= 0 and before.rfind(b"}") < opening and _CONTENT_RX.search(before, opening):
        return _ROLE_CLASS[role]
    return None


# === the scanner core: chunks in, raw results out ========================================


@dataclass
class _Transcript:
    """Two turns of different roles within TRANSCRIPT_SPAN of each other."""

    last: dict[str, int] = field(default_factory=dict)
    found: tuple[int, str, str] | None = None

    def add(self, offset: int, role: str) -> None:
        if self.found is None:
            for other, at in self.last.items():
                if other != role and offset - at <= TRANSCRIPT_SPAN:
                    a, b = sorted((other, role))
                    self.found = (at, a, b)
                    break
        self.last[role] = offset


@dataclass
class _Raw:
    """What one scanned byte stream holds: first offset and count per credential kind."""

    credentials: dict[str, list[int]] = field(default_factory=dict)
    turns: _Transcript = field(default_factory=_Transcript)
    messages: _Transcript = field(default_factory=_Transcript)

    def findings(self, place: Callable[[int], str]) -> list[Finding]:
        out = []
        for kind, (first, count) in self.credentials.items():
            more = f"{count} in all; the first is shown" if count > 1 else ""
            out.append(Finding(RULE_CREDENTIAL, kind, place(first), more))
        if self.turns.found:
            at, a, b = self.turns.found
            out.append(
                Finding(
                    RULE_TRANSCRIPT,
                    "chat transcript",
                    place(at),
                    f"role-prefixed turns by {a} and {b}",
                )
            )
        if self.messages.found:
            at, a, b = self.messages.found
            out.append(
                Finding(
                    RULE_TRANSCRIPT,
                    "chat transcript",
                    place(at),
                    f"chat messages in JSON by {a} and {b}",
                )
            )
        return out


class _Core:
    """Engine positions -> windows -> verifiers, independent of how bytes were chunked."""

    def __init__(self, engine: _Engine) -> None:
        self._stream: _EngineStream | None = engine.open()
        self._end = 0  # bytes fed so far
        self._tail = b""  # the last _KEEP bytes fed
        self._pending: list[int] = [0]  # the start of a value is always worth a look
        self._seen: set[int] = {0}
        self._zero_hit = False  # did a trigger start at byte 0, or is it only a turn check?
        self.raw = _Raw()

    def feed(self, chunk: bytes | bytearray | memoryview) -> None:
        n = len(chunk)
        if n == 0 or self._stream is None:
            return
        self._add(self._stream.scan(chunk))
        start, end = self._end, self._end + n
        if self._pending and self._pending[0] + AFTER <= end:
            ready = [p for p in self._pending if p + AFTER <= end]
            self._pending = [p for p in self._pending if p + AFTER > end]
            tail, tail_start = self._tail, start - len(self._tail)
            for p in ready:
                lo, hi = max(0, p - BEFORE), min(p + AFTER, end)
                parts = []
                if lo < start:
                    parts.append(tail[lo - tail_start : min(hi, start) - tail_start])
                if hi > start:
                    parts.append(bytes(chunk[max(lo, start) - start : hi - start]))
                self._verify(b"".join(parts), p - lo, p, lo == 0)
        self._tail = (self._tail + bytes(chunk[-_KEEP:]))[-_KEEP:]
        self._end = end
        if len(self._seen) > 256:
            self._seen = {p for p in self._seen if p >= end - _TMAX}

    def finish(self) -> _Raw:
        if self._stream is not None:
            self._add(self._stream.close())
            self._stream = None
            tail_start = self._end - len(self._tail)
            for p in self._pending:
                lo = max(0, p - BEFORE)
                window = self._tail[lo - tail_start : min(p + AFTER, self._end) - tail_start]
                if p < self._end:
                    self._verify(window, p - lo, p, lo == 0)
            self._pending = []
        return self.raw

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _add(self, hits: list[int]) -> None:
        for p in hits:
            if p == 0:
                self._zero_hit = True
            if p not in self._seen:
                self._seen.add(p)
                self._pending.append(p)
        self._pending.sort()

    def _verify(self, w: bytes, at: int, p: int, sos: bool) -> None:
        _verify_into(self.raw, w, at, p, sos, turns_only=p == 0 and not self._zero_hit)


def _verify_into(raw: _Raw, w: bytes, at: int, p: int, sos: bool, *, turns_only: bool) -> None:
    """Run the verifiers on window `w` (stream position `p` is `w[at]`) and record."""
    turn = _turn_at(w, at, sos)
    if turn is not None:
        role, where = turn
        raw.turns.add(p + where - at, role)
    if turns_only:
        return
    cred = _credential_at(w, at)
    if cred is not None:
        kind, where = cred
        entry = raw.credentials.setdefault(kind, [p + where - at, 0])
        entry[1] += 1
    msg = _message_at(w, at)
    if msg is not None:
        raw.messages.add(p, msg)


def _scan_bytes(data: bytes, engine: _Engine) -> _Raw:
    """A whole value at once: the same positions and windows as a stream, one engine call."""
    raw = _Raw()
    if not data:
        return raw
    hits = sorted(set(engine.positions(data)))
    if not hits or hits[0] != 0:
        _verify_into(raw, data[:AFTER], 0, 0, True, turns_only=True)
    for p in hits:
        lo = max(0, p - BEFORE)
        _verify_into(raw, data[lo : p + AFTER], p - lo, p, lo == 0, turns_only=False)
    return raw


# === luggage: streams, archives ==========================================================


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def take(self, n: int) -> bool:
        if n > self.left:
            self.left = 0
            return False
        self.left -= n
        return True


_INFLATE_STEP = 1024 * 1024


def _clean_name(raw: bytes, engine: _Engine, index: int) -> str:
    """An archive member's name fit to show: never a credential, never control characters."""
    if _scan_bytes(raw, engine).credentials:
        return f"entry #{index}"
    text = raw.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 120 else text[:117] + "..."


class _Inflater:
    """Feeds one inner stream to a child scanner, within the shared inflation budget."""

    def __init__(self, parent: StreamScanner) -> None:
        self.parent = parent
        self.dead = False
        self.children: list[StreamScanner] = []  # still open
        self.found: list[Finding] = []  # from children already finished
        self.members = 0

    def child(self, name: str) -> StreamScanner | None:
        """A scanner for the next member, or None past MAX_ARCHIVE_MEMBERS (then stop)."""
        self.members += 1
        if self.members > MAX_ARCHIVE_MEMBERS:
            self.dead = True
            return None
        p = self.parent
        scanner = StreamScanner(
            name, engine=p._engine.name, _depth=p._depth + 1, _budget=p._budget, _checked_name=True
        )
        self.children.append(scanner)
        return scanner

    def done(self, child: StreamScanner | None) -> None:
        """A member ended: report it now, so a zip of many members holds one open at a time."""
        if child is not None and child in self.children:
            self.children.remove(child)
            self.found += child.finish()

    def inflate(self, d: Any, data: bytes, sink: StreamScanner) -> bytes:
        """Decompress `data` into `sink` step by step; returns what is left after the end."""
        budget = self.parent._budget
        while data and not self.dead:
            try:
                out = d.decompress(data, _INFLATE_STEP)
            except zlib.error:
                self.dead = True  # damaged: the outer bytes were scanned anyway
                return b""
            if out:
                if not budget.take(len(out)):
                    self.dead = True  # past the bound: stop looking inside, no finding
                    return b""
                sink.feed(out)
            data = d.unconsumed_tail
            if d.eof:
                return bytes(d.unused_data) + bytes(data)
        return b""

    def findings(self) -> list[Finding]:
        for c in list(self.children):
            self.done(c)
        return self.found

    def close(self) -> None:
        for c in self.children:
            c.close()


class _Gzip(_Inflater):
    def __init__(self, parent: StreamScanner) -> None:
        super().__init__(parent)
        sink = self.child(f"{parent.name} (inflated)")
        assert sink is not None
        self.sink = sink
        self.d = zlib.decompressobj(31)

    def feed(self, data: bytes) -> None:
        while data and not self.dead:
            rest = self.inflate(self.d, data, self.sink)
            if not self.d.eof:
                return
            self.d = zlib.decompressobj(31)  # concatenated members are one gzip file
            data = rest


_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")


class _Zip(_Inflater):
    """Reads local entries front to back, as the bytes arrive: no seeking, no disk."""

    def __init__(self, parent: StreamScanner) -> None:
        super().__init__(parent)
        self.buf = b""
        self.pos = 0  # how far into self.buf we have read
        self.state = "header"
        self.remaining = 0  # bytes of the current stored / skipped entry
        self.sink: StreamScanner | None = None
        self.d: Any = None
        self.descriptor = False
        self.index = 0

    def feed(self, data: bytes) -> None:
        self.buf = self.buf[self.pos :] + data if self.pos < len(self.buf) else data
        self.pos = 0
        while self.pos < len(self.buf) and not self.dead and self._step():
            pass

    def _after_entry(self) -> None:
        self.done(self.sink)
        self.sink = None
        self.state = "descriptor" if self.descriptor else "header"

    def _step(self) -> bool:
        """Advance one state; False when more bytes are needed."""
        if self.state == "header":
            return self._header()
        if self.state in ("stored", "skip"):
            take = self.buf[self.pos : self.pos + self.remaining]
            self.pos += len(take)
            self.remaining -= len(take)
            if self.state == "stored" and self.sink is not None and take:
                if not self.parent._budget.take(len(take)):
                    self.dead = True
                    return False
                self.sink.feed(take)
            if self.remaining == 0:
                self._after_entry()
                return True
            return False
        if self.state == "deflate":
            assert self.sink is not None
            data = self.buf[self.pos :]
            self.buf, self.pos = b"", 0
            rest = self.inflate(self.d, data, self.sink)
            if self.d.eof:
                self.buf = rest
                self._after_entry()
                return True
            return False
        # data descriptor after an entry: optional signature, crc, sizes (32- or 64-bit)
        if len(self.buf) - self.pos < 28:
            return False
        at = self.pos + (4 if self.buf[self.pos : self.pos + 4] == b"PK\x07\x08" else 0)
        for size in (12, 20):
            if self.buf[at + size : at + size + 2] == b"PK":
                self.pos = at + size
                self.state = "header"
                return True
        self.dead = True
        return False

    def _header(self) -> bool:
        buf, pos = self.buf, self.pos
        if len(buf) - pos < 30:
            return False
        (sig, _ver, flags, method, _t, _d, _crc, csize, usize, nlen, xlen) = _LOCAL_HEADER.unpack(
            buf[pos : pos + 30]
        )
        if sig != b"PK\x03\x04":
            self.dead = True  # the central directory (or garbage): nothing more to read
            return False
        if len(buf) - pos < 30 + nlen + xlen:
            return False
        raw_name = buf[pos + 30 : pos + 30 + nlen]
        extra = buf[pos + 30 + nlen : pos + 30 + nlen + xlen]
        self.pos = pos + 30 + nlen + xlen
        if csize == 0xFFFFFFFF or usize == 0xFFFFFFFF:
            csize = _zip64_csize(extra, usize, csize)
        self.descriptor = bool(flags & 0x08)
        self.index += 1
        name = f"{self.parent.name}!/{_clean_name(raw_name, self.parent._engine, self.index)}"
        self.sink = None
        if method == 8 and not flags & 0x01:
            self.sink = self.child(name)
            if self.sink is None:
                return False
            self.d = zlib.decompressobj(-15)
            self.state = "deflate"
            return True
        if self.descriptor and csize == 0:
            self.dead = True  # the length is only in the central directory: stop here
            return False
        if method == 0 and not flags & 0x01:
            self.sink = self.child(name)
            if self.sink is None:
                return False
            self.state = "stored"
        else:
            self.state = "skip"  # encrypted or a method we do not inflate: step over it
        self.remaining = csize
        if self.remaining == 0:
            self._after_entry()
        return True


def _zip64_csize(extra: bytes, usize: int, csize: int) -> int:
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, i)
        if tag == 0x0001:
            fields = extra[i + 4 : i + 4 + size]
            values = [struct.unpack_from("<Q", fields, j)[0] for j in range(0, len(fields) - 7, 8)]
            k = 0
            if usize == 0xFFFFFFFF and k < len(values):
                k += 1
            if csize == 0xFFFFFFFF and k < len(values):
                return int(values[k])
        i += 4 + size
    return csize


class StreamScanner:
    """Credential and transcript scanner for luggage bytes of any size, fed in chunks.

    ``name`` is how the file appears in findings (e.g. ``files/notes.txt``); a finding's
    place reads ``files/notes.txt @ byte 10485771``. Chunks may be any size and split
    anything; the findings are the same. A ZIP or gzip stream (recognised by its first
    bytes) is also inflated in memory, at most :data:`MAX_ARCHIVE_DEPTH` levels and
    :data:`MAX_INFLATED_BYTES` in all, and what is inside is scanned too
    (``files/a.zip!/notes.txt @ byte 12``). Memory use is bounded whatever the input.

    Use it as a context manager, or call :meth:`finish` (or :meth:`close`) exactly once.
    """

    def __init__(
        self,
        name: str,
        *,
        engine: str | None = None,
        _depth: int = 0,
        _budget: _Budget | None = None,
        _checked_name: bool = False,
    ) -> None:
        self._engine = _engine(engine)
        self._depth = _depth
        self._budget = _budget or _Budget(MAX_INFLATED_BYTES)
        self._name_findings: list[Finding] = []
        if (
            not _checked_name
            and _scan_bytes(name.encode("utf-8", "surrogatepass"), self._engine).credentials
        ):
            self._name_findings.append(
                Finding(RULE_CREDENTIAL, "credential in a file name", "the name of a luggage file")
            )
            name = "(a luggage file whose name holds a credential)"
        self.name = name
        self._core = _Core(self._engine)
        self._head = b""  # the first bytes, until we know whether this is an archive
        self._inner: _Zip | _Gzip | None = None
        self._sniffed = _depth >= MAX_ARCHIVE_DEPTH
        self._result: list[Finding] | None = None

    def feed(self, chunk: bytes | bytearray | memoryview) -> None:
        """Scan the next bytes of the stream."""
        if self._result is not None:
            raise ValueError("feed() after finish()")
        self._core.feed(chunk)
        if not self._sniffed:
            self._head += bytes(chunk)  # at most once with more than 3 bytes
            if len(self._head) < 4:
                return
            self._sniff()
            head, self._head = self._head, b""
            if self._inner is not None:
                self._inner.feed(head)
            return
        if self._inner is not None and not self._inner.dead:
            self._inner.feed(bytes(chunk))

    def _sniff(self) -> None:
        self._sniffed = True
        if self._head.startswith(b"PK\x03\x04"):
            self._inner = _Zip(self)
        elif self._head.startswith(b"\x1f\x8b\x08"):
            self._inner = _Gzip(self)

    def finish(self) -> list[Finding]:
        """Findings for the whole stream (and what was inside it), in a stable order."""
        if self._result is None:
            if not self._sniffed and self._head:
                self._sniff()
                if self._inner is not None:
                    self._inner.feed(self._head)
            raw = self._core.finish()
            self._core.close()
            found = list(self._name_findings)
            found += raw.findings(lambda offset: f"{self.name} @ byte {offset}")
            if self._inner is not None:
                found += self._inner.findings()
            self._result = found
        return list(self._result)

    def close(self) -> None:
        """Release the engine stream without reporting (e.g. after an error)."""
        self._core.close()
        if self._inner is not None:
            self._inner.close()

    def __enter__(self) -> StreamScanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class _Readable(Protocol):
    def readinto(self, buffer: bytearray | memoryview, /) -> int | None: ...


class _Digest(Protocol):
    def update(self, data: bytes | bytearray | memoryview, /) -> None: ...


def scan_luggage_stream(
    name: str,
    fileobj: _Readable,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    *,
    digest: _Digest | None = None,
    engine: str | None = None,
) -> list[Finding]:
    """Scan a binary file object to its end. `digest`, if given, is fed the same bytes,
    so a judge can hash and scan in one read."""
    buf = bytearray(chunk_size)
    view = memoryview(buf)
    with StreamScanner(name, engine=engine) as scanner:
        while n := fileobj.readinto(buf):
            if digest is not None:
                digest.update(view[:n])
            scanner.feed(view[:n])
        return scanner.finish()


# === the pack object: JSON values ========================================================

_INSTRUCTION_TOKENS = frozenset(
    ["instruction", "instructions", "instr", "directive", "directives", "howto", "jailbreak"]
)
_HOW_TO_VERBS = frozenset(
    [
        "use",
        "read",
        "open",
        "handle",
        "process",
        "treat",
        "interpret",
        "respond",
        "reply",
        "proceed",
        "continue",
        "start",
        "begin",
        "follow",
    ]
)
_TARGETS = frozenset(
    [
        "ai",
        "agent",
        "agents",
        "assistant",
        "llm",
        "receiver",
        "recipient",
        "reader",
        "bot",
        "claude",
        "gpt",
        "chatgpt",
        "gemini",
        "copilot",
        "you",
    ]
)
_NOTE_WORDS = frozenset(
    [
        "readme",
        "note",
        "notes",
        "message",
        "msg",
        "guide",
        "guidance",
        "rules",
        "orders",
        "commands",
        "todo",
        "tips",
        "hint",
        "hints",
        "directions",
        "usage",
        "memo",
        "prompt",
    ]
)
_CJK_INSTRUCTION_PARTS = (
    "使用说明",
    "使用方法",
    "指令",
    "提示词",
    "系统提示",
    "给ai",
    "致ai",
    "操作指南",
    "说明书",
)
_ROOT_ALLOWED = frozenset({"note_to_reader"})  # the flat wrapper's own field (spec §2.2)


def _name_tokens(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", spaced)
    return [t for t in re.split(r"[^0-9a-z\u0080-\uffff]+", spaced.lower()) if t]


@functools.lru_cache(maxsize=4096)
def is_instruction_field(name: str) -> bool:
    """Does a field name say it instructs the reader (spec §4.5)?

    Flagged: any name with ``instruction(s)`` or ``directive(s)`` in it
    (``instructions_for_ai``, ``agentInstructions``); ``how_to_`` + a verb about using the
    file (``how_to_use``, ``how_to_use_this_file``, ``howToRead``); a prompt
    (``system_prompt``, ``prompt_for_receiver``, ``system_message``); a note/readme/guide
    aimed at a reader (``readme_for_agent``, ``message_to_ai``, ``notes_for_you``); and the
    Chinese ``使用说明`` / ``指令`` / ``提示词`` family. Not flagged: ``how`` (landing
    checks), ``what``, ``accept``, ``prompt`` alone, ``how_to_verify``.
    """
    tokens = _name_tokens(name)
    joined = "".join(tokens)
    if not tokens:
        return False
    if _INSTRUCTION_TOKENS & set(tokens) or "instruction" in joined:
        return True
    if len(tokens) >= 3 and tokens[0] == "how" and tokens[1] == "to" and tokens[2] in _HOW_TO_VERBS:
        return True
    if (
        joined.startswith("howto")
        and tokens[0] != "how"
        and any(joined.startswith("howto" + v) for v in _HOW_TO_VERBS)
    ):
        return True
    if "systemprompt" in joined or "sysprompt" in joined or joined == "systemmessage":
        return True
    if ("system" in tokens and ("message" in tokens or "prompt" in tokens)) or (
        tokens[0] == "prompt" and len(tokens) > 1 and tokens[1] in ("for", "to")
    ):
        return True
    if _NOTE_WORDS & set(tokens) and _TARGETS & set(tokens):
        return True
    return any(part in joined for part in _CJK_INSTRUCTION_PARTS)


def _shown_key(key: str) -> str:
    shown = key if len(key) <= 80 else key[:77] + "..."
    return shown if shown.isprintable() else "".join(c if c.isprintable() else "?" for c in shown)


@functools.lru_cache(maxsize=4096)
def _is_secret_key_name(name: str) -> bool:
    """A field named like a secret (``db_password``, ``clientSecret``), as the text rule
    reads ``db_password=…``: not a ``next_page_token`` or a ``publicKeyToken``."""
    norm = "_".join(_name_tokens(name))
    for ending in _SECRET_KEY_ENDINGS:
        if norm == ending or norm.endswith("_" + ending):
            before = norm[: len(norm) - len(ending)].encode()[-16:]
            return _NOT_SECRET_BEFORE_RX.search(before) is None
    return False


def _message_class(d: dict[str, Any]) -> str | None:
    """The role class of a chat message written as a JSON object, or None."""
    role = d.get("role")
    if isinstance(role, str) and "content" in d:
        return _ROLE_CLASS.get(role.lower().encode())
    sender = d.get("sender")
    if (
        isinstance(sender, str)
        and sender.lower() in ("human", "assistant")
        and ("text" in d or "content" in d)
    ):
        return _ROLE_CLASS[sender.lower().encode()]
    author = d.get("author")
    if isinstance(author, dict) and isinstance(author.get("role"), str) and "content" in d:
        return _ROLE_CLASS.get(author["role"].lower().encode())
    return None


Path = tuple[str | int, ...]


def _show(prefix: str, path: Path) -> str:
    out = prefix
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else part
    return out or "(the whole value)"


class _ValueScan:
    def __init__(self, prefix: str, engine: _Engine) -> None:
        self.prefix = prefix
        self.engine = engine
        self.findings: list[Finding] = []
        self.messages: list[tuple[str, Path]] = []
        self.key_credentials: dict[str, list[str]] = {}  # keys repeat: scan each once

    def place(self, path: Path) -> str:
        return _show(self.prefix, path)

    def text(self, s: str, path: Path) -> _Raw:
        raw = _scan_bytes(s.encode("utf-8", "surrogatepass"), self.engine)
        self.findings += raw.findings(lambda _offset: self.place(path))
        return raw

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
            kinds = self.key_credentials.get(key)
            if kinds is None:
                raw = _scan_bytes(key.encode("utf-8", "surrogatepass"), self.engine)
                kinds = self.key_credentials[key] = list(raw.credentials)
            if kinds:
                shown: str = f"<field #{i}>"
                for kind in kinds:
                    self.findings.append(
                        Finding(
                            RULE_CREDENTIAL, kind, self.place((*path, shown)), "in a field name"
                        )
                    )
            else:
                shown = _shown_key(key)
            here: Path = (*path, shown)
            if is_instruction_field(key) and not (path == () and key in _ROOT_ALLOWED):
                self.findings.append(
                    Finding(
                        RULE_INSTRUCTION,
                        "instruction field",
                        self.place(here),
                        "a pack carries data, never instructions to its reader (spec §4.5)",
                    )
                )
            if (
                isinstance(value, str)
                and _is_secret_key_name(key)
                and _secret_value(value.encode("utf-8", "surrogatepass"), quoted=True)
                and not _scan_bytes(value.encode("utf-8", "surrogatepass"), self.engine).credentials
            ):
                self.findings.append(
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
            self.findings.append(
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
        self.findings.append(
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
    scan = _ValueScan(path, _engine(engine))
    scan.walk(value)
    scan.message_findings()
    return scan.findings


def holds_credential(text: str, *, engine: str | None = None) -> bool:
    """Does this text hold anything the credential rules refuse? (For redacting a display.)"""
    return bool(_scan_bytes(text.encode("utf-8", "surrogatepass"), _engine(engine)).credentials)


def check_asks(asks: Sequence[Any]) -> list[Finding]:
    """Spec §4.3: every ask needs a non-empty `what` and a non-empty `accept`."""
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
