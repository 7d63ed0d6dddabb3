"""How the composer names and lists a passport's items: the add buttons' words, one plain
line an item, and the label that shows such a line in the width there is."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget
from taskpack.app.desk import LocalPassport
from taskpack.ui.composer.item_dialog import scope_words
from taskpack.ui.i18n import tr
from taskpack.ui.widgets import plain_tip

#: what each kind is called in the composer's buttons (the command names people use)
ADD_LABELS = {
    "fact": "Add fact…",
    "decision": "Add decision…",
    "step": "Add next step…",
    "ask": "Add ask…",
    "check": "Add landing check…",
}


def add_label(kind: str) -> str:
    return tr(ADD_LABELS[kind])


def _add_words() -> None:  # the command names, for the translation table
    tr("Add fact…"), tr("Add decision…"), tr("Add next step…"), tr("Add ask…")
    tr("Add landing check…")


def item_fields(lp: LocalPassport, kind: str, number: int, machine: str) -> dict[str, object]:
    """Item `number` (1-based) of `kind` as the dialog's fields."""
    if kind == "fact":
        f = (lp.passport.facts or [])[number - 1]
        mine = bool(f.verified) and f.verified_on in (None, machine)
        return {
            "claim": f.claim or "",
            "scope": f.effective_scope,
            "verified": mine,
            "source": f.source or "",
        }
    if kind == "decision":
        d = (lp.passport.decisions or [])[number - 1]
        return {"what": d.what or "", "why": d.why or ""}
    if kind == "step":
        return {"step": str((lp.passport.next_steps or [])[number - 1])}
    if kind == "ask":
        a = (lp.asks or [])[number - 1]
        to = "" if (a.to or "peer") == "peer" else a.to
        return {"what": a.what or "", "why": a.why or "", "accept": a.accept or "", "to": to}
    c = (lp.checks_to_send or [])[number - 1]
    return {"check": c.check or "", "how": c.how or "", "required": c.is_required}


def item_line(lp: LocalPassport, kind: str, number: int, machine: str) -> str:
    """One item as one plain line of the composer's lists."""
    v = item_fields(lp, kind, number, machine)
    if kind == "fact":
        parts = [str(v["claim"]), scope_words(str(v["scope"]))[0]]
        if v["verified"]:
            parts.append(tr("✓ verified here"))
        if v["source"]:
            parts.append(tr("source: {source}").format(source=v["source"]))
        return " — ".join(parts)
    if kind == "decision":
        return f"{v['what']} — {v['why']}" if v["why"] else str(v["what"])
    if kind == "step":
        return str(v["step"])
    if kind == "ask":
        line = tr("{what} — answer: {accept}").format(what=v["what"], accept=v["accept"])
        return line + (tr(" — to {who}").format(who=v["to"]) if v["to"] else "")
    head = tr("Required") if v["required"] else tr("Optional")
    line = tr("{head}: {check}").format(head=head, check=v["check"])
    return line + (tr(" — how: {how}").format(how=v["how"]) if v["how"] else "")


def kind_word(kind: str) -> str:
    return {
        "fact": tr("fact"),
        "decision": tr("decision"),
        "step": tr("next step"),
        "ask": tr("ask"),
        "check": tr("landing check"),
    }[kind]


class LineLabel(QLabel):
    """One item's line, on one line: where it does not fit it ends in "…" (never cut
    mid-word without a sign), and the whole line is its tooltip and accessible text.

    Wrapping would cost seconds of layout in a passport with hundreds of items, and a
    long line must not widen the page; so the line is shortened as it is painted."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setToolTip(plain_tip(text))  # a pack's words are never read as markup

    def shown_text(self) -> str:
        """What the width shows: the line, or its start and "…"."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width()
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            QPalette.ColorRole.WindowText,
        )
        painter.end()
