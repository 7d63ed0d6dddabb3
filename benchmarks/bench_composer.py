"""Typing into the composer of a large passport, and the handoff preview of large luggage.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_composer.py [--asks 200] [--luggage-mib 1024]

1. A passport with `--asks` asks (and as many facts) is opened in the real window's
   composer. 200 keys are typed into its Goal, then 200 into an ask's "What counts as
   an answer" (the ask lint judges every key): the time from each key press until the
   window has processed it (median, p95, max; the budget is 50 ms a key). Then one ask is
   added through the desk and the composer shows all of them again: the rebuild time.
2. "Send a handoff…" of a passport with `--luggage-mib` of luggage: how many luggage bytes
   were read to show the preview and check the files for credentials (each byte once,
   counted at the store's blob reader), how many more while a note is typed (none), and
   the time until the preview and the file check were on screen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def wait(app: QApplication, done, timeout: float = 600.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there")
        app.processEvents()
        time.sleep(0.002)


def per_key(app: QApplication, widget, text: str) -> list[float]:  # type: ignore[no-untyped-def]
    widget.setFocus()
    times = []
    for ch in text:
        t0 = time.perf_counter()
        QTest.keyClicks(widget, ch)
        app.processEvents()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def say(label: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(
        f"{label}: median {statistics.median(ms):.2f} ms/key, p95 {p95:.2f}, max {ms[-1]:.2f} "
        f"({len(ms)} keys)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--luggage-mib", type=int, default=1024)
    args = parser.parse_args()

    from taskpack.app.desk import Desk
    from taskpack.ui.app import make_application
    from taskpack.ui.composer.item_dialog import ItemDialog
    from taskpack.ui.main_window import MainWindow

    app = make_application(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        desk = Desk(Path(tmp) / "home", "alpha", actor="Wei")
        desk.settings.actor = "Wei"
        pid = desk.new("A large passport", "Many questions").id
        for i in range(args.asks):
            desk.add_ask(pid, f"Question {i}: which supplier code?", "A supplier code, e.g. S-123")
            desk.add_fact(pid, f"Supplier {i} is in scope.", scope="org")
        window = MainWindow(desk, watch=False)
        window.resize(1280, 860)
        window.show()
        wait(app, window.idle)
        composer = window.composer
        window.select_key(pid)
        wait(app, window.idle)
        window.compose_action.trigger()
        wait(app, lambda: composer.pid == pid and window.idle())
        print(f"composer of a passport with {args.asks} asks and {args.asks} facts")
        text = ("Invoices open in Excel with readable names. " * 5)[:200]
        say("typing into the Goal", per_key(app, composer.goal_edit, text))
        lp = composer.lp
        assert lp is not None
        dialog = ItemDialog(window, "ask", {"what": "Who signs?", "accept": ""}, machine="alpha")
        dialog.show()
        accept = dialog.fields["accept"]
        rule = ("A name and an email address, and the date they signed " * 4)[:200]
        say("typing an answer rule (lint per key)", per_key(app, accept, rule))
        dialog.reject()
        t0 = time.perf_counter()
        before = len(composer.lines("ask"))
        composer._change(
            "adding",
            lambda: desk.add_ask(pid, "One more?", "Yes or no, with the reason"),
            done_note="",
        )
        wait(app, lambda: len(composer.lines("ask")) == before + 1 and window.idle())
        print(
            f"adding one ask and showing all {before + 1} again: "
            f"{(time.perf_counter() - t0) * 1000:.0f} ms"
        )
        window.shutdown()
        window.close()

        # 2. the preview of a large handoff
        big = Path(tmp) / "recording.bin"
        block = os.urandom(1 << 20)
        with open(big, "wb") as f:
            for _ in range(args.luggage_mib):
                f.write(block)
        sid = desk.new("A large handoff", "Send the recording").id
        desk.add_fact(sid, "It plays on this laptop.", scope="machine", verified=True)
        desk.add_ask(sid, "Does it play on yours?", "Yes or no, and the player used")
        desk.attach(sid, [big])
        big.unlink()
        read = [0]
        store = desk.store
        real_open = store.open_blob

        def counting_open(*a, **k):  # type: ignore[no-untyped-def]
            src = real_open(*a, **k)
            real_read = src.read

            def read_counted(n: int = -1) -> bytes:
                data = real_read(n)
                read[0] += len(data)
                return data

            src.read = read_counted  # type: ignore[method-assign]
            return src

        store.open_blob = counting_open  # type: ignore[method-assign]
        window = MainWindow(desk, watch=False)
        window.show()
        wait(app, window.idle)
        t0 = time.perf_counter()
        window.send_handoff(sid)
        dialog = window.send_dialog
        wait(app, lambda: dialog.preview is not None)
        shown = time.perf_counter() - t0
        wait(app, lambda: dialog.file_findings is not None)
        checked = time.perf_counter() - t0
        size = args.luggage_mib << 20
        at_open = read[0]
        QTest.keyClicks(dialog.note_edit, "Checks first, please.")
        seq = dialog._seq
        wait(app, lambda: dialog._seq > seq and window.idle())
        wait(app, lambda: "Checks first" in dialog.preview_text())
        print(
            f"preview of a handoff with {args.luggage_mib} MiB of luggage: on screen in "
            f"{shown * 1000:.0f} ms, files checked in {checked:.1f} s"
        )
        print(
            f"luggage bytes read for the preview and the check: {at_open:,} "
            f"({at_open / size:.2f}× the luggage); while typing the note: {read[0] - at_open:,}"
        )
        dialog.reject()
        window.shutdown()
        window.close()
        desk.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
