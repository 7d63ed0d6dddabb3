"""The rules every :class:`~.store.Store` implementation keeps, written once: what a
missing passport or blob is called, how a save checks and stamps the version, how a
stored passport's JSON becomes the record, and the blob half of a store handed to the
store's own :class:`~.store.BlobStore`. The
embedded desk (:mod:`.sqlite_store`, :mod:`.sqlite_tx`) and the team desk
(``taskpack.app.team``) both use them, so the two cannot say or decide it differently.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from ..errors import FormatError, IntegrityError, NotFound, StoreError, VersionConflict
from ..format.model import JSON, LocalPassport
from ..format.record_pages import PAGED_OVER, AskPages
from .store import BlobStore, Readable, StagedBlob


def no_passport(passport_id: str) -> NotFound:
    """The error for a passport id this desk does not hold."""
    return NotFound(
        f"no passport {passport_id} in this desk",
        code="no_passport",
        params={"id": passport_id},
    )


def no_version(passport_id: str, version: int) -> NotFound:
    return NotFound(
        f"no version {version} of passport {passport_id} in this desk",
        code="no_version",
        params={"id": passport_id, "version": version},
    )


def no_blob_for(name: str) -> IntegrityError:
    """Luggage named before its bytes were stored (the blob comes first)."""
    return IntegrityError(f"luggage {name!r} has no stored blob; store the bytes first")


def no_outbox_entry(seq: int) -> NotFound:
    return NotFound(
        f"the outbox has no entry {seq}", hint="See the numbers with `taskpack outbox`."
    )


def passport_of(text: str, *, pages: bool, passport_id: str = "") -> LocalPassport:
    """A stored passport's JSON as the record. `pages=True` (to show it, not to change
    it): more than a few hundred asks come back as read-only pages (`AskPages`), never a
    model each. A record that no longer reads (damaged in the database) is a StoreError
    naming the passport: one sentence, and `taskpack doctor` to find the rest."""
    try:
        data = json.loads(text)
        asks = data.get("asks") if pages and isinstance(data, dict) else None
        if not isinstance(asks, list) or len(asks) <= PAGED_OVER:
            return LocalPassport.from_data(data)
        data["asks"] = []
        lp = LocalPassport.from_data(data)
        lp.asks = AskPages.of_data(asks)  # type: ignore[assignment]
        return lp
    except (ValueError, TypeError, RecursionError, FormatError) as exc:
        raise damaged_record(passport_id, exc) from None


def damaged_record(passport_id: str, exc: BaseException) -> StoreError:
    why = exc.message if isinstance(exc, FormatError) else type(exc).__name__
    return StoreError(
        f"the stored record of passport {passport_id or '(unnamed)'} is damaged and cannot "
        f"be read ({why})",
        hint="Run `taskpack doctor` to see what else is damaged; restore a backup to bring it back.",
        code="damaged_record",
        params={"id": passport_id},
    )


def origin_in(row: tuple[object, ...] | None, passport_id: str) -> dict[str, JSON]:
    """The `origin` a store's JSON query read out of a stored passport (``row[0]``, its
    text): {} when the passport was made here or its pack named none."""
    if row is None:
        raise no_passport(passport_id)
    value = json.loads(row[0]) if isinstance(row[0], str) else None
    return value if isinstance(value, dict) else {}


def landed_origin(lp: LocalPassport) -> dict[str, JSON]:
    """The same, from the whole record (when the database cannot read the JSON itself)."""
    origin = lp.received.origin if lp.received else None
    return origin.to_data() if origin else {}


def next_version(lp: LocalPassport, current: int, *, expected_version: int | None, now: str) -> int:
    """Check that `lp` may be saved over the stored `current` version, then stamp it as
    the next one (its version and `updated_at`); returns that version. A writer that read
    `expected_version` and an edit begun on an older copy both fail with VersionConflict
    ("read it again"), before anything is written."""
    pid = lp.id
    if expected_version is not None and expected_version != current:
        raise VersionConflict(
            f"passport {pid} is at version {current}, not {expected_version}",
            params={"id": pid, "current": current},
        )
    if lp.version != current:
        raise VersionConflict(
            f"passport {pid} changed to version {current} while version {lp.version} was being edited",
            params={"id": pid, "current": current},
        )
    new = current + 1
    lp.passport.version = new
    lp.passport.updated_at = now
    return new


class HeldBlobs:
    """The blob half of a Store, handed to the BlobStore in ``self.blobs`` (a folder on
    the embedded desk, chunk rows on the team desk)."""

    blobs: BlobStore

    def has_blob(self, sha256: str) -> bool:
        return self.blobs.has_blob(sha256)

    def put_blob(
        self, stream: Readable, *, expected_sha256: str | None = None, size_hint: int | None = None
    ) -> tuple[str, int]:
        return self.blobs.put_blob(stream, expected_sha256=expected_sha256, size_hint=size_hint)

    def put_blob_bytes(self, data: bytes) -> tuple[str, int]:
        return self.blobs.put_blob_bytes(data)

    def stage_blob(
        self,
        stream: Readable,
        *,
        expected_sha256: str | None = None,
        size_hint: int | None = None,
        on_chunk: Callable[[bytes], None] | None = None,
    ) -> StagedBlob:
        return self.blobs.stage_blob(
            stream, expected_sha256=expected_sha256, size_hint=size_hint, on_chunk=on_chunk
        )

    def commit_blob(self, staged: StagedBlob) -> None:
        self.blobs.commit_blob(staged)

    def commit_blobs(self, staged: Sequence[StagedBlob]) -> None:
        many = getattr(self.blobs, "commit_blobs", None)
        if many is not None:  # a database store: one transaction, not one per file
            many(staged)
            return
        for one in staged:
            self.blobs.commit_blob(one)

    def discard_blob(self, staged: StagedBlob) -> None:
        self.blobs.discard_blob(staged)

    def open_blob(
        self, sha256: str, *, name: str | None = None, size: int | None = None
    ) -> BinaryIO:
        return self.blobs.open_blob(sha256, name=name, size=size)

    def blob_path(self, sha256: str) -> Path:
        return self.blobs.blob_path(sha256)
