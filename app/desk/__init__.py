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
from taskpack.core.desk import history_words, lifecycle
from taskpack.core.desk.answer_source import AnswerSources, answer_sources
from taskpack.core.desk.authoring import TAKE_ON_WHY, is_checked_here, take_on_path
from taskpack.core.desk.chat_message import INLINE_LIMIT
from taskpack.core.desk.compose import HandoffPreview
from taskpack.core.desk.export import PackOutcome
from taskpack.core.desk.identity import display_name, origin_label, sender_label
from taskpack.core.desk.landing import LandingOutcome, MergeOutcome
from taskpack.core.desk.merge import claim_key
from taskpack.core.desk.review import LandingReview, check_line
from taskpack.core.desk.store import (
    HistoryEntry,
    PackWritten,
    PassportSummary,
    StoredLuggage,
    utc_now,
)
from taskpack.core.format import vocabulary
from taskpack.core.format.model import Ask, Fact, LandingCheck, LocalPassport
from taskpack.core.format.record_pages import AskPages, Numbered, compact, compact_facts, open_count
from taskpack.core.format.streams import CHUNK
from taskpack.core.trust.sealing import Standing, standing
from taskpack.core.trust.visible_text import HIDDEN_CHARS, has_hidden, safe_file_name, visible

# what the window needs of the store's records, so `ui/` talks to the desk alone
__all__ = [
    "CHUNK",
    "HIDDEN_CHARS",
    "INLINE_LIMIT",
    "TAKE_ON_WHY",
    "AnswerSources",
    "Ask",
    "AskPages",
    "ChangeReport",
    "Desk",
    "Fact",
    "HandoffPreview",
    "HistoryEntry",
    "LandingCheck",
    "LandingOutcome",
    "LandingReview",
    "LocalPassport",
    "MergeOutcome",
    "MoveOption",
    "Numbered",
    "PackOutcome",
    "PackWritten",
    "PassportSummary",
    "PastedPack",
    "Standing",
    "StoredLuggage",
    "answer_sources",
    "check_line",
    "claim_key",
    "compact",
    "compact_facts",
    "display_name",
    "harness_name",
    "has_hidden",
    "history_words",
    "is_checked_here",
    "lifecycle",
    "load_json_file",
    "open_count",
    "origin_label",
    "safe_file_name",
    "sender_label",
    "standing",
    "take_on_path",
    "utc_now",
    "visible",
    "vocabulary",
]
