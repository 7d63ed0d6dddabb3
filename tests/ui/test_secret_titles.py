"""A credential in a pack's title or sender never reaches the list, the tray or the status
bar: it is named by kind, the way the review names it."""

from __future__ import annotations

import random
import string
from pathlib import Path

import hostile_zips
from conftest import RECEIVER, drop, settle, watching_downloads
from pytestqt.qtbot import QtBot


def github_token(seed: int = 7) -> str:
    rng = random.Random(seed)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def leaky_pack(path: Path, secret: str) -> Path:
    """A hand-written pack whose title and sender carry `secret` (a writer would refuse it)."""
    data = hostile_zips.pack_data()
    data["passport"]["title"] = f"deploy with {secret}"
    data["origin"]["actor"] = f"ana {secret}"
    path.write_bytes(
        hostile_zips.canonical_json(
            hostile_zips.flat_doc(
                [hostile_zips.attachment("brief.txt", b"The brief.\n")], passport=data
            )
        )
    )
    return path


def row_text(window) -> list[list[str]]:
    proxy = window.inbox.proxy
    return [
        [str(proxy.index(r, c).data() or "") for c in range(proxy.columnCount())]
        for r in range(proxy.rowCount())
    ]


def test_a_watched_pack_with_a_token_in_its_title_is_named_not_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, tray_messages: list[tuple[str, str]]
) -> None:
    shown = tray_messages
    secret = github_token()
    window, downloads = watching_downloads(tmp_path, qtbot, make_desk, make_window)
    leaky_pack(downloads / "leak.taskpack.json", secret)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    settle(qtbot, window)
    [(title, text)] = shown
    assert title == "A pack arrived"
    assert secret not in text and secret[-12:] not in text
    assert "(title withheld: it contains a credential — GitHub token)" in text
    assert "from (sender withheld: it contains a credential — GitHub token)" in text
    status = window.statusBar().currentMessage()
    assert "title withheld" in status and secret[-12:] not in status
    [row] = row_text(window)
    assert row[0] == "(title withheld: it contains a credential — GitHub token)"
    assert row[2] == "(sender withheld: it contains a credential — GitHub token)"
    assert not any(secret[-12:] in cell for cell in row)
    senders = [window.inbox.sender_box.itemText(i) for i in range(window.inbox.sender_box.count())]
    assert not any(secret[-12:] in s for s in senders)
    assert window.desk.passports() == []


def test_a_dropped_pack_with_a_token_in_its_title_is_named_not_shown(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    secret = github_token(11)
    pack = leaky_pack(tmp_path / "leak.taskpack.json", secret)
    window = make_window(make_desk(RECEIVER))
    assert drop(window, pack) == (True, True)
    settle(qtbot, window)
    [row] = row_text(window)
    assert row[0] == "(title withheld: it contains a credential — GitHub token)"
    assert row[2] == "(sender withheld: it contains a credential — GitHub token)"
    assert "This pack carries a secret" in window.incoming.view.visible_text()
    assert secret[-12:] not in window.incoming.view.visible_text()
    assert secret[-12:] not in window.statusBar().currentMessage()
    assert secret[-12:] not in window.windowTitle()


def test_the_withheld_title_reads_in_chinese(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    from taskpack.ui import i18n

    i18n.install("zh_CN")
    try:
        pack = leaky_pack(tmp_path / "leak.taskpack.json", github_token(3))
        window = make_window(make_desk(RECEIVER))
        drop(window, pack)
        settle(qtbot, window)
        [row] = row_text(window)
        assert "（标题已隐去：其中含有凭据——GitHub token）" in row[0]
    finally:
        i18n.install("en")
