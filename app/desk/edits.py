"""The desk's authoring and lifecycle moves: each one transaction over the rules in
`core.desk.authoring` (what a change is), then the subscribers are told (see `Desk`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.core.desk import authoring, lifecycle, restore
from taskpack.core.desk.identity import sender_label
from taskpack.core.format import ids
from taskpack.core.format.luggage import luggage_from_paths
from taskpack.core.format.model import JSON, LocalPassport

if TYPE_CHECKING:
    from taskpack.app.drafts import Drafts
    from taskpack.core.desk.store import Store, StoredLuggage


class Edits:
    """The moves that change a passport (mixed into `Desk`)."""

    store: Store
    machine: str
    actor: str
    harness: str
    drafts: Drafts

    if TYPE_CHECKING:  # (the Desk's own)

        def _notify(self, changes: Iterable[tuple[str, str]]) -> None: ...
        def _draft_done(self, passport_id: str, ask_id: str) -> None: ...
        def get(self, passport_id: str, *, pages: bool = False) -> LocalPassport: ...

    def _edit(
        self,
        passport_id: str,
        event: str,
        change: Callable[[LocalPassport], dict[str, JSON] | None],
        *,
        expected_version: int | None = None,
    ) -> LocalPassport:
        with self.store.write() as tx:
            lp = tx.get(passport_id)
            detail = change(lp)
            tx.save(lp, event=event, detail=detail, expected_version=expected_version)
            events = list(tx.events)
        self._notify(events)
        return lp

    def _stamp(self) -> tuple[str, str]:
        """Who answers, and when (an answer is stamped with both)."""
        return sender_label(self.actor, self.machine), self.store.clock()

    # -- authoring ---------------------------------------------------------------------

    def new(self, title: str, goal: str, *, current_state: str | None = None) -> LocalPassport:
        """A passport made here. It starts `working`: it is the owner's own work, already
        taken on — there is no gate to pass and nobody to accept it from."""
        lp = authoring.made_here(
            title, goal, machine=self.machine, harness=self.harness, current_state=current_state
        )
        with self.store.write() as tx:
            pid = ids.new_id()
            while tx.exists(pid):  # pragma: no cover - one in 8.5e11
                pid = ids.new_id()
            lp.passport.id = pid
            tx.insert(lp, event="created", detail={"title": lp.passport.title})
            events = list(tx.events)
        self._notify(events)
        return lp

    def add_fact(
        self,
        passport_id: str,
        claim: str,
        *,
        scope: str = "machine",
        verified: bool = False,
        source: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Record a fact. A fact with no scope is machine-scoped (§4.2): say `universal` or
        `org` only when someone else could check it without this machine."""
        fact = authoring.new_fact(
            claim, scope=scope, verified=verified, source=source, actor=self.actor
        )
        if verified and fact.effective_scope == "machine":  # which machine proved it:
            fact.verified_on = self.machine  # no other machine of this desk reads it as its own
        return self._edit(
            passport_id,
            "fact",
            lambda lp: authoring.add_fact(lp, fact),
            expected_version=expected_version,
        )

    def decide(
        self, passport_id: str, what: str, why: str, *, expected_version: int | None = None
    ) -> LocalPassport:
        authoring.check_decision(what)
        return self._edit(
            passport_id,
            "decision",
            lambda lp: authoring.add_decision(lp, what, why),
            expected_version=expected_version,
        )

    def add_next(
        self, passport_id: str, step: str, *, expected_version: int | None = None
    ) -> LocalPassport:
        authoring.check_step(step)
        return self._edit(
            passport_id,
            "next_step",
            lambda lp: authoring.add_next_step(lp, step),
            expected_version=expected_version,
        )

    def checkpoint(
        self, passport_id: str, state: dict[str, JSON], *, expected_version: int
    ) -> LocalPassport:
        """Replace the task state with what an agent saved (its keys replace ours).

        `state` is a passport state object, or a whole passport as `taskpack open --json`
        prints it (then its ``passport`` is used). `id`, `version`, `created_at` and
        `updated_at` belong to the store and are ignored — except that a different `id`
        is refused. `expected_version` is required: a checkpoint from an agent that read
        an older version would silently undo someone else's change.
        """
        given, state = authoring.checkpoint_state(passport_id, state)
        # a new ✓ names the machine that saved it (as add_fact's does)
        return self._edit(
            passport_id,
            "checkpoint",
            lambda lp: authoring.apply_checkpoint(lp, given, state, proving_machine=self.machine),
            expected_version=expected_version,
        )

    def add_ask(
        self,
        passport_id: str,
        what: str,
        accept: str,
        *,
        why: str | None = None,
        to: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """A question for whoever receives the next handoff. `accept` says what would count
        as an answer; without it the reply could only be negotiated, so it is required."""
        authoring.check_ask(what, accept)
        return self._edit(
            passport_id,
            "ask",
            lambda lp: authoring.add_ask(lp, what, accept, why=why, to=to),
            expected_version=expected_version,
        )

    def add_check(
        self,
        passport_id: str,
        check: str,
        *,
        how: str | None = None,
        required: bool = True,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """A landing check for the receiver of the next pack (spec §4.4)."""
        authoring.check_landing_check(check)
        return self._edit(
            passport_id,
            "check",
            lambda lp: authoring.add_check(lp, check, how=how, required=required),
            expected_version=expected_version,
        )

    def answer(
        self,
        passport_id: str,
        ask_id: str,
        answer: str,
        *,
        status: str = "answered",
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Answer an ask (or drop it with ``status="dropped"``); goes home in a receipt."""
        authoring.check_answer(answer, status)

        def change(lp: LocalPassport) -> dict[str, JSON]:
            by, at = self._stamp()
            return authoring.answer(lp, ask_id, answer, status=status, by=by, at=at)

        lp = self._edit(passport_id, "answer", change, expected_version=expected_version)
        self._draft_done(passport_id, ask_id)  # saved: the draft has done its job
        return lp

    def answer_all(self, passport_id: str, answers: dict[str, str]) -> LocalPassport:
        """Save several answers in one transaction (the window's "Save all", and the
        answers on screen when a receipt is exported). Empty answers are skipped."""
        answers = {k: v for k, v in answers.items() if v.strip()}

        def change(lp: LocalPassport) -> dict[str, JSON]:
            by, at = self._stamp()
            return authoring.answer_all(lp, answers, by=by, at=at)

        lp = self.get(passport_id) if not answers else self._edit(passport_id, "answer", change)
        for ask_id in answers:
            self._draft_done(passport_id, ask_id)
        return lp

    def attach(
        self, passport_id: str, files: Sequence[Path | str], *, skipped: list[str] | None = None
    ) -> list[StoredLuggage]:
        """Keep files as the passport's luggage (they travel with every later pack).

        Symlinks and special files inside a folder are left out; each is added to `skipped`."""
        sources = luggage_from_paths(files, skipped=skipped)
        self.store.get(passport_id)
        stored = []
        for src in sources:
            with src.open() as f:
                sha, size = self.store.put_blob(f)
            stored.append((src.name, sha, size))
        with self.store.write() as tx:
            for name, sha, size in stored:
                tx.add_luggage(passport_id, name, sha, size)
            tx.log(passport_id, "luggage", {"added": [n for n, _, _ in stored]})
            events = list(tx.events)
        self._notify(events)
        return self.store.luggage(passport_id)

    # -- evidence checked here, and the ✓ a sealed fact may get back --------------------

    def can_restore(
        self, passport_id: str, fact_no: int, *, passport: LocalPassport | None = None
    ) -> tuple[bool, str]:
        """May this sealed fact get its ✓ back here? `passport`: the passport as just read
        with :meth:`get` (saves reading it again)."""
        return restore.restore_check(
            self.store, passport_id, fact_no, machine=self.machine, passport=passport
        )

    def can_restore_all(
        self, passport_id: str, *, passport: LocalPassport | None = None
    ) -> dict[int, tuple[bool, str]]:
        """:meth:`can_restore` for each sealed fact, by fact number (the packs read once)."""
        return restore.restore_checks(
            self.store, passport_id, machine=self.machine, passport=passport
        )

    def restore(self, passport_id: str, fact_no: int) -> LocalPassport:
        """Give fact `fact_no` (1-based) its ✓ back — call only on the person's explicit
        choice. Refused (RestoreRefused, with the reason) unless §4.2 allows it here."""
        lp, events = restore.restore_fact(self.store, passport_id, fact_no, machine=self.machine)
        self._notify(events)
        return lp

    def check_fact_here(self, passport_id: str, fact_no: int) -> LocalPassport:
        """The person checked fact `fact_no` (1-based) on this machine: call only on their
        explicit choice. Unlike :meth:`restore` this is new evidence, not the sender's word:
        the fact becomes machine-scoped, verified on this machine by this desk's person."""
        return self._edit(
            passport_id,
            "checked",
            lambda lp: authoring.check_fact_here(
                lp, fact_no, machine=self.machine, actor=self.actor
            ),
        )

    def check_landing_here(self, passport_id: str, check_id: str) -> LocalPassport:
        """The person did landing check `check_id` on this machine (their explicit choice):
        the check is marked done and a fact verified here records it."""
        return self._edit(
            passport_id,
            "checked",
            lambda lp: authoring.check_landing_here(
                lp, check_id, machine=self.machine, actor=self.actor, at=self.store.clock()
            ),
        )

    # -- lifecycle ---------------------------------------------------------------------

    def move(
        self,
        passport_id: str,
        state: str,
        waiting_on: str | None = None,
        *,
        why: str | None = None,
        expected_version: int | None = None,
        reason: str | None = None,
        by: str | None = None,
    ) -> LocalPassport:
        """Move the task; a move the table does not list raises InvalidMove, changing nothing.

        `why`: a person's own words for it; `reason` instead: a desk's reason code
        (`core.desk.history_words`), `by` who asked for it (the history says it in words).

        Beyond the table: a task reaches `verifying` only with a returned result (use
        :meth:`return_result`), and `completed` only with one attached.
        """
        return self._edit(
            passport_id,
            "moved",
            lambda lp: authoring.move(lp, state, waiting_on, why=why, reason=reason, by=by),
            expected_version=expected_version,
        )

    def take_on(self, passport_id: str) -> LocalPassport:
        """ "Take this on": the owner, who is also the one doing the work, moves the task to
        `working` — approving, accepting and starting it — in ONE transaction, each move
        checked against the table and kept in the history. InvalidMove when there is no
        such path from where the task is (it is working already, or past it)."""
        with self.store.write() as tx:
            lp = tx.get(passport_id)
            authoring.take_on(tx, lp)
            events = list(tx.events)
        self._notify(events)
        return lp

    def return_result(
        self,
        passport_id: str,
        summary: str,
        evidence: Sequence[dict[str, JSON]],
        *,
        provenance: str = "agent_generated",
        returned_by: str | None = None,
        expected_version: int | None = None,
    ) -> LocalPassport:
        """Attach a result and move working → verifying; its shape is checked first."""
        result = authoring.new_result(
            summary,
            evidence,
            provenance=provenance,
            returned_by=returned_by
            or f"{lifecycle.slug(self.actor)}/{lifecycle.slug(self.machine)}",
            at=self.store.clock(),
        )
        return self._edit(
            passport_id,
            "result",
            lambda lp: authoring.return_result(lp, result),
            expected_version=expected_version,
        )
