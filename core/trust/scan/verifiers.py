"""Verifiers: is the credential a trigger points at real, or a placeholder or code?

Plain Python on the window around one trigger position (see ``scanner``).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ...format.lazy_regex import LazyRegex, lazy

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
    """How one kind of token is recognised: its pattern, its fixed prefix, and what its body must look like."""

    kind: str
    rx: LazyRegex[bytes]
    prefix: int  # length of the fixed prefix; the rest is the body checked for randomness
    check: Callable[[bytes], bool] | None
    left_boundary: bool = True
    #: the literal bytes every match starts with (b"sk-ant-"): where they are not, the
    #: pattern is not even compiled (every pack's ``task-passport`` holds the trigger sk-)
    lead: bytes = b""


def _tok(
    kind: str,
    rx: bytes,
    prefix: int,
    check: Callable[[bytes], bool] | None,
    left_boundary: bool = True,
) -> _TokenRule:
    lead = bytes(itertools.takewhile(_LITERAL.__contains__, rx))
    if rx[len(lead) : len(lead) + 1] in (b"?", b"*", b"{"):  # its last byte may be absent
        lead = lead[:-1]
    return _TokenRule(kind, lazy(rx), prefix, check, left_boundary, lead)


_LITERAL = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


# A prefix that is long and distinctive (`ghp_`, `sk-ant-`, `github_pat_` …) marks a token
# even when the byte before it is a letter or digit: in binary luggage a secret is often
# glued to a length byte or other data. Short or common prefixes (`sk-`, `AKIA`) keep the
# word boundary, or words like "risk-…" would be refused.
_TOKEN_RULES = (
    _tok("Anthropic API key", rb"sk-ant-[A-Za-z0-9_\-]{32,}", 7, _mixed, left_boundary=False),
    _tok(
        "OpenAI API key",
        rb"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}",
        3,
        _mixed,
        left_boundary=False,
    ),
    _tok("OpenAI API key", rb"sk-[A-Za-z0-9_\-]{20,}", 3, _mixed),
    _tok("GitHub token", rb"gh[pousr]_[A-Za-z0-9]{36}", 4, _varied, left_boundary=False),
    _tok("GitHub token", rb"github_pat_[A-Za-z0-9_]{36,}", 11, _mixed, left_boundary=False),
    _tok("GitLab token", rb"glpat-[A-Za-z0-9_\-]{20,}", 6, _varied, left_boundary=False),
    _tok(
        "Slack token",
        rb"xox[abprs]-[A-Za-z0-9]{1,40}-[A-Za-z0-9\-]{8,}",
        5,
        _mixed,
        left_boundary=False,
    ),
    _tok(
        "Slack webhook URL",
        rb"hooks\.slack\.com/services/T[A-Za-z0-9]{6,}/B[A-Za-z0-9]{6,}/[A-Za-z0-9]{16,}",
        26,
        _varied,
        left_boundary=False,
    ),
    _tok("AWS access key id", rb"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", 4, _varied),
    _tok("Google API key", rb"AIza[A-Za-z0-9_\-]{35}", 4, _mixed, left_boundary=False),
    _tok("Stripe live key", rb"[sr]k_live_[A-Za-z0-9]{24,}", 8, _mixed, left_boundary=False),
    _tok("npm token", rb"npm_[A-Za-z0-9]{36}", 4, _mixed, left_boundary=False),
    _tok(
        "PyPI token", rb"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}", 20, _varied, left_boundary=False
    ),
)

_NL = rb"(?:\r?\n|\\r\\n|\\n)"  # a real line break, or one escaped inside a JSON string
_PEM_RX = lazy(
    rb"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
    rb"(?:" + _NL + rb"|[ \t]+)"
    rb"(?:[A-Za-z][A-Za-z0-9\-]*:[^\r\n\\]*" + _NL + rb"){0,8}"
    rb"(?:" + _NL + rb")?"
    rb"[A-Za-z0-9+/=]{32}"
)
# A complete block is a key whatever its body's length (a short key, a cut one): header,
# base64 lines, the matching END line. Each repetition starts with a separator, so a long
# run of base64 without an END cannot make the regex backtrack.
_B64_RUN = rb"[A-Za-z0-9+/=]+"
_PEM_BLOCK_RX = lazy(
    rb"-----BEGIN (?P<label>(?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?)-----"
    rb"(?:" + _NL + rb"|[ \t]+)"
    rb"(?:[A-Za-z][A-Za-z0-9\-]*:[^\r\n\\]*" + _NL + rb"){0,8}"
    rb"(?:"
    + _NL
    + rb")?"
    + _B64_RUN
    + rb"(?:(?:"
    + _NL
    + rb"|[ \t]+)"
    + _B64_RUN
    + rb")*(?:"
    + _NL
    + rb"|[ \t]+)?"
    rb"-----END (?P=label)-----"
)
# PuTTY's own key file (.ppk, versions 1-3): the header lines, then key material
_PPK_RX = lazy(
    rb"PuTTY-User-Key-File-[1-9]: [!-~]{1,64}"
    + _NL
    + rb"Encryption: [!-~]{1,32}"
    + _NL
    + rb"Comment: [^\r\n]{0,256}"
    + _NL
    + rb"Public-Lines: [0-9]{1,4}"
    + _NL
    + rb"[A-Za-z0-9+/=]{32}"
)
_JWT_RX = lazy(rb"(eyJ[A-Za-z0-9_\-]{8,})\.([A-Za-z0-9_\-]{8,})\.[A-Za-z0-9_\-]{16,}")
_BEARER_RX = lazy(rb"[Bb]earer[ \t]+([A-Za-z0-9\-._~+/]{20,}=*)")
_AWS_SECRET_RX = lazy(
    rb"(?i:secret_access_key)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)
_SCHEME_RX = lazy(rb"[A-Za-z][A-Za-z0-9+.\-]{0,30}\Z")
_USERINFO_RX = lazy(
    rb"://([^\s/?#@:'\"<>\\]{1,128}):([^\s/?#@'\"<>\\]{1,256})@([A-Za-z0-9\-._~%]+|\[[0-9A-Fa-f:.]+\])"
)
_ASSIGN_RX = lazy(
    rb"(?i:password|passwd|passphrase|secret_key|secretkey|secret_access_key|secret|token"
    rb"|api_key|apikey|api-key)"
    rb"[\"']?[ \t]{0,4}(?:=>|:|=)(?![=>:])[ \t]{0,4}"
    rb"(?:[bBrRuUfF]{0,2}(?P<q>[\"'`]))?"
    rb"(?P<v>[^\s\"'`<>,;(){}\[\]&|\\]{1,200})"
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
_CODE_REF_RX = lazy(rb"[A-Za-z_]+|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_CONSTANT_RX = lazy(rb"[A-Z][A-Z0-9_]*")  # CARD32, GITHUB_TOKEN: a type or a variable
_SLUG_RX = lazy(rb"[a-z]+(?:[-_./:][a-z]+)+")
# what is said right before the keyword when the value is no secret: a page token, a
# publicKeyToken, a sync cursor
_NOT_SECRET_BEFORE_RX = lazy(
    rb"(?i:page|public|publickey|public[_ \-]key|continuation|pagination|cursor|sync|next)"
    rb"[ _\-]?\Z"
)
_VALUE_FORBIDDEN = lazy(rb"[\s\"'`<>,;(){}\[\]&|\\]")
_PLACEHOLDER_USERS = frozenset(b"anonymous ftp user username login name".split())
_EXAMPLE_HOST_RX = lazy(rb"(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid)$", re.I)


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
        if not w.startswith(rule.lead, at):
            continue
        m = rule.rx.match(w, at)
        if not m or not (left_ok or not rule.left_boundary):
            continue
        if rule.check is None or rule.check(m.group()[rule.prefix :]):
            return rule.kind, at
    if w.startswith(b"-----BEGIN ", at) and (
        _PEM_RX.match(w, at) is not None or _PEM_BLOCK_RX.match(w, at) is not None
    ):
        return "private key block", at
    if w.startswith(b"PuTTY", at) and _PPK_RX.match(w, at) is not None:
        return "PuTTY private key", at
    if (
        left_ok
        and w.startswith(b"eyJ", at)
        and (m := _JWT_RX.match(w, at)) is not None
        and _jwt_ok(m.group(1), m.group(2))
    ):
        return "JWT", at
    first = w[at : at + 1].lower()  # the patterns below are not compiled until they can match
    if first == b"b" and (m := _BEARER_RX.match(w, at)) is not None:
        tok = m.group(1)
        if not tok.startswith(b"eyJ") and _mixed(tok) and left_ok:
            return "bearer token", at
    if first == b"s" and (m := _AWS_SECRET_RX.match(w, at)) is not None and _mixed(m.group(1)):
        return "AWS secret access key", at
    if w.startswith(b"://", at):
        return _url_password(w, at)
    if first and first in b"psta" and (m := _ASSIGN_RX.match(w, at)) is not None:
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
