"""The passport's journey in its Overview: who handed it to whom,
when, and which hop is this desk, as a chain of labelled nodes a person can select and a
screen reader names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import settle
from pytestqt.qtbot import QtBot
from test_large_passport import open_passport


def test_a_two_hop_passport_shows_each_desk_and_this_one(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    alpha = make_desk("alpha", "root")
    first = alpha.new("Fix the invoice export", "Invoices open in Excel").id
    to_beta, to_gamma = tmp_path / "to-beta.taskpack", tmp_path / "to-gamma.taskpack"
    alpha.pack(first, to_beta)
    beta = make_desk("beta", "Zhang")
    second = beta.land(to_beta).id
    beta.pack(second, to_gamma, to="Li on gamma")
    gamma = make_desk("gamma-pc", "Li")
    gamma.land(to_gamma)
    window = make_window(gamma)
    window.resize(800, 600)
    open_passport(qtbot, window, "Fix the invoice export")
    journey = window.passport.view.journey
    assert journey is not None and journey.isVisible()
    a, b, here = journey.node_texts()
    assert a == f"an earlier desk\n{first} v1"  # the format keeps only its passport id
    assert re.fullmatch(r"Zhang on beta\nhanded on \d\d-\d\d \d\d:\d\d", b)
    assert re.fullmatch(r"this desk \(gamma-pc\)\nlanded \d\d-\d\d \d\d:\d\d", here)
    names = [n.accessibleName() for n in journey.nodes]
    assert names[1].startswith("Hop 2 of 3: Zhang on beta, handed on ")
    assert re.search(rf", passport {second} v\d+$", names[1])
    assert re.fullmatch(
        r"Hop 3 of 3: this desk \(gamma-pc\), landed .*, passport TP-\S+ v\d+", names[2]
    )
    assert [n.toolTip() for n in journey.nodes] == names
    assert all(n.textInteractionFlags() for n in journey.nodes)  # the words can be selected
    here_node = journey.nodes[2]
    assert here_node.property("here") is True  # this desk's node is the one marked
    # the chain reads left to right, on screen, oldest first
    xs = [n.mapTo(window, n.rect().topLeft()) for n in journey.nodes]
    assert sorted(xs, key=lambda p: (p.y(), p.x())) == xs

    # on the desk that handed it on, the chain goes on past this desk: to whom, when
    window.shutdown()
    window = make_window(beta)
    open_passport(qtbot, window, "Fix the invoice export")
    settle(qtbot, window)
    texts = window.passport.view.journey.node_texts()
    assert [t.split("\n")[0] for t in texts] == [
        "root on alpha",
        "this desk (beta)",
        "to Li on gamma",
    ]
    assert texts[2].startswith("to Li on gamma\nhandoff sent ")


def test_a_passport_made_here_and_never_sent_has_no_chain(
    qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    desk = make_desk("alpha", "root")
    desk.new("Q3 report charts", "Charts for the board")
    window = make_window(desk)
    open_passport(qtbot, window, "Q3 report charts")
    assert window.passport.view.journey is None
    assert "Its journey" not in window.passport.view.overview_text()


def test_on_the_desk_that_asked_the_answers_coming_home_are_a_hop(
    tmp_path: Path, qtbot: QtBot, make_desk: Any, make_window: Any
) -> None:
    from conftest import make_handoff

    alpha = make_desk("alpha", "Wei")
    pid = make_handoff(alpha, tmp_path / "to-beta.taskpack")
    beta = make_desk("beta", "Zhang")
    there = beta.land(tmp_path / "to-beta.taskpack").id
    beta.answer(there, "a1", "Fiona, fiona@example.com")
    beta.pack(there, tmp_path / "receipt.taskpack", kind="receipt")
    alpha.merge_receipt(tmp_path / "receipt.taskpack", pid)
    window = make_window(alpha)
    window.select_key(pid)
    settle(qtbot, window)
    journey = window.passport.view.journey
    assert journey is not None
    texts = journey.node_texts()
    assert texts[-2].startswith("to someone\nhandoff sent ")  # it went out …
    assert re.fullmatch(r"answers came home\nanswers merged \d\d-\d\d \d\d:\d\d", texts[-1])
    assert re.search(rf", passport {there} v\d+$", journey.nodes[-1].accessibleName())


def test_a_handoff_whose_email_did_not_open_is_not_drawn_as_sent(
    qtbot: QtBot, make_desk: Any, make_window: Any, prompts: Any, monkeypatch: Any
) -> None:
    from taskpack.ui import launch

    monkeypatch.setattr(launch, "email_attached", lambda *a: launch.EmailResult("failed", 3))
    desk = make_desk("beta", "Zhang")
    pid = desk.new("Fix the invoice export", "Invoices open in Excel").id
    window = make_window(desk)
    window.select_key(pid)
    settle(qtbot, window)
    window.passport.view.export_actions[("handoff", "email")].trigger()
    settle(qtbot, window)
    assert window.banner.text().startswith("No email was opened")
    qtbot.waitUntil(lambda: window.passport.view.journey is not None)
    last = window.passport.view.journey.node_texts()[-1]
    assert "sent" not in last.replace("not sent", "")
    assert last.endswith("not sent: no email opened")
    assert any("No email was opened" in e for e in window.passport.view.history_events()) or any(
        "No email was opened" in window.passport.view.history.topLevelItem(i).text(3)
        for i in range(window.passport.view.history.topLevelItemCount())
    )


def test_on_a_team_desk_another_machines_landing_is_not_this_desks(
    tmp_path: Path, make_desk: Any
) -> None:
    from conftest import make_handoff
    from taskpack.ui.journey import hops

    make_handoff(make_desk("gamma", "Li"), tmp_path / "h.taskpack")
    alpha = make_desk("alpha", "Wei")
    lp = alpha.get(alpha.land(tmp_path / "h.taskpack").id)
    # seen from beta, another machine of the same team desk; History says alpha landed it
    here = hops(lp, "beta", landed_by="Wei@alpha")[-1]
    assert here.here and here.who == "Wei@alpha, on this team desk"
    assert here.what.startswith("landed ")
    assert hops(lp, "alpha", landed_by="Wei@alpha")[-1].who == "this desk (alpha)"
    assert hops(lp, "beta")[-1].who == "this desk (beta)"  # (an embedded desk: no who)
