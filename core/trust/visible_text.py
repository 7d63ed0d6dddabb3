"""Making a sender's text visible: nothing in it may act on the screen that shows it.

A string from a pack reaches terminals, window labels, dialogs and tray notifications.
Control characters (C0, DEL, C1 — ESC sequences clear screens and set titles; U+009B is
a one-byte CSI), bidirectional overrides and isolates (``report\\u202etxt.exe`` reads as
``reportexe.txt``), zero-width characters, the Unicode line and paragraph separators,
variation selectors, tag characters and the other invisible format characters are shown
as ``\\uXXXX`` (``\\UXXXXXXXX`` beyond the BMP) so a person sees that they are there
— and a model reads an escape, not hidden ASCII. Everything else, accents
and CJK included, is left alone.

This is the one definition; the CLI, the window and the agents' server all use it.
"""

from __future__ import annotations

import re
import unicodedata

from ..format.lazy_regex import lazy

# C0 except \t \n, DEL, C1; the bidi marks, embeddings, overrides and isolates; zero-width
# space/joiners, word joiner, invisible operators, BOM; line/paragraph separators; the
# Mongolian vowel separator; interlinear annotation marks; lone surrogates (valid in JSON
# as "\udbff", but no terminal or UTF-8 stream can carry them: printing one raises).
# And what a person cannot see but a model reads: the soft hyphen, the combining grapheme
# joiner, Hangul fillers, variation selectors (U+FE00-FE0F, U+E0100-E01EF, the Mongolian
# ones), the invisible format controls of Egyptian, shorthand and musical notation, and
# the tag characters U+E0000-E007F (each one an ASCII letter no screen shows: hidden text)
_HIDDEN = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u115f\u1160\u3164\uffa0"
    "\u061c\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufe00-\ufe0f\ufeff\ufff9-\ufffb"
    "\ud800-\udfff"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
#: the characters `visible` escapes besides tab and newline, as a regex character class body
HIDDEN_CHARS = _HIDDEN
_ONE_LINE = lazy(f"[\t\n{_HIDDEN}]")
_MULTI_LINE = lazy(f"[{_HIDDEN}]")
#: the same for ASCII text (most of it), whose hidden characters are C0 and DEL: a class
#: this narrow compiles in a fraction of the time the whole one takes on every start
_ASCII_HIDDEN = "\x00-\x08\x0b-\x1f\x7f"
_ASCII_ONE_LINE = re.compile(f"[\t\n{_ASCII_HIDDEN}]")
_ASCII_MULTI_LINE = re.compile(f"[{_ASCII_HIDDEN}]")


def _show(m: re.Match[str]) -> str:
    ch = m.group()
    if ch == "\n":
        return " ⏎ "
    if ch == "\t":
        return " "
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(value: object, *, multiline: bool = False) -> str:
    """`value` as text a screen shows as it is: hidden and control characters escaped.

    One line by default (a newline becomes `` ⏎ ``, a tab a space); with `multiline`
    newlines and tabs are kept and only the other characters are escaped. ``\\r\\n`` counts
    as one newline.
    """
    text = "" if value is None else str(value)
    text = text.replace("\r\n", "\n")
    if text.isascii():
        return (_ASCII_MULTI_LINE if multiline else _ASCII_ONE_LINE).sub(_show, text)
    return (_MULTI_LINE if multiline else _ONE_LINE).sub(_show, text)


def has_hidden(value: str) -> bool:
    """True when `value` holds a character `visible` would escape (besides \\t and \\n)."""
    return (_ASCII_MULTI_LINE if value.isascii() else _MULTI_LINE).search(value) is not None


# --- a sender's name as a file name on this machine -----------------------------------

_NAME_HIDDEN = re.compile(f"[{_HIDDEN}]")
#: what Windows cannot store in a name (and the separators of every platform)
_NAME_ILLEGAL = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_WINDOWS_DEVICES = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$", "clock$"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in [*"123456789", "¹", "²", "³"]]
)
#: bytes a name may take: 255 is the limit of ext4, APFS and NTFS (in UTF-16 units there)
_NAME_BYTES = 255
_EXTENSION = 32  # at most this much of a name's end is kept whole as its extension
FALLBACK_FILE_NAME = "attached-file"


def safe_file_name(name: object, *, fallback: str = FALLBACK_FILE_NAME) -> str:
    """A sender's file name as a name to propose when saving on any platform.

    The last path segment only; compatibility forms folded (a one-dot leader is a dot);
    invisible and control characters — bidi overrides that show ``report\\u202efdp.exe``
    as ``reportexe.pdf``, zero-width spaces, tag characters — removed, so the real
    extension is the one seen at the end; runs of spaces squeezed (a name cannot push its
    extension out of sight); what Windows cannot store replaced by ``_``; a leading dot
    (a hidden file) shown as ``_.``; no trailing dot or space (Windows drops them); a reserved device
    name (``CON``, ``nul.txt``) prefixed with ``_``; cut to 255 bytes keeping the
    extension. Empty or nothing left: `fallback`. Applying it twice changes nothing.
    """
    text = "" if name is None else str(name)
    text = text.replace("\\", "/").rsplit("/", 1)[-1]
    text = unicodedata.normalize("NFKC", _NAME_HIDDEN.sub("", text))
    text = " ".join(_NAME_HIDDEN.sub("", text).split())  # (again: what folding made)
    text = _NAME_ILLEGAL.sub("_", text).rstrip(". ")
    if text.startswith("."):
        text = "_" + text
    stem, dot, ext = text.rpartition(".")
    if not dot or not stem or len(ext) > _EXTENSION or " " in ext:
        stem, ext = text, ""
    if stem.split(".", 1)[0].rstrip(" ").casefold() in _WINDOWS_DEVICES:
        stem = "_" + stem
    tail = "." + ext if ext else ""
    room = _NAME_BYTES - len(tail.encode("utf-8"))
    if len(stem.encode("utf-8")) > room:
        stem = stem.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip(". ")
    return stem + tail if stem else fallback
