"""The Windows lane's list (tests/windows_lane.py) stays whole: every test file runs under
Windows' Python or is left out with a reason, and every name in it exists."""

from __future__ import annotations

from pathlib import Path

import windows_lane

ROOT = Path(__file__).resolve().parent.parent


def _covers(prefix: str, rel: str) -> bool:
    return rel == prefix or rel.startswith(prefix.rstrip("/") + "/")


def test_every_test_file_is_in_the_lane_or_left_out_with_a_reason() -> None:
    unplaced = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "node_modules" in rel:
            continue
        if not windows_lane.in_lane(rel, folder=False) and not any(
            _covers(p, rel) for p in windows_lane.NOT_IN_LANE
        ):
            unplaced.append(rel)
    assert unplaced == []


def test_every_name_in_the_lists_exists_and_every_reason_is_a_sentence() -> None:
    for name in [*windows_lane.LANE, *windows_lane.NOT_IN_LANE]:
        assert (ROOT / name).exists(), name
    for start, reason in [*windows_lane.NOT_IN_LANE.items(), *windows_lane.LINUX_ONLY.items()]:
        assert len(reason.split()) >= 4, start
    for start in windows_lane.LINUX_ONLY:
        assert (ROOT / start.split("::")[0]).is_file(), start
    lane_only = [p for p in windows_lane.LANE if p in windows_lane.NOT_IN_LANE]
    assert lane_only == []
