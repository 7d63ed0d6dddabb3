"""How a pack comes in, as the desk's front ends ask for it: the review every front end
shows before anything is stored, and the one landing path (`core.desk.landing`) — a
handoff lands as a new passport, a receipt merges into the passport that asked."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal, overload

from taskpack.core.desk import landing, review
from taskpack.core.desk.landing import LandingOutcome, MergeOutcome
from taskpack.core.desk.review import LandingReview
from taskpack.core.format.model import PackObject
from taskpack.core.format.read_once import read_once
from taskpack.core.format.reading import OpenedPack, PackSource
from taskpack.core.progress import CancelCheck, Progress
from taskpack.core.trust import repairs

if TYPE_CHECKING:
    from taskpack.app.settings import Settings
    from taskpack.core.desk.store import Claim, Store


class Landing:
    """Reviewing and landing packs (mixed into `Desk`)."""

    store: Store
    machine: str
    settings: Settings
    repair: review.Repair | None

    if TYPE_CHECKING:  # (the Desk's own)

        def _notify(self, changes: Iterable[tuple[str, str]]) -> None: ...

    def review(
        self,
        path: PackSource,
        *,
        into: str | None = None,
        name: str | None = None,
        stage: bool = False,
        judge_up_to: int | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> LandingReview:
        """What accepting `path` would do; lands nothing, runs nothing. THE review every
        front end asks: the window shows it, `land --dry-run` prints it, and it answers the
        merge-target question — `receipt_target` is where a receipt would go, `refusal`
        why it (or, given `into`, a merge into that passport) would be refused.

        Reads every luggage byte once (digests checked, secrets scanned: `review.secrets`).
        Hold on to it and give it to :meth:`land` as `review=` to land from it without
        reading the luggage again — with `stage=True` (the window) not even to store it: each
        luggage file is staged in the blob folder as the review reads it, and landing from
        the review commits what was staged (parts of a review never landed are swept as
        stale by housekeeping). `path` may be a binary stream of the file (`name` is then
        how it is called). `judge_up_to`: a pack whose luggage is no larger is judged in
        the same pass (`review.conformance`: the report :meth:`judge` would give)."""
        return read_once(
            path,
            name,
            lambda opened: review.review(
                self.store,
                opened,
                machine=self.machine,
                allow=self.settings.gate_allow,
                into=into,
                repair=self.repair,
                stage=stage,
                judge_up_to=judge_up_to,
                progress=progress,
                cancel=cancel,
            ),
        )

    @overload
    def land(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        into: None = None,
        expect: Literal["handoff"] = "handoff",
        review: LandingReview | None = None,
        admit: Callable[[LandingReview], None] | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        claim: Claim | None = None,
    ) -> LandingOutcome: ...

    @overload
    def land(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        into: str | None = None,
        expect: Literal["receipt"],
        review: LandingReview | None = None,
        admit: Callable[[LandingReview], None] | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        claim: Claim | None = None,
    ) -> MergeOutcome: ...

    @overload
    def land(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        into: str | None = None,
        expect: None,
        review: LandingReview | None = None,
        admit: Callable[[LandingReview], None] | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        claim: Claim | None = None,
    ) -> LandingOutcome | MergeOutcome: ...

    def land(
        self,
        path: PackSource,
        *,
        name: str | None = None,
        into: str | None = None,
        expect: Literal["handoff", "receipt"] | None = "handoff",
        review: LandingReview | None = None,
        admit: Callable[[LandingReview], None] | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
        claim: Claim | None = None,
    ) -> LandingOutcome | MergeOutcome:
        """THE way a pack comes in (window, CLI, watcher, A2A): a handoff lands as a new
        passport, a receipt merges into the passport it answers (`into`, when given, must
        be that one). `expect` says which kind the caller wants: "handoff" (the default:
        a receipt is refused with the way to merge it), "receipt", or None for either.

        `review` is one this desk made of the same file (:meth:`review`): it is trusted
        only while the file's content digest still matches, else the file is re-read.
        A pack carrying a credential or a chat transcript is refused (LandingRefused)
        before anything is stored. `progress(done, total)` follows the luggage bytes;
        `cancel()` → Cancelled, nothing lands. `path` may be a binary stream of the file
        (received bytes need not be written to disk first); `name` is how the history
        calls it. `admit(review)` is the caller's own admission rule, run before the
        target rule and before any luggage is read (A2A: may this sender answer that task).
        `claim` is the caller's idempotency key, taken in the landing's own transaction
        (A2A: principal and messageId); claimed for other content → ClaimTaken.
        """
        outcome = read_once(
            path,
            name,
            lambda opened: landing.land(
                self.store,
                opened,
                machine=self.machine,
                allow=self.settings.gate_allow,
                into=into,
                expect=expect,
                held=review,
                repair=self.repair,
                admit=admit,
                progress=progress,
                cancel=cancel,
                claim=claim,
            ),
            defer_model=review is not None,
        )
        self._notify(outcome.changes)
        return outcome

    def merge_receipt(
        self,
        path: PackSource,
        into: str,
        *,
        name: str | None = None,
        review: LandingReview | None = None,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> MergeOutcome:
        """:meth:`land` for a receipt, into the passport that asked (spec §4.4.1)."""
        return self.land(
            path,
            name=name,
            into=into,
            expect="receipt",
            review=review,
            progress=progress,
            cancel=cancel,
        )

    def _repair(self, opened: OpenedPack, pack: PackObject) -> list[str]:
        """`core.repair` at this desk's clock: what a hand or an AI got wrong, put right."""
        return repairs.repair_on_landing(opened, pack, now=self.store.clock)
