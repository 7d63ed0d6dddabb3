"""The ✓ belongs to the machine that proved it: a sealed fact gets
its ✓ back only where this desk's own records show it proved the fact on this machine
and sealed it when it packed — never on a pack's word, even a pack this desk wrote."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.desk import export, landing, restore
from taskpack.core.desk.sqlite_store import SqliteStore
from taskpack.core.errors import MergeRefused, RestoreRefused, TaskPackError
from taskpack.core.format import ids
from taskpack.core.format.model import Fact, LocalPassport, PassportState
from taskpack.core.format.reading import open_pack
from taskpack.core.trust.sealing import standing


class Desk:
    """One desk's store and machine name, driven through core only."""

    def __init__(self, root: Path, name: str) -> None:
        self.name, self.store = name, SqliteStore(root / name)

    def new(self, facts: list[Fact]) -> str:
        state = PassportState(id=ids.new_id(), title="T", goal="G", facts=facts)
        lp = LocalPassport(passport=state, asks=[], landing_checks=[])
        with self.store.write() as tx:
            tx.insert(lp, event="created")
        return lp.id

    def pack(self, pid: str, out: Path, kind: str = "handoff") -> Path:
        done = export.export_passport(
            self.store, pid, out, kind=kind, machine=self.name, actor=f"{self.name}-person"
        )
        return done.path

    def land(self, path: Path) -> str:
        with open_pack(path) as opened:
            return landing.land_handoff(self.store, opened, machine=self.name, allow=["*"]).id

    def merge(self, path: Path, into: str) -> str:
        with open_pack(path) as opened:
            return landing.merge_receipt(self.store, opened, into, machine=self.name).id


CLAIM = "the disk is encrypted"


def _claimed_for_alpha(beta: Desk, tmp: Path) -> Path:
    """A foreign handoff whose machine fact says it was proven on alpha."""
    pid = beta.new([Fact(claim=CLAIM, scope="machine", verified=True, verified_on="alpha")])
    return beta.pack(pid, tmp / "from-beta.taskpack")


def test_a_fact_sealed_elsewhere_and_packed_again_here_gets_no_check_back(
    tmp_path: Path,
) -> None:
    alpha, beta = Desk(tmp_path, "alpha"), Desk(tmp_path, "beta")
    first = alpha.land(_claimed_for_alpha(beta, tmp_path))
    ok, _ = restore.restore_check(alpha.store, first, 1, machine="alpha")
    assert not ok  # rightly refused: beta wrote that pack
    # an agent on alpha packs that passport; another lands it on alpha
    again = alpha.land(alpha.pack(first, tmp_path / "again.taskpack"))
    ok, reason = restore.restore_check(alpha.store, again, 1, machine="alpha")
    # before: "proven on this machine, in a pack this desk wrote" and a ✓ alpha never earned
    assert not ok and "no record of proving it here" in reason
    with pytest.raises(RestoreRefused):
        restore.restore_fact(alpha.store, again, 1, machine="alpha")
    assert alpha.store.get(again).passport.facts[0].verified is False  # type: ignore[index]


def test_a_fact_proven_here_and_sealed_when_packed_gets_its_check_back(tmp_path: Path) -> None:
    alpha = Desk(tmp_path, "alpha")
    pid = alpha.new([Fact(claim="the build passes", scope="machine", verified=True)])
    mine = alpha.land(alpha.pack(pid, tmp_path / "h.taskpack"))
    ok, reason = restore.restore_check(alpha.store, mine, 1, machine="alpha")
    assert ok and "proved it on this machine and sealed it when it packed" in reason
    lp, _ = restore.restore_fact(alpha.store, mine, 1, machine="alpha")
    assert lp.passport.facts[0].verified is True  # type: ignore[index]
    # packed again from the restored ✓, it is sealed here again, so it comes back again
    twice = alpha.land(alpha.pack(mine, tmp_path / "h2.taskpack"))
    assert restore.restore_check(alpha.store, twice, 1, machine="alpha")[0]


# --- no sequence of land / pack / merge / restore makes a ✓ no local check made -----------

_CLAIMS = ["c1", "c2", "c3"]
_OP = st.one_of(
    st.tuples(st.just("verify"), st.sampled_from(_CLAIMS)),  # a local fact --verified
    st.tuples(st.just("foreign"), st.sampled_from(_CLAIMS)),  # beta claims it for alpha
    st.tuples(st.just("pack"), st.integers(0, 9), st.sampled_from(["handoff", "receipt"])),
    st.tuples(st.just("land"), st.integers(0, 9)),
    st.tuples(st.just("merge"), st.integers(0, 9), st.integers(0, 9)),
    st.tuples(st.just("restore"), st.integers(0, 9), st.integers(1, 3)),
)


