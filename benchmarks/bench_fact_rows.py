"""How long laying out a page of sealed facts holds the GUI thread (100
sealed fact rows paused the window 97–133 ms).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_fact_rows.py [--facts 100] [--rounds 7]

Builds `--facts` rows as the passport view does (`pack_items.fact_widget`: a sealed fact,
"verified on wei-laptop", with its disabled "Restore ✓", the reason it is not available
and "I checked this here") into a shown scroll area, and measures from the first row
added until the area is laid out and painted. The baseline, measured in the same run and
alternating with it: as many plain word-wrapped QLabels holding the same claims. Prints
the median of each and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    from taskpack.ui.app import make_application

    app = make_application(sys.argv[:1])
    from taskpack.core.format.model import Fact
    from taskpack.ui.pack_items import fact_widget

    facts = [
        Fact(
            claim=f"Step {n} of the migration ran on the build box",
            scope="machine",
            verified=False,
            needs_reverify=True,
            verified_on="wei-laptop",
        )
        for n in range(1, args.facts + 1)
    ]
    reason = (
        "Restore ✓ is not available: It was proven on wei-laptop, not on this machine "
        "(zhang-pc); check it again here."
    )

    def fact_row(fact: Fact) -> QWidget:
        restore = QPushButton("Restore ✓")
        restore.setEnabled(False)
        restore.setToolTip(reason)
        return fact_widget(
            fact, "zhang-pc", extra=[restore, QPushButton("I checked this here")], note=reason
        )

    def plain_label(fact: Fact) -> QWidget:
        label = QLabel(fact.claim or "")
        label.setWordWrap(True)
        return label

    def lay_out(make: Callable[[Fact], QWidget]) -> float:
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.resize(760, 520)
        body = QWidget()
        lay = QVBoxLayout(body)
        area.setWidget(body)
        area.show()
        app.processEvents()
        start = time.perf_counter()
        for fact in facts:
            lay.addWidget(make(fact))
        lay.activate()
        app.processEvents()
        area.viewport().grab()  # painted
        took = (time.perf_counter() - start) * 1000
        area.close()
        area.deleteLater()
        QApplication.processEvents()
        return took

    lay_out(plain_label), lay_out(fact_row)  # warm up: fonts, styles, code paths
    base, rows = [], []
    for _ in range(args.rounds):
        base.append(lay_out(plain_label))
        rows.append(lay_out(fact_row))
    b, r = statistics.median(base), statistics.median(rows)
    print(f"{args.facts} rows, median of {args.rounds} rounds (laid out and painted)")
    print(f"  baseline, plain QLabels: {b:6.1f} ms  {[round(x) for x in base]}")
    print(f"  sealed fact rows:        {r:6.1f} ms  {[round(x) for x in rows]}")
    print(f"  ratio: {r / b:.1f}x the baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
