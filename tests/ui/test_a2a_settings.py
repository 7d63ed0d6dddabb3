"""Settings → "Agent endpoint (A2A)": the window serves its desk over A2A, off the GUI thread.

Real servers on real sockets (port 0 = a free port, so parallel workers never collide),
read with real HTTP.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from conftest import RECEIVER, settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from taskpack.app.a2a import EXTENSION_URI
from taskpack.app.a2a.serve import A2AServer
from taskpack.app.settings import Settings, SettingsError
from taskpack.ui.main_window import MainWindow
from taskpack.ui.settings_dialog import SettingsDialog, a2a_wanted, is_loopback

CARD = "/.well-known/agent-card.json"


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False, timeout=10) as client:  # no proxy between us and loopback
        yield client


@pytest.fixture
def server_threads(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """The threads A2AServer.start and .stop ran on."""
    seen: dict[str, list[int]] = {"start": [], "stop": []}
    start, stop = A2AServer.start, A2AServer.stop

    def recording_start(self: A2AServer, *a: Any, **k: Any) -> str:
        seen["start"].append(threading.get_ident())
        return start(self, *a, **k)

    def recording_stop(self: A2AServer, *a: Any, **k: Any) -> None:
        seen["stop"].append(threading.get_ident())
        stop(self, *a, **k)

    monkeypatch.setattr(A2AServer, "start", recording_start)
    monkeypatch.setattr(A2AServer, "stop", recording_stop)
    return seen


def save_settings(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, edit: Callable[[SettingsDialog], None]
) -> None:
    """Open Settings, let `edit` change the form, press Save."""

    def accept(self: SettingsDialog) -> int:
        edit(self)
        return SettingsDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", accept)
    window.open_settings()


def turn_on(port: int) -> Callable[[SettingsDialog], None]:
    def edit(dialog: SettingsDialog) -> None:
        dialog.a2a_enabled.setChecked(True)
        dialog.a2a_host.setText("127.0.0.1")
        dialog.a2a_port.setValue(port)

    return edit


def turn_off(dialog: SettingsDialog) -> None:
    dialog.a2a_enabled.setChecked(False)


def wait_status(qtbot: QtBot, window: MainWindow, prefix: str) -> str:
    qtbot.waitUntil(lambda: window.a2a_status().startswith(prefix), timeout=15_000)
    settle(qtbot, window)
    return window.a2a_status()


def refused(http: httpx.Client, url: str) -> bool:
    try:
        http.get(url + CARD)
    except httpx.ConnectError:
        return True
    return False


# --- the settings keys ------------------------------------------------------------------


def test_missing_keys_mean_off_and_the_keys_round_trip() -> None:
    old = Settings.from_data({"machine_name": None, "gate": {"allow": []}, "watched_folders": []})
    assert (old.a2a_enabled, old.a2a_host, old.a2a_port) == (False, "127.0.0.1", 8788)
    assert a2a_wanted(old) is None
    partial = Settings.from_data({"a2a": {"enabled": True, "later": {"tls": 1}}})
    assert a2a_wanted(partial) == ("127.0.0.1", 8788)
    data = partial.to_data()
    assert data["a2a"] == {"later": {"tls": 1}, "enabled": True, "host": "127.0.0.1", "port": 8788}
    assert Settings.from_data(json.loads(json.dumps(data))) == partial
    for bad in (
        {"enabled": "yes"},
        {"port": "8788"},
        {"port": 70000},
        {"port": True},
        {"host": 1},
        [],
    ):
        with pytest.raises(SettingsError):
            Settings.from_data({"a2a": bad})
    partial.set("a2a.enabled", "off")
    partial.set("a2a.port", "0")
    partial.set("a2a.host", " ")
    assert (partial.a2a_enabled, partial.a2a_port, partial.a2a_host) == (False, 0, "127.0.0.1")
    with pytest.raises(SettingsError):
        partial.set("a2a.port", "²")


def test_dialog_section_and_the_non_loopback_warning(qtbot: QtBot) -> None:
    settings = Settings()
    dialog = SettingsDialog(settings, machine="zhang-pc", actor="zhang")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.a2a_enabled.isChecked()
    assert dialog.a2a_host.text() == "127.0.0.1" and dialog.a2a_port.value() == 8788
    assert not dialog.a2a_host.isEnabled() and dialog.a2a_warning.isHidden()
    dialog.a2a_enabled.setChecked(True)
    assert dialog.a2a_host.isEnabled() and dialog.a2a_warning.isHidden()
    for host, warned in (
        ("0.0.0.0", True),
        ("192.168.1.20", True),
        ("desk.example.org", True),
        ("::1", False),
        ("localhost", False),
        ("127.0.0.2", False),
        ("", False),
    ):
        dialog.a2a_host.setText(host)
        assert dialog.a2a_warning.isVisible() is warned, host
    assert "no" in dialog.a2a_warning.text().lower() and "TLS" in dialog.a2a_warning.text()
    assert is_loopback("[::1]") and not is_loopback("::")
    dialog.a2a_host.setText(" 0.0.0.0 ")
    dialog.a2a_port.setValue(0)
    assert dialog.a2a_port.text() == "Any free port"
    dialog.apply()
    assert a2a_wanted(settings) == ("0.0.0.0", 0)
    dialog.a2a_host.clear()
    dialog.apply()
    assert settings.a2a_host == "127.0.0.1"


# --- the window -------------------------------------------------------------------------


def test_toggling_on_serves_the_card_and_off_stops_it(
    qtbot: QtBot, make_desk, make_window, monkeypatch, http, server_threads
) -> None:
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    assert window.a2a_status() == "A2A: off" and window.a2a_panel.endpoint.server is None
    gui = threading.get_ident()

    save_settings(window, monkeypatch, turn_on(0))
    status = wait_status(qtbot, window, "A2A: serving")
    url = window.a2a_panel.endpoint.server.url
    assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
    assert status == f"A2A: serving {url}"
    answer = http.get(url + CARD)
    assert answer.status_code == 200
    card = answer.json()
    assert card["name"] == f"TaskPack Desk ({RECEIVER})"
    assert card["supportedInterfaces"][0]["url"] == url
    assert [e["uri"] for e in card["capabilities"]["extensions"]] == [EXTENSION_URI]
    saved = json.loads((desk.home / "settings.json").read_text(encoding="utf-8"))
    assert saved["a2a"] == {"enabled": True, "host": "127.0.0.1", "port": 0}
    assert server_threads["start"] and gui not in server_threads["start"]  # never on the GUI thread

    save_settings(window, monkeypatch, turn_off)
    assert wait_status(qtbot, window, "A2A: off") == "A2A: off"
    assert window.a2a_panel.endpoint.server is None
    assert refused(http, url)
    assert server_threads["stop"] and gui not in server_threads["stop"]
    saved = json.loads((desk.home / "settings.json").read_text(encoding="utf-8"))
    assert saved["a2a"]["enabled"] is False


def test_a_port_in_use_is_one_sentence_and_the_desk_keeps_working(
    qtbot: QtBot, make_desk, make_window, monkeypatch, prompts, http
) -> None:
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        save_settings(window, monkeypatch, turn_on(port))
        status = wait_status(qtbot, window, "A2A: not serving")
    finally:
        taken.close()
    why = (
        f"Port {port} on 127.0.0.1 is already in use (another desk, or “taskpack serve”?). "
        "Choose another port in Settings."
    )
    assert status == f"A2A: not serving. {why}"
    assert window.banner.kind == "error" and window.banner.text() == why
    assert "Traceback" not in status and "Errno" not in status
    assert window.a2a_panel.endpoint.server is None

    # the desk works as before
    window.new_passport()  # the composer, as File → New passport… opens it
    composer = window.composer
    qtbot.keyClicks(composer.title_edit, "Still working")
    qtbot.keyClicks(composer.goal_edit, "The desk works without its endpoint.")
    qtbot.mouseClick(composer.save_basics, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: composer.pid is not None)
    settle(qtbot, window)
    assert [p.title for p in desk.passports()] == ["Still working"]

    # the port is free again: saving Settings tries once more
    save_settings(window, monkeypatch, lambda dialog: None)
    status = wait_status(qtbot, window, "A2A: serving")
    assert status == f"A2A: serving http://127.0.0.1:{port}"
    assert http.get(f"http://127.0.0.1:{port}{CARD}").status_code == 200


def test_the_setting_persists_into_a_new_window_and_quitting_stops_it(
    qtbot: QtBot, make_desk, make_window, monkeypatch, http
) -> None:
    desk = make_desk(RECEIVER)
    first = make_window(desk)
    save_settings(first, monkeypatch, turn_on(0))
    wait_status(qtbot, first, "A2A: serving")
    url = first.a2a_panel.endpoint.server.url
    first.close()  # quitting stops the endpoint
    assert first.a2a_panel.endpoint.server is None and refused(http, url)

    again = make_desk(RECEIVER)  # the same home, read afresh from settings.json
    assert again is not desk and a2a_wanted(again.settings) == ("127.0.0.1", 0)
    second = make_window(again)
    status = wait_status(qtbot, second, "A2A: serving")
    url = second.a2a_panel.endpoint.server.url
    assert status == f"A2A: serving {url}"
    assert http.get(url + CARD).status_code == 200
    try:
        second.set_language("zh_CN")
        assert second.a2a_status() == f"A2A：正在 {url} 上服务"
    finally:
        second.set_language("en")
    second.close()
    assert refused(http, url)
