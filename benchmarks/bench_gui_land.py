"""Landing a large pack in the window keeps the GUI responsive, with a moving progress bar.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui_land.py [--gib 1]

Makes a handoff with one luggage file of the given size (through the real desk, in a
temporary folder), opens it in a real `MainWindow`, presses Land, and measures while the
luggage is copied into the store:

* the GUI thread's longest stall: a 10 ms `QTimer` records the gap between its ticks;
* the progress dialog: how many distinct values it showed, and that it reached the end.
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

from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QProgressDialog


def write_luggage(path: Path, size: int) -> None:
    block = os.urandom(1 << 20)  # incompressible, like photos and archives
    with open(path, "wb") as f:
        for n in range(size >> 20):
            f.write(block[n % 7 :] + block[: n % 7])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=1.0)
    args = parser.parse_args()
    size = int(args.gib * (1 << 30)) >> 20 << 20

    from taskpack.ui.app import make_application

    app = make_application(sys.argv[:1])
    from taskpack.app.desk import Desk
    from taskpack.ui.main_window import MainWindow

    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        root = Path(tmp)
        big = root / "footage.bin"
        t = time.monotonic()
        write_luggage(big, size)
        sender = Desk(root / "sender", "wei-laptop", actor="Wei")
        pid = sender.new("Edit the launch video", "Cut a 90 s version").id
        sender.add_ask(pid, "Which cut?", "A or B")
        pack = root / "video.taskpack"
        sender.pack(pid, pack, files=[big])
        big.unlink()
        print(f"made a {pack.stat().st_size / (1 << 30):.2f} GiB pack in {time.monotonic() - t:.1f} s")

        desk = Desk(root / "receiver", "zhang-pc", actor="Zhang")
        window = MainWindow(desk, watch=False)
        window.show()
        window.open_files([pack])
        while not window.idle() or window.review_view.reviewed is None:
            app.processEvents()
            time.sleep(0.005)

        gaps: list[float] = []  # while the luggage is read and stored (the job runs)
        after: list[float] = []  # once it has landed: the window shows the new passport
        landed_at: list[float] = []
        values: list[int] = []
        clock = QElapsedTimer()
        clock.start()
        last = [clock.elapsed()]

        def tick() -> None:
            now = clock.elapsed()
            if not landed_at:
                gaps.append(now - last[0])
            else:
                after.append(now - last[0])
            last[0] = now
            for dialog in window.findChildren(QProgressDialog):
                if dialog.isVisible() and dialog.maximum() > 0:
                    values.append(dialog.value())

        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(tick)
        timer.start()
        start = time.monotonic()
        window.land_current()
        job = next(iter(window.jobs._active))
        job.succeeded.connect(lambda _r: landed_at.append(time.monotonic()))
        while not window.idle() or window._current_path() is not None:
            app.processEvents()
            time.sleep(0.001)
        took = time.monotonic() - start
        timer.stop()
        assert len(desk.list()) == 1, window.banner.text()
        gaps.sort()
        print(f"landed {size / (1 << 30):.2f} GiB of luggage in {took:.1f} s "
              f"({size / (1 << 20) / took:.0f} MiB/s)")  # fmt: skip
        print(f"GUI thread: {len(gaps)} ticks of 10 ms; longest gap {gaps[-1]:.0f} ms, "
              f"p99 {gaps[int(len(gaps) * 0.99)]:.0f} ms, median {statistics.median(gaps):.0f} ms")  # fmt: skip
        if after:
            print(f"then showing the landed passport: longest gap {max(after):.0f} ms")
        distinct = sorted(set(values))
        print(f"progress bar: {len(distinct)} distinct positions (of 1000), "
              f"last {distinct[-1] if distinct else 'none'}")  # fmt: skip
        window.shutdown()
        desk.close()
        sender.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
