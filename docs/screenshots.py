"""Render the desk's main screens to PNG for the README.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots.py [--out docs/screenshots]

Uses the real window over a throw-away desk (machine ``zhang-pc``) filled from the
shipped sample packs, so the pictures show exactly what a person sees on first use (the
Chinese ones need a CJK font: ``make ci-deps`` installs fonts-wqy-zenhei):

* ``inbox.png``          — the passport browser: landed passports and incoming packs
* ``landing-review.png`` — a landing review: required checks first with the sender's
                           quoted `how`, sealed facts "verified on wei-laptop"
* ``asks-form.png``      — the asks form: how far along, what / why / what counts as an
                           answer / the answer
* ``export-menu.png``    — the Export menu (receipt or handoff, save / chat / email)
* ``*-zh_CN.png``        — each of them in Simplified Chinese
* ``receipt-review.png`` — a receipt back on the sender's desk (``wei-laptop``): each
                           question with its answer, who answered and when, what stays
                           open — before "Merge answers into …"
* ``history.png``        — the History after that merge: a timeline, newest first, of
                           what happened, where (file written, merged) and who
* ``composer.png``       — the composer on the sender's desk: facts with their scope,
                           an ask, a required check, a next step, two attached files
* ``composer-ask.png``   — "Add ask…": the question, why, what counts as an answer, and
                           the line under it that judges the answer rule as it is typed
* ``send-preview.png``   — "Send a handoff…": the preview of what the receiver will see
                           (the machine fact sealed "unproven there — verified on
                           wei-laptop", required checks first, the asks)

The sender's three pictures are also written, cut to the composer's side, to
``resources/guide/`` (``--guide-out``): Help → How it works shows them.

Every picture is saved with a palette of at most 256 colours (the window's flat colours
and anti-aliased text fit in it): a fifth of the bytes, and the same bytes on every run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QWidget

HERE = Path(__file__).resolve().parent
SIZE = QSize(1280, 860)
GUIDE = HERE.parent / "resources" / "guide"


def spin(app: QApplication, window, seconds: float = 0.2) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end or not window.idle():
        app.processEvents()
        time.sleep(0.01)


def compact(image: QImage) -> QImage:
    """`image` with a palette of at most 256 colours, chosen without dithering (so the
    bytes are the same on every run)."""
    flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
    return image.convertToFormat(QImage.Format.Format_Indexed8, flags)


def write(image: QImage, path: Path) -> None:
    if not compact(image).save(str(path), "PNG", 0):
        raise SystemExit(f"could not write {path}")
    print(path.relative_to(HERE.parent) if path.is_relative_to(HERE.parent) else path)


def save(window: QWidget, path: Path) -> None:
    write(window.grab().toImage(), path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "screenshots")
    parser.add_argument("--guide-out", type=Path, default=GUIDE)
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    args.guide_out.mkdir(parents=True, exist_ok=True)

    from taskpack.ui.app import make_application

    app = make_application(sys.argv[:1])
    app.setCursorFlashTime(0)  # a text cursor that never blinks: the same picture every run
    for language in ("en", "zh_CN"):
        shoot(app, out, language, args.guide_out)
    return 0


def shoot(app: QApplication, out: Path, language: str, guide: Path = GUIDE) -> None:
    """Every screen in `language` (file names end in -zh_CN for Chinese)."""
    from taskpack.app.desk import Desk
    from taskpack.core.format import ids
    from taskpack.ui import i18n
    from taskpack.ui.main_window import MainWindow, sample_packs

    def name(screen: str, where: Path = out) -> Path:
        return where / (f"{screen}.png" if language == "en" else f"{screen}-{language}.png")

    # the same ids and times on every run, so the pictures change only when the UI does
    minted = (f"TP-ZH{a}{b}-DESK" for a in "23456789" for b in "23456789")
    ids.new_id = lambda *_a, **_k: next(minted)  # type: ignore[assignment]
    ticks = (f"2026-08-16T09:{m:02d}:{s:02d}Z" for m in range(30, 60) for s in range(60))
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        desk = Desk(home, "zhang-pc", actor="Zhang Min", clock=lambda: next(ticks))
        desk.settings.actor = (
            "Zhang Min"  # the name is known: no first-run question in the pictures
        )
        handoff, chinese, _receipt = sample_packs()
        # some history on the desk: a task of one's own, and a pack landed earlier
        own = desk.new("Quarterly supplier review", "Send the Q3 supplier scores to purchasing.")
        desk.add_ask(own.id, "Which suppliers are in scope?", "A list of supplier codes")
        done = desk.new("Rotate the staging TLS certificate", "Renew before 1 September.")
        desk.move(done.id, "cancelled")
        desk.land(chinese)

        i18n.install(language)
        window = MainWindow(desk, watch=False)
        window.resize(SIZE)
        window.show()
        spin(app, window)
        window.open_files(sample_packs())
        spin(app, window, 0.5)

        # 1. the landing review of the handoff: checks first, sealed facts
        window.select_key("file:" + str(handoff.resolve()))
        spin(app, window, 0.3)
        save(window, name("landing-review"))

        # 2. the inbox: the list beside a landed passport's overview
        window.incoming.land_current()
        spin(app, window, 0.5)
        window.banner.clear()
        spin(app, window, 0.2)
        save(window, name("inbox"))

        # 3. the asks form, one answered and one being written
        landed = window.current_passport_id()
        assert landed is not None
        desk.answer(landed, "a1", "Ms. Zhang Min, zhang.min@finance.example.com")
        spin(app, window, 0.3)
        view = window.passport.view
        view.tabs.setCurrentIndex(1)
        view.asks.cards["a2"].answer_edit.setPlainText("Yes — moved to 07:00; decided by finance.")
        window.banner.clear()
        spin(app, window, 0.2)
        save(window, name("asks-form"))

        # 4. the Export menu, drawn over the window where it opens
        view.tabs.setCurrentIndex(0)
        spin(app, window, 0.2)
        button = view.export_button
        at = button.mapTo(window, QPoint(0, button.height()))
        menu = view.export_menu
        menu.popup(button.mapToGlobal(QPoint(0, button.height())))
        spin(app, window, 0.2)
        shot = window.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
        menu_image = menu.grab().toImage()
        x = min(at.x(), shot.width() - menu_image.width() - 4)
        painter = QPainter(shot)
        painter.drawImage(QPoint(x, at.y()), menu_image)
        painter.end()
        menu.hide()
        write(shot, name("export-menu"))

        # 5. a receipt coming home: Wei's desk asked, Zhang answered one of the two asks
        wei = Desk(Path(tmp) / "wei", "wei-laptop", actor="Wei Chen", clock=lambda: next(ticks))
        wei.settings.actor = "Wei Chen"
        asked = wei.new(
            "Choose the launch video cut", "Publish a 90 s cut of the launch video on Friday."
        )
        wei.add_ask(
            asked.id,
            "Which cut goes out, A or B?",
            "A or B, and who chose it",
            why="Marketing needs one by Thursday.",
        )
        wei.add_ask(
            asked.id,
            "May we use the customer quote at 0:42?",
            "Yes or no, with the customer's consent",
        )
        handoff_out = Path(tmp) / "video.taskpack.json"
        wei.pack(asked.id, handoff_out)
        theirs = desk.land(handoff_out).id
        desk.answer(theirs, "a1", "Cut B — chosen by Zhang Min with marketing; it is 88 s long.")
        receipt_out = Path(tmp) / "video-receipt.taskpack.json"
        desk.pack(
            theirs, receipt_out, kind="receipt", note="One answered; the quote needs the customer."
        )
        window.shutdown()
        window.close()
        home_window = MainWindow(wei, watch=False)
        home_window.resize(SIZE)
        home_window.show()
        spin(app, home_window)
        home_window.open_files([receipt_out])
        spin(app, home_window, 0.5)
        save(home_window, name("receipt-review"))

        # 6. the History after the merge: a timeline of who did what, and where
        home_window.incoming.merge_current(asked.id)
        spin(app, home_window, 0.5)
        home_window.banner.clear()
        home_view = home_window.passport.view
        home_view.tabs.setCurrentWidget(home_view.history)
        spin(app, home_window, 0.3)
        save(home_window, name("history"))

        # 7. the composer: Wei's own work, ready to hand off
        composed = wei.new(
            "Fix the invoice export",
            "Invoices open in Excel with readable names.",
            current_state="Cause found: the CSV has no BOM.",
        )
        cid = composed.id
        wei.add_fact(cid, "The export runs in 40 s on this laptop.", scope="machine", verified=True)
        wei.add_fact(cid, "Finance agreed the file stays CSV.", scope="universal", verified=True)
        wei.add_ask(
            cid,
            "Who in finance signs off?",
            "A name and an email address",
            why="The release is on the 1st.",
            to="Zhang Min",
        )
        wei.add_check(cid, "This machine reaches the billing database", how="psql -c 'select 1'")
        wei.add_next(cid, "Merge fix/csv-bom after review.")
        sample = Path(tmp) / "invoice-sample.csv"
        sample.write_text("name;amount\nACME GmbH;1200.00\n", encoding="utf-8")
        notes = Path(tmp) / "export-notes.txt"
        notes.write_text("The BOM goes first; Excel reads UTF-8 then.\n" * 40, encoding="utf-8")
        wei.attach(cid, [sample, notes])
        home_window.banner.clear()
        home_window.composer.open_passport(
            cid, then=lambda: home_window.stack.setCurrentWidget(home_window.composer)
        )
        spin(app, home_window, 0.5)
        save(home_window, name("composer"))
        save(home_window.composer, name("composer", guide))

        # 7b. "Add ask…": the answer rule judged as it is typed
        from taskpack.ui.composer.item_dialog import ItemDialog

        ask = ItemDialog(home_window, "ask", machine=wei.machine, editing=False)
        chinese_words = language != "en"
        ask.fields["what"].setPlainText("谁在财务部签字？" if chinese_words else "Who signs off?")
        ask.fields["why"].setText("1 号发布。" if chinese_words else "The release is on the 1st.")
        ask.fields["accept"].setText("一个名字" if chinese_words else "a name")
        ask.show()
        spin(app, home_window, 0.3)
        save(ask, name("composer-ask"))
        save(ask, name("composer-ask", guide))
        ask.reject()

        # 8. "Send a handoff…": the preview before anything is written
        home_window.send_handoff(cid)
        dialog = home_window.send_dialog
        dialog.to_edit.setText("Zhang Min")
        dialog.note_edit.setPlainText(
            "Checks first, please; the sample file opens in Excel."
            if language == "en"
            else "请先做检查；样例文件可以用 Excel 打开。"
        )
        spin(app, home_window, 1.0)
        dialog.resize(680, 600)
        spin(app, home_window, 0.3)
        save(dialog, name("send-preview"))
        save(dialog, name("send-preview", guide))
        dialog.reject()
        home_window.shutdown()
        home_window.close()
        wei.close()
        desk.close()
    i18n.install("en")


if __name__ == "__main__":
    sys.exit(main())
