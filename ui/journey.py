"""The passport's journey, drawn as a small chain in the Overview: every desk it passed
through (its lineage, spec §3), who handed it here and when, this desk, and where it
went from here (the outbox). Each node is a label a person can select and a screen
reader names ("Hop 2 of 3: …").

What the format keeps of an earlier hop is its passport id and version only: those
nodes say so ("an earlier desk"); the sender is named from the pack's origin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget
from taskpack.app.desk import LocalPassport, PackWritten
from taskpack.ui import tones
from taskpack.ui.flow_layout import FlowLayout
from taskpack.ui.i18n import tr, trn
from taskpack.ui.pack_items import sender_text
from taskpack.ui.widgets import plain_tip
from taskpack.ui.words import local_time, number, one_line

#: the chain shows the first desk, then at most this many before this one ("…" between)
EARLIER_SHOWN = 3
#: and at most this many packs sent on from here (the newest)
SENT_SHOWN = 3


def _style() -> str:
    """The nodes' boxes, in the theme's colours (a light box under white text is not)."""
    return (
        f"#journey QLabel[node='true'] {{ border: 1px solid {tones.edge()}; border-radius: 6px;"
        f" padding: 3px 7px; background: {tones.wash('plain')}; }}"
        f" #journey QLabel[here='true'] {{ border: 2px solid {tones.edge('info')};"
        f" background: {tones.wash('info')}; }}"
        f" #journey QLabel[arrow='true'] {{ color: {tones.muted()}; }}"
    )


@dataclass(frozen=True)
class Hop:
    """One desk on the way: who, what happened there and when, and its passport."""

    who: str
    what: str
    passport: str = ""
    here: bool = False
    gap: bool = False  # earlier desks left out ("…")

    def text(self) -> str:
        """Two short lines: who, then what happened there and when (or, for an earlier
        desk, its passport), so that a chain of three fits a narrow window."""
        second = self.what or self.passport
        return f"{self.who}\n{second}" if second else self.who

    def whole(self) -> str:
        """Everything the node knows, in one line (its tooltip and accessible name)."""
        parts = [
            self.who,
            self.what,
            tr("passport {id}").format(id=self.passport) if self.passport else "",
        ]
        return ", ".join(p for p in parts if p)


def short_when(stamp: str | None) -> str:
    """A time in a node: "12-01 23:20" this year, else with its year ("2025-08-16 09:30")."""
    full = local_time(stamp)
    this_year = QDate.currentDate().toString("yyyy-")
    return full[len(this_year) :] if full.startswith(this_year) else full


def entry_words(entry: str) -> str:
    """A lineage entry ``TP-K2VQ-8M4N@2`` as a person reads it: ``TP-K2VQ-8M4N v2``."""
    pid, at, version = entry.rpartition("@")
    if at and version.isdigit():
        return f"{one_line(pid, 40)} v{version}"
    return one_line(entry, 48)


def hops(
    lp: LocalPassport,
    machine: str,
    sent: Sequence[PackWritten] = (),
    merged: Sequence[tuple[str, str]] = (),
    unsent: frozenset[str] = frozenset(),
    landed_by: str = "",
) -> list[Hop]:
    """The chain's nodes, oldest first: the desks before the sender (the first one, and
    the last EARLIER_SHOWN), the sender, this desk, then what went out from here and what
    came back — packs sent on, and receipts merged (`merged`: (when, the passport entry
    that answered, ``TP-…@3``)) — the newest SENT_SHOWN of them. A pack whose email did
    not open (its file name in `unsent`) is said to be written, not sent. On a team desk
    `landed_by` (``person@machine``, from History) names who landed it: another machine's
    landing is not "this desk (beta) landed"."""
    chain = [c for c in (lp.lineage.chain if lp.lineage else None) or [] if isinstance(c, str)]
    received = lp.received
    out: list[Hop] = []
    earlier = chain[:-1] if received else chain
    if len(earlier) > EARLIER_SHOWN + 1:
        left_out = len(earlier) - EARLIER_SHOWN - 1
        out.append(Hop(tr("an earlier desk"), tr("where it began"), entry_words(earlier[0])))
        out.append(Hop("…", trn("%n more desks", left_out), gap=True))
        earlier = earlier[-EARLIER_SHOWN:]
    out += [Hop(tr("an earlier desk"), "", entry_words(e)) for e in earlier]
    if received:
        origin = received.origin.to_data() if received.origin else {}
        when = short_when(received.packed_at)
        out.append(
            Hop(
                sender_text(origin),
                tr("handed on {when}").format(when=when) if when else tr("handed on"),
                entry_words(chain[-1]) if chain else "",
            )
        )
    made = received.landed_at if received else lp.passport.created_at
    when = short_when(made)
    said = (tr("landed {when}") if received else tr("made here {when}")).format(when=when)
    where = tr("this desk ({machine})").format(machine=one_line(machine or "?", 60))
    by_machine = landed_by.rpartition("@")[2]
    if received and by_machine and by_machine != machine:
        where = tr("{who}, on this team desk").format(who=one_line(landed_by, 60))
    out.append(
        Hop(
            where,
            said if when else "",
            f"{one_line(lp.id, 40)} v{number(lp.version)}",
            here=True,
        )
    )
    later: list[tuple[str, Hop]] = []
    for entry in sent:
        to = one_line(entry.to, 60) if entry.to else tr("someone")
        words = tr("receipt sent {when}") if entry.kind == "receipt" else tr("handoff sent {when}")
        if entry.path and Path(entry.path).name in unsent:
            words = tr("written {when}, not sent: no email opened")
        hop = Hop(tr("to {who}").format(who=to), words.format(when=short_when(entry.written_at)))
        later.append((entry.written_at or "", hop))
    for at, answered_from in merged:  # the answers coming home
        words = tr("answers merged {when}").format(when=short_when(at))
        later.append((at or "", Hop(tr("answers came home"), words, entry_words(answered_from))))
    later.sort(key=lambda item: item[0])
    out += [hop for _at, hop in later[-SENT_SHOWN:]]
    return out


class JourneyChain(QWidget):
    """The chain of desks: labelled nodes joined by arrows, wrapping at narrow widths."""

    def __init__(self, nodes: list[Hop], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("journey")
        self.setStyleSheet(_style())  # once for the chain (a few nodes), not per node
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        flow = FlowLayout(spacing=4)
        outer.addLayout(flow)
        self.nodes: list[QLabel] = []
        desks = [n for n in nodes if not n.gap]
        for i, hop in enumerate(nodes):
            node = self._node(hop, desks.index(hop) + 1 if not hop.gap else 0, len(desks))
            if not i:
                flow.addWidget(node)
                continue
            step = QWidget()  # an arrow goes with the node it points at (a line wraps before it)
            line = QHBoxLayout(step)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(4)
            line.addWidget(self._arrow())
            line.addWidget(node)
            flow.addWidget(step)

    def _arrow(self) -> QLabel:
        arrow = QLabel("→")
        arrow.setProperty("arrow", True)
        arrow.setAccessibleName(tr("handed to"))
        arrow.setAlignment(Qt.AlignmentFlag.AlignCenter)
        arrow.setMinimumHeight(arrow.fontMetrics().height() * 2 + 8)
        return arrow

    def _node(self, hop: Hop, n: int, total: int) -> QLabel:
        label = QLabel()
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setProperty("node", True)
        label.setText(hop.text())
        if hop.gap:
            label.setAccessibleName(hop.what)
            label.setToolTip(plain_tip(hop.what))
            return label
        label.setProperty("here", hop.here)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        said = tr("Hop {n} of {total}: {text}").format(n=n, total=total, text=hop.whole())
        label.setAccessibleName(said)
        label.setToolTip(plain_tip(said))
        self.nodes.append(label)
        return label

    def node_texts(self) -> list[str]:
        """What each desk's node reads, oldest first (not the "…" for desks left out)."""
        return [n.text() for n in self.nodes]
