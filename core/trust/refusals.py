"""What a pack must never carry (spec §4.1, §4.5): one pattern set for writer and judge.

Spec §6 says the conformance judge (C7, C8) must never be looser than the writer, so both
call this module and nothing else decides what a credential, a transcript or an
instruction field is. Findings name the *kind* and the *place*; the matched text never
leaves this module (and the ``scan`` package behind it).

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
  material*, or a complete block (base64 lines of any length, then the matching ``END``
  line); the header alone, or a body of ``...`` (as in documentation), is not a key. A
  PuTTY ``.ppk`` key is its header lines followed by key material.
* A transcript needs two turns of two different roles (user / assistant / system) within
  64 KiB of each other, each at the start of the value or of a line (``User:``,
  ``**User**:``, ``> User:``, ``Q:``/``A:``, ``用户：``…; an ASCII colon must be followed
  by a space or the end of the line). JSON messages count when ``"role": "user"`` sits in
  an object whose ``content``/``text``/``parts`` is a literal, or under ``"author": {``
  (ChatGPT export), or as ``"sender": "human"`` (Claude export). Code that builds one
  message around a variable is not a transcript.
* What luggage holds is looked into as it streams past (``scan/archives.py``): ZIP
  (stored, deflate, bzip2, LZMA members; data descriptors; a zip after a stub or a byte),
  gzip, bzip2, xz, ``.lzma``, zlib, tar, and UTF-16/32 text, up to 16 levels deep. One
  budget per *pack* (``LuggageScan``, shared by the writer and the judge): 256 MiB
  decoded plus 8 bytes per byte of luggage, 20,000 streams, 4 seconds. Past a bound we
  stop looking inside, which is not a finding. A damaged archive is simply scanned as the
  bytes it is (its own bytes are always scanned too).

Where it lives
--------------
This module is the public surface; the work is done in ``core/trust/scan/``: ``triggers``
(the trigger table), ``engines`` (hyperscan and the ``bytes.find`` fallback),
``verifiers`` (credential shapes), ``transcripts`` (turns and chat messages),
``scanner`` (positions to windows to raw results), ``archives`` (what luggage holds:
archives, compressed streams, wide text; and the pack's ``ScanBudget``), ``luggage``
(``StreamScanner``, ``LuggageScan``), ``fields`` (instruction and secret field names)
and ``values`` (the JSON-value walk and the asks).
"""

from __future__ import annotations

from .scan.archives import (
    MAX_ARCHIVE_DEPTH,
    MAX_ARCHIVE_MEMBERS,
    MAX_INFLATED_BYTES,
    ScanBudget,
)
from .scan.engines import SMALL, SMALL_SCAN_BYTES, available_engines
from .scan.engines import prepare as prepare_engine
from .scan.engines import prepare_for as prepare_engine_for
from .scan.fields import is_instruction_field
from .scan.stream import (
    DEFAULT_CHUNK_SIZE,
    LuggageScan,
    StreamScanner,
    scan_luggage_stream,
)
from .scan.values import (
    check_asks,
    credential_in,
    holds_credential,
    redact_value,
    scan_pack_object,
    scan_value,
    shown_text,
    withheld,
)


def engine_for(total_bytes: int) -> str | None:
    """The engine for a scan of about `total_bytes` (None: the fastest available)."""
    return SMALL if total_bytes <= SMALL_SCAN_BYTES else None


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MAX_ARCHIVE_DEPTH",
    "MAX_ARCHIVE_MEMBERS",
    "MAX_INFLATED_BYTES",
    "SMALL_SCAN_BYTES",
    "LuggageScan",
    "ScanBudget",
    "StreamScanner",
    "available_engines",
    "check_asks",
    "credential_in",
    "engine_for",
    "holds_credential",
    "is_instruction_field",
    "prepare_engine",
    "prepare_engine_for",
    "redact_value",
    "scan_luggage_stream",
    "scan_pack_object",
    "scan_value",
    "shown_text",
    "withheld",
]
