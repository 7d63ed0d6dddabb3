"""Desks driven through core only, for the landing, receipt, restore and packing tests
(`tests/core/desk/test_accept.py`, `test_merge.py`, `test_restore.py`, `test_export_passport.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskpack.core.desk import export, landing, review
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.format import ids
from taskpack.core.format.luggage import LuggageSource
from taskpack.core.format.model import Ask, Fact, LocalPassport, PassportState
from taskpack.core.format.reading import open_pack


class Machine:
    """One desk's store and name, driven through core only."""

    def __init__(self, root: Path, name: str, allow: tuple[str, ...] = ()) -> None:
        self.name = name
        self.store = SqliteStore(root / name)
        self.allow = list(allow)
        self.actor = f"{name}-person"

    def new(self, **fields: Any) -> str:
        state = PassportState(
            id=ids.new_id(),
            title=fields.pop("title", "Quarterly report"),
            goal=fields.pop("goal", "Ship the Q3 report"),
            current_state=fields.pop("current_state", "half written"),
            facts=fields.pop("facts", []),
            next_steps=fields.pop("next_steps", ["write part 2"]),
        )
        lp = LocalPassport(passport=state, asks=fields.pop("asks", []), landing_checks=[])
        lp.state, lp.waiting_on = "working", None
        for key, value in fields.items():
            setattr(lp, key, value)
        with self.store.write() as tx:
            tx.insert(lp, event="created")
        return lp.id

    def pack(self, pid: str, out: Path, kind: str = "handoff", **kw: Any) -> export.PackOutcome:
        return export.export_passport(
            self.store, pid, out, kind=kind, machine=self.name, actor=self.actor, **kw
        )

    def land(self, path: Path) -> landing.LandingOutcome:
        with open_pack(path) as opened:
            return landing.land_handoff(self.store, opened, machine=self.name, allow=self.allow)

    def merge(self, path: Path, into: str) -> landing.MergeOutcome:
        with open_pack(path) as opened:
            return landing.merge_receipt(self.store, opened, into, machine=self.name)

    def review(self, path: Path) -> review.LandingReview:
        with open_pack(path) as opened:
            return review.review(self.store, opened, machine=self.name, allow=self.allow)

    def edit(self, pid: str, fn: Any) -> None:
        with self.store.write() as tx:
            lp = tx.get(pid)
            fn(lp)
            tx.save(lp, event="edit")


def _facts() -> list[Fact]:
    return [
        Fact(claim="the build passes", scope="machine", verified=True),
        Fact(claim="the customer wants a PDF", scope="universal", verified=True),
        Fact(claim="the port 8080 is free", verified=True),  # no scope counts as machine
    ]


def _ask(id_: str, what: str) -> Ask:
    return Ask(
        id=id_, to="peer", what=what, why="", accept="a clear answer", status="open", answer=None
    )


def _handoff(
    world: dict[str, Machine], tmp_path: Path, name: str = "h.taskpack"
) -> tuple[str, Path]:
    a = world["A"]
    pid = a.new(facts=_facts(), asks=[_ask("a1", "What is the budget?")])
    a.edit(
        pid,
        lambda lp: setattr(
            lp,
            "checks_to_send",
            [
                {
                    "id": "c1",
                    "check": "this machine can render a PDF",
                    "how": "make pdf && rm -rf ~/tmp",
                    "required": True,
                },
                {"id": "c2", "check": "fonts are installed", "how": "fc-list", "required": False},
            ],
        ),
    )
    luggage = [
        LuggageSource.from_bytes("brief.txt", b"The brief.\n"),
        LuggageSource.from_bytes("../evil name.txt".replace("../", ""), b"\x00\x01binary"),
    ]
    out = a.pack(pid, tmp_path / name, files=luggage, note="Please run the export first.")
    return pid, out.path


def _three_hops(world: dict[str, Machine], tmp_path: Path) -> dict[str, Any]:
    a, b, c = world["A"], world["B"], world["C"]
    a_id = a.new(asks=[_ask("a1", "What is the budget?")])
    h1 = a.pack(a_id, tmp_path / "h1.taskpack").path
    b_id = b.land(h1).id
    b.edit(b_id, lambda lp: setattr(lp, "asks", [*lp.asks, _ask("a2", "Which font?")]))
    b.edit(b_id, lambda lp: setattr(lp, "state", "working"))
    h2 = b.pack(b_id, tmp_path / "h2.taskpack").path
    c_id = c.land(h2).id
    return {"a": a_id, "b": b_id, "c": c_id, "h1": h1, "h2": h2}


def _answer(m: Machine, pid: str, ask_id: str, answer: str) -> None:
    def fn(lp: LocalPassport) -> None:
        for ask in lp.asks or []:
            if ask.id == ask_id:
                ask.answer, ask.status = answer, "answered"

    m.edit(pid, fn)


def _blobs(m: Machine) -> list[Path]:
    return [p for p in (m.store.blob_root / "sha256").rglob("*") if p.is_file()]


def _leftovers(m: Machine) -> list[Path]:
    return [p for p in (m.store.blob_root / "tmp").iterdir()]
