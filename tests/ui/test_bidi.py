"""Text that changes how it reads (U+202E and friends) is shown, not obeyed; the tray gets
plain text."""

from __future__ import annotations

from pathlib import Path

from conftest import Prompts, settle, watching_downloads
from pytestqt.qtbot import QtBot
from taskpack.ui.widgets import LinkedText

RLO = "\u202e"


def test_the_link_dialog_shows_the_address_with_its_hidden_characters(
    qtbot: QtBot, prompts: Prompts
) -> None:
    url = f"https://example.com/report{RLO}fdp.exe"
    label = LinkedText(f"See {url} for the numbers")
    qtbot.addWidget(label)
    assert RLO not in label.text() and "\\u202e" in label.text()  # the link as shown
    prompts.confirm_answer = False
    label.linkActivated.emit(url)  # the person clicks the link
    [asked] = prompts.confirmed
    assert RLO not in asked
    assert "https://example.com/report\\u202efdp.exe" in asked
    assert "it may not be the address it seems" in asked
    assert prompts.opened_urls == []  # they said no


def test_notifications_and_the_list_show_a_spoofed_title_as_plain_text(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, tray_messages: list[tuple[str, str]]
) -> None:
    shown = tray_messages
    sender = make_desk("alpha", f"<b>Boss</b>{RLO}")
    pid = sender.new(f"Pay <a href='x'>now</a> {RLO}gpj.exe", "Goal").id
    window, downloads = watching_downloads(tmp_path, qtbot, make_desk, make_window)
    sender.pack(pid, downloads / "h.taskpack")
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    settle(qtbot, window)
    [(title, text)] = shown
    assert title == "A pack arrived"
    assert "<" not in text and RLO not in text
    assert (
        "Pay &lt;a href='x'&gt;now&lt;/a&gt; \\u202egpj.exe — from &lt;b&gt;Boss&lt;/b&gt;\\u202e@alpha"
        in text
    )
    proxy = window.inbox.proxy
    row = [proxy.index(0, c).data() for c in range(3)]
    assert row[0] == "Pay <a href='x'>now</a> \\u202egpj.exe"
    assert row[2] == "<b>Boss</b>\\u202e@alpha"
