"""First contact: a pack pasted as chat text (or a file holding one) comes in, and the
chat message that goes out with a pack (mixed into `Desk`)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.core.desk import chat_message
from taskpack.core.errors import Finding, LandingRefused, PackError
from taskpack.core.files import write_bytes_atomically
from taskpack.core.format import pack_in_text
from taskpack.core.format.reading import OpenedPack, open_pack
from taskpack.core.progress import CancelCheck, Progress
from taskpack.core.trust.refusals import LuggageScan, scan_value

if TYPE_CHECKING:
    from taskpack.app.settings import Settings
    from taskpack.core.desk.store import HistoryEntry
    from taskpack.core.format.model import LocalPassport


@dataclass
class PastedPack:
    """A pack read out of text (or a file that already was one), kept as a pack file."""

    path: Path
    #: what reading it out of the text put up with (empty for a pack file as written)
    notes: list[str]
    #: the kind it declares, when known without opening it again
    kind: str | None
    #: the line of the text where it starts
    line: int


class FirstContact:
    """Chat text in, chat text out (mixed into `Desk`)."""

    home: Path
    settings: Settings

    if TYPE_CHECKING:  # (the Desk's own)

        def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport: ...
        def get_version(self, passport_id: str, version: int) -> LocalPassport: ...
        def history(self, passport_id: str) -> list[HistoryEntry]: ...

    def inbox(self) -> Path:
        """Where packs read out of pasted or piped text are kept as files."""
        folder = self.home / "inbox"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def pack_from_text(
        self, text: str, *, progress: Progress | None = None, cancel: CancelCheck | None = None
    ) -> PastedPack:
        """Find the one pack in `text` (a chat or email reply) and keep it as a file.

        The file lands in :meth:`inbox` named by its content, so the same reply pasted
        twice is the same file (and lands once). Review, land or merge it like any other
        pack file; `notes` says what reading it out of the text put up with. Raises a
        one-line PackError when the text holds no pack or more than one; Cancelled when
        `cancel()` says so (nothing kept).
        """
        found = pack_in_text.find_pack_in_text(text, progress=progress, cancel=cancel)
        return self._keep(found)

    def pack_from_file(self, path: Path | str) -> PastedPack:
        """`path` itself when it already is a pack file; else the pack found in its text
        (`core.reply.find_pack_in_file`), kept in the inbox like a pasted reply."""
        found = pack_in_text.find_pack_in_file(path)
        if found is None:
            return PastedPack(path=Path(path), notes=[], kind=None, line=1)
        return self._keep(found)

    def _keep(self, found: pack_in_text.FoundPack) -> PastedPack:
        digest = hashlib.sha256(found.flat_bytes).hexdigest()
        out = self.inbox() / f"reply-{digest[:16]}.taskpack.json"
        if not (out.is_file() and out.read_bytes() == found.flat_bytes):
            write_bytes_atomically(out, found.flat_bytes)
        try:  # a pack this reader refuses (an unknown version, a bad attachment) is not kept,
            # nor one carrying a credential or a transcript (named, never shown; §4.1)
            with open_pack(out) as opened:
                secrets = _secrets_in(opened)
            if secrets:
                raise LandingRefused(secrets)
        except (PackError, LandingRefused):
            out.unlink(missing_ok=True)
            raise
        return PastedPack(path=out, notes=list(found.notes), kind=found.kind, line=found.line)

    def chat_message(self, path: Path | str, *, language: str | None = None) -> str:
        """The message for a chat or an email that goes with the pack at `path` (see
        `core.chat`): who asks what, what counts as an answer, the required checks, how to
        reply; the flat pack inline when it is small enough, else "attach the file"."""
        p = Path(path)
        with open_pack(p) as opened:
            pack, encoding = opened.pack, opened.encoding
        size = p.stat().st_size
        flat_text = None
        if encoding == "flat" and size <= chat_message.INLINE_LIMIT:
            flat_text = p.read_text(encoding="utf-8")
        lang = language or self.settings.language or os.environ.get("LANG")
        return chat_message.chat_message(
            pack,
            file_name=p.name,
            file_size=size,
            flat_text=flat_text,
            language=lang,
            passed_on=self._passed_on(pack.passport.id if pack.passport else None),
        )

    def _passed_on(self, passport_id: str | None) -> dict[str, str]:
        """The asks of this desk's passport `passport_id` that came in the pack it landed
        from, each with who sent that pack: another sender's words, never ours."""
        from taskpack.core.desk.identity import origin_label
        from taskpack.core.errors import TaskPackError

        try:
            lp = self.get(passport_id) if passport_id else None
        except TaskPackError:
            return {}
        if lp is None or lp.received is None:
            return {}
        landed = next((e.version for e in self.history(lp.id) if e.event == "landed"), None)
        if landed is None:
            return {}
        origin = lp.received.origin.to_data() if lp.received.origin else {}
        who = origin_label(origin) or "another sender"
        then = self.get_version(lp.id, landed)
        return {a.id: who for a in then.asks or [] if a.id}


def _secrets_in(opened: OpenedPack) -> list[Finding]:
    """Credentials and transcripts in a pasted pack: its object, then its attachments."""
    found = [f for f in scan_value(opened.data) if f.rule in ("credential", "transcript")]
    scan = LuggageScan()
    try:
        opened.stream_luggage(lambda item, chunk: scan.feed(item.name, chunk))
        found += scan.finish()
    finally:
        scan.close()
    return found
