"""How the window paces its reads of a team desk's change feed, on a fake clock: a notice
arms the read, and notices that keep coming (a busy colleague, or a session with no rights
sending NOTIFY without pause) cannot push that read back past its maximum wait."""

from __future__ import annotations

from dataclasses import dataclass, field

from taskpack.ui.window.inbox import HEARD_READ_AFTER_MS, UNREACHABLE_RETRY_MS, InboxPart


@dataclass
class Clock:
    now: int = 0  # ms


@dataclass
class FakeTimer:
    """The part of QTimer the window uses for its reads, on a fake clock."""

    clock: Clock
    interval: int = HEARD_READ_AFTER_MS
    due: int | None = None
    fired: list[int] = field(default_factory=list)

    def isActive(self) -> bool:  # Qt's name
        return self.due is not None

    def remainingTime(self) -> int:  # Qt's name
        return -1 if self.due is None else max(0, self.due - self.clock.now)

    def start(self, ms: int | None = None) -> None:
        self.due = self.clock.now + (self.interval if ms is None else ms)

    def tick(self) -> None:
        if self.due is not None and self.due <= self.clock.now:
            self.due = None  # single shot: the window reads the store now
            self.fired.append(self.clock.now)


class Window:
    """Just what `_heard_elsewhere` reads of the window."""

    def __init__(self, timer: FakeTimer) -> None:
        self._elsewhere_timer = timer


def storm(every_ms: int, for_ms: int, timer: FakeTimer | None = None) -> FakeTimer:
    """Notices every `every_ms` for `for_ms` of fake time; returns the timer (its reads)."""
    clock = timer.clock if timer is not None else Clock()
    timer = timer or FakeTimer(clock)
    window = Window(timer)
    start = clock.now
    while clock.now < start + for_ms:
        if (clock.now - start) % every_ms == 0:
            InboxPart._heard_elsewhere(window)  # type: ignore[arg-type]
        clock.now += 1
        timer.tick()
    return timer


def test_notices_every_10_ms_for_2_s_are_read_within_the_maximum_wait() -> None:
    timer = storm(10, 2000)
    assert timer.fired, "no read in 2 s of notices: each notice pushed the read back"
    assert timer.fired[0] <= HEARD_READ_AFTER_MS
    gaps = [b - a for a, b in zip([0, *timer.fired], timer.fired, strict=False)]
    assert max(gaps) <= HEARD_READ_AFTER_MS + 10, gaps  # never longer than a wait and a notice


def test_a_burst_is_read_once() -> None:
    timer = storm(1, 20)  # twenty notices within 20 ms
    clock = timer.clock
    while clock.now < 500:
        clock.now += 1
        timer.tick()
    assert timer.fired == [HEARD_READ_AFTER_MS]


def test_a_notice_brings_a_slow_retry_forward() -> None:
    """While the desk was out of reach the window asks again every 2 s; a notice (the feed is
    back) makes it read at once, not at the end of that wait."""
    clock = Clock()
    timer = FakeTimer(clock)
    timer.start(UNREACHABLE_RETRY_MS)
    clock.now = 100
    storm(1000, 1, timer)
    while not timer.fired:
        clock.now += 1
        timer.tick()
    assert timer.fired == [100 + HEARD_READ_AFTER_MS]
