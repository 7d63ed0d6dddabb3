"""The passport browser: a real item model, its filters, and the first run."""

from __future__ import annotations

from pathlib import Path

from conftest import RECEIVER, SENDER, Prompts, make_handoff, settle
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot
from taskpack.ui.main_window import sample_packs
from taskpack.ui.models import InboxModel, Incoming
from taskpack.ui.ops import PassportRow


def visible_titles(window) -> list[str]:
    proxy = window.inbox.proxy
    return sorted(proxy.index(r, 0).data() for r in range(proxy.rowCount()))


def test_models_pass_qt_model_tester(qtmodeltester: ModelTester) -> None:
    model = InboxModel()
    model.set_passports(
        [
            PassportRow(
                "TP-AAAA-2222", "Alpha", "working", None, "", 0, "2026-08-16T03:00:00Z", "here"
            ),
            PassportRow(
                "TP-BBBB-2222",
                "Beta",
                "waiting",
                "human",
                "wei@wei-laptop",
                2,
                "2026-08-16T04:00:00Z",
                "handoff",
            ),
        ]
    )
    model.add_incoming(
        Incoming(
            Path("/tmp/x.taskpack"), "Gamma", "handoff", "li@li-desktop", 1, "2026-08-16T05:00:00Z"
        )
    )
    qtmodeltester.check(model)
    from taskpack.ui.models import InboxFilter

    proxy = InboxFilter()
    proxy.setSourceModel(model)
    proxy.set_filters(open_asks_only=True)
    qtmodeltester.check(proxy)
    assert proxy.rowCount() == 2


def test_search_and_filters(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    desk = make_desk(RECEIVER)
    own = desk.new("Quarterly report", "Send it").id
    desk.add_ask(own, "Which quarter?", "Q1 to Q4")
    desk.new("Tidy the wiki", "Less noise")
    pack = tmp_path / "in.taskpack"
    make_handoff(make_desk(SENDER, "Wei"), pack, title="Invoice export")
    window = make_window(desk)
    window.open_files([pack])
    settle(qtbot, window)
    assert visible_titles(window) == [
        "Invoice export",
        "Quarterly report",
        "Tidy the wiki",
    ]

    window.inbox.search.setText("REPORT")
    assert visible_titles(window) == ["Quarterly report"]
    window.inbox.search.clear()

    window.inbox.incoming_box.setChecked(True)
    assert visible_titles(window) == ["Invoice export"]
    window.inbox.incoming_box.setChecked(False)

    window.inbox.asks_box.setChecked(True)  # the incoming pack has 2 open asks, the report 1
    assert visible_titles(window) == ["Invoice export", "Quarterly report"]
    window.inbox.asks_box.setChecked(False)

    window.inbox.state_box.setCurrentIndex(window.inbox.state_box.findData("working"))
    assert visible_titles(window) == ["Quarterly report", "Tidy the wiki"]
    window.inbox.state_box.setCurrentIndex(0)

    senders = [window.inbox.sender_box.itemData(i) for i in range(window.inbox.sender_box.count())]
    assert senders == ["", "Wei@wei-laptop"]
    window.inbox.sender_box.setCurrentIndex(1)
    assert visible_titles(window) == ["Invoice export"]
    window.inbox.clear_filters()

    # landing moves the pack from "incoming" to a passport with a sender and a state
    window.incoming.view.land_button.click()
    settle(qtbot, window)
    window.inbox.state_box.setCurrentIndex(
        window.inbox.state_box.findData("waiting[owner_approval]")
    )
    assert visible_titles(window) == ["Invoice export"]


def test_first_run_offers_the_sample_packs(qtbot: QtBot, make_desk, make_window) -> None:
    assert [p.name for p in sample_packs()] == [
        "invoice-export.taskpack",
        "translation-review.taskpack.json",
        "invoice-export-receipt.taskpack.json",
    ]
    window = make_window(make_desk(RECEIVER))
    assert window.stack.currentWidget() is window.welcome
    assert window.welcome.samples_note.isVisible() and window.welcome.samples_button.isVisible()
    window.welcome.samples_button.click()
    settle(qtbot, window)
    assert len(window.inbox.model.incoming()) == 3
    shown = window.incoming.view.reviewed
    assert (
        shown is not None
        and shown.review.title == "Fix the invoice CSV export for the Hangzhou office"
    )
    assert shown.review.written_here is False
    assert window.desk.passports() == []  # offered, not landed
    assert not window.welcome.samples_note.isVisible()  # the desk is no longer empty


def test_open_dialog_and_command_line_paths(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window, prompts: Prompts
) -> None:
    pack = tmp_path / "a.taskpack"
    make_handoff(make_desk(SENDER), pack)
    window = make_window(make_desk(RECEIVER))
    prompts.open_paths = [pack]
    window.open_action.trigger()
    settle(qtbot, window)
    assert [r.path for r in window.inbox.model.incoming()] == [pack.resolve()]
    window.open_files([tmp_path / "missing.taskpack"])
    assert "is not a file" in window.banner.text()


def test_changes_made_elsewhere_appear_on_refresh(
    tmp_path: Path, qtbot: QtBot, make_desk, make_window
) -> None:
    desk = make_desk(RECEIVER)
    window = make_window(desk)
    from taskpack.app.desk import Desk

    with Desk(desk.home, RECEIVER) as cli:  # e.g. an agent using `taskpack` on the same store
        cli.new("Made by the agent", "A goal")
    window.inbox.refresh()
    window.inbox.refresh()  # asked again while the first read runs: read once more, not lost
    settle(qtbot, window)
    assert visible_titles(window) == ["Made by the agent"]


def test_sample_packs_are_conformant_and_reproducible(tmp_path: Path) -> None:
    import importlib.util

    from taskpack.core.trust.conformance import judge

    shipped = sample_packs()
    for pack in shipped:
        assert judge(pack).conformant, pack.name
    script = shipped[0].parent / "make_samples.py"
    spec = importlib.util.spec_from_file_location("make_samples", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.make(tmp_path)
    assert sorted(p.name for p in made) == sorted(p.name for p in shipped)
    for pack in made:
        assert pack.read_bytes() == (shipped[0].parent / pack.name).read_bytes(), pack.name