#: what the desk may refuse, by operation, and why: anything else it refuses is a failure
#: (a desk that refused everything would otherwise pass every sequence, proving nothing)
_MAY_REFUSE: dict[str, tuple[type[TaskPackError], set[str]]] = {
    "land receipt": (MergeRefused, {"merge_receipt_as_handoff"}),
    "merge handoff": (MergeRefused, {"merge_handoff"}),
    "merge receipt": (MergeRefused, {"merge_nothing_sent", "merge_wrong_target"}),
    "restore": (TaskPackError, {"restore_refused", "not_found"}),
}


def _run(ops: list[tuple[Any, ...]], root: Path) -> list[str]:
    """Run `ops` on alpha (beta writes foreign packs); what each op came to, in order
    (``"land handoff: ok"``, ``"merge handoff: merge_handoff"``, …). A refusal the op may
    not meet raises; so does a handoff that does not land."""
    alpha, beta = Desk(root, "alpha"), Desk(root, "beta")
    proved: set[str] = set()
    passports: list[str] = []
    files: list[tuple[Path, str]] = []  # (file, its kind)
    log: list[str] = []
    for n, op in enumerate(ops):
        pick = lambda seq, i: seq[i % len(seq)] if seq else None  # noqa: E731
        what = op[0]
        try:
            if op[0] == "verify":
                proved.add(op[1])
                passports.append(alpha.new([Fact(claim=op[1], scope="machine", verified=True)]))
            elif op[0] == "foreign":
                fact = Fact(claim=op[1], scope="machine", verified=True, verified_on="alpha")
                files.append((beta.pack(beta.new([fact]), root / f"b{n}.taskpack"), "handoff"))
            elif op[0] == "pack" and passports:
                out = root / f"a{n}.taskpack"
                files.append((alpha.pack(pick(passports, op[1]), out, op[2]), op[2]))
            elif op[0] == "land" and files:
                path, kind = pick(files, op[1])
                what = f"land {kind}"
                passports.append(alpha.land(path))
            elif op[0] == "merge" and files and passports:
                path, kind = pick(files, op[1])
                what = f"merge {kind}"
                alpha.merge(path, pick(passports, op[2]))
            elif op[0] == "restore" and passports:
                restore.restore_fact(alpha.store, pick(passports, op[1]), op[2], machine="alpha")
            else:
                continue
            log.append(f"{what}: ok")
        except TaskPackError as exc:
            kind_allowed, codes = _MAY_REFUSE.get(what, (None, set()))
            if kind_allowed is None or not isinstance(exc, kind_allowed) or exc.code not in codes:
                raise AssertionError(f"{what} refused ({exc.code}: {exc}) in {ops}") from exc
            log.append(f"{what}: {exc.code}")
    for pid in passports:
        for fact in alpha.store.get(pid).passport.facts or []:
            if standing(fact, machine="alpha").kind == "proven_here":
                assert fact.claim in proved, (fact.claim, ops)
    return log


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(_OP, min_size=1, max_size=12))
def test_no_sequence_makes_a_check_that_no_local_verification_made(
    ops: list[tuple[Any, ...]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _run(ops, Path(tmp))  # (a handoff the desk refuses to land fails it, as any
        # refusal the op may not meet does)


def test_the_laundering_sequence_of_the_report_holds() -> None:
    # foreign claim for alpha; land; pack it here; land that; try to restore; and the same
    # through a receipt packed from the landing and merged home
    ops: list[tuple[Any, ...]] = [
        ("foreign", "c1"),
        ("land", 0),
        ("pack", 0, "handoff"),
        ("land", 1),
        ("restore", 1, 1),
        ("pack", 0, "receipt"),
        ("merge", 2, 0),
        ("restore", 0, 1),
        ("land", 2),
        ("restore", 2, 1),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        log = _run(ops, Path(tmp))
    assert log == [
        "foreign: ok",
        "land handoff: ok",  # beta's claim lands (sealed)
        "pack: ok",
        "land handoff: ok",  # alpha's own pack of it lands again
        "restore: restore_refused",  # and the ✓ is not given back
        "pack: ok",
        "merge receipt: ok",  # the receipt packed from the landing merges home
        "restore: restore_refused",
        "land receipt: merge_receipt_as_handoff",
        "restore: restore_refused",
    ]
