"""The composer's moves on a passport made here: change or remove one item (the version
the person read is required, as the CLI's ``--expected-version``), take a file off the
luggage, and preview a handoff before it is written (`core.desk.compose`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from taskpack.core.desk import compose
from taskpack.core.desk.compose import HandoffPreview
from taskpack.core.errors import Finding, NotFound
from taskpack.core.format.model import JSON, LocalPassport
from taskpack.core.progress import CancelCheck, Progress
from taskpack.core.trust.ask_lint import lint_accept

if TYPE_CHECKING:
    from taskpack.core.desk.store import Store, StoredLuggage


class Composing:
    """The composer's moves (mixed into `Desk`)."""

    store: Store
    machine: str
    actor: str
    harness: str

    if TYPE_CHECKING:  # (the Desk's own)

        def _notify(self, changes: Iterable[tuple[str, str]]) -> None: ...
        def _edit(
            self,
            passport_id: str,
            event: str,
            change: Callable[[LocalPassport], dict[str, JSON] | None],
            *,
            expected_version: int | None = None,
        ) -> LocalPassport: ...

    @staticmethod
    def accept_warnings(accept: str, what: str = "") -> list[str]:
        """The ask lint on an answer rule as it is typed ([] when it can be judged)."""
        return lint_accept(accept, what)

    def revise(
        self,
        passport_id: str,
        kind: str,
        number: int,
        fields: Mapping[str, JSON] | None,
        *,
        expected_version: int,
    ) -> LocalPassport:
        """Change item `number` (1-based) of `kind` (fact, decision, step, ask, check) to
        `fields`, or remove it (None). A passport changed since `expected_version` is
        refused with VersionConflict: the person reloads and nothing they typed is lost."""
        return self._edit(
            passport_id,
            "revised",
            lambda lp: compose.revise_item(
                lp, kind, number, fields, actor=self.actor, machine=self.machine
            ),
            expected_version=expected_version,
        )

    def remove_luggage(self, passport_id: str, name: str) -> list[StoredLuggage]:
        """Take `name` off the passport's luggage; NotFound when it has no such file."""
        with self.store.write() as tx:
            tx.get(passport_id)
            if not tx.remove_luggage(passport_id, name):
                raise NotFound(f"passport {passport_id} has no attached file named {name!r}")
            tx.log(passport_id, "luggage", {"removed": [name]})
            events = list(tx.events)
        self._notify(events)
        return self.store.luggage(passport_id)

    def preview_handoff(self, passport_id: str, *, note: str | None = None) -> HandoffPreview:
        """The handoff as its receiver would read it, sealed as the writer seals it, and
        what would refuse it; nothing is written and no luggage byte is read."""
        return compose.preview_handoff(
            self.store,
            passport_id,
            machine=self.machine,
            actor=self.actor,
            harness=self.harness,
            note=note,
        )

    def scan_luggage(
        self,
        passport_id: str,
        *,
        progress: Progress | None = None,
        cancel: CancelCheck | None = None,
    ) -> list[Finding]:
        """Credentials or transcripts in the attached files, each byte read once."""
        return compose.scan_stored_luggage(
            self.store, passport_id, progress=progress, cancel=cancel
        )
