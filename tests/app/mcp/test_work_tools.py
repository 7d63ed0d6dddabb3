"""What an agent can do once work has landed (issue 39 item 7): confirm a landing check,
answer an ask whose id a sender chose by its handle, save the luggage into a folder,
move, finish, return a result, read the history, attach a file; a result within its
budget; packing that says the version now; a receipt that replaces an answer says so;
an unknown tool or a bad prompt argument is the protocol's -32602."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import hostile_zips as hz
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from taskpack.app.desk import Desk
from taskpack.app.mcp.server import build_server


def _flat(tmp_path: Path, name: str, data: dict[str, Any], attachments: Any = ()) -> Path:
    path = tmp_path / f"{name}.taskpack.json"
    path.write_text(json.dumps(hz.flat_doc(list(attachments), passport=data)), encoding="utf-8")
    return path


def _session(tmp_path: Path, body: Any) -> None:
    desk = Desk(tmp_path / "alpha", "alpha", actor="ana")

    async def main() -> None:
        async with Client(build_server(desk)) as c:

            async def call(tool: str, **args: Any) -> dict[str, Any]:
                res = await c.call_tool(tool, args)
                text = "".join(getattr(x, "text", "") for x in res.content)
                assert not res.is_error, (tool, text)
                return res.structured_content  # type: ignore[return-value]

            await body(c, call, desk)

    try:
        anyio.run(main)
    finally:
        desk.close()


def test_a_landing_check_confirmed_here_counts_and_the_briefing_moves_on(tmp_path: Path) -> None:
    pack = _flat(tmp_path, "p", hz.pack_data())  # one required landing check, c1

    async def body(c: Any, call: Any, desk: Desk) -> None:
        pid = (await call("taskpack_land", path=str(pack)))["passport_id"]
        opened = await call("taskpack_open", id=pid)
        assert opened["counts"]["required_checks"] == 1
        assert opened["landing_checks"][0]["ref"] == "c1"
        brief = await c.get_prompt("take_over", {"passport_id": pid})
        assert "Confirm the 1 required landing check(s)" in brief.messages[0].content.text
        done = await call("taskpack_confirm_check", id=pid, check="c1")
        assert "0 required check(s) left" in json.dumps(done) or done["check_id"] == "c1"
        # before: only the window could; add_facts left required_checks at 1
        opened = await call("taskpack_open", id=pid)
        assert opened["counts"]["required_checks"] == 0
        assert opened["landing_checks"][0]["checked_here"] is True
        assert any(f["standing_kind"] == "proven_here" for f in opened["facts"])
        brief = await c.get_prompt("take_over", {"passport_id": pid})
        assert "required landing check" not in brief.messages[0].content.text
        wrong = await c.call_tool("taskpack_confirm_check", {"id": pid, "check": "c9"})
        assert wrong.is_error and "Name it by its `ref`" in wrong.content[0].text

    _session(tmp_path, body)


def test_an_ask_whose_id_is_not_plain_is_answered_by_its_handle(tmp_path: Path) -> None:
    data = hz.pack_data()
    data["asks"] = [
        {"id": "问题1", "what": "Which region?", "accept": "a region code", "status": "open"},
        {"id": "which one? ", "what": "Which file?", "accept": "a file name", "status": "open"},
    ]
    pack = _flat(tmp_path, "p", data)

    async def body(c: Any, call: Any, desk: Desk) -> None:
        pid = (await call("taskpack_land", path=str(pack)))["passport_id"]
        asks = (await call("taskpack_open", id=pid))["asks"]
        refs = [a["ref"] for a in asks]
        assert all(r.startswith("#") and len(r) == 13 for r in refs) and refs[0] != refs[1]
        assert [a["id"] for a in asks] == ["(withheld: not a plain id or name)"] * 2
        brief = await c.get_prompt("take_over", {"passport_id": pid})
        assert f"open ask(s) {refs[0]}, {refs[1]}" in brief.messages[0].content.text
        # before: withheld, with no way to name them
        await call("taskpack_answer", id=pid, ask_id=refs[1], answer="report.pdf")
        asks = (await call("taskpack_open", id=pid))["asks"]
        assert [a["status"] for a in asks] == ["open", "answered"]
        assert (desk.get(pid).asks or [])[1].answer == "report.pdf"
        packed = await call(
            "taskpack_pack", id=pid, out=str(tmp_path / "r.taskpack"), kind="receipt"
        )
        assert packed["asks_sent"] and set(packed["asks_sent"]) <= set(refs)

    _session(tmp_path, body)


def test_luggage_is_saved_inside_the_folder_and_nothing_is_overwritten(tmp_path: Path) -> None:
    files = [
        hz.attachment("notes.txt", b"notes"),
        hz.attachment("docs/plan.md", b"# plan"),
        hz.attachment("keep.txt", b"theirs"),
    ]
    pack = _flat(tmp_path, "p", hz.pack_data(), files)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_bytes(b"mine")

    async def body(c: Any, call: Any, desk: Desk) -> None:
        pid = (await call("taskpack_land", path=str(pack)))["passport_id"]
        saved = await call("taskpack_save_luggage", id=pid, folder=str(out))
        assert sorted(s["sender_wrote"]["name"] for s in saved["saved"]) == [
            "docs/plan.md",
            "notes.txt",
        ]
        assert [s["sender_wrote"]["name"] for s in saved["skipped"]] == ["keep.txt"]
        assert (out / "docs" / "plan.md").read_bytes() == b"# plan"
        assert (out / "keep.txt").read_bytes() == b"mine"  # never overwritten
        again = await call("taskpack_save_luggage", id=pid, folder=str(out))
        assert again["saved"] == [] and len(again["skipped"]) == 3
        missing = await c.call_tool("taskpack_save_luggage", {"id": pid, "folder": str(out / "no")})
        assert missing.is_error and not (out / "no").exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["alpha", "out", "p.taskpack.json"]

    _session(tmp_path, body)


def test_move_finish_result_history_and_attach(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_text("build ok\n")

    async def body(c: Any, call: Any, desk: Desk) -> None:
        pid = (await call("taskpack_new", title="Q3", goal="ship"))["id"]
        attached = await call("taskpack_attach", id=pid, files=[str(tmp_path / "log.txt")])
        assert attached["changed"] == ["luggage"]
        result = await call(
            "taskpack_result",
            id=pid,
            summary="shipped",
            evidence=[{"kind": "test_output", "summary": "all green"}],
        )
        assert result["state"] == "verifying"
        done = await call("taskpack_move", id=pid, state="completed", why="checked")
        assert done["state"] == "completed"
        refused = await c.call_tool("taskpack_move", {"id": pid, "state": "working"})
        assert refused.is_error
        history = await call("taskpack_history", id=pid, limit=2)
        assert history["total"] >= 4 and len(history["entries"]) == 2
        assert history["next_offset"] == 2
        rest = await call("taskpack_history", id=pid, offset=2)
        events = [e["event"] for e in history["entries"] + rest["entries"]]
        assert events[0] == "created" and "result" in events and events[-1] == "moved"
        opened = await call("taskpack_open", id=pid)
        assert [x["sender_wrote"]["name"] for x in opened["luggage"]] == ["log.txt"]

    _session(tmp_path, body)


def test_a_list_with_a_huge_title_stays_within_budget_and_pages(tmp_path: Path) -> None:
    packs = []
    for n in range(4):
        data = hz.pack_data()
        data["passport"]["title"] = f"{n} " + "x" * (2 << 20)
        data["passport"]["id"] = f"TP-G6RZ-DS3{n + 2}"
        data["lineage"] = {"root_id": data["passport"]["id"], "from_version": 1}
        packs.append(_flat(tmp_path, f"big{n}", data))

    async def body(c: Any, call: Any, desk: Desk) -> None:
        for p in packs:
            await call("taskpack_land", path=str(p))
        res = await c.call_tool("taskpack_list", {"limit": 3})
        text = "".join(getattr(x, "text", "") for x in res.content)
        size = len(text) + len(json.dumps(res.structured_content))
        assert size < 100_000, size  # before: 4.2 MB (~25k tokens is ~100k characters)
        listed = res.structured_content
        assert listed["total"] == 4 and listed["next_offset"] == len(listed["passports"])
        assert "more characters not shown" in listed["passports"][0]["sender_wrote"]["title"]
        rest = await call("taskpack_list", offset=listed["next_offset"])
        assert len(listed["passports"]) + len(rest["passports"]) == 4
        brief = await c.get_prompt("take_over", {"passport_id": listed["passports"][0]["id"]})
        assert len(brief.messages[0].content.text) < 100_000

    _session(tmp_path, body)


def test_packing_says_the_version_now_and_a_second_receipt_says_what_it_replaced(
    tmp_path: Path,
) -> None:
    async def body(c: Any, call: Any, desk: Desk) -> None:
        pid = (await call("taskpack_new", title="Q3", goal="ship"))["id"]
        await call("taskpack_ask", id=pid, what="Budget?", accept="a number in EUR")
        sent = tmp_path / "out.taskpack.json"
        res = await c.call_tool("taskpack_pack", {"id": pid, "out": str(sent)})
        packed = res.structured_content
        said = res.content[0].text
        assert f"{pid} is now at version {desk.get(pid).version} (pass that" in said
        now = desk.get(pid).version
        # before: `version` was the one packed, and a checkpoint with it was refused
        assert packed["current_version"] == now
        await call("taskpack_checkpoint", id=pid, expected_version=now, current_state="sent")
        replies = []
        for n, answer in enumerate(("12,000", "15,000")):
            doc = json.loads(sent.read_text(encoding="utf-8"))
            doc["passport"]["kind"] = "receipt"
            doc["passport"]["asks"] = [{"id": "a1", "status": "answered", "answer": answer}]
            path = tmp_path / f"reply{n}.taskpack.json"
            path.write_text(json.dumps(doc), encoding="utf-8")
            replies.append(path)
        first = await call("taskpack_land", path=str(replies[0]), into=pid)
        assert first["replaced"] == []
        second = await c.call_tool("taskpack_land", {"path": str(replies[1]), "into": pid})
        assert second.structured_content["replaced"] == ["a1"]
        assert "REPLACED the earlier answer(s) to a1" in second.content[0].text
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert tools["taskpack_land"].annotations.destructive_hint is True

    _session(tmp_path, body)


def test_an_unknown_tool_and_a_bad_prompt_argument_are_invalid_params(tmp_path: Path) -> None:
    async def body(c: Any, call: Any, desk: Desk) -> None:
        with pytest.raises(MCPError) as err:
            await c.call_tool("taskpack_nothing", {})
        assert err.value.code == -32602 and "Unknown tool" in err.value.message
        for args in ({}, {"passport_id": "nonsense"}, {"passport_id": "TP-AAAA-AAAA", "x": "1"}):
            with pytest.raises(MCPError) as err:
                await c.get_prompt("take_over", args)
            assert err.value.code == -32602, args
        with pytest.raises(MCPError) as err:
            await c.get_prompt("no_such_prompt", {})
        assert err.value.code == -32602

    _session(tmp_path, body)
