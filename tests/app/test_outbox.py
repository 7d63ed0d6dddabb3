"""`taskpack outbox` and `pack --to`: real `taskpack` processes, as an agent or person runs them."""

from __future__ import annotations

from pathlib import Path

from test_passports import Taskpack


def test_the_outbox_lists_each_pack_with_where_it_went(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "laptop-ana")
    pid = tp.json("new", "--title", "Q3 report", "--goal", "Ship it")["passport"]["id"]
    tp("ask", pid, "--what", "What is the budget?", "--accept", "ok")
    packed = tp("pack", pid, "--out", str(tmp_path / "q3.taskpack"), "--to", "bob@desk")
    assert "too vague to judge an answer against" in packed.stderr  # warned, still packed
    tp("pack", pid, "--out", str(tmp_path / "q3.taskpack.json"))
    rows = tp.json("outbox")
    assert [r["encoding"] for r in rows] == ["flat", "bag"]  # newest first
    first = rows[1]
    assert first["to"] == "bob@desk" and first["via"] == "cli" and first["kind"] == "handoff"
    assert first["path"] == str((tmp_path / "q3.taskpack").resolve())
    assert first["stub"]["title"] == "Q3 report" and first["stub"]["asks"][0]["id"] == "a1"
    text = tp("outbox").stdout
    assert "#1  " in text and "to bob@desk  via cli" in text and "q3.taskpack.json" in text
    shown = tp("outbox", "--show", str(first["seq"])).stdout
    assert "Title: Q3 report" in shown and "Ask a1 [open] What is the budget?" in shown
    assert tp.json("outbox", "--passport", pid) == rows


def test_an_empty_outbox_and_a_wrong_number_say_so(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "laptop-ana")
    assert "The outbox is empty" in tp("outbox").stdout
    bad = tp("outbox", "--show", "7", code=1)
    assert bad.stderr.strip().count("\n") == 0 and "no entry 7" in bad.stderr
    unknown = tp("outbox", "--passport", "TP-2222-2222", code=1)
    assert "TP-2222-2222" in unknown.stderr and "Traceback" not in unknown.stderr


def test_a_pack_to_a_hostile_name_is_shown_escaped(tmp_path: Path) -> None:
    tp = Taskpack(tmp_path / "home", "laptop-ana")
    pid = tp.json("new", "--title", "T", "--goal", "G")["passport"]["id"]
    tp("pack", pid, "--out", str(tmp_path / "t.taskpack"), "--to", "bob\x1b[2Jmallory")
    assert "bob\\u001b[2Jmallory" in tp("outbox").stdout


def test_a_receipt_the_a2a_endpoint_packs_is_in_the_ledger(tmp_path: Path) -> None:
    from taskpack.app.a2a.ledger import A2AStore
    from taskpack.app.a2a.receipts import ReceiptPublisher
    from taskpack.app.desk import Desk

    with (
        Desk(tmp_path / "a", machine="alpha", actor="ana") as a,
        Desk(tmp_path / "b", machine="beta", actor="bo") as b,
    ):
        pid = a.new("Q3", "Ship it").id
        a.add_ask(pid, "Budget?", "a number in euros")
        a.pack(pid, tmp_path / "h.taskpack", via="cli")
        landed = b.land(tmp_path / "h.taskpack").id
        b.answer(landed, "a1", "12,000 EUR")
        with A2AStore(b.home) as store:
            assert ReceiptPublisher(b, store).ensure(landed)
        [entry] = b.outbox(passport_id=landed)
        assert (entry.kind, entry.via, entry.to) == ("receipt", "a2a", "ana@alpha (over A2A)")
        assert entry.path and Path(entry.path).is_file()
