"""The passport's facts in its Overview: what is proven and what is not, each with its
standing, and for a sealed one "Restore ✓" (or why not) and "I checked this here"."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from taskpack.app.desk import Fact, Numbered
from taskpack.ui.i18n import tr
from taskpack.ui.ops import Detail, is_sealed
from taskpack.ui.pack_items import fact_widget, restore_reason
from taskpack.ui.paging import FACT_PAGE, add_paged
from taskpack.ui.widgets import Section, plain_tip
from taskpack.ui.words import one_line


class FactsMixin(QWidget):
    """The facts section: the base of `PassportView`, with the signals its buttons emit."""

    restore_requested = Signal(int)  # fact number (1-based): "Restore ✓"
    check_fact_requested = Signal(int)  # fact number (1-based): "I checked this here"
    restore_buttons: dict[int, QPushButton]
    check_buttons: dict[int, QPushButton]
    restore_reasons: dict[int, str]

    def _facts(self, lay: QVBoxLayout, detail: Detail) -> None:
        facts = detail.local.passport.facts or []
        self.restore_buttons, self.restore_reasons, self.check_buttons = {}, {}, {}
        if not facts:
            return
        sec = Section(tr("What is proven and what is not"))

        def one(numbered: tuple[int, Fact]) -> QWidget:
            n, fact = numbered
            extra: list[QWidget] = []
            note = ""
            if is_sealed(fact):
                ok, said = detail.restore.get(n, (False, tr("unknown")))
                reason = restore_reason(said, fact.verified_on, detail.machine)
                b = QPushButton(tr("Restore ✓"))
                b.setEnabled(ok)
                self.restore_reasons[n] = reason
                if ok:
                    b.setToolTip(
                        plain_tip(
                            tr(
                                "Give this fact its ✓ back: you are on {machine}, where it was "
                                "verified, and this desk wrote the pack that carried it."
                            ).format(machine=one_line(fact.verified_on or "?"))
                        )
                    )
                else:
                    b.setToolTip(
                        plain_tip(tr("Restore ✓ is not available: {reason}").format(reason=reason))
                    )
                    note = tr("Restore ✓ is not available: {reason}").format(reason=reason)
                b.clicked.connect(lambda _c=False, k=n: self.restore_requested.emit(k))
                self.restore_buttons[n] = b
                extra.append(b)
                c = QPushButton(tr("I checked this here"))
                c.setToolTip(
                    tr(
                        "You checked this yourself, on this machine: it becomes a fact verified "
                        "here, by you, with a history entry. Restore ✓ instead trusts the "
                        "sender's word."
                    )
                )
                c.clicked.connect(lambda _c=False, k=n: self.check_fact_requested.emit(k))
                self.check_buttons[n] = c
                extra.append(c)
            elif proven_elsewhere(fact, detail.machine):
                # a team desk: proven on another of its machines, never on this one
                c = QPushButton(tr("I checked this here"))
                c.setToolTip(
                    tr(
                        "It was proven on another machine, not on this one. If you checked it "
                        "yourself here, say so: it becomes verified here too, with a history "
                        "entry."
                    )
                )
                c.clicked.connect(lambda _c=False, k=n: self.check_fact_requested.emit(k))
                self.check_buttons[n] = c
                extra.append(c)
            return fact_widget(fact, detail.machine or None, extra=extra, note=note)

        add_paged(
            sec.add, Numbered(facts), one, page=FACT_PAGE, parent_layout=sec.lay
        )  # (facts may be pages)
        lay.addWidget(sec)


def proven_elsewhere(fact: Fact, machine: str) -> bool:
    """A machine fact verified (✓) on another machine than this one: it holds there."""
    return bool(
        fact.verified
        and fact.effective_scope == "machine"
        and fact.verified_on
        and machine
        and fact.verified_on != machine
    )
