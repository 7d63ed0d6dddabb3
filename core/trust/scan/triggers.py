"""Triggers: the short fixed-length byte patterns every shape must contain.

Both engines are built from this one table (``_TRIGGERS``), so they report the same
positions; the verifiers then decide what a position really is.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    b"PuTTY-User-Key-File-",
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


#: not a secret: where a ZIP local header starts, so a zip that does not start at byte 0
#: (a self-extractor stub, a byte in front) is still looked into. The engines report its
#: positions apart from the others.
ZIP_TRIGGER = b"PK\x03\x04"
_TRIGGERS = (*_build_triggers(), _atoms(ZIP_TRIGGER))
ZIP_ID = len(_TRIGGERS) - 1
_TRIGGER_LENGTHS = tuple(len(t) for t in _TRIGGERS)
_TMAX = max(_TRIGGER_LENGTHS)
