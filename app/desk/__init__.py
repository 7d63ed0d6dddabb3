"""The desk: one service object over the store that the CLI, the GUI and A2A all use.

    desk = Desk.open()                       # home, machine and actor from env/settings
    desk = Desk(home, machine="laptop-ana")  # or explicitly (tests, the A2A endpoint)
    unsubscribe = desk.subscribe(lambda passport_id, event: ...)

Every method that changes a passport commits one transaction (one or more new
versions, each with a history entry) and then calls the subscribers with
``(passport_id, event)`` for each change, in the caller's thread, after the commit —
so a subscriber always reads what it is told about. Events: ``created``, ``fact``,
``decision``, ``next_step``, ``checkpoint``, ``ask``, ``check``, ``answer``,
``luggage``, ``packed``, ``landed``, ``merged``, ``restored``, ``checked``, ``moved``,
``result``.
A GUI must hop to its own thread inside the callback; a failing subscriber is logged
and never breaks the change.

Errors are `taskpack.core.errors` classes (its docstring draws them all): NotFound,
VersionConflict, InvalidMove (``invalid_state``), RestoreRefused, MergeRefused, Refused
(the one pack writer), LandingRefused (a secret in an incoming pack), PackError.
"""

from taskpack.app.desk.first_contact import PastedPack
from taskpack.app.desk.service import (
    ChangeReport,
    Desk,
    MoveOption,
    harness_name,
    load_json_file,
)
from taskpack.core.desk.answer_source import AnswerSources, answer_sources
from taskpack.core.desk.authoring import is_checked_here
from taskpack.core.desk.compose import HandoffPreview
from taskpack.core.desk.export import PackOutcome
from taskpack.core.desk.landing import LandingOutcome, MergeOutcome
from taskpack.core.desk.review import LandingReview
from taskpack.core.desk.store import (
    HistoryEntry,
    PackWritten,
    PassportSummary,
    StoredLuggage,
    utc_now,
)
from taskpack.core.format.model import LocalPassport

# what the window needs of the store's records, so `ui/` talks to the desk alone
__all__ = [
    "AnswerSources",
    "ChangeReport",
    "Desk",
    "HandoffPreview",
    "HistoryEntry",
    "LandingOutcome",
    "LandingReview",
    "LocalPassport",
    "MergeOutcome",
    "MoveOption",
    "PackOutcome",
    "PackWritten",
    "PassportSummary",
    "PastedPack",
    "StoredLuggage",
    "answer_sources",
    "harness_name",
    "is_checked_here",
    "load_json_file",
    "utc_now",
]
