"""The window's part of the outbox ledger and the ask lint: who a pack is for is typed in
the Export menu, the pack is recorded as sent via the window and shown in History; a vague
accept is warned about next to the ask."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, Prompts, settle
from pytestqt.qtbot import QtBot


def test_export_records_who_it_is_for_and_history_shows_it(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    pv = window.passport.view
    assert pv.export_to.isVisible() is False  # it lives in the Export menu
    qtbot.keyClicks(pv.export_to, "bob@laptop")
    prompts.save_to = tmp_path / "small.taskpack"
    pv.export_actions[("handoff", "save_bag")].trigger()
    settle(qtbot, window)
    assert prompts.save_to.is_file()
    [entry] = desk.outbox(passport_id=pid)
    assert (entry.to, entry.via, entry.encoding) == ("bob@laptop", "window", "bag")
    pv.tabs.setCurrentWidget(pv.history)
    rows = [pv.history.topLevelItem(i).text(3) for i in range(pv.history.topLevelItemCount())]
    assert (
        "handoff for bob@laptop written to small.taskpack (a .taskpack file, from this window)"
        in rows
    )


def test_a_pack_from_another_front_end_is_in_history_too(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    desk.pack(pid, tmp_path / "x.taskpack.json", to="an agent", via="mcp")
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    pv = window.passport.view
    rows = [pv.history.topLevelItem(i).text(3) for i in range(pv.history.topLevelItemCount())]
    assert (
        "handoff for an agent written to x.taskpack.json (a .taskpack.json file, by an AI "
        "agent over MCP)" in rows
    )


def test_a_vague_accept_is_warned_about_next_to_the_ask(
    qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    desk.add_ask(pid, "Budget?", "ok")
    desk.add_ask(pid, "Port?", "the port number the API listens on")
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    cards = window.passport.view.asks.cards
    warned = {ask_id: getattr(card, "accept_warning", None) for ask_id, card in cards.items()}
    assert warned["a2"] is None
    assert warned["a1"] is not None and "too short or vague" in warned["a1"].text()
    assert window.passport.view.asks.isAncestorOf(warned["a1"])


def test_an_agents_change_from_another_process_shows_in_the_open_window(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    """The agent's MCP server is another process on the same store: the window, left
    alone (not re-activated), shows what the agent made and what it changed."""
    import os
    import sys

    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    desk = make_desk(RECEIVER)
    pid = desk.new("Mine", "Answer one question").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)

    async def agent() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "taskpack.app.cli.main", "mcp"],
            env={
                "TASKPACK_HOME": str(desk.home),
                "TASKPACK_MACHINE": RECEIVER,
                "PYTHONPYCACHEPREFIX": os.path.join(str(tmp_path), "pycache"),
            },
        )
        with open(tmp_path / "mcp.stderr", "w") as err:
            async with stdio_client(params, errlog=err) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                made = await s.call_tool(
                    "taskpack_new", {"title": "Made by the agent", "goal": "G"}
                )
                assert not made.is_error
                done = await s.call_tool(
                    "taskpack_checkpoint",
                    {"id": pid, "expected_version": 1, "current_state": "the agent was here"},
                )
                assert not done.is_error

    anyio.run(agent)
    proxy = window.inbox.proxy
    titles = lambda: {proxy.index(r, 0).data() for r in range(proxy.rowCount())}  # noqa: E731
    qtbot.waitUntil(lambda: "Made by the agent" in titles(), timeout=20_000)
    qtbot.waitUntil(
        lambda: "the agent was here" in window.passport.view.overview_text(), timeout=20_000
    )


def test_history_says_who_and_shows_a_cut_detail_whole_on_hover(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    pid = desk.new("Small task", "Answer one question").id
    desk.pack(pid, tmp_path / "x.taskpack.json", to="an agent", via="mcp")
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    history = window.passport.view.history
    header = history.headerItem()
    assert [header.text(c) for c in range(header.columnCount())] == [
        "When",
        "What happened",
        "Version",
        "Details",
        "Who",
    ]
    rows = [history.topLevelItem(i) for i in range(history.topLevelItemCount())]
    # one person's desk: its person on its machine (who is person and machine)
    assert {row.text(4) for row in rows} == {"someone on zhang-pc"}
    [written] = [row for row in rows if "written to x.taskpack.json" in row.text(3)]
    assert written.toolTip(3).startswith(written.text(3))
    assert written.toolTip(3).endswith(str((tmp_path / "x.taskpack.json").resolve()))
